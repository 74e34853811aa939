"""Plan mode against one context: the tokens a scripted 5-task job sends to the model.

The job: five tasks, each reading one large file (about 24,000 characters of build and
test log, just under the offload limit, so the whole output enters the context) and
reporting a short result; task 3 needs task 1's result, task 5 those of 2 and 4.

- plan mode: `/plan` through the REPL (a planner call, then each task in its own unit:
  its requests carry only its own work plus its dependencies' results);
- one context: the same five tasks typed one after another into one conversation (the
  ReAct loop), each reading the same file and giving the same answer.

The model is scripted (no network); every request's input tokens are counted with
remem's tokenizer over exactly what would be sent (messages and tool specs), the way the
OpenAI client counts when a server sends no usage. Tools run for real on temp files.

Run: .venv/bin/python benchmarks/bench_plan.py [--chars 24000] [--window 200000] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from remem import Memory, ScriptedChatModel, TokenAccount
from remem.agent.io import BufferIO
from remem.agent.loop import Agent
from remem.agent.manager import MemoryManager
from remem.agent.repl import Repl
from remem.agent.tools import Toolbox
from remem.context.compaction import CompactionConfig
from remem.llm.model import Usage, estimate_usage

TASKS = [
    ("Read the build log", "Read logs/build.log and report the failing module.", []),
    ("Read the unit test log", "Read logs/unit.log and report failing tests.", []),
    ("Check the failing module", "Read logs/module.log for the module from task 1.", [1]),
    ("Read the lint log", "Read logs/lint.log and count the errors.", []),
    ("Write the summary", "Read logs/summary.log; combine tasks 2 and 4 into a fix list.", [2, 4]),
]
FILES = ["build.log", "unit.log", "module.log", "lint.log", "summary.log"]
ANSWERS = [
    "The build fails in module payments-core (exit code 2, 14 compile errors).",
    "17 of 1,204 unit tests fail, all in tests/payments/test_refund.py.",
    "payments-core fails on RefundService.java:88, a missing import of Money.",
    "flake8 reports 23 errors, 19 of them E501 in src/payments/.",
    "Fix list: import Money in RefundService.java, fix test_refund.py, wrap 19 long lines.",
]


def log_text(seed: int, chars: int) -> str:
    rng = random.Random(seed)
    words = "INFO WARN ERROR compile test module payments refund service money import".split()
    lines: list[str] = []
    while sum(len(x) + 1 for x in lines) < chars:
        n = rng.randint(1, 9999)
        lines.append(f"[{n:05d}] {rng.choice(words)} " + " ".join(rng.choices(words, k=12)))
    return "\n".join(lines)[:chars]


def read(path: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "read_file", "arguments": {"path": path}}]}


def project(base: Path, chars: int) -> Path:
    root = base / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "logs").mkdir()
    for i, name in enumerate(FILES):
        (root / "logs" / name).write_text(log_text(i, chars), encoding="utf-8")
    return root


def manager(root: Path, home: Path, window: int) -> MemoryManager:
    memory = Memory(home / "memory.db", project=root)
    return MemoryManager.open(root, memory=memory, account=TokenAccount(),
                              config=CompactionConfig(window=window))  # fmt: skip


def tokens_per_request(model: ScriptedChatModel) -> list[tuple[int, int]]:
    """(input, output) tokens of every request: input counted over what was sent, output
    over each reply (one list of per-call usages kept by the model's account)."""
    assert isinstance(model.account, Recorder)
    inputs = [estimate_usage(r.messages, r.tools, "", []).prompt_tokens for r in model.requests]
    return list(zip(inputs, model.account.outputs, strict=True))


class Recorder(TokenAccount):
    """A token account that also keeps every call's output tokens, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.outputs: list[int] = []

    def record(self, purpose: str, usage: Usage) -> None:
        super().record(purpose, usage)
        self.outputs.append(usage.completion_tokens)


def plan_mode(base: Path, chars: int, window: int) -> list[tuple[int, int]]:
    root = project(base / "plan", chars)
    mm = manager(root, base / "plan-home", window)
    plan = {"tasks": [{"id": i + 1, "title": t, "description": d, "depends_on": deps}
                      for i, (t, d, deps) in enumerate(TASKS)]}  # fmt: skip
    replies: list[Any] = [json.dumps(plan)]
    for name, answer in zip(FILES, ANSWERS, strict=True):
        replies += [read(f"logs/{name}"), answer]
    model = ScriptedChatModel(replies, account=Recorder())
    repl = Repl(mm, BufferIO(), Agent(mm, model, Toolbox(root, manager=mm)))
    repl.units.auto = True
    outcome = repl.run_one("/plan Find why the payments build fails and list the fixes")
    assert outcome == "ok" and model.remaining == 0, repl.io.output  # type: ignore[attr-defined]
    repl.close()
    return tokens_per_request(model)


def one_context(base: Path, chars: int, window: int) -> list[tuple[int, int]]:
    root = project(base / "react", chars)
    mm = manager(root, base / "react-home", window)
    replies: list[Any] = []
    for name, answer in zip(FILES, ANSWERS, strict=True):
        replies += [read(f"logs/{name}"), answer]
    model = ScriptedChatModel(replies, account=Recorder())
    agent = Agent(mm, model, Toolbox(root, manager=mm))
    repl = Repl(mm, BufferIO(), agent)
    for title, description, _ in TASKS:
        assert repl.run_one(f"{title}: {description}") == "ok"
    repl.close()
    return tokens_per_request(model)


def show(label: str, rows: list[tuple[int, int]]) -> int:
    total, out = sum(p for p, _ in rows), sum(c for _, c in rows)
    print(f"\n{label}: {len(rows)} requests; input {total:,} tokens in all (largest "
          f"request {max(p for p, _ in rows):,}), output {out:,}")  # fmt: skip
    print("  input: " + " ".join(f"{p:>7,}" for p, _ in rows))
    print("  output:" + " ".join(f"{c:>7,}" for _, c in rows))
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chars", type=int, default=24_000, help="characters per log file")
    parser.add_argument("--window", type=int, default=200_000, help="context window, tokens")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        import os

        os.environ["REMEM_HOME"] = str(base / "home")
        os.environ["REMEM_EMBEDDER"] = "none"
        plan = plan_mode(base, args.chars, args.window)
        react = one_context(base, args.chars, args.window)
    print(f"5 tasks, each reading a {args.chars:,}-char log; tokens per request:")
    plan_total = show("plan mode (planner + 5 units)", plan)
    react_total = show("one context (5 turns, ReAct)", react)
    print(f"\none context / plan mode: {react_total / plan_total:.2f}x the input tokens")
    if args.json:
        data = {"chars": args.chars, "window": args.window, "plan": plan, "one_context": react}
        args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
