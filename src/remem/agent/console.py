"""The terminal side of `remem chat`: `ConsoleIO` reads with prompt_toolkit (history
across sessions, a multi-line paste as one message, Tab completion, Alt+Enter or a
trailing backslash for a new line) and writes with rich (streamed markdown, a spinner
until the first token, dim status lines). When stdout is not a terminal it writes the
plain text as it comes, unwrapped; when stdin is not one it reads lines with input().
rich and prompt_toolkit are imported here only, so only chat pays for them."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from remem.agent.render import BreakText, MarkdownStream, visible

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completion
    from prompt_toolkit.document import Document
    from rich.status import Status

__all__ = ["ConsoleIO"]

Completer = Callable[[str], list[tuple[str, str]]]  # text before the cursor -> (word, meta)
STYLES = {"": "", "dim": "dim", "tool": "bold cyan", "error": "bold red", "ok": "green"}
SPINNER_STYLE = "cyan"


class ConsoleIO:
    """The terminal. `history` is the file of past inputs; `complete` proposes words
    for the text before the cursor (the REPL's slash commands)."""

    def __init__(
        self,
        out: TextIO | None = None,
        *,
        yes: bool = False,
        history: Path | None = None,
        complete: Completer | None = None,
    ) -> None:
        for stream in (sys.stdin, sys.stdout, sys.stderr):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="replace")
        self.out = out or sys.stdout
        self.yes = yes
        self.history = history
        self.complete = complete
        self.terminal = _isatty(self.out)
        self.console: Any = None
        if self.terminal:
            from rich.console import Console

            self.console = Console(file=self.out, highlight=False, emoji=False)
        self.stream: MarkdownStream | None = None
        self.status: Status | None = None
        self._session: PromptSession[str] | None = None
        self._open = False  # plain mode: the last write left a line unfinished
        # called once the first prompt is on the screen (`remem chat` loads the model
        # then, so that nothing competes with drawing it)
        self.on_prompt: Callable[[], None] | None = None

    @property
    def width(self) -> int:
        if self.console is not None:
            return int(self.console.width)
        import shutil

        return shutil.get_terminal_size((100, 24)).columns

    def _fit(self) -> None:
        """rich takes a dumb terminal to be 80 columns wide: ask the terminal itself."""
        if self.console.is_dumb_terminal:
            try:
                self.console.size = tuple(os.get_terminal_size(self.out.fileno()))
            except (OSError, ValueError, AttributeError):
                pass

    # -- output ------------------------------------------------------------------------
    def write(self, text: str) -> None:
        if not text:
            return
        if not self.terminal:  # a pipe or a file: the text as it is, no hard wrap
            self.out.write(text)
            self.out.flush()
            self._open = not text.endswith("\n")
            return
        self._stop_spinner()
        if self.stream is None:
            self._fit()
            self.stream = MarkdownStream(self.console)
        self.stream.feed(text)

    def end(self) -> None:
        self._stop_spinner()
        if self.stream is not None:
            stream, self.stream = self.stream, None
            stream.close()
        if self._open:
            self.out.write("\n")
            self.out.flush()
            self._open = False

    def line(self, text: str = "", style: str = "") -> None:
        self.end()
        if not self.terminal:
            self.out.write(text + "\n")
            self.out.flush()
            return
        self._fit()  # what a line shows (a memory, an error) never drives the terminal:
        shown = visible(text, keep="\n\t", strict=False)
        self.console.print(BreakText(shown, style=STYLES.get(style, style)))

    def wait(self, label: str) -> None:
        if self.status is not None:  # already spinning
            return
        self.end()
        if self.terminal and self.console.is_interactive:
            from rich.text import Text

            self.status = self.console.status(
                Text(label, style="dim"), spinner="dots", spinner_style=SPINNER_STYLE
            )
            self.status.start()

    def _stop_spinner(self) -> None:
        if self.status is not None:
            status, self.status = self.status, None
            status.stop()

    # -- input -------------------------------------------------------------------------
    def read(self, prompt: str) -> str:
        self.end()
        session = self._prompt_session()
        hook, self.on_prompt = self.on_prompt, None
        if session is None:
            if hook is not None:
                hook()
            return input(prompt)
        if hook is None:
            return session.prompt(prompt)

        def after_history() -> None:
            # the history (Up) loads in a thread once the prompt is drawn; a hook that
            # imports meanwhile holds it back for seconds on a busy machine
            task = getattr(session.default_buffer, "_load_history_task", None)
            if task is not None and not task.done():
                task.add_done_callback(lambda _: hook())
            else:
                hook()

        def drawn() -> None:  # called just before the first draw: the hook runs after it
            import asyncio

            asyncio.get_running_loop().call_soon(after_history)

        return session.prompt(prompt, pre_run=drawn)

    def confirm(self, question: str, *, strict: bool = False) -> bool:
        self.end()
        if strict and not sys.stdin.isatty():
            self.line(f"{question} no: nobody at a terminal to ask", "dim")
            return False  # piped input never approves what only a person may
        if self.yes and not strict:
            return True
        ask: Callable[[str], str] = input
        if self._prompt_session() is not None:  # its own prompt: answers stay out of history
            from prompt_toolkit import prompt

            ask = prompt
        try:
            answer = ask(f"{question} [y/N] ")
        except EOFError:
            return False
        return answer.strip().lower() in ("y", "yes")

    def _prompt_session(self) -> PromptSession[str] | None:
        """prompt_toolkit when both ends are a terminal that can move its cursor, else
        None: plain input() (with readline's editing on a dumb terminal)."""
        if self._session is None and self.terminal and _isatty(sys.stdin):
            if os.environ.get("TERM", "") in ("dumb", "unknown", "emacs"):
                try:
                    import readline  # noqa: F401  (line editing for input())
                except ImportError:  # pragma: no cover - Windows
                    pass
                return None
            self._session = prompt_session(self.history, self.complete)
        return self._session


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def _history_file(path: Path) -> Path:
    """The history file, created private (what you type may be private)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    return path


def prompt_session(history: Path | None, complete: Completer | None) -> PromptSession[str]:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory, ThreadedHistory

    store: Any = InMemoryHistory()
    if history is not None:
        try:
            store = ThreadedHistory(FileHistory(str(_history_file(history))))
        except OSError:  # a read-only home: history for this session only
            pass
    return PromptSession(
        history=store,
        completer=slash_completer(complete) if complete is not None else None,
        complete_while_typing=True,
        key_bindings=_key_bindings(),
        enable_history_search=False,
        mouse_support=False,
    )


def _key_bindings() -> Any:
    """Enter sends (applying a chosen completion first); Alt+Enter, or Enter after a
    trailing backslash, starts a new line in the same message."""
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("escape", "enter")
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    @bindings.add("enter")
    def _enter(event: Any) -> None:
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.apply_completion(state.current_completion)
        if buffer.document.text_before_cursor.endswith("\\"):
            buffer.delete_before_cursor(1)
            buffer.insert_text("\n")
            return
        buffer.validate_and_handle()

    return bindings


def slash_completer(complete: Completer) -> Any:
    """prompt_toolkit's side of the REPL's `complete(text) -> [(word, meta)]`."""
    from prompt_toolkit.completion import Completer as Base
    from prompt_toolkit.completion import Completion

    class SlashCompleter(Base):
        def get_completions(
            self, document: Document, complete_event: CompleteEvent
        ) -> Iterable[Completion]:
            before = document.text_before_cursor
            if not before.startswith("/") or "\n" in before:
                return
            word = before.rsplit(" ", 1)[-1]
            for value, meta in complete(before):
                yield Completion(value, start_position=-len(word), display_meta=visible(meta))

    return SlashCompleter()
