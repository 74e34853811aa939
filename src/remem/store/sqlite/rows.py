"""How entries map to SQLite rows and filters to SQL, for `remem.store.sqlite.store`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from remem.entry import Entry, format_ts
from remem.store import sql
from remem.store.protocol import Filter, IndexFields
from remem.store.sql import E_COLUMNS, ENTRY_COLUMNS, Dialect, dumps, row_to_entry, ts

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


SQLITE = Dialect(mark=":{}", same="IS", time=format_ts)


def where_clause(flt: Filter, now: datetime) -> tuple[str, dict[str, Any]]:
    return sql.where_clause(flt, now, SQLITE)


def match_expr(terms: Sequence[str], op: str = "OR") -> str:
    return f" {op} ".join('"' + t.replace('"', '""') + '"' for t in terms)
