"""A program on a real pseudo-terminal (pexpect) whose screen is kept by a VT100
emulator (pyte), so tests can read what a person would see. Like a real terminal it
answers cursor-position requests (prompt_toolkit asks for one before each prompt).

    term = Terminal([sys.executable, "-m", "remem", "chat"], cwd=root, env=env)
    term.wait_for("› ")                       # on screen, within the timeout
    term.send("hello\\r")
    lines = term.lines()                      # the screen, one string per row
"""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pexpect
import pyte

_CPR = re.compile(rb"\x1b\[6n")


def _as_from_a_terminal() -> None:
    """Ctrl+C interrupts, as for a program started from a shell: pytest started in the
    background (`&`) ignores SIGINT, and the ignoring would pass to the child."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        rows: int = 40,
        cols: int = 60,
    ) -> None:
        self.screen = pyte.HistoryScreen(cols, rows, history=2000)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        # the pty's size is the terminal's: a COLUMNS / LINES inherited (pytest-xdist's
        # workers export 80 x 24) would have the program draw for another width
        env = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
        self.child = pexpect.spawn(
            argv[0], list(argv[1:]), cwd=str(cwd), env=env, dimensions=(rows, cols),
            preexec_fn=_as_from_a_terminal,
        )  # fmt: skip

    # -- reading -----------------------------------------------------------------------
    def pump(self, seconds: float = 0.05) -> bool:
        """Read what the program printed for up to `seconds`; False once it exited."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.02)
            except pexpect.TIMEOUT:
                data = b""
            except pexpect.EOF:
                return False
            if data:
                self._feed(data)
            if time.monotonic() >= deadline:
                return True

    def _feed(self, data: bytes) -> None:
        self.raw += data
        parts = _CPR.split(data)
        for i, part in enumerate(parts):
            self.stream.feed(part)
            if i < len(parts) - 1:  # answer where the cursor is, as a terminal does
                y, x = self.screen.cursor.y + 1, self.screen.cursor.x + 1
                self.child.send(f"\x1b[{y};{x}R")

    def lines(self) -> list[str]:
        """Every row: those scrolled off the top, then the screen (trailing spaces cut)."""
        cols = range(self.screen.columns)
        history = ["".join(line[x].data for x in cols) for line in self.screen.history.top]
        return [row.rstrip() for row in [*history, *self.screen.display]]

    def text(self) -> str:
        return "\n".join(self.lines())

    def wait_until(self, check: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline or not self.pump(0.05):
                if check():
                    return
                raise AssertionError(f"not seen: {what}\n--- screen ---\n{self.text()}")

    def wait_for(self, text: str, timeout: float = 20.0) -> None:
        self.wait_until(lambda: text in self.text(), timeout, repr(text))

    # -- writing -----------------------------------------------------------------------
    def send(self, text: str) -> None:
        self.child.send(text.encode("utf-8"))

    def paste(self, text: str) -> None:
        """What a terminal sends for a paste with bracketed paste on: newlines as \\r."""
        self.send("\x1b[200~" + text.replace("\n", "\r") + "\x1b[201~")

    def exit_code(self, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while self.pump(0.05):
            if time.monotonic() > deadline:
                self.child.kill(9)
                raise AssertionError(f"did not exit:\n{self.text()}")
        self.child.close()
        status = self.child.exitstatus
        return status if status is not None else -(self.child.signalstatus or 0)
