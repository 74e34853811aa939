"""remem's own overhead per `remem chat` turn, and how fast `remem chat` is ready.

Per turn, everything but the model call: retrieval of memories for the system prompt,
prompt assembly, the compaction check, the ledger writes (message events, checkpoint,
fsync at the end of the turn) and the tool-result path, measured through `Agent.run_turn`
with a scripted model whose own time is subtracted. The store holds N memories (default
10,000, filled with `Memory.save(force=True)` in a temporary folder).

Startup: `python -m remem chat` in a child process until its prompt is printed.

Run: .venv/bin/python benchmarks/bench_agent.py [--memories 10000] [--turns 100] [--json OUT]
Targets: turn overhead p50 <= 50 ms at 10k memories; ready for input <= 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from remem import Memory, ScriptedChatModel
from remem.agent.loop import Agent
from remem.agent.manager import MemoryManager
from remem.agent.tools import Toolbox
from remem.llm import ChatResponse
from remem.messages import Message

QUERIES = ["帮我再创建一个 Java 项目", "部署脚本在哪", "which database do we use",
           "Redis 的配置", "run the tests", "用什么 JDK 版本"]  # fmt: skip


def fill(mem: Memory, n: int, rng: random.Random, export: Path) -> None:
    """`Memory.import_` of a generated export (saving 10k one by one takes minutes)."""
    from bench_store import Corpus  # the store benchmark's corpus (this folder)

    entries = [
        {
            "id": f"{rng.getrandbits(48):012x}",
            "content": content,
            "type": kind,
            "scope": "project",
            "project": mem.project,
            "created_at": f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T10:00:00+00:00",
            "source": "user_explicit",
            "confidence": "confirmed",
        }
        for kind, content in Corpus().sentences(n)
    ]
    doc = {"format": "remem-export", "version": 1, "entries": entries, "audit": []}
    export.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    mem.import_(export, force=True)


class TimedModel:
    """A scripted model that records how long it took itself (to subtract)."""

    name = "timed"

    def __init__(self, replies: Sequence[Any]) -> None:
        self.inner = ScriptedChatModel(replies)
        self.spent = 0.0

    def complete(self, messages: Sequence[Message], **kw: Any) -> ChatResponse:
        start = time.perf_counter()
        try:
            return self.inner.complete(messages, **kw)
        finally:
            self.spent += time.perf_counter() - start


def per_turn(root: Path, mem: Memory, turns: int) -> list[float]:
    replies: list[Any] = []
    for n in range(turns):
        replies.append({"tool_calls": [{"name": "search_memory", "arguments": {"query": "JDK"}}]})
        replies.append(f"第 {n} 轮：好的。" + " ok" * 50)
    model = TimedModel(replies)
    mm = MemoryManager.open(root, memory=mem)
    agent = Agent(mm, model, Toolbox(root, manager=mm))  # type: ignore[arg-type]
    out = []
    for n in range(turns):
        before_model = model.spent
        start = time.perf_counter()
        agent.run_turn(QUERIES[n % len(QUERIES)] + f" {n}", extract=False)
        elapsed = time.perf_counter() - start - (model.spent - before_model)
        out.append(elapsed * 1000)
    mm.ledger.close()  # type: ignore[union-attr]
    return out


def startup(root: Path, home: Path, runs: int) -> list[float]:
    env = dict(os.environ, REMEM_HOME=str(home), PYTHONIOENCODING="utf-8",
               REMEM_LLM_BASE_URL="http://127.0.0.1:9/v1", REMEM_LLM_MODEL="none")  # fmt: skip
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "remem", "chat"], cwd=root, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        assert proc.stdout is not None and proc.stdin is not None
        seen = b""
        while "›".encode() not in seen:
            chunk = proc.stdout.read1(4096)
            if not chunk:
                break
            seen += chunk
        times.append(time.perf_counter() - start)
        proc.stdin.close()
        proc.wait(10)
    return times


def stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
        "max": ordered[-1],
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--startups", type=int, default=10)
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument(
        "--embedder", action="store_true", help="keep REMEM_EMBEDDER (default: keyword-only)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root, home = Path(tmp) / "proj", Path(tmp) / "home"
        (root / ".git").mkdir(parents=True)
        os.environ["REMEM_HOME"] = str(home)
        if not args.embedder:
            os.environ["REMEM_EMBEDDER"] = "none"
        mem = Memory(home / "memory.db", project=root)
        export = Path(tmp) / "export.json"
        rng = random.Random(7)
        timed(lambda: fill(mem, args.memories, rng, export), f"filled {args.memories:,}")
        assert len(mem.list()) == args.memories
        turn = stats(per_turn(root, mem, args.turns))
        mem.close()
        ready = stats(startup(root, home, args.startups))
    report = {"memories": args.memories, "turn_ms": turn, "ready_s": ready}
    print(f"turn overhead at {args.memories:,} memories ({args.turns} turns, 2 model calls each):")
    print("  p50 {p50:.1f} ms  p95 {p95:.1f} ms  max {max:.1f} ms".format(**turn))
    print("  target p50 <= 50 ms: " + ("PASS" if turn["p50"] <= 50 else "MISS"))
    print(f"remem chat ready for input ({args.startups} runs):")
    print("  p50 {p50:.3f} s  p95 {p95:.3f} s  max {max:.3f} s".format(**ready))
    print("  target p50 <= 1 s: " + ("PASS" if ready["p50"] <= 1 else "MISS"))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")


def timed(fn: Callable[[], None], label: str) -> None:
    start = time.perf_counter()
    fn()
    print(f"{label} in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
