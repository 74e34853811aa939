"""The REPL with an injected I/O object and the scripted model: run → run_one →
dispatch, every slash command, the status line, Ctrl+C and EOF, wrapping."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from remem import Memory, ScriptedChatModel, TokenAccount
from remem.agent.loop import Agent
from remem.agent.manager import MemoryManager
from remem.agent.render import break_offsets
from remem.agent.repl import COMMANDS, NO_LLM_HELP, BufferIO, Repl
from remem.agent.tools import Toolbox
from remem.context.ledger import read_events


@pytest.fixture
def mm(tmp_path: Path) -> Iterator[MemoryManager]:
    root = tmp_path / "proj"
    root.mkdir()
    db = tmp_path / "m.db"
    manager = MemoryManager.open(root, memory=Memory(db, project="proj"), account=TokenAccount())
    yield manager
    manager.close()


def stored(mm: MemoryManager) -> list[str]:
    """What the store holds after the REPL closed it."""
    with Memory(mm.memory.settings.db, project="proj") as mem:
        return [e.content for e in mem.list()]


def repl_for(mm: MemoryManager, model: ScriptedChatModel | None, inputs: list[str]) -> Repl:
    if model is not None:
        model.account = mm.account
    agent = Agent(mm, model, Toolbox(mm.root, manager=mm)) if model is not None else None
    return Repl(mm, BufferIO(inputs), agent)


def test_every_ag2_command_is_registered_with_help() -> None:
    wanted = "memory save forget summary compact context clear resume export import project help"
    assert set(wanted.split()) <= set(COMMANDS)
    assert all(c.help and c.usage.startswith("/" + c.name) for c in COMMANDS.values())


def test_memory_commands_work_without_a_model(mm: MemoryManager, tmp_path: Path) -> None:
    out = tmp_path / "export.json"
    repl = repl_for(mm, None, [
        "/save 项目用 JDK 17", "/save 项目用 JDK 21", "/memory replace", "/memory list",
        "/memory search JDK", f"/export {out}", "/forget JDK", "/memory list",
        f"/import {out}", "/project", "/context", "/nope", "hello", "/help",
    ])  # fmt: skip
    assert repl.run() == 0
    text = repl.io.output  # type: ignore[attr-defined]
    assert "Saved" in text and "Conflict: nothing was saved" in text
    assert "Replaced" in text and "Exported 2 memories" in text  # with the old version
    assert "Deleted 1 memories" in text
    assert "Imported 1" in text and "unknown command /nope" in text
    assert NO_LLM_HELP in text and "DeepSeek" in text and "Ollama" in text
    assert "summarise: old turns at" in text and repl.closed and mm.ledger.closed  # type: ignore[union-attr]


def test_turn_streams_and_shows_status(mm: MemoryManager) -> None:
    model = ScriptedChatModel(["你好，我是助手。"])
    repl = repl_for(mm, model, ["你好", "/status"])
    repl.run()
    text = repl.io.output  # type: ignore[attr-defined]
    assert "你好，我是助手。" in text and "[context " in text and "1 calls" in text
    assert "purpose" in text  # the token report


def test_ctrl_c_twice_and_cancel(mm: MemoryManager) -> None:
    repl = repl_for(
        mm, ScriptedChatModel([KeyboardInterrupt()]), ["记住：我们项目统一用 UTF-8", "^C"]
    )
    repl.run()
    text = repl.io.output  # type: ignore[attr-defined]
    assert "[cancelled" in text
    assert stored(mm) == []  # a cancelled turn extracts nothing
    events = read_events(mm.ledger.path)  # type: ignore[union-attr]
    assert events[-1]["type"] == "session_end"


def test_first_ctrl_c_at_the_prompt_warns(mm: MemoryManager) -> None:
    repl = repl_for(mm, None, ["^C", "/project", "^C", "^C"])
    repl.run()
    text = repl.io.output  # type: ignore[attr-defined]
    assert text.count("Ctrl+C again") == 2 and "session:" in text


def test_clear_keeps_long_term_memory(mm: MemoryManager) -> None:
    model = ScriptedChatModel(["好的"])
    repl = repl_for(mm, model, ["记住：我们项目统一用 UTF-8 编码", "/clear", "/summary"])
    repl.run()
    assert "Conversation cleared" in repl.io.output  # type: ignore[attr-defined]
    assert any("UTF-8" in c for c in stored(mm))


def lines_of(text: str, width: int) -> list[str]:
    cuts = [0, *break_offsets(text, width), len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


def test_breaking_counts_cjk_double() -> None:
    assert lines_of("中" * 15, 20) == ["中" * 10, "中" * 5]
    assert lines_of("a" * 25, 20) == ["a" * 20, "a" * 5]  # a word wider than a line folds
