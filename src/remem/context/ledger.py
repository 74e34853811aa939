"""The session ledger (SPEC SS1-SS3): one append-only JSONL file per session.

Each line is one event `{"v": 1, "seq": n, "at": ts, "type": ..., ...}`:

- `session_start` - metadata (project, model ...), written when the file is created;
- `message` - one message as it was sent or received;
- `view_checkpoint` - the full visible list after every change (`source`, `tokens`,
  `messages`), so compaction or `/clear` never needs to rewrite the past;
- `event` - free-form notes (`kind` plus fields), e.g. compaction reports;
- `session_end` - written once by `close()`.

Listing, finding and loading sessions is `remem.context.sessions`.

Execution units other than the top-level conversation (a task of a plan, a sub-agent:
SPEC ST1) record into the same file through a `UnitRecorder`: their `message`,
`view_checkpoint` and `event` lines carry `"unit": "<id>"`. The top-level view, titles
and counts look only at lines without one; `view_of(events, unit=...)` rebuilds a unit's.

Strings are written with what the secret detector finds replaced by `[REDACTED:<kind>]`
(a resumed session sees the redacted text); the file is 0600 in a 0700 folder.

Every event is one `os.write` of one full line on an O_APPEND descriptor, then
`fsync`, so a crash leaves at worst a partial last line; readers skip such a line and
report it. `resume` rebuilds what the model saw: the last checkpoint plus every
message appended after it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import threading
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from remem.context.private import ignore_all, private_folder, redacted
from remem.entry import format_ts, utcnow
from remem.errors import (
    AmbiguousId,
    InvalidInput,
    NotFound,
    RememError,
    StoreError,
    describe_os_error,
)
from remem.files import read_bytes
from remem.messages import Message, messages_tokens

__all__ = [
    "LEDGER_VERSION",
    "LedgerContents",
    "SessionLedger",
    "UnitRecorder",
    "new_session_id",
    "read_events",
    "read_ledger",
    "resume",
    "find_session",
    "ledger_path",
    "sessions_dir",
    "view_of",
]

log = logging.getLogger(__name__)

LEDGER_VERSION = 1
SUFFIX = ".jsonl"
TITLE_CHARS = 60
EVENT_TYPES = frozenset({"session_start", "message", "view_checkpoint", "event", "session_end"})
SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def sessions_dir(root: Path) -> Path:
    return root / ".remem" / "sessions"


def new_session_id(now: datetime | None = None) -> str:
    """`20261130-091500-a1b2c3`: UTC start time (sorts by age) plus 24 random bits."""
    return f"{(now or utcnow()).strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"


def _check_id(session_id: str) -> str:
    if not isinstance(session_id, str) or not SESSION_ID.match(session_id):
        raise InvalidInput(f"not a session id: {session_id!r} (letters, digits, . _ - only)")
    return session_id


def _encode(event: Mapping[str, Any]) -> bytes:
    """One JSON line. Chinese stays readable; lone surrogates fall back to escapes."""
    try:
        text = json.dumps(event, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"a ledger event must be plain JSON: {exc}") from exc
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(event, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
        return (text + "\n").encode("ascii")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:  # a regular file writes it all at once; loop only on a short write
        written = os.write(fd, view)
        view = view[written:]


def _ensure_folder(root: Path) -> Path:
    folder = sessions_dir(root)
    try:
        private_folder(root / ".remem")
        private_folder(folder)
    except OSError as exc:
        raise StoreError(f"cannot create {folder}: {describe_os_error(exc)}") from exc
    # Sessions stay out of git, the rest of .remem/ (project skills) may be committed.
    ignore_all(folder)
    return folder


def _fsync_dir(folder: Path) -> None:
    """Make a new file's name durable too (best effort: not every system allows it)."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _check_message(message: object) -> Message:
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        raise InvalidInput("a message must be a dict with a string 'role'")
    return message


class SessionLedger:
    """Appends one session's events to `<root>/.remem/sessions/<id>.jsonl`.

    A new id creates a new file starting with `session_start`; an existing id
    continues that file (its sequence numbers go on). Safe to share between threads.
    """

    def __init__(
        self,
        root: Path,
        session_id: str | None = None,
        *,
        fsync: bool = True,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self.root = Path(root)
        self.fsync = fsync
        self._lock = threading.RLock()
        self._closed = False
        self._memo: dict[str, str] = {}
        folder = _ensure_folder(self.root)
        try:
            if session_id is None:
                self.id, self._fd = self._create_new(folder)
                created = True
            else:
                self.id = _check_id(session_id)
                self._fd, created = self._open(folder / f"{self.id}{SUFFIX}")
        except OSError as exc:
            raise StoreError(
                f"cannot open the session ledger in {folder}: {describe_os_error(exc)}"
            ) from exc
        self.path = folder / f"{self.id}{SUFFIX}"
        _lock(self._fd, self.id)
        self._seq = 0 if created else _last_seq(self.path)
        if created:
            if fsync:
                _fsync_dir(folder)
            self.append("session_start", {"session_id": self.id, **(metadata or {})})

    @staticmethod
    def _create_new(folder: Path) -> tuple[str, int]:
        """A new session id and its ledger file, opened (O_EXCL: never another's)."""
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL
        for _ in range(100):
            session_id = new_session_id()
            try:
                return session_id, os.open(folder / f"{session_id}{SUFFIX}", flags, 0o600)
            except FileExistsError:
                continue
        raise StoreError(f"cannot find a free session id in {folder}")

    @staticmethod
    def _open(path: Path) -> tuple[int, bool]:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        size = os.fstat(fd).st_size
        if size:
            with open(path, "rb") as f:
                f.seek(size - 1)
                if f.read(1) != b"\n":  # a crash left a partial line: end it, keep it
                    _write_all(fd, b"\n")
        return fd, size == 0

    # -- writing -------------------------------------------------------------------------
    def append(self, type_: str, data: Mapping[str, Any] | None = None) -> int:
        """Append one event of `type_` with `data`'s fields; returns its sequence number."""
        if type_ not in EVENT_TYPES:
            raise InvalidInput(f"unknown ledger event type {type_!r}")
        with self._lock:
            if self._closed:
                raise RememError(f"session ledger {self.id} is closed")
            event: dict[str, Any] = {"v": LEDGER_VERSION, "seq": self._seq + 1}
            event["at"] = format_ts(utcnow())
            event["type"] = type_
            for key, value in (data or {}).items():
                if key in event:
                    raise InvalidInput(f"{key!r} is set by the ledger itself")
                event[key] = redacted(value, self._memo)
            line = _encode(event)
            try:
                _write_all(self._fd, line)
                if self.fsync:
                    os.fsync(self._fd)
            except OSError as exc:
                raise StoreError(
                    f"cannot write the session ledger {self.path}: {describe_os_error(exc)}"
                ) from exc
            self._seq += 1
            return self._seq

    def message(self, message: Message) -> int:
        """Record one message exactly as given (extra keys such as `remem_internal` kept)."""
        return self.append("message", {"message": _check_message(message)})

    def checkpoint(
        self,
        messages: Sequence[Message],
        source: str = "turn",
        *,
        tokens: int | None = None,
        **extra: Any,
    ) -> int:
        """Record the full visible list after a change (`source`: turn, compaction, clear ...)."""
        visible = [_check_message(m) for m in messages]
        count = messages_tokens(visible) if tokens is None else tokens
        return self.append(
            "view_checkpoint", {"source": source, "tokens": count, **extra, "messages": visible}
        )

    def event(self, kind: str, **data: Any) -> int:
        """A free-form note: `ledger.event("compaction", level=2, saved=1800)`."""
        return self.append("event", {"kind": kind, **data})

    def flush(self) -> None:
        """Force what was written to disk (only needed with `fsync=False`)."""
        with self._lock:
            if self._closed:
                return
            try:
                os.fsync(self._fd)
            except OSError as exc:
                raise StoreError(
                    f"cannot flush the session ledger {self.path}: {describe_os_error(exc)}"
                ) from exc

    def close(self, reason: str = "exit") -> None:
        """Append `session_end` once and close the file; later calls do nothing."""
        with self._lock:
            if self._closed:
                return
            try:
                self.append("session_end", {"reason": reason})
            finally:
                self._closed = True
                os.close(self._fd)

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> SessionLedger:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close("exit" if exc_type is None else f"error: {exc_type.__name__}")


class UnitRecorder:
    """Records one execution unit's changes into the session's ledger, each line tagged
    with the unit's id (the `Recorder` a unit's ContextManager reports to)."""

    def __init__(self, ledger: SessionLedger, unit: str) -> None:
        if not unit:
            raise InvalidInput("a unit needs an id")
        self.ledger = ledger
        self.unit = unit

    def message(self, message: Message) -> int:
        data = {"unit": self.unit, "message": _check_message(message)}
        return self.ledger.append("message", data)

    def checkpoint(
        self, messages: Sequence[Message], source: str = "turn", *, tokens: int | None = None
    ) -> int:
        return self.ledger.checkpoint(messages, source, tokens=tokens, unit=self.unit)

    def event(self, kind: str, **data: Any) -> int:
        return self.ledger.event(kind, unit=self.unit, **data)


def _lock(fd: int, session_id: str) -> None:
    """One writer per session: a second process continuing it would interleave two
    conversations in one file. The lock goes with the process (a crash frees it)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks here
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        raise StoreError(f"session {session_id} is open in another remem process") from exc


def _last_seq(path: Path) -> int:
    events = read_events(path)
    return max((e["seq"] for e in events if isinstance(e.get("seq"), int)), default=0)


# -- reading -------------------------------------------------------------------------------
@dataclass(slots=True)
class LedgerContents:
    """The events of one ledger file and the lines that could not be read."""

    path: Path
    events: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "line 7: <why>"

    @property
    def partial_tail(self) -> bool:
        """The last line was cut off (a crash in the middle of a write)."""
        return bool(self.skipped) and self.skipped[-1].endswith("(last line)")


def _parse_line(raw: bytes) -> dict[str, Any] | str:
    """The event on this line, or why it is not one."""
    try:
        event = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return "not a complete JSON line"
    if not isinstance(event, dict) or event.get("type") not in EVENT_TYPES:
        return "not a ledger event"
    if event.get("v") != LEDGER_VERSION:
        return f"unsupported ledger version {event.get('v')!r}"
    return event


def read_ledger(path: Path) -> LedgerContents:
    """Every readable event; damaged lines are skipped and listed, never raised."""
    if not Path(path).exists():
        raise NotFound(f"no session ledger at {path}")
    data = read_bytes(path, "the session ledger")
    out = LedgerContents(Path(path))
    lines = data.split(b"\n")
    last = len(lines) - 1 if lines[-1] else len(lines) - 2
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        parsed = _parse_line(raw)
        if isinstance(parsed, dict):
            out.events.append(parsed)
            continue
        where = " (last line)" if number - 1 == last else ""
        out.skipped.append(f"line {number}: {parsed}{where}")
    for note in out.skipped:
        log.warning("%s: skipped %s", path, note)
    return out


def read_events(path: Path) -> list[dict[str, Any]]:
    """The readable events of a ledger file, in order (see `read_ledger` for the skips)."""
    return read_ledger(path).events


def view_of(events: Sequence[Mapping[str, Any]], unit: str | None = None) -> list[Message]:
    """The messages of the last checkpoint plus every message recorded after it, of the
    top-level conversation (or of the execution unit `unit`)."""
    view: list[Message] = []
    for event in events:
        if event.get("unit") != unit:
            continue
        if event["type"] == "view_checkpoint" and isinstance(event.get("messages"), list):
            view = list(event["messages"])
        elif event["type"] == "message" and isinstance(event.get("message"), dict):
            view.append(event["message"])
    return view


def find_session(id_or_prefix: str, root: Path) -> Path:
    """The ledger file of the one session whose id is or starts with `id_or_prefix`."""
    wanted = id_or_prefix.strip() if isinstance(id_or_prefix, str) else ""
    if not wanted or not SESSION_ID.match(wanted):
        raise InvalidInput(f"not a session id or prefix: {id_or_prefix!r}")
    folder = sessions_dir(root)
    exact = folder / f"{wanted}{SUFFIX}"
    if exact.is_file():
        return exact
    matches = sorted(folder.glob(f"{wanted}*{SUFFIX}")) if folder.is_dir() else []
    if not matches:
        raise NotFound(f"no session {wanted!r} in {folder}")
    if len(matches) > 1:
        names = ", ".join(p.name.removesuffix(SUFFIX) for p in matches[:5])
        raise AmbiguousId(f"{wanted!r} matches {len(matches)} sessions: {names}")
    return matches[0]


def ledger_path(session: str | os.PathLike[str], root: Path | None) -> Path:
    if isinstance(session, os.PathLike) or str(session).endswith(SUFFIX) or os.sep in session:
        return Path(session)
    if root is None:
        raise InvalidInput("a session id needs the project root to find its ledger")
    return find_session(session, root)


def resume(session: str | os.PathLike[str], root: Path | None = None) -> list[Message]:
    """Exactly what the model saw last (SS2): the last checkpoint plus what followed it."""
    return view_of(read_events(ledger_path(session, root)))
