"""The session ledger: append-only JSONL, exact resume, crashes, listing and lookup.

Crash tests run a real child process that appends and then kills itself with SIGKILL.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remem.context.ledger import (
    SessionLedger,
    read_events,
    read_ledger,
    resume,
    sessions_dir,
)
from remem.context.private import redacted
from remem.context.sessions import list_sessions, load
from remem.errors import AmbiguousId, InvalidInput, NotFound, RememError
from remem.messages import messages_tokens

Message = dict[str, Any]
SYSTEM: Message = {"role": "system", "content": "You are remem's test agent."}


def dumps(messages: list[Message]) -> str:
    return json.dumps(messages, ensure_ascii=False)


def call(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    arguments = json.dumps(args, ensure_ascii=False)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def turn(i: int) -> list[Message]:
    """One agent turn: a user message, a tool call, its result, an answer."""
    return [
        {"role": "user", "content": f"第 {i} 轮:读取 README 并总结"},
        {"role": "assistant", "content": None, "tool_calls": [call(f"c{i}", "read_file", {})]},
        {"role": "tool", "tool_call_id": f"c{i}", "content": f"# README {i}\n项目使用 JDK 17"},
        {"role": "assistant", "content": f"总结 {i}: 项目使用 JDK 17 和 Maven。"},
    ]


# -- writing and resuming ----------------------------------------------------------------
def test_resume_is_last_checkpoint_plus_later_messages(tmp_path: Path) -> None:
    view: list[Message] = [SYSTEM]
    with SessionLedger(tmp_path, metadata={"project": "demo", "model": "m"}) as ledger:
        for i in range(3):
            for m in turn(i):
                ledger.message(m)
                view.append(m)
            ledger.checkpoint(view, "turn")
        view = [SYSTEM, {"role": "user", "content": "[摘要] 前三轮读取了 README"}]
        ledger.checkpoint(view, "compaction", level=3)
        ledger.event("compaction", level=3, saved_tokens=1200)
        skill = {"role": "user", "content": "[skill] review", "remem_internal": "skill", "x": [1]}
        for m in [skill, *turn(3)]:
            ledger.message(m)
            view.append(m)
        path = ledger.path
    assert dumps(resume(path)) == dumps(view)
    assert dumps(resume(ledger.id, tmp_path)) == dumps(view)
    assert dumps(load(ledger.id[:17], tmp_path).messages) == dumps(view)


def test_file_layout_and_events(tmp_path: Path) -> None:
    ledger = SessionLedger(tmp_path, metadata={"project": "demo", "model": "qwen"})
    assert re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{6}", ledger.id)
    assert ledger.path == tmp_path / ".remem" / "sessions" / f"{ledger.id}.jsonl"
    assert (tmp_path / ".remem" / "sessions" / ".gitignore").read_text() == "*\n"
    assert not (tmp_path / ".remem" / ".gitignore").exists()  # project skills may be committed
    ledger.message({"role": "user", "content": "hi"})
    ledger.checkpoint([{"role": "user", "content": "hi"}])
    ledger.close()
    events = read_events(ledger.path)
    types = [e["type"] for e in events]
    assert types == ["session_start", "message", "view_checkpoint", "session_end"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4]
    assert all(e["v"] == 1 and e["at"].endswith("Z") for e in events)
    assert events[0]["project"] == "demo" and events[0]["model"] == "qwen"
    assert events[2]["source"] == "turn"
    assert events[2]["tokens"] == messages_tokens([{"role": "user", "content": "hi"}])
    assert list(events[2])[-1] == "messages"  # the short fields stay readable at the front


def test_existing_gitignore_is_kept(tmp_path: Path) -> None:
    (tmp_path / ".remem" / "sessions").mkdir(parents=True)
    (tmp_path / ".remem" / "sessions" / ".gitignore").write_text("spill/\n")
    SessionLedger(tmp_path).close()
    assert (tmp_path / ".remem" / "sessions" / ".gitignore").read_text() == "spill/\n"


def test_chinese_is_stored_readable(tmp_path: Path) -> None:
    text = "项目使用 JDK 17 和 Maven,不要用 Gradle 😀"
    with SessionLedger(tmp_path) as ledger:
        ledger.message({"role": "user", "content": text})
    raw = ledger.path.read_bytes().decode("utf-8")
    assert text in raw
    assert resume(ledger.path)[0]["content"] == text


def test_lone_surrogate_round_trips(tmp_path: Path) -> None:
    message = {"role": "tool", "tool_call_id": "c", "content": "bad \ud800 half, 中文"}
    with SessionLedger(tmp_path) as ledger:
        ledger.message(message)
    assert resume(ledger.path) == [message]


def test_file_is_only_appended(tmp_path: Path) -> None:
    ledger = SessionLedger(tmp_path, fsync=False)
    inode = ledger.path.stat().st_ino
    before = ledger.path.read_bytes()
    view: list[Message] = []
    for i in range(4):
        for m in turn(i):
            ledger.message(m)
            view.append(m)
            now = ledger.path.read_bytes()
            assert len(now) > len(before) and now.startswith(before)
            before = now
        view = view[-2:]  # a compaction drops messages: still only appended
        ledger.checkpoint(view, "compaction")
        now = ledger.path.read_bytes()
        assert now.startswith(before)
        before = now
    ledger.close()
    assert ledger.path.read_bytes().startswith(before)
    assert ledger.path.stat().st_ino == inode


def test_close_is_idempotent_and_final(tmp_path: Path) -> None:
    ledger = SessionLedger(tmp_path)
    ledger.close()
    ledger.close()
    assert ledger.closed
    assert [e["type"] for e in read_events(ledger.path)].count("session_end") == 1
    with pytest.raises(RememError):
        ledger.message({"role": "user", "content": "late"})
    with pytest.raises(ZeroDivisionError), SessionLedger(tmp_path) as failing:
        raise ZeroDivisionError
    assert read_events(failing.path)[-1]["reason"] == "error: ZeroDivisionError"


def test_bad_input_writes_nothing(tmp_path: Path) -> None:
    ledger = SessionLedger(tmp_path)
    size = ledger.path.stat().st_size
    with pytest.raises(InvalidInput):
        ledger.message({"content": "no role"})
    with pytest.raises(InvalidInput):
        ledger.message({"role": "user", "content": {1, 2}})
    with pytest.raises(InvalidInput):
        ledger.event("x", seq=99)
    with pytest.raises(InvalidInput):
        ledger.append("made_up")
    with pytest.raises(InvalidInput):
        SessionLedger(tmp_path, "../escape")
    assert ledger.path.stat().st_size == size


# -- damaged files -----------------------------------------------------------------------
def test_partial_last_line_is_skipped_and_reported(tmp_path: Path) -> None:
    view = [SYSTEM, *turn(0)]
    with SessionLedger(tmp_path) as ledger:
        ledger.checkpoint(view)
    full = json.dumps({"v": 1, "seq": 9, "at": "x", "type": "message", "message": turn(1)[0]})
    with open(ledger.path, "ab") as f:
        f.write(full.encode()[: len(full) // 2])
    contents = read_ledger(ledger.path)
    assert contents.partial_tail and len(contents.skipped) == 1
    assert dumps(resume(ledger.path)) == dumps(view)

    # Reopening ends the half line before appending, so nothing new is glued to it.
    with SessionLedger(tmp_path, ledger.id) as again:
        again.message(turn(1)[0])
    contents = read_ledger(ledger.path)
    assert not contents.partial_tail and len(contents.skipped) == 1
    assert dumps(resume(ledger.path)) == dumps([*view, turn(1)[0]])
    seqs = [e["seq"] for e in contents.events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


CHILD = textwrap.dedent(
    """
    import json, os, signal, sys
    from pathlib import Path
    from remem.context.ledger import SessionLedger

    root, kill_at, torn = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "torn"
    expected = root / "expected.json"

    def acknowledge(view):
        tmp = expected.with_suffix(".tmp")
        tmp.write_text(json.dumps(view, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, expected)

    ledger = SessionLedger(root, "crash-session", metadata={"model": "child"})
    (root / "id").write_text(ledger.id)
    view = [{"role": "system", "content": "系统提示"}]
    ledger.checkpoint(view, "start")
    acknowledge(view)
    appends = 0
    for i in range(1000):
        for m in [
            {"role": "user", "content": f"第 {i} 轮"},
            {"role": "assistant", "content": f"答复 {i}:好的"},
        ]:
            ledger.message(m)
            view.append(m)
            acknowledge(view)
            appends += 1
            if appends == kill_at:
                if torn:
                    fd = os.open(ledger.path, os.O_WRONLY | os.O_APPEND)
                    os.write(fd, b'{"v":1,"seq":999,"at":"2026","type":"message","mess')
                os.kill(os.getpid(), signal.SIGKILL)
        if i % 3 == 2:
            view = [view[0], {"role": "user", "content": f"[摘要] 到第 {i} 轮为止"}]
            ledger.checkpoint(view, "compaction")
            acknowledge(view)
    """
)


@pytest.mark.parametrize(
    ("kill_at", "torn"),
    [(1, "clean"), (7, "clean"), (10, "clean"), (10, "torn"), (13, "torn")],
)
@pytest.mark.slow
def test_sigkill_resumes_last_acknowledged_view(tmp_path: Path, kill_at: int, torn: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path), str(kill_at), torn],
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    expected = json.loads((tmp_path / "expected.json").read_text(encoding="utf-8"))
    assert len(expected) >= 2
    assert dumps(resume("crash-session", tmp_path)) == dumps(expected)
    assert read_ledger(sessions_dir(tmp_path) / "crash-session.jsonl").partial_tail is (
        torn == "torn"
    )
    info = load("crash", tmp_path).info
    assert not info.ended and info.metadata["model"] == "child"


# -- listing and lookup ------------------------------------------------------------------
def test_list_sessions_newest_first_with_titles(tmp_path: Path) -> None:
    long_text = "请把这个项目从 Maven 迁移到 Gradle,并保持测试通过。" * 3
    with SessionLedger(tmp_path, "20260101-000000-aaaaaa") as first:
        first.message({"role": "user", "content": "[skill]", "remem_internal": "skill"})
        first.message({"role": "user", "content": "  fix   the\nbuild  "})
        first.checkpoint([SYSTEM, {"role": "user", "content": "fix the build"}], tokens=42)
    with SessionLedger(tmp_path, "20260101-000001-bbbbbb") as second:
        second.message({"role": "user", "content": long_text})
    with SessionLedger(tmp_path, "20260101-000002-cccccc") as third:
        third.message({"role": "assistant", "content": "no user yet"})
    assert [s.id for s in list_sessions(tmp_path)] == [third.id, second.id, first.id]

    with SessionLedger(tmp_path, first.id) as again:  # activity moves it to the top
        again.message({"role": "user", "content": "more"})
    sessions = list_sessions(tmp_path)
    assert [s.id for s in sessions] == [first.id, third.id, second.id]
    by_id = {s.id: s for s in sessions}
    assert by_id[first.id].title == "fix the build"
    assert by_id[first.id].messages == 3 and by_id[first.id].checkpoints == 1
    assert by_id[first.id].last_checkpoint_tokens == 42
    assert by_id[second.id].title == long_text[:59] + "…"
    assert by_id[second.id].last_checkpoint_tokens is None
    assert by_id[third.id].title == "" and by_id[third.id].ended
    assert by_id[first.id].started_at < by_id[first.id].updated_at


def test_title_from_checkpoint_of_a_resumed_view(tmp_path: Path) -> None:
    with SessionLedger(tmp_path) as ledger:
        ledger.checkpoint([SYSTEM, {"role": "user", "content": "继续昨天的迁移"}], "resume")
    assert list_sessions(tmp_path)[0].title == "继续昨天的迁移"


def test_list_sessions_without_folder(tmp_path: Path) -> None:
    assert list_sessions(tmp_path) == []


def test_load_resolves_prefixes(tmp_path: Path) -> None:
    for sid in ("20260101-000000-aaaaaa", "20260101-000000-aaaabb", "20260202-000000-cccccc"):
        SessionLedger(tmp_path, sid).close()
    assert load("20260202", tmp_path).info.id == "20260202-000000-cccccc"
    assert load("20260101-000000-aaaaaa", tmp_path).info.id == "20260101-000000-aaaaaa"
    with pytest.raises(AmbiguousId, match="matches 2 sessions"):
        load("20260101-000000-aaaa", tmp_path)
    with pytest.raises(NotFound):
        load("2030", tmp_path)
    with pytest.raises(InvalidInput):
        load("", tmp_path)
    with pytest.raises(InvalidInput):
        load("*", tmp_path)
    with pytest.raises(NotFound):
        resume(tmp_path / "nope.jsonl")


# -- property ----------------------------------------------------------------------------
TEXT = st.text(st.characters(codec="utf-8"), max_size=30) | st.sampled_from(
    ["项目使用 JDK 17", "", "\n", '{"seq": 1}', "line\nbreak\u2028"]
)
MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "system"]), "content": TEXT},
    optional={"remem_internal": st.sampled_from(["skill", "guard"]), "tool_call_id": TEXT},
)
OP = st.one_of(
    st.tuples(st.just("message"), MESSAGE),
    st.tuples(st.just("checkpoint"), st.lists(MESSAGE, max_size=4)),
    st.tuples(st.just("compact"), st.integers(0, 5)),
    st.tuples(st.just("event"), TEXT),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(OP, max_size=25))
def test_any_append_sequence_resumes_to_the_view(ops: list[tuple[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        view: list[Message] = []
        with SessionLedger(Path(tmp), fsync=False) as ledger:
            for kind, value in ops:
                if kind == "message":
                    ledger.message(value)
                    view.append(value)
                elif kind == "checkpoint":
                    view = list(value)
                    ledger.checkpoint(view, tokens=len(view))
                elif kind == "compact":
                    view = view[value:]
                    ledger.checkpoint(view, "compaction")
                else:
                    ledger.event("note", text=value)
        # the view as written: a random text of a password's shape ("00000A&a") is redacted
        assert dumps(resume(ledger.path)) == dumps(redacted(view, {}))
        assert read_ledger(ledger.path).skipped == []
