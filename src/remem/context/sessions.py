"""The sessions of a project as `/resume`, `remem sessions` and `remem chat --resume`
see them: listed from their ledgers (`remem.context.ledger`), found by id or prefix,
loaded with the list the model last saw (SPEC SS2)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from remem.context.ledger import (
    SUFFIX,
    TITLE_CHARS,
    ledger_path,
    read_events,
    read_ledger,
    sessions_dir,
    view_of,
)
from remem.entry import to_utc
from remem.errors import InvalidInput
from remem.messages import Message, is_real_user, text_of

__all__ = ["Session", "SessionInfo", "list_sessions", "load"]


@dataclass(slots=True)
class SessionInfo:
    """One session as `/resume` lists it."""

    id: str
    path: Path
    started_at: datetime
    updated_at: datetime
    messages: int  # `message` events
    checkpoints: int
    last_checkpoint_tokens: int | None
    title: str  # the first real user message, shortened
    ended: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)  # from session_start
    visible: int = 0  # messages in the list the model saw last (what `show` lists)


@dataclass(slots=True)
class Session:
    """A loaded session: what it is, and the list the model last saw."""

    info: SessionInfo
    messages: list[Message]
    skipped: list[str] = field(default_factory=list)


def _title(events: Sequence[Mapping[str, Any]]) -> str:
    for event in events:
        if "unit" in event:  # a task's or a sub-agent's prompt is not the session's title
            continue
        if event["type"] == "message":
            candidates = [event.get("message")]
        elif event["type"] == "view_checkpoint":
            candidates = list(event.get("messages") or [])
        else:
            continue
        for m in candidates:
            if isinstance(m, dict) and is_real_user(m) and text_of(m).strip():
                text = " ".join(text_of(m).split())
                return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"
    return ""


def _timestamp(event: Mapping[str, Any], fallback: datetime) -> datetime:
    try:
        return to_utc(str(event.get("at")))
    except InvalidInput:
        return fallback


def _info(path: Path, events: Sequence[Mapping[str, Any]]) -> SessionInfo:
    mtime = datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
    checkpoints = [e for e in events if e["type"] == "view_checkpoint" and "unit" not in e]
    start = next((e for e in events if e["type"] == "session_start"), None)
    metadata = {k: v for k, v in (start or {}).items() if k not in ("v", "seq", "at", "type")}
    tokens = checkpoints[-1].get("tokens") if checkpoints else None
    return SessionInfo(
        id=path.name.removesuffix(SUFFIX),
        path=path,
        started_at=_timestamp(events[0], mtime) if events else mtime,
        updated_at=_timestamp(events[-1], mtime) if events else mtime,
        messages=sum(1 for e in events if e["type"] == "message" and "unit" not in e),
        checkpoints=len(checkpoints),
        last_checkpoint_tokens=tokens if isinstance(tokens, int) else None,
        title=_title(events),
        ended=bool(events) and events[-1]["type"] == "session_end",
        metadata=metadata,
        visible=len(view_of(events)),
    )


def list_sessions(root: Path) -> list[SessionInfo]:
    """Every session of the project, most recently active first."""
    folder = sessions_dir(root)
    if not folder.is_dir():
        return []
    infos = [_info(p, read_events(p)) for p in folder.glob(f"*{SUFFIX}") if p.is_file()]
    return sorted(infos, key=lambda i: (i.updated_at, i.id), reverse=True)


def load(session: str | os.PathLike[str], root: Path | None = None) -> Session:
    """A session by id, unique id prefix, or ledger path, with the list the model last saw."""
    path = ledger_path(session, root)
    contents = read_ledger(path)
    return Session(_info(path, contents.events), view_of(contents.events), contents.skipped)
