"""`remem chat` as a person sees it: a real pty (pexpect), the screen kept by a VT100
emulator (pyte), answers from the local OpenAI-protocol server. A 3-line paste is one
message and one request; the spinner is on screen before the first token; a long
English answer wraps at word boundaries and a CJK one never starts a line with 。;
Tab turns /mem into /memory; the exit line names the session; the input history
survives the session; Ctrl+C in the middle of a stream cancels the turn."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem.agent.render import NO_START
from remem.context.ledger import read_events
from remem.context.sessions import list_sessions
from terminal import Terminal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty"),
]

COLS = 60
LONG = (
    "The internal configuration of this service lives in a single file, and every "
    "deployment reads it once at start; changing it needs a restart of the workers."
)
CJK = "中" * 30 + "。后面还有一句话，说完了。"  # a naive wrap would start row 2 with 。


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root


def start(root: Path, server: OpenAIServer, home: Path, **env: str) -> Terminal:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("REMEM_LLM", "OPENAI_"))}
    environ.update(REMEM_LLM_BASE_URL=server.base_url, REMEM_LLM_MODEL="test-model",
                   REMEM_HOME=str(home), TERM="xterm-256color", LANG="C.UTF-8")  # fmt: skip
    environ.pop("NO_COLOR", None)
    environ.update(env)
    term = Terminal([sys.executable, "-m", "remem", "chat"], cwd=root, env=environ, cols=COLS)
    term.wait_until(lambda: any(row.startswith("›") for row in term.lines()), what="the prompt")
    return term


def answer_rows(term: Terminal, after: str, upto: str = "[context ") -> list[str]:
    """The rows between the last row holding `after` and the next one starting `upto`."""
    rows = term.lines()
    first = max(i for i, row in enumerate(rows) if after in row) + 1
    last = next(i for i in range(first, len(rows)) if rows[i].startswith(upto))
    return [row for row in rows[first:last] if row.strip()]


def prompt_after(term: Terminal, marker: str) -> bool:
    rows = term.lines()
    at = max((i for i, row in enumerate(rows) if marker in row), default=len(rows))
    return any(row.startswith("›") for row in rows[at + 1 :])


def statuses(term: Terminal) -> int:
    return sum(row.startswith("[context ") for row in term.lines())


def test_paste_spinner_wrapping_tab_and_exit(
    project: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    sneaky = {"command": "rm -rf ~/x\r\x1b[2Kecho harmless"}
    run = {"tool_calls": [{"name": "execute_command", "arguments": sneaky}]}
    openai_server.script(["PASTE-OK", LONG, CJK, run, "NOT-RUN"])
    openai_server.delay(2.0)  # the first token comes late
    term = start(project, openai_server, _isolated_home)

    term.paste("line one\nline two\nline three")
    term.send("\r")
    term.wait_for("Thinking", timeout=10)  # the spinner, before any token
    assert "PASTE-OK" not in term.text()
    term.wait_until(lambda: statuses(term) == 1, what="the first answer")
    assert "PASTE-OK" in term.text() and "Thinking" not in term.text()
    assert len(openai_server.requests) == 1  # one message, one request
    assert openai_server.requests[0]["messages"][-1]["content"] == "line one\nline two\nline three"

    term.send("wrap please\r")
    term.wait_until(lambda: statuses(term) == 2, what="the long answer")
    rows = answer_rows(term, "› wrap please")
    assert len(rows) >= 3 and all(len(row) <= COLS for row in rows)
    assert " ".join(rows).split() == LONG.split()  # every word whole, none cut at the edge

    term.send("中文\r")
    term.wait_until(lambda: statuses(term) == 3, what="the CJK answer")
    rows = answer_rows(term, "› 中文")
    assert "".join(rows).replace(" ", "") == CJK and len(rows) >= 2
    assert not any(row[0] in NO_START for row in rows)  # no line starts with 。，

    term.send("clean up\r")
    term.wait_for("[y/N]")  # the command as it would run: \r and ESC shown, not obeyed
    asked = next(row for row in term.lines() if "[y/N]" in row or "Run `" in row)
    assert "rm -rf ~/x" in term.text() and "\\r\\x1b[2Kecho harmless" in term.text(), asked
    term.send("n\r")
    term.wait_until(lambda: statuses(term) == 4, what="the answer after the refusal")
    assert "did not approve" in openai_server.requests[4]["messages"][-1]["content"]

    term.send("/mem")
    term.send("\t")
    term.wait_for("› /memory")
    term.send("\r")
    term.wait_for("memories (project")

    term.send("\x04")  # Ctrl+D
    session = list_sessions(project)[0].id
    term.wait_for(f"remem chat --resume {session}")
    assert term.exit_code() == 0
    assert len(openai_server.requests) == 5
    typed = (_isolated_home / "chat-history").read_text(encoding="utf-8")
    assert "+line one\n+line two\n+line three" in typed and "+n\n" not in typed


def test_history_and_ctrl_c_mid_stream(
    project: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    first = start(project, openai_server, _isolated_home)
    first.send("/project\r")
    first.wait_for("session:")
    first.send("\x04")
    assert first.exit_code() == 0

    slow = {"content": "流式回答的第一段。" + "后面还有很多内容，" * 40, "pace": 0.1}
    openai_server.script([slow])
    term = start(project, openai_server, _isolated_home)
    term.send("\x1b[A")  # Up: the last input of the earlier session
    term.wait_for("› /project")
    term.send("\x15")  # Ctrl+U clears the line
    term.send("记住：我们项目统一用 UTF-8 编码\r")
    term.wait_for("流式回答的第一段")  # streaming has begun ...
    time.sleep(0.3)
    term.send("\x03")  # ... Ctrl+C in the middle of it
    term.wait_for("[cancelled")
    term.wait_until(lambda: prompt_after(term, "[cancelled"), what="the prompt again")
    assert statuses(term) == 0
    term.send("/memory list\r")
    term.wait_for("0 memories")  # nothing extracted from the cancelled turn
    term.send("\x03")
    term.wait_for("Ctrl+C again")
    term.send("\x03")
    assert term.exit_code() == 0
    events = read_events(list_sessions(project)[0].path)
    assert events[-1]["type"] == "session_end"
    said = [e["message"] for e in events if e["type"] == "message"]
    assert said[-1]["role"] == "assistant" and "cancelled" in said[-1]["content"]
