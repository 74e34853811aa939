"""How `remem chat` draws text on a terminal (with `rich`, imported only by chat):
line breaking that never splits an English word and follows the CJK rules (no line
starts with 。，、！？ or a closing bracket, none ends with an opening one), markdown
drawn with it, a stream that shows markdown while it arrives, and `visible()`, which
shows control characters instead of letting them act on the terminal.

    offsets = break_offsets("这是一个很长的句子，用来测试。", width=10)
    stream = MarkdownStream(console); stream.feed("# Hi\\n"); stream.close()
"""

from __future__ import annotations

import io
import re
import time
import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len, chop_cells
from rich.containers import Lines
from rich.markdown import Heading, Markdown, Paragraph
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, JustifyMethod, OverflowMethod, RenderResult
    from rich.live import Live

__all__ = ["BreakText", "ChatMarkdown", "MarkdownStream", "break_offsets", "visible"]

# Characters that may not start a line (closing punctuation, small kana, ...) and
# those that may not end one (opening brackets): JIS X 4051 / GB/T 15834 kinsoku.
NO_START = frozenset(
    "、。，．：；？！）」』】〕〉》〗〙〛｝］〞”’·・ー々〻ゝゞヽヾ‥…ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
    "゛゜!%),.:;?]}°‰′″℃％"
)
NO_END = frozenset("（「『【〔〈《〖〘〚｛［〝“‘([{")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _may_break(prev: str, cur: str) -> bool:
    """May a line end between `prev` and `cur`?"""
    if cur.isspace() or cur in NO_START or prev in NO_END:
        return False
    return prev.isspace() or _wide(prev) or _wide(cur)


def _segments(text: str) -> Iterator[tuple[int, str]]:
    """The unbreakable pieces of `text` (each with the spaces after it) and where each
    starts: an English word, one CJK character with the punctuation glued to it."""
    start = 0
    for i in range(1, len(text)):
        if _may_break(text[i - 1], text[i]):
            yield start, text[start:i]
            start = i
    if text:
        yield start, text[start:]


def break_offsets(text: str, width: int) -> list[int]:
    """Where to break one line of `text` to fit `width` cells (CJK characters count
    two): between words and between CJK characters, never inside an English word
    (unless the word alone is wider than a line) and never against the kinsoku rules."""
    offsets: list[int] = []
    column = 0
    for start, piece in _segments(text):
        ink = cell_len(piece.rstrip())
        if column + ink <= width:
            column += cell_len(piece)
            continue
        if column and start:
            offsets.append(start)
        column = cell_len(piece)
        if ink > width:  # a URL or a word longer than the line: fold it by cells
            position, end = start, start + len(piece)
            while cell_len(text[position:end].rstrip()) > width:
                cut = position + len(chop_cells(text[position:end], width)[0])
                while cut - 1 > position and text[cut] in NO_START:  # take one char along
                    cut -= 1
                offsets.append(cut)
                position = cut
            column = cell_len(text[position:end])
    return offsets


class BreakText(Text):
    """`rich.text.Text` that wraps with `break_offsets` instead of rich's own rule
    (which folds a CJK run anywhere, 。 first, and cuts words glued to CJK)."""

    @classmethod
    def of(cls, text: Text, justify: JustifyMethod | None = None) -> BreakText:
        out = cls("", style=text.style, justify=justify or text.justify, end=text.end)
        out.append_text(text)
        return out

    def wrap(
        self,
        console: Console,
        width: int,
        *,
        justify: JustifyMethod | None = None,
        overflow: OverflowMethod | None = None,
        tab_size: int = 8,
        no_wrap: bool | None = None,
    ) -> Lines:
        wrap_justify = justify or self.justify or "default"
        wrap_overflow = overflow or self.overflow or "fold"
        if no_wrap or self.no_wrap:
            return super().wrap(
                console, width, justify=justify, overflow=overflow, tab_size=tab_size, no_wrap=True
            )
        lines = Lines()
        for line in self.split(allow_blank=True):
            if "\t" in line:
                line.expand_tabs(tab_size)
            new_lines = line.divide(break_offsets(line.plain, width))
            for part in new_lines:
                part.rstrip_end(width)
            if wrap_justify:
                new_lines.justify(console, width, justify=wrap_justify, overflow=wrap_overflow)
            for part in new_lines:
                part.truncate(width, overflow=wrap_overflow)
            lines.extend(new_lines)
        return lines


class _Paragraph(Paragraph):
    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield BreakText.of(self.text, self.justify)


class _Heading(Heading):
    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield BreakText.of(self.text, self.LEVEL_ALIGN.get(self.tag, "left"))


class ChatMarkdown(Markdown):
    """Markdown whose paragraphs and headings break lines with `break_offsets`."""

    elements = {**Markdown.elements, "paragraph_open": _Paragraph, "heading_open": _Heading}

    def __init__(self, markup: str, **kwargs: Any) -> None:
        super().__init__(markup, code_theme="monokai", hyperlinks=False, **kwargs)


_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\x1b"}


_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_HIDDEN = ("Cc", "Cf", "Zl", "Zp", "Co", "Cs")


def visible(text: str, *, keep: str = "", strip_ansi: bool = False, strict: bool = True) -> str:
    """`text` with every control or invisible formatting character shown as an escape
    (`\\r`, `\\x1b`, `\\u202e` ...), so what is shown is what would run; the characters
    in `keep` (say "\\n\\t") pass as they are; `strip_ansi` drops colour codes first.
    Not `strict` (prose): only control and text-direction characters are escaped, so
    emoji joiners and private-use icons still draw."""
    if strip_ansi:
        text = _ANSI.sub("", text)
    out = []
    for ch in text:
        if ch in keep:
            out.append(ch)
        elif ch in _NAMED:
            out.append(_NAMED[ch])
        elif ch in _BIDI or unicodedata.category(ch) in (_HIDDEN if strict else ("Cc",)):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


class MarkdownStream:
    """Draws a streamed markdown answer: each time text arrives the whole answer is
    rendered again; lines that can no longer change are printed for good, the last
    `window` lines stay in a live region redrawn in place (on terminals without
    cursor control, nothing is redrawn: lines appear once complete)."""

    def __init__(self, console: Console, *, window: int = 6, min_delay: float = 0.05) -> None:
        self.console = console
        self.window = window if console.is_interactive else 1
        self.min_delay = min_delay
        self.text = ""
        self.printed = 0  # lines already printed for good
        self.live: Live | None = None
        self._last = 0.0
        self._cost = 0.0

    def feed(self, text: str) -> None:
        self.text += visible(text.replace("\r\n", "\n"), keep="\n\t", strict=False)
        now = time.monotonic()
        if now - self._last >= max(self.min_delay, self._cost * 10):
            self._update()
            self._last = time.monotonic()
            self._cost = self._last - now

    def render(self) -> list[str]:
        """The answer so far as terminal lines (ANSI styles included)."""
        console = self.console
        out = io.StringIO()
        offscreen = type(console)(
            file=out,
            width=console.width,
            height=console.height,
            force_terminal=True,
            color_system=console.color_system,  # type: ignore[arg-type]
            no_color=console.no_color,
            legacy_windows=False,
            highlight=False,
            emoji=False,
        )
        offscreen.print(ChatMarkdown(self.text))
        return out.getvalue().rstrip("\n").split("\n") if self.text.strip() else []

    def _update(self, final: bool = False) -> None:
        lines = self.render()
        stable = len(lines) if final else max(0, len(lines) - self.window)
        if stable > self.printed:
            self._print(lines[self.printed : stable])
            self.printed = stable
        if final or not self.console.is_interactive:
            return
        rest = Text.from_ansi("\n".join(lines[self.printed :]))
        if self.live is None:
            from rich.live import Live

            self.live = Live(rest, console=self.console, auto_refresh=False, transient=True)
            self.live.start()
        else:
            self.live.update(rest)
        self.live.refresh()

    def _print(self, lines: list[str]) -> None:
        target = self.live.console if self.live is not None else self.console
        target.print(Text.from_ansi("\n".join(lines)), soft_wrap=True)

    def close(self) -> None:
        """Print what is left for good and end the live region."""
        try:
            if self.text:
                if self.live is not None:
                    self.live.update(Text(""))
                self._update(final=True)
        finally:
            self.stop()

    def stop(self) -> None:
        if self.live is not None:
            live, self.live = self.live, None
            live.stop()
