"""CP1: a tool result too big for the context goes whole to a file under the project,
and the conversation keeps a note of where it is plus its head and tail."""

from __future__ import annotations

import os
import re
import threading
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from remem.context.private import ignore_all, private_folder
from remem.errors import describe_os_error
from remem.secrets import redact

OUTPUT_DIR = Path(".remem") / "tool-outputs"
COMMAND_TOOLS = frozenset({"execute_command", "run_command", "bash", "shell"})
READ_TOOLS = frozenset({"read_file"})
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True, slots=True)
class OffloadConfig:
    max_chars: int = 32_000
    command_max_chars: int = 8_000
    head_chars: int = 2_000
    tail_chars: int = 800
    read_lines: int = 200


@dataclass(frozen=True, slots=True)
class Offloaded:
    text: str  # what goes into the conversation
    path: Path | None  # the file holding everything, or None when kept inline


class Offloader:
    """Writes oversized tool results to `<root>/.remem/tool-outputs/<session>/NNN-<tool>.txt`."""

    def __init__(self, root: Path, session_id: str, config: OffloadConfig | None = None) -> None:
        self.root = root
        self.session_id = re.sub(r"[^A-Za-z0-9_-]+", "_", session_id) or "session"
        self.config = config or OffloadConfig()
        self._lock = threading.Lock()
        self._seq = 0

    @property
    def folder(self) -> Path:
        return self.root / OUTPUT_DIR / self.session_id

    def bypass(self, tool: str, args: dict[str, Any] | None) -> bool:
        """Reads in pages, and reads of offloaded files, are never offloaded again."""
        if tool not in READ_TOOLS or not args:
            return False
        if args.get("offset") is not None or args.get("limit") is not None:
            return True
        path = str(args.get("path", ""))
        target = (self.root / path).resolve() if not os.path.isabs(path) else Path(path).resolve()
        return (self.root / OUTPUT_DIR).resolve() in target.parents

    def limit_for(self, tool: str) -> int:
        return self.config.command_max_chars if tool in COMMAND_TOOLS else self.config.max_chars

    def process(self, tool: str, content: str, args: dict[str, Any] | None = None) -> Offloaded:
        if len(content) <= self.limit_for(tool) or self.bypass(tool, args):
            return Offloaded(content, None)
        try:
            path = self._write(tool, content)
        except OSError as exc:  # a full disk: keep the preview, say why there is no file
            return Offloaded(self._note(tool, content, None, describe_os_error(exc)), None)
        return Offloaded(self._note(tool, content, path), path)

    def _write(self, tool: str, content: str) -> Path:
        """The whole output, secrets redacted, in a new 0600 file of a 0700 folder."""
        with self._lock:
            private_folder(self.root / ".remem")
            private_folder(self.root / OUTPUT_DIR)
            private_folder(self.folder)
            ignore_all(self.root / OUTPUT_DIR)
            self._seq = max(self._seq, len(list(self.folder.glob("*.txt")))) + 1
            path = self.folder / f"{self._seq:03d}-{_SAFE.sub('_', tool)[:40]}.txt"
        data = redact(content, contacts=False).encode("utf-8")  # secrets, as at a save
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError:
            with suppress(OSError):
                path.unlink()  # no half-written file left behind
            raise
        return path

    def _note(self, tool: str, content: str, path: Path | None, failed: str = "") -> str:
        cfg = self.config
        lines = content.count("\n") + (0 if content.endswith("\n") else 1)
        if path is None:
            where = f"[tool output too large, and it could not be saved to a file: {failed}]\n"
        else:
            relative = path.relative_to(self.root).as_posix()
            where = (
                "[tool output too large: offloaded whole to a file]\n"
                f"file: {relative}\n"
                f'read back: read_file {{"path": "{relative}", "offset": 1, "limit": '
                f"{cfg.read_lines}}} and move offset to page through it\n"
            )
        return (
            f"{where}tool: {tool}\n"
            f"size: {len(content)} chars / {lines} lines\n"
            f"--- head ---\n{content[: cfg.head_chars]}\n"
            f"--- tail ---\n{content[-cfg.tail_chars :]}"
        )
