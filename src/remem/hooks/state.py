"""What a hook remembers between its calls in one agent session, under REMEM_HOME/hooks:
the memories already given (so a later prompt does not repeat them), the user's prompts
not yet read for facts, and the counts of the status line ("remem: 6 loaded · 2
captured"). One small JSON file per session, written atomically, readable by the user
only; a session start removes those unused for 30 days."""

from __future__ import annotations

import json
import os
import re
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

MAX_PENDING = 50  # prompts kept for capture when no turn ever ends (a crash, a kill)
KEEP_DAYS = 30  # a session's state untouched this long is removed when another starts


@dataclass
class SessionState:
    client: str
    session: str
    project: str = ""
    given: list[str] = field(default_factory=list)  # ids of the memories in the context now
    given_texts: list[str] = field(default_factory=list)  # and their text
    loaded: int = 0  # memories injected in the whole session (a compaction drops `given`)
    pending: list[str] = field(default_factory=list)  # the user's prompts, unread
    captured: list[str] = field(default_factory=list)  # ids saved for review

    @property
    def status_line(self) -> str:
        return f"remem: {self.loaded} loaded · {len(self.captured)} captured"

    def forget_given(self) -> None:
        """The context was compacted or cleared: what it held may be given again."""
        self.given, self.given_texts = [], []

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "status": self.status_line}


def folder(home: Path) -> Path:
    return home / "hooks" / "sessions"


def path_of(home: Path, client: str, session: str) -> Path:
    """The session id as a file name (the agents use UUIDs), with a checksum of the
    whole id so ids that differ only in unsafe characters stay apart."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", session)[:64]
    check = zlib.crc32(session.encode("utf-8", "replace"))
    return folder(home) / f"{client}-{safe}-{check:08x}.json"


def load(home: Path, client: str, session: str) -> SessionState:
    state = SessionState(client, session)
    try:
        data = json.loads(path_of(home, client, session).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return state  # none yet, or damaged: start this session's state afresh
    for name in ("project", "given", "given_texts", "loaded", "pending", "captured"):
        value = data.get(name)
        if isinstance(value, type(getattr(state, name))):
            setattr(state, name, value)
    return state


def save(home: Path, state: SessionState) -> None:
    """Readable by the user only (files 0600, folders 0700): it holds their prompts."""
    path = path_of(home, state.client, state.session)
    for part in (path.parent.parent, path.parent):
        part.mkdir(mode=0o700, exist_ok=True, parents=True)
        os.chmod(part, 0o700)
    state.pending = state.pending[-MAX_PENDING:]
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps(asdict(state), ensure_ascii=False))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def prune(home: Path, days: float = KEEP_DAYS) -> int:
    """Remove the state of sessions untouched for `days` (a session resumed after that
    only gives its memories once more); how many were removed."""
    cutoff = time.time() - days * 86400
    removed = 0
    for path in folder(home).glob("*.json"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except OSError:
            continue  # another hook removed or rewrote it meanwhile
    return removed


def latest(home: Path) -> SessionState | None:
    """The session whose hooks ran last, if any."""
    files = sorted(folder(home).glob("*.json"), key=lambda p: p.stat().st_mtime)
    for path in reversed(files):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return load(home, str(data["client"]), str(data["session"]))
        except (OSError, ValueError, KeyError):
            continue
    return None
