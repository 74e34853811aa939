"""How entries map to SQLite rows and filters to SQL, for `remem.sqlite_store`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from remem.entry import Entry, format_ts, to_utc
from remem.store import Filter, IndexFields

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


def entry_params(entry: Entry, index: IndexFields) -> dict[str, Any]:
    return {
        "id": entry.id, "content": entry.content, "type": entry.type, "scope": entry.scope,
        "project": entry.project, "session_id": entry.session_id, "user_id": entry.user_id,
        "agent_id": entry.agent_id, "created_at": ts(entry.created_at),
        "updated_at": ts(entry.updated_at), "last_verified_at": ts(entry.last_verified_at),
        "token_count": entry.token_count, "source": entry.source,
        "confidence": entry.confidence, "metadata": dumps(entry.metadata),
        "entity": entry.entity, "facts": dumps(entry.facts),
        "linked_paths": dumps(entry.linked_paths), "expires_at": ts(entry.expires_at),
        "importance": entry.importance, "superseded_by": entry.superseded_by,
        "supersedes": entry.supersedes, "canon": index.canon, "skeleton": index.skeleton,
        "terms": " ".join(index.terms), "term_count": len(index.terms),
    }  # fmt: skip


def where_clause(flt: Filter, now: str) -> tuple[str, dict[str, Any]]:
    vis = flt.visibility
    clauses = [
        "(e.scope = 'global' OR (e.scope = 'project' AND e.project IS :project)"
        " OR (e.scope = 'session' AND e.session_id IS :session_id))",
        "(e.user_id IS NULL OR e.user_id = :user_id)",
        "(e.agent_id IS NULL OR e.agent_id = :agent_id)",
    ]
    params: dict[str, Any] = {
        "project": vis.project, "session_id": vis.session_id,
        "user_id": vis.user_id, "agent_id": vis.agent_id, "now": now,
    }  # fmt: skip
    if not flt.include_history:
        clauses.append("e.superseded_by IS NULL")
    if not flt.include_expired:
        clauses.append("(e.expires_at IS NULL OR e.expires_at > :now)")
    for name, values in (("scope", flt.scopes), ("type", flt.types)):
        if values is not None:
            marks = ", ".join(f":{name}{i}" for i in range(len(values)))
            clauses.append(f"e.{name} IN ({marks})" if values else "0")
            params.update({f"{name}{i}": v for i, v in enumerate(values)})
    if flt.entity is not None:
        clauses.append("e.entity = :entity")
        params["entity"] = flt.entity
    if flt.since is not None:
        clauses.append("e.created_at >= :since")
        params["since"] = format_ts(flt.since)
    if flt.until is not None:
        clauses.append("e.created_at < :until")
        params["until"] = format_ts(flt.until)
    return " AND ".join(clauses), params


def match_expr(terms: Sequence[str], op: str = "OR") -> str:
    return f" {op} ".join('"' + t.replace('"', '""') + '"' for t in terms)
