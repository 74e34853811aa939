"""How chat draws text: line breaking (English words whole, CJK kinsoku), markdown with
highlighted code, control characters shown not obeyed, NO_COLOR, plain unwrapped text
when stdout is not a terminal; and what the REPL shows around a turn: the command
approval escaped, tool output shortened with /output for all of it, one dim line of
memories used and remembered, /memory clear asking first, Tab completion, /resume."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from remem import Memory, ScriptedChatModel, TokenAccount
from remem.agent.console import ConsoleIO
from remem.agent.io import BufferIO
from remem.agent.loop import Agent
from remem.agent.manager import MemoryManager
from remem.agent.render import NO_END, NO_START, break_offsets, visible
from remem.agent.repl import Repl
from remem.agent.tools import Toolbox
from remem.context.sessions import list_sessions

COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|9[0-7]|38;[25];)[0-9;]*m")


def pieces(text: str, width: int) -> list[str]:
    cuts = [0, *break_offsets(text, width), len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


def cells(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def test_english_words_stay_whole() -> None:
    text = "The internal configuration needs a restart of every worker process."
    rows = [row.rstrip() for row in pieces(text, 20)]
    assert " ".join(rows).split() == text.split() and all(len(r) <= 20 for r in rows)
    mixed = pieces("使用internal配置文件和configuration选项", 16)
    assert not any(row.endswith(("inter", "config")) for row in mixed)
    assert "internal" in "|".join(mixed) and "configuration" in "|".join(mixed)


def test_no_chinese_line_starts_or_ends_with_punctuation_that_must_stay_attached() -> None:
    rows = pieces("中" * 10 + "。后面（括号）说明，完了。", 20)
    assert rows[0] == "中" * 9 and rows[1].startswith("中。")
    for row in pieces("一二三四五六七八九（十）甲乙丙丁「戊己」庚辛。", 8):
        assert row[0] not in NO_START and row[-1] not in NO_END


@given(st.text(alphabet="中文字，。！？「」（）ab cdefg", max_size=80), st.integers(6, 30))
def test_line_breaking_keeps_every_character_fits_the_width_and_honours_kinsoku(
    text: str, width: int
) -> None:
    rows = pieces(text, width)
    assert "".join(rows) == text  # nothing lost or added
    for i, row in enumerate(rows):
        body = row.rstrip()
        if " " not in body and cells(body) > width:
            continue  # one unbreakable run wider than the line: folded by cells
        assert cells(body) <= width + 2  # kinsoku may keep one glued pair together
        if i and row and row[0] in NO_START:  # only when nothing could come along:
            assert all(ch in NO_START for ch in rows[i - 1][1:].rstrip()), rows


def test_visible_escapes_controls() -> None:
    shown = visible("ls\rrm -rf ~\x1b[2K\u202eok")
    assert shown == "ls\\rrm -rf ~\\x1b[2K\\u202eok"
    assert visible("a\nb\tc", keep="\n\t") == "a\nb\tc"
    assert visible("\x1b[31mred\x1b[0m", strip_ansi=True) == "red"
    assert visible("👨\u200d👩", strict=False) == "👨\u200d👩"


class TTY(io.StringIO):
    """Captured output that says it is a terminal (what rich and ConsoleIO ask)."""

    def isatty(self) -> bool:
        return True


ANSWER = "# Title\n\nSome **bold** text.\n\n```python\ndef f(x):\n    return x * 2\n```\n"


def test_terminal_output_is_markdown_with_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = TTY()
    con = ConsoleIO(out)
    con.console.size = (60, 20)
    for i in range(0, len(ANSWER), 7):
        con.write(ANSWER[i : i + 7])
    con.end()
    text = out.getvalue()
    assert COLOUR.search(text)  # highlighted code
    assert "**bold**" not in text and "```" not in text and "def" in text


def test_no_color_turns_off_every_colour_escape(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("NO_COLOR", "1")
    out = TTY()
    con = ConsoleIO(out)
    con.console.size = (60, 20)
    con.write(ANSWER)
    con.end()
    con.line("status", "dim")
    con.line("error: x", "error")
    assert "def" in out.getvalue() and not COLOUR.search(out.getvalue())


def test_lines_on_a_terminal_show_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    out = TTY()
    con = ConsoleIO(out)
    con.line("memory: a\x1b[2Jb\rc", "dim")
    con.write("answer \x1b]0;title\x07 done")
    con.end()
    text = out.getvalue()
    assert "\\x1b[2J" in text and "\x1b[2J" not in text and "\\r" in text
    assert "\x1b]0;" not in text and "\x07" not in text


def test_no_hard_wrap_when_not_a_terminal() -> None:
    out = io.StringIO()
    con = ConsoleIO(out)
    long = "word " * 60 + "中文" * 60
    con.write(long[:100])
    con.write(long[100:])
    con.end()
    con.line("a status line", "dim")
    assert out.getvalue() == long + "\na status line\n"  # as it came: no wrap, no ANSI


# -- the REPL around a turn ------------------------------------------------------------
@pytest.fixture
def mm(tmp_path: Path) -> Iterator[MemoryManager]:
    root = tmp_path / "proj"
    root.mkdir()
    manager = MemoryManager.open(
        root, memory=Memory(tmp_path / "m.db", project="proj"), account=TokenAccount()
    )
    yield manager
    manager.close()


def repl_with(mm: MemoryManager, replies: list[object], inputs: list[str], **kw: bool) -> Repl:
    model = ScriptedChatModel(replies, account=mm.account)  # type: ignore[arg-type]
    return Repl(mm, BufferIO(inputs, **kw), Agent(mm, model, Toolbox(mm.root, manager=mm)))


def test_approval_shows_control_characters(mm: MemoryManager) -> None:
    sneaky = "rm -rf ~/project\r\x1b[2Kecho harmless"
    call = {"tool_calls": [{"name": "execute_command", "arguments": {"command": sneaky}}]}
    repl = repl_with(mm, [call, "不运行。"], ["清理一下"])
    repl.run()
    question = repl.io.questions[0]  # type: ignore[attr-defined]
    assert "\\r" in question and "\\x1b[2K" in question
    assert "\r" not in question and "\x1b" not in question
    assert "\x1b" not in repl.io.output  # type: ignore[attr-defined]


def test_tool_output_is_shortened_and_output_shows_all(mm: MemoryManager) -> None:
    (mm.root / "big.txt").write_text("".join(f"line {n}\n" for n in range(1, 41)), "utf-8")
    call = {"tool_calls": [{"name": "read_file", "arguments": {"path": "big.txt"}}]}
    repl = repl_with(mm, [call, "读完了。"], ["读一下 big.txt", "/output", "/output 9"])
    repl.run()
    out = repl.io.output  # type: ignore[attr-defined]
    turn = out.split("⏺ 1.")[0]
    assert "⏺ read_file" in turn and "line 1" in turn and "line 40" not in turn
    assert "more lines (/output 1 shows all)" in turn
    assert "line 40" in out and "usage: /output [N]" in out


def test_memory_line_names_used_and_remembered(mm: MemoryManager) -> None:
    mm.memory.save("部署脚本在 scripts/deploy.sh")
    call = {"tool_calls": [{"name": "save_memory", "arguments": {"content": "生产端口是 8443"}}]}
    repl = repl_with(mm, [call, "好的。"], ["部署脚本在哪？记住：生产端口是 8443"])
    repl.run()
    dim = [text for style, text in repl.io.styled if style == "dim"]  # type: ignore[attr-defined]
    line = next(t for t in dim if t.startswith("memory:"))
    assert "used 1: 部署脚本在 scripts/deploy.sh" in line and "remembered: 生产端口是 8443" in line
    assert repl.io.spinners and repl.io.spinners[0].startswith("Thinking")  # type: ignore[attr-defined]


def test_memory_clear_asks_first(mm: MemoryManager) -> None:
    mm.memory.save("项目使用 JDK 17")
    no = Repl(mm, BufferIO(["/memory clear project"], approve=False))
    no.run_one("/memory clear project")
    assert "Nothing deleted" in no.io.output and len(mm.memory.list()) == 1  # type: ignore[attr-defined]
    assert "Delete all 1 project memories" in no.io.questions[0]  # type: ignore[attr-defined]
    yes = Repl(mm, BufferIO(approve=True))
    yes.run_one("/memory clear project")
    assert mm.memory.list() == []


def test_tab_completion_of_commands_and_arguments(mm: MemoryManager) -> None:
    entry = mm.memory.save("项目使用 JDK 17").entry
    repl = Repl(mm, BufferIO())
    assert [w for w, _ in repl.complete("/mem")] == ["/memory"]
    assert "clear" in [w for w, _ in repl.complete("/memory ")]
    assert [w for w, _ in repl.complete("/memory cl")] == ["clear"]
    assert [w for w, _ in repl.complete("/memory clear g")] == ["global"]
    assert (entry.id, "项目使用 JDK 17") in repl.complete(f"/memory delete {entry.id[:3]}")
    assert [w for w, _ in repl.complete("/save --g")] == ["--global"]
    assert repl.complete("hello /mem") == [] and repl.complete("/nope x") == []


def test_resume_in_a_resumed_session_keeps_the_latest_view(
    mm: MemoryManager, tmp_path: Path
) -> None:
    first = repl_with(mm, ["一", "二"], ["第一个问题", "第二个问题"])
    first.run()
    sid = mm.session_id

    def later(inputs: list[str], replies: list[object]) -> Repl:
        manager = MemoryManager.open(mm.root, memory=Memory(tmp_path / "m.db", project="proj"))
        return repl_with(manager, replies, inputs)

    second = later([f"/resume {sid}", "第三个问题", "/resume"], ["三"])
    second.run()
    assert second.manager.session_id == sid  # one conversation, one session id
    assert [m.get("content") for m in second.manager.messages[-2:]] == ["第三个问题", "三"]
    assert "This session goes on" in second.io.output  # type: ignore[attr-defined]
    info = next(i for i in list_sessions(mm.root) if i.id == sid)
    assert info.visible == 7  # system + 3 questions + 3 answers: what `show` lists
    third = later(["/resume"], [])
    third.run()
    assert [m.get("content") for m in third.manager.messages[-2:]] == ["第三个问题", "三"]


def test_secret_refusal_in_chat_names_save_force(mm: MemoryManager) -> None:
    repl = Repl(mm, BufferIO())
    repl.run_one("/save my key is sk-proj-9f8e7d6c5b4a3f2e1d0c9b8a")
    out = repl.io.output  # type: ignore[attr-defined]
    assert "/save --force" in out and "force=True" not in out and mm.memory.list() == []
