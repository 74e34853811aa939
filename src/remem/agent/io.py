"""What the REPL reads from and writes to: the `IO` protocol, and `BufferIO`, scripted
input with captured output for tests and one-shot runs. The terminal implementation
(`ConsoleIO`, with prompt_toolkit and rich) lives in `remem.agent.console`."""

from __future__ import annotations

from typing import Protocol

__all__ = ["IO", "BufferIO"]


class IO(Protocol):
    """`write` streams a piece of the answer (markdown); `end` says the answer is
    complete; `line` prints one whole line (`style`: "", "dim", "tool", "error");
    `wait` shows a spinner until the next output."""

    @property
    def width(self) -> int: ...  # columns to fit lines into

    def read(self, prompt: str) -> str: ...  # raises EOFError / KeyboardInterrupt

    def write(self, text: str) -> None: ...

    def end(self) -> None: ...

    def line(self, text: str = "", style: str = "") -> None: ...

    def wait(self, label: str) -> None: ...

    # strict: only a person at a terminal answers (not --yes, not piped input)
    def confirm(self, question: str, *, strict: bool = False) -> bool: ...


class BufferIO:
    """Scripted input and captured output, for tests and one-shot runs ("^C" in the
    inputs is a Ctrl+C at the prompt)."""

    def __init__(
        self, inputs: list[str] | None = None, *, approve: bool = False, terminal: bool = False
    ) -> None:
        self.inputs = list(inputs or [])
        self.terminal = terminal  # a person answers strict questions (with `approve`)
        self.parts: list[str] = []
        self.width = 100
        self.approve = approve
        self.questions: list[str] = []
        self.spinners: list[str] = []
        self.styled: list[tuple[str, str]] = []  # (style, line) of every styled line
        self._open = False  # the last write left a line unfinished

    def read(self, prompt: str) -> str:
        self.end()
        if not self.inputs:
            raise EOFError
        value = self.inputs.pop(0)
        if value == "^C":
            raise KeyboardInterrupt
        return value

    def write(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self._open = not text.endswith("\n")

    def end(self) -> None:
        if self._open:
            self.parts.append("\n")
            self._open = False

    def line(self, text: str = "", style: str = "") -> None:
        self.end()
        self.parts.append(text + "\n")
        if style:
            self.styled.append((style, text))

    def wait(self, label: str) -> None:
        self.end()
        self.spinners.append(label)

    def confirm(self, question: str, *, strict: bool = False) -> bool:
        self.end()
        self.questions.append(question)
        return self.approve and (self.terminal or not strict)

    @property
    def output(self) -> str:
        return "".join(self.parts)
