"""The interactive REPL on a real pseudo-terminal (stdlib `pty`): typing, a streamed
answer from the local OpenAI-protocol server, a slash command, Ctrl+C cancelling an
answer, then Ctrl+C twice to flush and leave."""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem.context.ledger import read_events
from remem.context.sessions import list_sessions

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty"),
]


class Terminal:
    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes `remem chat` on the pty
            # as from a terminal: pytest started in the background (`&`) ignores SIGINT,
            # and the ignoring would pass to the child through exec
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-m", "remem", "chat"], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
        self.seen = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def expect(self, text: str, timeout: float = 20.0, *, start: int = 0) -> int:
        """Wait for `text` at or after `start`; returns where it ends."""
        deadline = time.monotonic() + timeout
        while text not in self.seen[start:]:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} not seen; got:\n{self.seen[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # the child closed the pty
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"{text!r} not seen before exit:\n{self.seen[-2000:]}")
                self.seen += self.decoder.decode(chunk)
        return self.seen.index(text, start) + len(text)

    def send(self, text: str) -> None:
        if text == "\x03":
            time.sleep(0.3)  # a user's pause: readline has set the terminal up by now
        os.write(self.fd, text.encode("utf-8"))

    def wait(self, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with_pid, status = os.waitpid(self.pid, os.WNOHANG)
            if with_pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            try:
                if select.select([self.fd], [], [], 0.05)[0]:
                    self.seen += self.decoder.decode(os.read(self.fd, 4096))
            except OSError:
                time.sleep(0.05)
        os.kill(self.pid, 9)
        raise AssertionError(f"remem chat did not exit:\n{self.seen[-2000:]}")


def test_interactive_session_on_a_pty(
    tmp_path: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REMEM_LLM", "OPENAI_"))}
    env.update(REMEM_LLM_BASE_URL=openai_server.base_url, REMEM_LLM_MODEL="test-model",
               REMEM_HOME=str(_isolated_home), TERM="dumb", LANG="C.UTF-8")  # fmt: skip
    answer = "你好！这是一段流式输出的回答，" * 4 + "完毕。"
    openai_server.script([answer, "这句不会出现"])
    term = Terminal(root, env)
    term.expect("› ")
    term.send("你好\r")
    term.expect("[context ")
    streamed = term.seen.split("你好\r\n", 1)[-1].split("[context ")[0]
    lines = [line.rstrip() for line in streamed.replace("\r", "").split("\n") if line.strip()]
    assert "".join(lines) == answer  # streamed whole ...
    assert len(lines) > 1 and all(len(line) <= 30 for line in lines)  # ... wrapped to 60 columns
    openai_server.delay(30)
    term.send("记住：我们项目统一用 UTF-8 编码\r")
    deadline = time.monotonic() + 60  # a loaded box: the turn saves first (embedder loaded)
    while len(openai_server.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(openai_server.requests) >= 2, term.seen[-2000:]  # else ^C would hit the save
    term.send("\x03")  # Ctrl+C while the answer is pending
    term.expect("[cancelled")
    term.send("/memory list\r")
    at = term.expect("0 memories")  # nothing extracted from the cancelled turn
    term.expect("› ", start=at)
    term.send("\x03")
    term.expect("› ", start=term.expect("Ctrl+C again"))
    term.send("\x03")
    assert term.wait() == 0, term.seen[-3000:]
    events = read_events(list_sessions(root)[0].path)
    assert events[-1]["type"] == "session_end"
    assert sum(e["type"] == "message" for e in events) >= 4
