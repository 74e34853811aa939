"""How entries map to SQLite rows and filters to SQL, for `remem.sqlite_store`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remem.entry import Entry, format_ts
from remem.entry_rows import E_COLUMNS, ENTRY_COLUMNS, dumps, row_to_entry, ts
from remem.store import Filter, IndexFields

__all__ = ["E_COLUMNS", "ENTRY_COLUMNS", "dumps", "entry_params", "match_expr", "row_to_entry"]


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
