"""How an entry maps to the columns of a SQL row, shared by the SQL backends."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from remem.entry import Entry, format_ts, to_utc
from remem.store.protocol import Filter

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


@dataclass(frozen=True, slots=True)
class Dialect:
    """How a SQL backend spells what `where_clause` needs."""

    mark: str  # a named parameter, "{}" for the name: ":{}" or "%({})s"
    same: str  # null-safe equality: "IS" or "IS NOT DISTINCT FROM"
    time: Callable[[datetime], Any]  # a timestamp as the driver stores it


def where_clause(flt: Filter, now: datetime, dialect: Dialect) -> tuple[str, dict[str, Any]]:
    """SQL over the entries table aliased `e` for what `flt` lets through (SPEC RT1,
    LT3), and its parameters: one statement of the visibility rules for every backend."""
    p, same = dialect.mark.format, dialect.same
    vis = flt.visibility
    clauses = [
        f"(e.scope = 'global' OR (e.scope = 'project' AND e.project {same} {p('project')})"
        f" OR (e.scope = 'session' AND e.session_id {same} {p('session_id')}))",
        f"(e.user_id IS NULL OR e.user_id = {p('user_id')})",
        f"(e.agent_id IS NULL OR e.agent_id = {p('agent_id')})",
    ]
    params: dict[str, Any] = {
        "project": vis.project, "session_id": vis.session_id,
        "user_id": vis.user_id, "agent_id": vis.agent_id, "now": dialect.time(now),
    }  # fmt: skip
    if not flt.include_history:
        clauses.append("e.superseded_by IS NULL")
    if not flt.include_expired:
        clauses.append(f"(e.expires_at IS NULL OR e.expires_at > {p('now')})")
    for name, values in (("scope", flt.scopes), ("type", flt.types)):
        if values is not None:
            marks = ", ".join(p(f"{name}{i}") for i in range(len(values)))
            clauses.append(f"e.{name} IN ({marks})" if values else "FALSE")
            params.update({f"{name}{i}": v for i, v in enumerate(values)})
    if flt.entity is not None:
        clauses.append(f"e.entity = {p('entity')}")
        params["entity"] = flt.entity
    if flt.since is not None:
        clauses.append(f"e.created_at >= {p('since')}")
        params["since"] = dialect.time(flt.since)
    if flt.until is not None:
        clauses.append(f"e.created_at < {p('until')}")
        params["until"] = dialect.time(flt.until)
    return " AND ".join(clauses), params
