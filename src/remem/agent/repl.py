"""The `remem chat` REPL (SPEC AG1-AG3): `run → run_one → dispatch` around an injectable
I/O object, slash commands from one registry, a status line with token use.

    repl = Repl(manager, ConsoleIO(), agent)     # agent None: memory commands only
    repl.run()                                    # or repl.run_one("/memory list")
"""

from __future__ import annotations

import shutil
import signal
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TextIO

from remem.errors import RememError
from remem.store.backends import describe

if TYPE_CHECKING:
    from remem.agent.loop import Agent, TurnResult
    from remem.agent.manager import MemoryManager
    from remem.entry import Entry
    from remem.memory import SaveResult

__all__ = ["COMMANDS", "NO_LLM_HELP", "BufferIO", "ConsoleIO", "Repl", "Wrapper"]

PROMPT = "› "
NO_LLM_HELP = """\
No LLM endpoint is configured, so remem chat cannot answer yet (the /memory, /save,
/forget, /export, /import and /help commands work without one). Set:
  REMEM_LLM_MODEL      the model name            (required)
  REMEM_LLM_BASE_URL   the OpenAI-compatible URL (required unless it is OpenAI)
  REMEM_LLM_API_KEY    the key, if the endpoint needs one
(OPENAI_MODEL / OPENAI_BASE_URL / OPENAI_API_KEY work too.) Examples:
  OpenAI    REMEM_LLM_MODEL=gpt-4o-mini  REMEM_LLM_API_KEY=sk-...
  DeepSeek  REMEM_LLM_BASE_URL=https://api.deepseek.com/v1  REMEM_LLM_MODEL=deepseek-chat
  GLM       REMEM_LLM_BASE_URL=https://open.bigmodel.cn/api/paas/v4  REMEM_LLM_MODEL=glm-4-flash
  Qwen      REMEM_LLM_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1
            REMEM_LLM_MODEL=qwen-plus
  Ollama    REMEM_LLM_BASE_URL=http://localhost:11434/v1  REMEM_LLM_MODEL=qwen2.5:7b
  llama.cpp / vLLM   REMEM_LLM_BASE_URL=http://localhost:8000/v1  REMEM_LLM_MODEL=local"""


# -- I/O -------------------------------------------------------------------------------------
class IO(Protocol):
    width: int

    def read(self, prompt: str) -> str: ...  # raises EOFError / KeyboardInterrupt

    def write(self, text: str) -> None: ...  # a streamed piece, wrapped

    def line(self, text: str = "") -> None: ...

    def confirm(self, question: str) -> bool: ...


def char_width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


class Wrapper:
    """Breaks streamed text at the terminal width (CJK characters count two)."""

    def __init__(self, width: int) -> None:
        self.width = max(20, width)
        self.column = 0

    def feed(self, text: str) -> str:
        out: list[str] = []
        for ch in text:
            if ch == "\n":
                self.column = 0
            else:
                w = char_width(ch)
                if self.column + w > self.width:
                    out.append("\n")
                    self.column = 0
                self.column += w
            out.append(ch)
        return "".join(out)

    def wrap_line(self, text: str) -> str:
        self.column = 0
        wrapped = self.feed(text)
        self.column = 0
        return wrapped


class ConsoleIO:
    """The terminal: `input()` with readline editing, UTF-8-safe, wrapped output."""

    def __init__(self, out: TextIO | None = None, *, yes: bool = False) -> None:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:  # pragma: no cover - Windows
            pass
        for stream in (sys.stdin, sys.stdout, sys.stderr):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="replace")
        self.out = out or sys.stdout
        self.width = shutil.get_terminal_size((100, 24)).columns
        self.wrapper = Wrapper(self.width)
        self.yes = yes

    def read(self, prompt: str) -> str:
        self.wrapper.column = 0
        return input(prompt)

    def write(self, text: str) -> None:
        self.out.write(self.wrapper.feed(text))
        self.out.flush()

    def line(self, text: str = "") -> None:
        self.out.write(self.wrapper.wrap_line(text) + "\n")
        self.out.flush()

    def confirm(self, question: str) -> bool:
        if self.yes:
            return True
        try:
            return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")
        except EOFError:
            return False


class BufferIO:
    """Scripted input and captured output, for tests and one-shot runs."""

    def __init__(self, inputs: list[str] | None = None, *, approve: bool = False) -> None:
        self.inputs = list(inputs or [])
        self.parts: list[str] = []
        self.width = 100
        self.approve = approve
        self.questions: list[str] = []

    def read(self, prompt: str) -> str:
        if not self.inputs:
            raise EOFError
        value = self.inputs.pop(0)
        if value == "^C":
            raise KeyboardInterrupt
        return value

    def write(self, text: str) -> None:
        self.parts.append(text)

    def line(self, text: str = "") -> None:
        self.parts.append(text + "\n")

    def confirm(self, question: str) -> bool:
        self.questions.append(question)
        return self.approve

    @property
    def output(self) -> str:
        return "".join(self.parts)


# -- the command registry --------------------------------------------------------------------
@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    help: str
    handler: Callable[[Repl, str], None]


COMMANDS: dict[str, Command] = {}


def command(name: str, usage: str, help: str) -> Callable[[Callable[[Repl, str], None]], None]:
    def register(fn: Callable[[Repl, str], None]) -> None:
        COMMANDS[name] = Command(name, usage, help, fn)

    return register


def short(entry: Entry) -> str:
    flag = "" if entry.is_current else f" (replaced by {entry.superseded_by})"
    return f"{entry.id}  [{entry.type}/{entry.scope}] {entry.content}{flag}"


class Repl:
    def __init__(self, manager: MemoryManager, io: IO, agent: Agent | None = None) -> None:
        self.manager = manager
        self.io = io
        self.agent = agent
        self.pending: SaveResult | None = None  # the last /save that conflicted
        self.last_summary = ""
        self.last_turn: TurnResult | None = None
        self.closed = False
        if agent is not None:
            agent.on_text = io.write
            agent.on_tool = self._show_tool
            agent.tools.approve = lambda cmd: io.confirm(f"Run `{cmd}`?")

    def _show_tool(self, name: str, arguments: str) -> None:
        args = arguments if len(arguments) <= 120 else arguments[:117] + "..."
        self.io.line(f"\n⏺ {name}({args})")

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> int:
        """Read, answer, repeat; a second Ctrl+C or EOF flushes and leaves."""
        self.io.line(f"remem chat · session {self.manager.session_id} · /help for commands")
        if self.agent is None:
            self.io.line(NO_LLM_HELP)
        armed = False
        try:
            while True:
                try:
                    outcome = self.run_one(self.io.read(PROMPT))
                except EOFError:
                    break
                except KeyboardInterrupt:
                    outcome = "interrupt"
                if outcome == "exit" or (outcome == "interrupt" and armed):
                    break
                armed = outcome in ("interrupt", "cancelled")
                if outcome == "interrupt":
                    self.io.line("\n(Ctrl+C again or Ctrl+D to exit)")
        except KeyboardInterrupt:  # a second Ctrl+C while printing the hint
            pass
        finally:
            self.close()
        return 0

    def run_one(self, line: str) -> str:
        """One input: a slash command or a message. Returns ok / exit / cancelled / error."""
        text = line.strip()
        if not text:
            return "ok"
        if text.startswith("/"):
            return self.dispatch(text)
        return self.ask(text)

    def dispatch(self, text: str) -> str:
        name, _, rest = text[1:].partition(" ")
        if name in ("exit", "quit"):
            return "exit"
        cmd = COMMANDS.get(name)
        if cmd is None:
            self.io.line(f"unknown command /{name}; /help lists them")
            return "error"
        try:
            cmd.handler(self, rest.strip())
        except RememError as exc:
            self.io.line(f"error: {exc}")
            return "error"
        except KeyboardInterrupt:
            self.io.line(f"\n[/{name} interrupted]")
            return "cancelled"
        return "ok"

    def ask(self, text: str) -> str:
        from remem.llm import LLMError

        if self.agent is None:
            self.io.line(NO_LLM_HELP)
            return "error"
        try:
            self.last_turn = self.agent.run_turn(text)
        except KeyboardInterrupt:
            self.io.line("\n[cancelled: nothing from this turn is remembered]")
            return "cancelled"
        except LLMError as exc:
            self.io.line(f"\nerror: {exc}")
            return "error"
        self.io.line()
        self.io.line(f"[{self.manager.status_text()}]")
        return "ok"

    def close(self) -> None:
        """SS3: flush the session and finish memory work before leaving (once)."""
        if self.closed:
            return
        self.closed = True
        try:  # a Ctrl+C now must not cut the flush short
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread: nothing to shield
            previous = None
        try:
            self.manager.close()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    # -- helpers for commands ----------------------------------------------------------------
    def report_save(self, result: SaveResult) -> None:
        if result.status == "conflict":
            self.pending = result
            self.io.line(f"Conflict: nothing was saved. new: {result.entry.content}")
            for old, why in zip(result.conflicts, result.reasons, strict=True):
                self.io.line(f"  existing: {short(old)}  ({why})")
            self.io.line("/memory replace to replace it, /save --force TEXT to keep both")
        elif result.status == "duplicate":
            self.io.line(f"Already remembered: {short(result.entry)}")
        elif result.status == "replaced" and result.replaced is not None:
            self.io.line(f"Replaced {result.replaced.id}: {short(result.entry)}")
        else:
            self.io.line(f"Saved {short(result.entry)}")


# -- the commands ----------------------------------------------------------------------------
MEMORY_USAGE = "/memory [list|search|delete|verify|replace|clear|history] ..."


@command("help", "/help", "List the commands.")
def _help(repl: Repl, rest: str) -> None:
    for cmd in sorted(COMMANDS.values(), key=lambda c: c.name):
        repl.io.line(f"{cmd.usage:<44} {cmd.help}")
    repl.io.line(f"{'/exit':<44} Flush the session and memory, then leave (or Ctrl+D).")


@command("memory", MEMORY_USAGE, "Long-term memory: list, search, delete, verify, replace ...")
def _memory(repl: Repl, rest: str) -> None:
    mem = repl.manager.memory
    sub, _, arg = rest.partition(" ")
    arg = arg.strip()
    if sub in ("", "list"):
        entries = mem.list(limit=50)
        repl.io.line(f"{len(entries)} memories (project {mem.project}):")
        for entry in entries:
            repl.io.line(f"  {short(entry)}")
        repl.io.line(repl.manager.status_text())
    elif sub == "search":
        for hit in mem.search(arg, limit=10):
            repl.io.line(f"{hit.score:.3f}  {short(hit.entry)}")
    elif sub == "delete":
        repl.io.line(f"Deleted {short(mem.delete(arg))}")
    elif sub == "verify":
        repl.io.line(f"Verified {short(mem.verify(arg))}")
    elif sub == "history":
        for entry in mem.history(arg).versions:
            repl.io.line(f"  {short(entry)}")
    elif sub == "clear":
        if arg not in ("project", "global", "session"):
            repl.io.line("usage: /memory clear project|global|session")
            return
        repl.io.line(f"Deleted {len(mem.clear(arg))} memories.")  # type: ignore[arg-type]
    elif sub == "replace":
        _replace(repl, arg)
    else:
        repl.io.line(f"usage: {MEMORY_USAGE}")


def _replace(repl: Repl, arg: str) -> None:
    """`/memory replace` settles the last /save conflict; `/memory replace ID TEXT` any."""
    if arg:
        old_id, _, text = arg.partition(" ")
        if not text.strip():
            repl.io.line("usage: /memory replace ID TEXT")
            return
        old = repl.manager.memory.get(old_id)
        repl.report_save(repl.manager.save(text.strip(), type=old.type, scope=old.scope,
                                           replace_id=old.id))  # fmt: skip
        return
    pending = repl.pending
    if pending is None:
        repl.io.line("No conflict to resolve; use /memory replace ID TEXT.")
        return
    repl.pending = None
    entry = pending.entry
    result = repl.manager.save(entry.content, type=entry.type, scope=entry.scope,
                               replace_id=pending.conflicts[0].id)  # fmt: skip
    repl.report_save(result)


@command("save", "/save [--global] [--force] TEXT", "Save a memory yourself.")
def _save(repl: Repl, rest: str) -> None:
    words = rest.split(" ")
    flags = {w for w in words if w in ("--global", "--force")}
    text = " ".join(w for w in words if w not in flags).strip()
    if not text:
        repl.io.line("usage: /save [--global] [--force] TEXT")
        return
    scope = "global" if "--global" in flags else "project"
    repl.report_save(repl.manager.save(text, scope=scope, force="--force" in flags))


@command("forget", "/forget KEYWORD", "Delete every memory containing KEYWORD.")
def _forget(repl: Repl, rest: str) -> None:
    gone = repl.manager.memory.forget(rest)
    repl.io.line(f"Deleted {len(gone)} memories.")
    for entry in gone:
        repl.io.line(f"  {short(entry)}")


@command("summary", "/summary", "Summarise this conversation (four sections).")
def _summary(repl: Repl, rest: str) -> None:
    from remem.context.summarizer import transcript

    ctx = repl.manager.context
    text = transcript(ctx.messages[1:])
    if not text.strip():
        repl.io.line("Nothing to summarise yet.")
        return
    repl.last_summary = ctx.summarizer.summarise(text, max_chars=ctx.config.chunk_summary_chars)
    repl.io.line(repl.last_summary)


@command("compact", "/compact", "Compact the conversation now (keeps the last turn).")
def _compact(repl: Repl, rest: str) -> None:
    report = repl.manager.compact()
    levels = ", ".join(report.levels) or "nothing to do"
    repl.io.line(f"compaction: {levels}; tokens {report.tokens_before} -> {report.tokens_after}")
    if report.abandoned:
        repl.io.line(f"note: {report.abandoned}")


@command("context", "/context", "Tokens used, the threshold of each level, what fired.")
def _context(repl: Repl, rest: str) -> None:
    st = repl.manager.context.status()
    repl.io.line(f"context:   {st.tokens:,} tokens in {st.messages} messages")
    repl.io.line(f"window:    {st.window:,} ({st.available:,} after reserves)")
    repl.io.line(f"usage:     {st.usage_ratio:.1%}")
    repl.io.line("offload:   tool results over 32,000 chars (commands 8,000) go to files")
    repl.io.line(f"clear:     at {st.clear_threshold:,} tokens (CP2)")
    repl.io.line(f"summarise: at {st.summary_threshold:,} tokens (CP3)")
    fired = ", ".join(f"{k} x{v}" for k, v in st.levels_fired.items()) or "none yet"
    repl.io.line(f"fired:     {fired} ({st.compactions} compactions)")


@command("clear", "/clear", "Save facts, then start a fresh conversation.")
def _clear(repl: Repl, rest: str) -> None:
    repl.manager.clear()
    repl.io.line("Conversation cleared; long-term memory kept.")


@command("resume", "/resume [ID]", "Continue an earlier session (default: the latest).")
def _resume(repl: Repl, rest: str) -> None:
    from remem.context.ledger import list_sessions

    if rest == "list":
        for info in list_sessions(repl.manager.root)[:20]:
            repl.io.line(f"  {info.id}  {info.messages:>4} msgs  {info.title}")
        return
    session = repl.manager.resume(rest or None)
    st = repl.manager.context.status()
    repl.io.line(f"Resumed session {session}: {st.messages} messages, {st.tokens:,} tokens.")


@command("export", "/export FILE", "Export this project's memories to a JSON file.")
def _export(repl: Repl, rest: str) -> None:
    if not rest:
        repl.io.line("usage: /export FILE")
        return
    repl.io.line(f"Exported {repl.manager.memory.export(rest)} memories to {rest}.")


@command("import", "/import FILE", "Import memories (duplicates skipped, conflicts shown).")
def _import(repl: Repl, rest: str) -> None:
    if not rest:
        repl.io.line("usage: /import FILE")
        return
    res = repl.manager.memory.import_(rest)
    repl.io.line(f"Imported {len(res.added)}; {len(res.duplicates)} duplicates; "
                 f"{len(res.conflicts)} conflicts.")  # fmt: skip


@command("project", "/project", "Where memories and the session live.")
def _project(repl: Repl, rest: str) -> None:
    mm = repl.manager
    repl.io.line(f"project: {mm.memory.project}")
    repl.io.line(f"root:    {mm.root}")
    repl.io.line(f"store:   {describe(mm.memory.settings.db)}")
    repl.io.line(f"session: {mm.session_id}")
    guard = mm.guard.sources
    if guard:
        repl.io.line(f"external content read: {', '.join(guard)} (auto-extraction off)")


@command("status", "/status", "Token use and model calls so far.")
def _status(repl: Repl, rest: str) -> None:
    repl.io.line(repl.manager.status_text())
    if repl.manager.account is not None:
        repl.io.line(repl.manager.account.report())
