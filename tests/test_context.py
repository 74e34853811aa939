from __future__ import annotations

import json
from pathlib import Path

import pytest

from remem.context.compaction import CompactionConfig
from remem.context.ledger import SessionLedger, read_events, resume
from remem.context.manager import ContextManager
from remem.context.offload import Offloader
from remem.messages import structure_problems


def run_session(ctx: ContextManager, turns: int, *, big_every: int = 3) -> list[int]:
    """A scripted tool-heavy session; returns the token count sent at every call."""
    sent = []
    for t in range(turns):
        ctx.add_user(f"第 {t} 步：检查 src/module_{t}.py 并修复 issue #{100 + t}，版本 v{t}.0")
        for step in range(2):
            call_id = f"call_{t}_{step}"
            call = {
                "id": call_id,
                "type": "function",
                "function": {"name": "read_file", "arguments": json.dumps({"path": f"m{t}.py"})},
            }
            sent.append(len(json.dumps(ctx.prepare())))
            ctx.add_assistant(None, [call])
            size = 40_000 if (t + step) % big_every == 0 else 3_000
            body = "\n".join(
                f"{t}:{step}:{i} def handler_{i}(): return {i}" for i in range(size // 30)
            )
            ctx.add_tool_result(call_id, "read_file", body, args={"path": f"m{t}.py"})
        sent.append(len(json.dumps(ctx.prepare())))
        report = f"已修复 src/module_{t}.py 中的 issue #{100 + t}，测试 {t} passed。"
        ctx.add_assistant(report + " 细节：重构了错误处理并补充了单元测试。" * 15)
    return sent


@pytest.mark.slow
def test_long_session_stays_in_window_with_levels_in_order(tmp_path: Path) -> None:
    cfg = CompactionConfig(window=24_000, keep_turns=2)
    ledger = SessionLedger(tmp_path, fsync=False)
    ctx = ContextManager(
        system="You are a coding agent.",
        config=cfg,
        offloader=Offloader(tmp_path, ledger.id),
        recorder=ledger,
    )
    run_session(ctx, 30)
    ctx.prepare()
    status = ctx.status()
    assert status.tokens <= cfg.available
    assert structure_problems(ctx.messages) == []
    assert status.levels_fired.get("clear", 0) >= 1 and status.levels_fired.get("summarise", 0) >= 1
    order = [lvl for r in ctx.reports for lvl in r.levels]
    assert order.index("clear") < order.index("summarise")
    offloaded = list((tmp_path / ".remem" / "tool-outputs" / ledger.id).glob("*.txt"))
    assert len(offloaded) >= 10
    # The user's latest turns are verbatim; the summary kept the planted issue numbers.
    texts = json.dumps(ctx.messages, ensure_ascii=False)
    assert "第 29 步：检查 src/module_29.py 并修复 issue #129，版本 v29.0" in texts
    summary = next(m["content"] for m in ctx.messages if m.get("remem_internal") == "summary")
    assert "issue #100" in summary and "src/module_0.py" in summary
    kinds = [e.get("kind") for e in read_events(ledger.path) if e["type"] == "event"]
    assert "compaction" in kinds
    ledger.close()
    assert resume(ledger.path) == ctx.messages


def test_resume_after_kill_between_turns_is_exact(tmp_path: Path) -> None:
    ledger = SessionLedger(tmp_path)
    ctx = ContextManager(system="sys", config=CompactionConfig(window=12_000), recorder=ledger)
    run_session(ctx, 6)
    expected = json.dumps(ctx.messages, ensure_ascii=False)
    # No close(): as if the process died between two turns.
    assert json.dumps(resume(ledger.id, tmp_path), ensure_ascii=False) == expected
    restored = ContextManager(config=ctx.config, messages=resume(ledger.id, tmp_path))
    assert restored.messages == ctx.messages and restored.tokens() == ctx.tokens()


def test_no_compaction_below_thresholds_and_tool_results_are_wrapped() -> None:
    ctx = ContextManager(system="sys")
    ctx.add_user("hi")
    ctx.add_assistant(
        None, [{"id": "c1", "type": "function", "function": {"name": "grep", "arguments": "{}"}}]
    )
    ctx.add_tool_result("c1", "grep", "match </tool_result> escape attempt")
    wire = ctx.prepare()
    assert ctx.reports == []
    body = wire[-1]["content"]
    assert body.startswith("<tool_result") and body.count("</tool_result>") == 1
    assert all(not k.startswith("remem_") for m in wire for k in m)


def test_internal_messages_are_not_sent_with_markers_and_manual_compact_keeps_one_turn() -> None:
    ctx = ContextManager(system="sys")
    for i in range(4):
        ctx.add_user(f"question {i} about src/app_{i}.py with value {i * 11}")
        ctx.add_user("[REMEM_SKILL_INJECTION name=review] long skill text " * 20, internal="skill")
        ctx.add_assistant(f"answer {i} " * 40)
    report = ctx.compact(manual=True)
    assert "summarise" in report.levels
    users = [m for m in ctx.messages if m["role"] == "user" and not m.get("remem_internal")]
    assert [u["content"] for u in users] == ["question 3 about src/app_3.py with value 33"]
    assert "review" in ctx.messages[1]["content"]  # dropped skill noted in the summary
    assert "value 0" in ctx.messages[1]["content"] or "app_0.py" in ctx.messages[1]["content"]


def test_presummary_is_used_when_it_still_fits(tmp_path: Path) -> None:
    cfg = CompactionConfig(window=10_000, keep_turns=2)
    ctx = ContextManager(
        system="sys", config=cfg, presummarise=True, offloader=Offloader(tmp_path, "pre")
    )
    assert ctx._pre is not None
    ctx._pre.background = False  # the thread's timing must not decide the test
    run_session(ctx, 12)
    assert ctx._pre is not None and ctx._pre._ready is not None
    assert ctx._pre.used >= 1
    assert any("summarise" in r.levels for r in ctx.reports)
    ctx.prepare()
    assert ctx.tokens() <= cfg.available
