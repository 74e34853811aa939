"""The package layout keeps its promises: imports flow one way between the parts of
remem (each package's `__init__` says what it may import), there are no import
cycles between modules, and the old public module paths still work."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "remem"

# What each part may import besides itself. `core` is the flat top level that
# everything uses; `memory` is the facade (memory.py, exchange.py, partition.py).
CORE = {
    "boundaries", "entry", "errors", "files", "glossary", "install", "messages", "numbers",
    "secrets", "secrets_prose", "settings",
    "text", "tokens",
}  # fmt: skip
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "store": {"core"},
    "llm": {"core"},
    "truth": {"core", "store"},
    "retrieval": {"core", "store", "truth"},
    "memory": {"core", "store", "retrieval", "truth"},
    "context": {"core", "llm"},
    "extract": {"core", "store", "retrieval", "truth", "memory", "llm"},
    "agent": {"core", "store", "retrieval", "truth", "memory", "llm", "context", "extract"},
    "bench": {"core", "store", "retrieval", "truth", "memory"},
    "servers": {"core", "store", "retrieval", "truth", "memory", "extract", "context", "agent"}
    | {"hooks"},  # the review queue of the web page
    "hooks": {"core", "retrieval", "memory", "extract"},
    "integrations": {"core", "store", "retrieval", "truth", "memory", "llm", "context"},
}
ALLOWED["cli"] = set(ALLOWED) - {"cli"}
ALLOWED["shim"] = {"retrieval"}  # remem/embedding.py: the old path of the embedders
ALLOWED["root"] = set(ALLOWED)  # remem/__init__.py names the facade's public types


def part_of(module: str) -> str:
    """'remem.store.sqlite.store' -> 'store'; top-level modules by what they are."""
    parts = module.split(".")
    if len(parts) == 1:
        return "root"
    name = parts[1]
    if len(parts) > 2 or (SRC / name).is_dir():
        return name
    if name in CORE:
        return "core"
    if name in ("memory", "exchange", "conversation", "partition"):
        # conversation: messages -> save requests for Memory.add_messages; partition: the
        # facade's by-id door
        return "memory"
    if name == "embedding":
        return "shim"
    if name == "__main__":
        return "cli"
    raise AssertionError(f"{module}: a top-level module that belongs to no part")


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """(imported remem module, line) of every import in `path`, function-level ones
    included, `if TYPE_CHECKING:` blocks included too (a type reference is a
    dependency as well)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("remem"):
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("remem"):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                is_module = (SRC.parent / sub.replace(".", "/")).with_suffix(".py").exists() or (
                    SRC.parent / sub.replace(".", "/")
                ).is_dir()
                yield (sub if is_module else base), node.lineno


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        me = module_name(path)
        edges.setdefault(me, set())
        for target, _ in imports(path):
            if target != me:
                edges[me].add(target)
    return edges


def test_every_package_says_what_it_owns_and_may_import() -> None:
    for init in SRC.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, f"{init} needs a docstring saying what it owns"


def test_imports_flow_one_way_between_parts() -> None:
    wrong = []
    for path in sorted(SRC.rglob("*.py")):
        me = module_name(path)
        mine = part_of(me)
        for target, line in imports(path):
            theirs = part_of(target)
            if theirs != mine and target != "remem" and theirs not in ALLOWED[mine]:
                wrong.append(f"{path.relative_to(SRC)}:{line} ({mine}) imports {target} ({theirs})")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles_between_modules() -> None:
    edges = graph()
    # Package __init__ files re-export their own modules; an edge into one of them
    # from inside the package is not a dependency on the package's other modules.
    for module, targets in edges.items():
        edges[module] = {t for t in targets if not module.startswith(t + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize(
    ("module", "names"),
    [
        ("remem.memory", ["Memory", "SaveResult", "History", "Stats"]),
        ("remem.llm", ["ChatModel", "ChatResponse", "LLMError", "LLMSettings",
                       "OpenAIChatModel", "TokenAccount", "ScriptedChatModel"]),
        ("remem.embedding", ["Embedder", "USEEmbedder", "FakeEmbedder", "embedder_from_env"]),
        ("remem.context", ["ContextManager", "ContextStatus"]),
        ("remem.store", ["Store", "Filter", "Visibility", "open_store"]),
    ],
)  # fmt: skip
def test_module_paths_users_may_import_keep_working(module: str, names: list[str]) -> None:
    loaded = importlib.import_module(module)
    for name in names:
        assert getattr(loaded, name) is not None


def test_modules_stay_within_the_size_budget() -> None:
    sizes = {
        str(p.relative_to(SRC)): len(p.read_text(encoding="utf-8").splitlines())
        for p in SRC.rglob("*.py")
    }
    assert max(sizes.values()) <= 540, {k: v for k, v in sizes.items() if v > 500}
