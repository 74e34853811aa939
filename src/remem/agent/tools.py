"""The agent's tools (SPEC AG1, SE2, SE4): files inside the project root, commands with
approval, and the memory tools. Every tool returns text for the model; a failure is
text too ("error: ..."), never an exception out of `Toolbox.run`."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remem.agent.manager import MemoryManager

__all__ = ["TOOL_SPECS", "ToolError", "Toolbox"]

SKIP_DIRS = frozenset({".git", ".remem", "__pycache__", "node_modules", ".venv", "venv"})
MAX_COMMAND_OUTPUT = 200_000  # beyond the offload limit: keep head and tail only
MAX_GREP_HITS = 200
MAX_LIST = 500


class ToolError(Exception):
    """A tool could not do what was asked; the message goes back to the model."""


def _fn(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    params = {"type": "object", "properties": props, "required": required}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": params},
    }


_STR = {"type": "string"}
_INT = {"type": "integer"}
TOOL_SPECS: list[dict[str, Any]] = [
    _fn(
        "read_file",
        "Read a text file in the project, lines numbered; page with offset (1-based line) "
        "and limit (lines).",
        {"path": _STR, "offset": _INT, "limit": _INT},
        ["path"],
    ),
    _fn(
        "write_file",
        "Create or overwrite a file in the project.",
        {"path": _STR, "content": _STR},
        ["path", "content"],
    ),
    _fn("list_dir", "List a folder of the project ('/' marks folders).", {"path": _STR}, []),
    _fn(
        "grep",
        "Search files under a folder for a regular expression; lines as path:line:text.",
        {"pattern": _STR, "path": _STR, "glob": _STR},
        ["pattern"],
    ),
    _fn(
        "execute_command",
        "Run a shell command in the project root (the user may have to approve it).",
        {"command": _STR, "timeout": _INT},
        ["command"],
    ),
    _fn(
        "save_memory",
        "Save a durable fact or preference to long-term memory. On a conflict, ask the "
        "user, then call again with replace_id (replace the old one) or keep_both=true.",
        {
            "content": _STR,
            "type": {"type": "string", "enum": ["fact", "preference", "decision"]},
            "scope": {"type": "string", "enum": ["project", "global"]},
            "replace_id": _STR,
            "keep_both": {"type": "boolean"},
        },
        ["content"],
    ),
    _fn(
        "search_memory",
        "Search long-term memory, best first.",
        {"query": _STR, "limit": _INT},
        ["query"],
    ),
]


@dataclass
class Toolbox:
    """Runs the tools for one agent. `approve(command)` is asked before a command
    runs unless `allow_commands` (--yes); `approve_write(path, why)` before a file is
    written outside the `write_allow` patterns (`why`: why the path is protected, or None;
    --yes answers for unprotected paths only, see `remem.agent.writes`); `user_text()`
    is the user's message this turn (for the save guard)."""

    root: Path
    manager: MemoryManager | None = None
    approve: Callable[[str], bool] | None = None
    allow_commands: bool = False
    command_timeout: float = 120.0
    user_text: Callable[[], str] = lambda: ""
    approve_write: Callable[[str, str | None], bool] | None = None
    approve_protected: Callable[[str, str], bool] | None = None  # (command, why), even --yes
    write_allow: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()
        self._conflicts: dict[str, set[str]] = {}  # content of an asked-for save -> conflicting ids
        self._handlers: dict[str, Callable[[dict[str, Any]], str]] = {
            "read_file": self.read_file,
            "write_file": self.write_file,
            "list_dir": self.list_dir,
            "grep": self.grep,
            "execute_command": self.execute_command,
            "save_memory": self.save_memory,
            "search_memory": self.search_memory,
        }
        self._extra: list[dict[str, Any]] = []  # specs of tools added with `add_tool`
        self.hidden: set[str] = set()  # tools this agent is not offered (and cannot run)
        # remem's own messages (a loaded skill's text) to add after this batch of results
        self.pending: list[dict[str, Any]] = []

    @property
    def specs(self) -> list[dict[str, Any]]:
        every = [*TOOL_SPECS, *self._extra]
        return [s for s in every if s["function"]["name"] not in self.hidden]

    def add_tool(self, spec: dict[str, Any], handler: Callable[[dict[str, Any]], str]) -> None:
        """Offer one more tool (load_skill, delegate ...): its OpenAI spec and its handler."""
        name = spec["function"]["name"]
        self._extra = [s for s in self._extra if s["function"]["name"] != name] + [spec]
        self._handlers[name] = handler

    def take_pending(self) -> list[dict[str, Any]]:
        """The messages tools queued this batch, once (the loop adds them after the results)."""
        pending, self.pending = self.pending, []
        return pending

    def run(self, name: str, arguments: str | dict[str, Any]) -> str:
        """The tool's output as text; bad arguments and failures become `error: ...`."""
        handler = None if name in self.hidden else self._handlers.get(name)
        if handler is None:
            offered = ", ".join(n for n in self._handlers if n not in self.hidden)
            return f"error: unknown tool {name!r}; tools: {offered}"
        try:
            args = parse_arguments(arguments)
            return handler(args)
        except ToolError as exc:
            return f"error: {exc}"
        except (OSError, ValueError, TypeError, KeyError) as exc:
            return f"error: {type(exc).__name__}: {exc}"

    # -- files (SE4) -----------------------------------------------------------------------
    def resolve(self, path: object) -> Path:
        """`path` inside the project root, or ToolError."""
        if not isinstance(path, str) or not path.strip():
            raise ToolError("a path is required")
        target = (self.root / path.strip()).resolve()
        if target != self.root and not target.is_relative_to(self.root):
            raise ToolError(f"{path} is outside the project root {self.root}")
        return target

    def _rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix() or "."

    def read_file(self, args: dict[str, Any]) -> str:
        path = self.resolve(args.get("path"))
        if not path.is_file():
            raise ToolError(f"no file {args.get('path')}")
        offset, limit = args.get("offset"), args.get("limit")
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        start = max(1, int(offset)) if offset is not None else 1
        end = len(lines) if limit is None else min(len(lines), start - 1 + max(1, int(limit)))
        body = "\n".join(f"{n:>6}\t{lines[n - 1]}" for n in range(start, end + 1))
        more = f"\n[lines {start}-{end} of {len(lines)}]" if end < len(lines) or start > 1 else ""
        return (body + more) if body else f"[{self._rel(path)}: no lines from {start}]"

    def _included(self) -> set[Path]:
        """Files the project memory reads (REMEM.md's @-includes, written yet or not)."""
        if self.manager is None:
            return set()
        from remem.context.prompt import load_project_memory

        memory = load_project_memory(self.root, self.manager.home)
        return {*memory.files, *memory.missing}

    def write_file(self, args: dict[str, Any]) -> str:
        path = self.resolve(args.get("path"))
        content = args.get("content")
        if not isinstance(content, str):
            raise ToolError("content must be text")
        from remem.agent.writes import WritePolicy

        policy = WritePolicy(self.root, self.write_allow)
        check = policy.check(str(args.get("path")).strip(), included=self._included())
        auto = self.allow_commands and check.why is None  # --yes never covers protected paths
        if not (check.allowed or auto):
            ask = self.approve_write
            if ask is None or not ask(check.rel, check.why):  # the asker shows it escaped
                kind = (
                    f" (protected, {check.why}: read as instructions or run as code)"
                    if check.why
                    else ""
                )
                return (
                    f"error: the user did not approve writing {check.rel}{kind}; writes outside "
                    "the user's allow-list need their approval. Do not retry it; tell the user "
                    "what you wanted to write."
                )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        return f"wrote {len(content)} chars to {self._rel(path)}"

    def list_dir(self, args: dict[str, Any]) -> str:
        path = self.resolve(args.get("path") or ".")
        if not path.is_dir():
            raise ToolError(f"no folder {args.get('path')}")
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in path.iterdir())
        shown = names[:MAX_LIST]
        more = f"\n[{len(names) - MAX_LIST} more]" if len(names) > MAX_LIST else ""
        return ("\n".join(shown) + more) if shown else "(empty)"

    def _inside(self, path: Path) -> bool:
        """A regular file whose real path is inside the root (SE4: a symlink out of the
        project, a FIFO or a device is not searched)."""
        try:
            real = path.resolve()
            return real.is_relative_to(self.root) and stat.S_ISREG(real.stat().st_mode)
        except (OSError, RuntimeError):  # a loop, a dangling link, no permission
            return False

    def _files(self, top: Path, glob: str | None) -> Iterator[Path]:
        if top.is_file():
            yield top
            return
        for folder, dirs, files in os.walk(top):  # symlinked folders are not entered
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                path = Path(folder) / name
                if (glob is None or path.match(glob)) and self._inside(path):
                    yield path

    def grep(self, args: dict[str, Any]) -> str:
        try:
            pattern = re.compile(str(args.get("pattern") or ""))
        except re.error as exc:
            raise ToolError(f"bad pattern: {exc}") from exc
        glob = args.get("glob") or None
        hits: list[str] = []
        for path in self._files(self.resolve(args.get("path") or "."), glob):
            try:
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, start=1):
                        if pattern.search(line):
                            hits.append(f"{self._rel(path)}:{number}:{line.rstrip()[:300]}")
                            if len(hits) >= MAX_GREP_HITS:
                                return "\n".join(hits) + f"\n[stopped at {MAX_GREP_HITS} hits]"
            except (UnicodeDecodeError, OSError):
                continue  # binary or unreadable
        return "\n".join(hits) if hits else "no matches"

    # -- commands --------------------------------------------------------------------------
    def execute_command(self, args: dict[str, Any]) -> str:
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            raise ToolError("a command is required")
        if not self.allow_commands and (self.approve is None or not self.approve(command)):
            return "error: the user did not approve this command; do not retry it"
        guard = None
        if self.allow_commands:  # --yes never covers instruction files, .git or git config
            from remem.agent.guard import Snapshot
            from remem.agent.writes import protected_command

            why = protected_command(command, self.root)
            ask = self.approve_protected
            if why is not None and (ask is None or not ask(command, why)):
                return (
                    f"error: the user did not approve this command ({why}: such files are "
                    "read as instructions or run as code); do not retry it"
                )
            # ... nor a name the shell builds: what it changes there is put back after
            guard = Snapshot.take(self.root) if why is None else None
        out = self._run(command, float(args.get("timeout") or self.command_timeout))
        if guard is not None and (put_back := guard.restore(self.root, self._write_allowed)):
            out += (
                f"\n[remem put back {', '.join(put_back)}: files read as instructions or run "
                "as code change only with the user's approval; do not retry]"
            )
        return out

    def _write_allowed(self, rel: str) -> bool:
        from remem.agent.writes import WritePolicy

        return WritePolicy(self.root, self.write_allow).check(rel).allowed

    def _run(self, command: str, timeout: float) -> str:
        try:
            done = subprocess.run(
                command,
                shell=True,
                cwd=self.root,
                capture_output=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return f"error: the command did not finish within {timeout:g} s"
        out = (done.stdout + done.stderr).decode("utf-8", errors="replace")
        if len(out) > MAX_COMMAND_OUTPUT:
            half = MAX_COMMAND_OUTPUT // 2
            cut = len(out) - MAX_COMMAND_OUTPUT
            out = f"{out[:half]}\n[... {cut} chars cut ...]\n{out[-half:]}"
        return f"exit code: {done.returncode}\n{out}"

    # -- memory ----------------------------------------------------------------------------
    def _manager(self) -> MemoryManager:
        if self.manager is None:
            raise ToolError("no long-term memory in this session")
        return self.manager

    def save_memory(self, args: dict[str, Any]) -> str:
        from remem.errors import RememError

        mm = self._manager()
        content = str(args.get("content") or "").strip()
        decision = mm.allows_save(self.user_text(), content)
        settles = str(args.get("replace_id")) in self._conflicts.get(content, ()) or bool(
            args.get("keep_both") and content in self._conflicts
        )  # the user's answer to a conflict of a save they asked for
        if not (decision.allowed or settles):
            return f"refused: {decision.reason}"
        try:
            result = mm.save(
                content,
                type=args.get("type") or "fact",
                scope="global" if args.get("scope") == "global" else "project",
                source="model",
                replace_id=args.get("replace_id") or None,
                force=bool(args.get("keep_both")),
                allow_secret=False,  # keep_both settles a conflict; it never lets a secret in
            )
        except RememError as exc:  # a secret, not found, not this partition's, the store
            return f"refused: {exc}"
        self._conflicts.pop(content, None)
        if result.status == "conflict":
            self._conflicts[content] = {old.id for old in result.conflicts}
            lines = [f"CONFLICT: nothing saved. '{result.entry.content}' conflicts with:"]
            for old, why in zip(result.conflicts, result.reasons, strict=True):
                lines.append(f"- id {old.id}: {old.content} ({why})")
            lines.append(
                "Ask the user which is right. Then call save_memory again with "
                f'replace_id="{result.conflicts[0].id}" to replace the old memory, '
                "or keep_both=true to keep both."
            )
            return "\n".join(lines)
        if result.status == "duplicate":
            return f"already remembered (id {result.entry.id}): {result.entry.content}"
        if result.status == "replaced" and result.replaced is not None:
            return f"replaced {result.replaced.id}; saved id {result.entry.id}"
        if result.status == "superseded" and result.replaced is not None:
            return (
                f"updated: {result.replaced.id} ('{result.replaced.content}') is now history; "
                f"saved id {result.entry.id}"
            )
        return f"saved (id {result.entry.id}): {result.entry.content}"

    def search_memory(self, args: dict[str, Any]) -> str:
        from remem.errors import InvalidInput

        try:
            hits = self._manager().memory.search(
                str(args.get("query") or ""), limit=int(args.get("limit") or 5)
            )
        except InvalidInput as exc:
            return f"error: {exc}"
        if not hits:
            return "no memories match"
        return "\n".join(
            f"- id {h.entry.id} ({h.entry.type}, {h.entry.created_at.date().isoformat()}"
            f"{', possibly stale' if h.stale else ''}): {h.entry.content}"
            for h in hits
        )


def parse_arguments(arguments: str | dict[str, Any]) -> dict[str, Any]:
    """A tool call's arguments as a dict (they arrive as a JSON string)."""
    if isinstance(arguments, dict):
        return arguments
    if not arguments.strip():
        return {}
    try:
        value = json.loads(arguments)
    except ValueError as exc:
        raise ToolError(f"arguments are not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ToolError("arguments must be a JSON object")
    return value
