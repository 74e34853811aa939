"""The slash commands of `remem chat` (SPEC AG2), from one registry: each has its usage,
its help line, its handler and what Tab proposes for its arguments.

    @command("status", "/status", "Token use and model calls so far.")
    def _status(repl: Repl, rest: str) -> None: ...
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from remem.entry import is_scope
from remem.store.backends import describe

if TYPE_CHECKING:
    from remem.agent.io import IO
    from remem.agent.loop import Agent
    from remem.agent.manager import MemoryManager
    from remem.agent.units import Units
    from remem.entry import Entry
    from remem.memory import SaveResult

__all__ = ["COMMANDS", "Command", "Repl", "ToolCall", "command", "complete", "short"]

Choices = list[tuple[str, str]]  # (word, what it is)


@dataclass
class ToolCall:
    """One tool call of this session, its whole output kept for /output."""

    name: str
    arguments: str
    output: str = ""


class Repl(Protocol):
    """What a command may use of the REPL (`remem.agent.repl.Repl`)."""

    manager: MemoryManager
    io: IO
    agent: Agent | None
    units: Units  # skills, sub-agents and plans
    pending: SaveResult | None  # the last /save that conflicted
    last_summary: str
    calls: list[ToolCall]

    def report_save(self, result: SaveResult) -> None: ...

    def replay(self, turns: int = 2) -> None: ...

    def memory_line(self) -> str: ...


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    help: str
    handler: Callable[[Repl, str], None]
    # the argument words typed (the last one being completed) -> the choices for it
    args: Callable[[Repl, list[str]], Choices] | None = None


COMMANDS: dict[str, Command] = {}
EXITS = {"exit": "Flush the session and memory, then leave (or Ctrl+D).", "quit": "Same as /exit."}


def command(
    name: str, usage: str, help: str, args: Callable[[Repl, list[str]], Choices] | None = None
) -> Callable[[Callable[[Repl, str], None]], None]:
    def register(fn: Callable[[Repl, str], None]) -> None:
        COMMANDS[name] = Command(name=name, usage=usage, help=help, handler=fn, args=args)

    return register


def short(entry: Entry) -> str:
    flag = "" if entry.is_current else f" (replaced by {entry.superseded_by})"
    return f"{entry.id}  [{entry.type}/{entry.scope}] {entry.content}{flag}"


def complete(repl: Repl, text: str) -> Choices:
    """What Tab proposes for the word before the cursor: a command's name, then its
    arguments (subcommands, memory and session ids, files ...)."""
    if not text.startswith("/"):
        return []
    name, space, rest = text[1:].partition(" ")
    if not space:
        names = {**{c.name: c.help for c in COMMANDS.values()}, **EXITS}
        return [("/" + n, h) for n, h in sorted(names.items()) if n.startswith(name)]
    cmd = COMMANDS.get(name)
    if cmd is None or cmd.args is None:
        return []
    words = rest.split(" ")
    word = words[-1]
    try:
        choices = cmd.args(repl, words)
    except Exception:  # completion must never break the prompt
        return []
    return [(value, meta) for value, meta in choices if value.startswith(word) and value != word]


def _memory_ids(repl: Repl) -> Choices:
    return [(e.id, e.content[:60]) for e in repl.manager.memory.list(limit=50)]


def _files(repl: Repl, words: list[str]) -> Choices:
    """Files and folders in the folder of the word typed so far."""
    folder = Path(os.path.dirname(words[-1]) or ".")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    out = []
    for name in names:
        path = folder / name if folder != Path(".") else Path(name)
        out.append((str(path) + ("/" if path.is_dir() else ""), "folder" if path.is_dir() else ""))
    return out


# -- the commands ----------------------------------------------------------------------------
MEMORY_SUBCOMMANDS = {
    "list": "the memories of this project and the global ones",
    "search": "search them: /memory search WORDS",
    "delete": "delete one: /memory delete ID",
    "verify": "confirm one is still true: /memory verify ID",
    "replace": "settle the last conflict, or /memory replace ID TEXT",
    "clear": "delete a whole scope (asks first): /memory clear project|global|session",
    "history": "every version of one: /memory history ID",
}
MEMORY_USAGE = "/memory [list|search|delete|verify|replace|clear|history] ..."
SCOPES = {
    "project": "this project's memories",
    "global": "memories of every project",
    "session": "this session's memories",
}


def _memory_args(repl: Repl, words: list[str]) -> Choices:
    if len(words) == 1:
        return list(MEMORY_SUBCOMMANDS.items())
    if len(words) == 2 and words[0] in ("delete", "verify", "history", "replace"):
        return _memory_ids(repl)
    if len(words) == 2 and words[0] == "clear":
        return list(SCOPES.items())
    return []


@command("help", "/help", "List the commands.")
def _help(repl: Repl, rest: str) -> None:
    for cmd in sorted(COMMANDS.values(), key=lambda c: c.name):
        repl.io.line(f"{cmd.usage:<44} {cmd.help}")
    repl.io.line(f"{'/exit':<44} {EXITS['exit']}")
    repl.io.line(
        "Enter sends · Alt+Enter or \\ then Enter: a new line · Tab completes · "
        "Ctrl+C cancels · Ctrl+D leaves",
        "dim",
    )


@command(
    "memory",
    MEMORY_USAGE,
    "Long-term memory: list, search, delete, verify, replace ...",
    _memory_args,
)
def _memory(repl: Repl, rest: str) -> None:
    mem = repl.manager.memory
    sub, _, arg = rest.partition(" ")
    arg = arg.strip()
    if sub in ("", "list"):
        entries = mem.list(limit=50)
        repl.io.line(f"{len(entries)} memories (project {mem.project}):")
        for entry in entries:
            repl.io.line(f"  {short(entry)}")
        repl.io.line(repl.manager.status_text(), "dim")
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
        _clear_scope(repl, arg)
    elif sub == "replace":
        _replace(repl, arg)
    else:
        repl.io.line(f"usage: {MEMORY_USAGE}")


def _clear_scope(repl: Repl, scope: str) -> None:
    """/memory clear SCOPE: deletes for good, so it asks first."""
    if not is_scope(scope):
        repl.io.line("usage: /memory clear project|global|session")
        return
    mem = repl.manager.memory
    count = len(mem.list(scope=scope))
    if count == 0:
        repl.io.line(f"No {scope} memories to delete.")
        return
    if not repl.io.confirm(f"Delete all {count} {scope} memories for good?"):
        repl.io.line("Nothing deleted.")
        return
    repl.io.line(f"Deleted {len(mem.clear(scope))} memories.")


def _replace(repl: Repl, arg: str) -> None:
    """`/memory replace` settles the last /save conflict; `/memory replace ID TEXT` any."""
    if arg:
        old_id, _, text = arg.partition(" ")
        if not text.strip():
            repl.io.line("usage: /memory replace ID TEXT")
            return
        old = repl.manager.memory.get(old_id)
        repl.report_save(
            repl.manager.save(text.strip(), type=old.type, scope=old.scope, replace_id=old.id)
        )
        return
    pending = repl.pending
    if pending is None:
        repl.io.line("No conflict to resolve; use /memory replace ID TEXT.")
        return
    repl.pending = None
    entry = pending.entry
    result = repl.manager.save(
        entry.content, type=entry.type, scope=entry.scope, replace_id=pending.conflicts[0].id
    )
    repl.report_save(result)


SAVE_FLAGS = [
    ("--global", "visible in every project"),
    ("--force", "save even if it conflicts or looks secret"),
]


@command(
    "save",
    "/save [--global] [--force] TEXT",
    "Save a memory yourself.",
    lambda repl, words: SAVE_FLAGS,
)
def _save(repl: Repl, rest: str) -> None:
    from remem.errors import SecretRefused

    words = rest.split(" ")
    flags = {w for w in words if w in ("--global", "--force")}
    text = " ".join(w for w in words if w not in flags).strip()
    if not text:
        repl.io.line("usage: /save [--global] [--force] TEXT")
        return
    scope = "global" if "--global" in flags else "project"
    try:
        result = repl.manager.save(text, scope=scope, force="--force" in flags)
    except SecretRefused as exc:
        raise exc.saying("use /save --force") from exc
    repl.report_save(result)


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
    repl.io.wait("Summarising…")
    repl.last_summary = ctx.summarizer.summarise(text, max_chars=ctx.config.chunk_summary_chars)
    repl.io.write(repl.last_summary)
    repl.io.end()


@command("compact", "/compact", "Compact the conversation now (keeps the last turn).")
def _compact(repl: Repl, rest: str) -> None:
    repl.io.wait("Compacting…")
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
    repl.io.line(f"clear:     old tool results at {st.clear_threshold:,} tokens")
    repl.io.line(f"summarise: old turns at {st.summary_threshold:,} tokens")
    fired = ", ".join(f"{k} x{v}" for k, v in st.levels_fired.items()) or "none yet"
    repl.io.line(f"fired:     {fired} ({st.compactions} compactions)")
    repl.io.line("units:     each with its own context (main: this conversation)")
    for line in repl.units.lines():
        repl.io.line(f"  {line}")


@command("clear", "/clear", "Save facts, then start a fresh conversation.")
def _clear(repl: Repl, rest: str) -> None:
    repl.manager.clear()
    repl.io.line("Conversation cleared; long-term memory kept.")


def _session_args(repl: Repl, words: list[str]) -> Choices:
    from remem.context.sessions import list_sessions

    if len(words) > 1:
        return []
    infos = [i for i in list_sessions(repl.manager.root) if i.title]
    return [("list", "the sessions of this project"), *((i.id, i.title) for i in infos[:30])]


@command(
    "resume", "/resume [ID|list]", "Continue an earlier session (Tab lists them).", _session_args
)
def _resume(repl: Repl, rest: str) -> None:
    from remem.context.sessions import list_sessions

    here = repl.manager.session_id
    if rest == "list" or (not rest and repl.manager.last_user_text()):
        # A conversation is going on: never swap it for another without an id.
        for info in [i for i in list_sessions(repl.manager.root) if i.title][:20]:
            mark = "*" if info.id == here else " "
            repl.io.line(f"{mark} {info.id}  {info.visible:>4} msgs  {info.title}")
        if not rest:
            repl.io.line("This session goes on; /resume ID continues another one.", "dim")
        return
    session = repl.manager.resume(rest or None)
    st = repl.manager.context.status()
    repl.io.line(f"Resumed session {session}: {st.messages} messages, {st.tokens:,} tokens.")
    repl.replay()


@command("export", "/export FILE", "Export this project's memories to a JSON file.", _files)
def _export(repl: Repl, rest: str) -> None:
    if not rest:
        repl.io.line("usage: /export FILE")
        return
    repl.io.line(f"Exported {repl.manager.memory.export(rest)} memories to {rest}.")


@command("import", "/import FILE", "Import memories (duplicates skipped, conflicts shown).", _files)
def _import(repl: Repl, rest: str) -> None:
    if not rest:
        repl.io.line("usage: /import FILE")
        return
    res = repl.manager.memory.import_(rest)
    repl.io.line(
        f"Imported {len(res.added)}; {len(res.duplicates)} duplicates; "
        f"{len(res.conflicts)} conflicts."
    )


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


def _output_args(repl: Repl, words: list[str]) -> Choices:
    if len(words) > 1:
        return []
    return [(str(n), f"{c.name} {c.arguments[:50]}") for n, c in enumerate(repl.calls, 1)]


@command(
    "output", "/output [N]", "The whole output of tool call N (default: the last).", _output_args
)
def _output(repl: Repl, rest: str) -> None:
    from remem.agent.render import visible

    if not repl.calls:
        repl.io.line("No tool has run in this session yet.")
        return
    if rest and not (rest.isdigit() and 1 <= int(rest) <= len(repl.calls)):
        repl.io.line(f"usage: /output [N], N from 1 to {len(repl.calls)}")
        return
    n = int(rest) if rest else len(repl.calls)
    call = repl.calls[n - 1]
    repl.io.line(f"⏺ {n}. {call.name}({visible(call.arguments)})", "tool")
    for line in visible(call.output, keep="\n\t", strip_ansi=True).expandtabs(4).split("\n"):
        repl.io.line(f"  {line}")
