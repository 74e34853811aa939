"""Token cost of a long tool-heavy session with and without compaction (SPEC BM1, CP1-CP4).

Replays a scripted coding session (large file reads, command output, facts planted
early) through `ContextManager` under a small window and prints the tokens sent per
model call and in total, with compaction and with the raw full history, the LLM
calls spent on summaries, and which planted facts the model still sees at the end.

Run: .venv/bin/python benchmarks/bench_context.py [--turns 60] [--window 32000] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from remem.context.compaction import CompactionConfig
from remem.context.manager import ContextManager
from remem.context.offload import Offloader
from remem.context.prompt import wrap_tool_result
from remem.context.summarizer import ExtractiveSummarizer, LLMSummarizer
from remem.llm import ChatResponse, Usage
from remem.messages import Message, messages_tokens, text_of, to_wire, tool_result

PLANTED = [
    ("项目使用 JDK 17 和 Maven 3.9.6 构建，不要升级到 JDK 21。", ["JDK 17", "3.9.6"]),
    (
        "部署脚本在 scripts/deploy.sh，生产配置在 config/prod.yaml。",
        ["scripts/deploy.sh", "config/prod.yaml"],
    ),
    ("数据库端口改成 5433，连接池大小 24。", ["5433", "24"]),
    (
        "We decided to use PostgreSQL 16 instead of MySQL, keep the API at v2.3.1.",
        ["PostgreSQL 16", "v2.3.1"],
    ),
    ("请求超时设为 45 秒，重试 3 次，预算 8 万元。", ["45 秒", "8 万元"]),
]


class SummaryModel:
    """Stands in for an LLM: answers summary requests extractively, counting calls."""

    name = "extractive-as-llm"

    def __init__(self) -> None:
        self.calls = 0
        self.inner = ExtractiveSummarizer()

    def complete(
        self, messages: Sequence[Message], *, tools: Any = None, max_tokens: int | None = None,
        on_text: Callable[[str], None] | None = None, purpose: str = "chat",
    ) -> ChatResponse:  # fmt: skip
        self.calls += 1
        body = text_of(messages[-1])
        if "partial summaries" in text_of(messages[0]):
            parts = body.split("--- part ")
            text = self.inner.merge([p.split("---\n", 1)[-1] for p in parts if p], max_chars=8000)
        else:
            text = self.inner.summarise(body, max_chars=8000)
        return ChatResponse(text, [], Usage(len(body) // 4, len(text) // 4), "stop", self.name)


def file_body(rng: random.Random, chars: int, turn: int) -> str:
    lines, size = [], 0
    while size < chars:
        n = rng.randint(1, 10_000)
        line = f"    def handler_{turn}_{n}(self, req): return self.call({n})  # {len(lines)}"
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def command_output(rng: random.Random, chars: int, turn: int) -> str:
    lines = [f"[INFO] Building module-{turn} ({i}/{chars // 60})" for i in range(chars // 60)]
    lines.append(f"[ERROR] Tests run: {40 + turn}, Failures: 1 in OrderServiceTest line {turn * 3}")
    return "\n".join(lines)


def session_steps(
    turns: int, seed: int = 7
) -> list[tuple[str, list[tuple[str, dict[str, Any], str]], str]]:
    """(user text, [(tool, args, output)], final answer) for every turn."""
    rng = random.Random(seed)
    steps = []
    for t in range(turns):
        user = (
            PLANTED[t][0] if t < len(PLANTED) else f"第 {t} 步：修复 OrderService 的第 {t} 个问题"
        )
        calls = [
            (
                "read_file",
                {"path": f"src/main/java/app/Module{t}.java"},
                file_body(rng, rng.choice([6_000, 20_000, 45_000]), t),
            )
        ]
        if t % 2 == 0:
            calls.append(
                (
                    "execute_command",
                    {"command": "mvn -q test"},
                    command_output(rng, rng.choice([3_000, 12_000]), t),
                )
            )
        answer = (
            f"第 {t} 步完成：修改了 Module{t}.java，mvn test 通过 {40 + t} 个用例。"
            + " 说明：调整了异常处理。" * 8
        )
        steps.append((user, calls, answer))
    return steps


def replay(
    ctx: ContextManager, steps: Sequence[Any], raw: list[Message]
) -> tuple[list[int], list[int]]:
    """Feed the session; returns tokens sent per call with compaction and without."""
    sent, full = [], []
    for t, (user, calls, answer) in enumerate(steps):
        ctx.add_user(user)
        raw.append({"role": "user", "content": user})
        for i, (tool, args, output) in enumerate(calls):
            sent.append(messages_tokens(ctx.prepare()))
            full.append(messages_tokens(raw))
            call = {
                "id": f"c{t}_{i}",
                "type": "function",
                "function": {"name": tool, "arguments": json.dumps(args)},
            }
            ctx.add_assistant(None, [call])
            raw.append({"role": "assistant", "content": None, "tool_calls": [call]})
            ctx.add_tool_result(call["id"], tool, output, args=args)
            raw.append(
                tool_result(
                    call["id"], wrap_tool_result(tool, output, call_id=call["id"]), name=tool
                )
            )
        sent.append(messages_tokens(ctx.prepare()))
        full.append(messages_tokens(raw))
        ctx.add_assistant(answer)
        raw.append({"role": "assistant", "content": answer})
    return sent, full


def run(turns: int, window: int, llm: bool) -> dict[str, Any]:
    steps = session_steps(turns)
    model = SummaryModel()
    with tempfile.TemporaryDirectory() as tmp:
        ctx = ContextManager(
            system="You are a coding agent working in a Java project.",
            config=CompactionConfig(window=window),
            summarizer=LLMSummarizer(model) if llm else ExtractiveSummarizer(),
            offloader=Offloader(Path(tmp), "bench"),
        )
        raw: list[Message] = [{"role": "system", "content": ctx.messages[0]["content"]}]
        started = time.perf_counter()
        sent, full = replay(ctx, steps, raw)
        elapsed = time.perf_counter() - started
        seen = json.dumps(to_wire(ctx.messages), ensure_ascii=False)
        # The same session with CP1 offloading only (no clearing, no summaries).
        offload_only = ContextManager(
            system=ctx.messages[0]["content"],
            config=CompactionConfig(window=10**9),
            offloader=Offloader(Path(tmp), "bench-offload-only"),
        )
        offloaded, _ = replay(offload_only, steps, [])
    facts = [f for _, needles in PLANTED for f in needles]
    kept = [f for f in facts if f in seen]
    status = ctx.status()
    return {
        "mode": "LLM summariser (scripted)" if llm else "offline extractive",
        "turns": turns, "window": window, "calls": len(sent),
        "sent_total": sum(sent), "full_total": sum(full),
        "ratio": sum(sent) / sum(full), "sent_max": max(sent), "full_max": max(full),
        "offload_only_total": sum(offloaded), "ratio_vs_offload": sum(sent) / sum(offloaded),
        "sent_p50": int(statistics.median(sent)), "levels": status.levels_fired,
        "summary_llm_calls": model.calls, "facts_kept": len(kept), "facts": len(facts),
        "facts_lost": sorted(set(facts) - set(kept)), "seconds": round(elapsed, 2),
        "over_window_calls": sum(1 for s in sent if s > ctx.config.available),
    }  # fmt: skip


def print_result(r: dict[str, Any]) -> None:
    lost = f" (lost: {', '.join(r['facts_lost'])})" if r["facts_lost"] else ""
    lines = [
        f"\n== {r['mode']}: {r['turns']} turns, window {r['window']} tokens, "
        f"{r['calls']} model calls",
        f"tokens sent in total: {r['sent_total']:,} with compaction vs {r['full_total']:,} "
        f"full history = {r['ratio']:.1%}; vs {r['offload_only_total']:,} with offloading "
        f"alone = {r['ratio_vs_offload']:.1%}",
        f"per call: p50 {r['sent_p50']:,}, max {r['sent_max']:,} (full history max "
        f"{r['full_max']:,}); calls over the window: {r['over_window_calls']}",
        f"levels fired: {r['levels']}; LLM calls spent on summaries: {r['summary_llm_calls']}",
        f"planted facts still visible at the end: {r['facts_kept']}/{r['facts']}{lost}",
        f"replay time: {r['seconds']} s",
    ]
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--window", type=int, default=32_000)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args()
    results = [run(args.turns, args.window, llm) for llm in (False, True)]
    for r in results:
        print_result(r)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
