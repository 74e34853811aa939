"""How an entry maps to the columns of a SQL row, shared by the SQL backends."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from remem.entry import Entry, format_ts, to_utc

ENTRY_COLUMNS = (
    "id, content, type, scope, project, session_id, user_id, agent_id, created_at, updated_at, "
    "last_verified_at, token_count, source, confidence, metadata, entity, facts, linked_paths, "
    "expires_at, importance, superseded_by, supersedes"
)
E_COLUMNS = ", ".join(f"e.{c.strip()}" for c in ENTRY_COLUMNS.split(","))


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def ts(value: datetime | None) -> str | None:
    return None if value is None else format_ts(value)


def row_to_entry(row: Sequence[Any]) -> Entry:
    (eid, content, type_, scope, project, session_id, user_id, agent_id, created, updated,
     verified, tokens, source, confidence, metadata, entity, facts, linked, expires,
     importance, superseded_by, supersedes) = row[:22]  # fmt: skip
    return Entry(
        id=eid, content=content, type=type_, scope=scope, project=project,
        session_id=session_id, user_id=user_id, agent_id=agent_id,
        created_at=to_utc(created), updated_at=to_utc(updated),
        last_verified_at=to_utc(verified), token_count=tokens, source=source,
        confidence=confidence, metadata=json.loads(metadata), entity=entity,
        facts=json.loads(facts), linked_paths=json.loads(linked),
        expires_at=to_utc(expires) if expires else None, importance=importance,
        superseded_by=superseded_by, supersedes=supersedes,
    )  # fmt: skip
