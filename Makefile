# One task runner for developers and CI. `make demo` and `make test` set up
# everything they need (a .venv with remem and its dev tools) on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The tests on every core (at most 4: a test may start eight processes of its own), each
# worker taking the next test as it frees; PARALLEL= runs them in one process.
PARALLEL ?= -n auto --maxprocesses 4 --dist worksteal

.PHONY: demo test test-fast lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## demo: save memories in one process, recall them in the next (offline, temp store)
demo: $(STAMP)
	@bash scripts/demo.sh

## test: lint, type-check and run the whole test suite, slow tests included (what CI runs)
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q -rs --durations=30 $(PARALLEL)  # the slowest named: CI keeps under 15 minutes

## test-fast: lint, type-check and every test but the slow ones (the loop while you work)
test-fast: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q -m "not slow" $(PARALLEL)

## bench: latency, cold start and memory of the store at 1k/10k/100k entries
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_store.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
