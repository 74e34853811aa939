from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remem.context.compaction import (
    CLEARED_PREFIX,
    CompactionConfig,
    clear_old_tool_results,
    compact,
    rebuild,
    split_index,
)
from remem.context.summarizer import (
    SECTIONS,
    ExtractiveSummarizer,
    has_required_structure,
    transcript,
)
from remem.messages import Message, is_real_user, messages_tokens, structure_problems

words = st.sampled_from(
    "项目 使用 JDK 17 Maven 构建 src/main/App.java 错误 NullPointerException 需要 修复 "
    "the build failed at step 3 run pytest -q ok version 2.4.1 path /etc/app.conf".split()
)
texts = st.lists(words, min_size=1, max_size=60).map(" ".join)
big_texts = st.integers(200, 3000).map(lambda n: ("log line with value 42 " * n)[: n * 5])


@st.composite
def histories(draw: Any) -> list[Message]:
    msgs: list[Message] = [{"role": "system", "content": "You are a coding agent."}]
    call = 0
    for _turn in range(draw(st.integers(1, 8))):
        msgs.append({"role": "user", "content": draw(texts)})
        for _step in range(draw(st.integers(0, 3))):
            n = draw(st.integers(1, 3))
            calls = []
            for _ in range(n):
                call += 1
                calls.append(
                    {
                        "id": f"call_{call}",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": json.dumps({"p": call})},
                    }
                )
            msgs.append({"role": "assistant", "content": None, "tool_calls": calls})
            for c in calls:
                body = draw(st.one_of(texts, big_texts))
                msgs.append({"role": "tool", "tool_call_id": c["id"], "content": body})
            if draw(st.booleans()):
                kind = draw(st.sampled_from(["skill", "guard"]))
                msgs.append({"role": "user", "content": f"note {kind}", "remem_internal": kind})
        msgs.append({"role": "assistant", "content": draw(texts)})
    return msgs


def real_users(messages: Sequence[Message]) -> list[Message]:
    return [m for m in messages if is_real_user(m)]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.integers(200, 20_000), st.integers(1, 3), st.booleans())
def test_compaction_of_any_history_keeps_its_structure_last_turns_and_tool_ids(
    history: list[Message], window: int, keep: int, manual: bool
) -> None:
    assert structure_problems(history) == []
    cfg = CompactionConfig(
        window=window, reserve_system=0, reserve_tools=0, reserve_response=0, keep_turns=keep
    )
    before = json.dumps(history)
    out, report = compact(history, ExtractiveSummarizer(), cfg, manual=manual, keep_turns=keep)
    assert json.dumps(history) == before  # the input is never modified
    assert structure_problems(out) == [], out
    assert [m for m in out if m["role"] == "system"] == history[:1]
    # Roles alternate: after the system prompt a user message comes first, and no
    # two assistant messages or two real user messages are adjacent.
    body = out[1:]
    assert body[0]["role"] == "user"
    for a, b in zip(body, body[1:], strict=False):
        assert not (a["role"] == "assistant" and b["role"] == "assistant"), (a, b)
    kept = real_users(history)[-keep:]
    if not report.dropped:
        assert real_users(out)[-len(kept) :] == kept
    else:
        assert real_users(out)[-1] == kept[-1]
    # Tool messages keep their ids; only cleared ones change text.
    ids_out = {m["tool_call_id"]: m for m in out if m["role"] == "tool"}
    for m in history:
        if m["role"] == "tool" and m["tool_call_id"] in ids_out:
            got = ids_out[m["tool_call_id"]]["content"]
            assert got == m["content"] or got.startswith(CLEARED_PREFIX)
    if report.levels:
        assert report.tokens_after <= report.tokens_before
    assert report.tokens_after == messages_tokens(out)


def test_clearing_keeps_recent_short_and_pairs() -> None:
    msgs: list[Message] = [{"role": "user", "content": "go"}]
    for i in range(6):
        call = {"id": f"c{i}", "type": "function", "function": {"name": "grep", "arguments": "{}"}}
        msgs.append({"role": "assistant", "content": None, "tool_calls": [call]})
        body = "x" * (100 if i == 1 else 1000) + (
            f"\nfile: .remem/tool-outputs/s/00{i}.txt" if i == 0 else ""
        )
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "content": body})
    out, cleared = clear_old_tool_results(msgs, keep_recent=3, min_chars=400)
    tools = [m for m in out if m["role"] == "tool"]
    assert cleared == 2  # #0 and #2; #1 is short, #3..#5 are the newest three
    assert tools[0]["content"].startswith(CLEARED_PREFIX) and "grep" in tools[0]["content"]
    assert ".remem/tool-outputs/s/000.txt" in tools[0]["content"]
    assert tools[1]["content"] == "x" * 100
    assert [t["tool_call_id"] for t in tools] == [f"c{i}" for i in range(6)]
    again, n = clear_old_tool_results(out, keep_recent=3, min_chars=400)
    assert n == 0 and again == out


def test_split_skips_internal_user_messages() -> None:
    msgs: list[Message] = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "a"},
        {"role": "user", "content": "second"},
        {"role": "user", "content": "[REMEM_SKILL_INJECTION name=deploy] body"},
        {"role": "user", "content": "[runaway guard] stop repeating"},
        {"role": "assistant", "content": "b"},
    ]
    assert split_index(msgs, 1) == 3
    assert split_index(msgs, 2) == 1 or split_index(msgs, 2) is None
    assert split_index(msgs, 3) is None


def test_rebuild_notes_dropped_skills() -> None:
    msgs: list[Message] = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "first"},
        {"role": "user", "content": "[REMEM_SKILL_INJECTION name=deploy] body"},
        {"role": "assistant", "content": "a"},
        {"role": "user", "content": "second"},
    ]
    out = rebuild(msgs, 4, "## x")
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert "deploy" in out[1]["content"] and out[-1]["content"] == "second"


class BadSummarizer:
    """Scripted summaries: what a misbehaving model might return."""

    uses_llm = True

    def __init__(self, first: str, repaired: str) -> None:
        self.first, self.repaired = first, repaired
        self.repairs = 0

    def summarise(self, transcript: str, *, max_chars: int) -> str:
        return self.first

    def merge(self, parts: Sequence[str], *, max_chars: int) -> str:
        return self.first

    def repair(self, draft: str) -> str:
        self.repairs += 1
        return self.repaired


GOOD = "\n".join(f"## {s}\n- ok" for s in SECTIONS)
MISSING = "\n".join(f"## {s}\n- ok" for s in SECTIONS[:3])
MISORDERED = "\n".join(f"## {s}\n- ok" for s in reversed(SECTIONS))


def long_history(turns: int = 6) -> list[Message]:
    msgs: list[Message] = [{"role": "system", "content": "sys"}]
    for i in range(turns):
        msgs += [
            {"role": "user", "content": f"请修改 src/mod{i}.py 第 {i} 行，使用 JDK 17 " * 20},
            {"role": "assistant", "content": f"已修改 src/mod{i}.py，测试通过 {i} passed " * 20},
        ]
    return msgs


def test_missing_section_is_repaired_once() -> None:
    summ = BadSummarizer(MISSING, GOOD)
    out, report = compact(long_history(), summ, manual=True)
    assert summ.repairs == 1 and report.abandoned is None
    assert "summarise" in report.levels and report.summary_calls == 2
    assert has_required_structure(out[1]["content"].split("\n", 1)[1])


def test_still_wrong_summary_leaves_history_unchanged() -> None:
    history = long_history()
    for bad in (MISSING, MISORDERED):
        summ = BadSummarizer(bad, bad)
        out, report = compact(history, summ, manual=True)
        assert summ.repairs == 1
        assert out == history and report.abandoned and "summarise" not in report.levels


def test_summary_larger_than_history_is_abandoned() -> None:
    history = long_history(turns=3)
    huge = "\n".join(f"## {s}\n" + "- filler\n" * 2000 for s in SECTIONS)
    out, report = compact(history, BadSummarizer(huge, huge), manual=True)
    assert out == history and report.abandoned and "not smaller" in report.abandoned


def test_offline_summary_keeps_numbers_paths_and_decisions() -> None:
    history: list[Message] = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "项目使用 JDK 17，部署脚本在 scripts/deploy.sh，端口 8080。"},
        {"role": "assistant", "content": "好的，我会用 Maven 3.9.6 构建。"},
        {"role": "user", "content": "We decided to use PostgreSQL 16 and keep the timeout at 45s."},
        {"role": "assistant", "content": "Running the tests now."},
        {
            "role": "tool",
            "tool_call_id": "x",
            "content": "ERROR: test_login failed at app/auth.py:88",
        },
    ]
    text = ExtractiveSummarizer().summarise(transcript(history[1:]), max_chars=8000)
    assert has_required_structure(text)
    for needle in (
        "JDK 17",
        "scripts/deploy.sh",
        "8080",
        "PostgreSQL 16",
        "45s",
        "3.9.6",
        "auth.py:88",
    ):
        assert needle in text, needle


def test_later_summaries_carry_earlier_ones_forward() -> None:
    history = long_history(turns=4)
    history[1]["content"] = (
        "请记住：数据库端口是 5433，配置在 config/prod.yaml。\n第二行：超时 45 秒。"
    )
    first, _ = compact(history, ExtractiveSummarizer(), manual=True)
    more = first + [
        msg
        for i in range(4)
        for msg in (
            {"role": "user", "content": f"继续第 {i} 项：修改 lib/x{i}.py " * 10},
            {"role": "assistant", "content": f"已完成 lib/x{i}.py " * 10},
        )
    ]
    second, report = compact(more, ExtractiveSummarizer(), manual=True)
    assert "summarise" in report.levels
    summary = second[1]["content"]
    for needle in ("5433", "config/prod.yaml", "45 秒", "lib/x2.py"):
        assert needle in summary, needle
    assert summary.count("## Current goal") == 1
