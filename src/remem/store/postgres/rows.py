"""How entries map to PostgreSQL rows, filters to SQL and BM25 to an expression, for
`remem.store.postgres.store`. Parameters are psycopg's named `%(name)s` placeholders."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from remem.entry import Entry
from remem.store import sql
from remem.store.protocol import CorpusStats, Filter, IndexFields
from remem.store.sql import Dialect, dumps

# A GIN key must fit in an index page; longer "terms" (a base64 blob, a hash run
# together) are useless for search anyway and stay out of the index.
MAX_TERM_BYTES = 512
# FTS5's bm25() defaults, so both backends rank keyword candidates alike.
K1, B = 1.2, 0.75


def indexable(terms: Sequence[str]) -> list[str]:
    return [t for t in terms if t and len(t.encode("utf-8")) <= MAX_TERM_BYTES]


def entry_params(entry: Entry, index: IndexFields) -> dict[str, Any]:
    terms = indexable(index.terms)
    return {
        "id": entry.id, "content": entry.content, "type": entry.type, "scope": entry.scope,
        "project": entry.project, "session_id": entry.session_id, "user_id": entry.user_id,
        "agent_id": entry.agent_id, "created_at": entry.created_at,
        "updated_at": entry.updated_at, "last_verified_at": entry.last_verified_at,
        "token_count": entry.token_count, "source": entry.source,
        "confidence": entry.confidence, "metadata": dumps(entry.metadata),
        "entity": entry.entity, "facts": dumps(entry.facts),
        "linked_paths": dumps(entry.linked_paths), "expires_at": entry.expires_at,
        "importance": entry.importance, "superseded_by": entry.superseded_by,
        "supersedes": entry.supersedes, "canon": index.canon, "skeleton": index.skeleton,
        "terms": terms, "term_count": len(terms),
    }  # fmt: skip


POSTGRES = Dialect(mark="%({})s", same="IS NOT DISTINCT FROM", time=lambda t: t)


def where_clause(flt: Filter, now: datetime) -> tuple[str, dict[str, Any]]:
    return sql.where_clause(flt, now, POSTGRES)


def bm25(stats: CorpusStats, terms: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """An SQL expression scoring row `e` by Okapi BM25 over `terms` (FTS5's formula,
    idf clamped at a small positive value), with its parameters."""
    idf = [_idf(stats, t) for t in terms]
    # Unrolled per term: a correlated unnest() per row costs several times more.
    parts = []
    params: dict[str, Any] = {"bm_avg": max(stats.avg_len, 1.0)}
    for i, (term, weight) in enumerate(zip(terms, idf, strict=True)):
        tf = f"coalesce(cardinality(array_positions(e.terms, %(bm_t{i})s::text)), 0)"
        parts.append(
            f"{weight!r}::float8 * {tf} * {K1 + 1}::float8 / ({tf} + {K1}::float8 * "
            f"({1 - B}::float8 + {B}::float8 * e.term_count / %(bm_avg)s::float8))"
        )
        params[f"bm_t{i}"] = term
    expr = "(" + " + ".join(parts or ["0"]) + ")"
    return expr, params


# BM25 of every entry holding a query term, from the postings alone (index-only scan).
BM25_POSTINGS = (
    "SELECT p.entry_pos AS pos, sum(q.idf * p.tf * %(bm_k1p)s / (p.tf + %(bm_k1)s * "
    "(%(bm_1mb)s + %(bm_b)s * p.dl / %(bm_avg)s))) AS score "
    "FROM unnest(%(bm_terms)s::text[], %(bm_idf)s::float8[]) AS q(term, idf) "
    "JOIN postings p ON p.term = q.term GROUP BY p.entry_pos"
)


def bm25_params(stats: CorpusStats, terms: Sequence[str]) -> dict[str, Any]:
    """Parameters of BM25_POSTINGS for `terms` (FTS5's formula, idf clamped)."""
    return {
        "bm_k1p": K1 + 1, "bm_k1": K1, "bm_1mb": 1 - B, "bm_b": B,
        "bm_avg": max(stats.avg_len, 1.0), "bm_terms": list(terms),
        "bm_idf": [_idf(stats, t) for t in terms],
    }  # fmt: skip


def _idf(stats: CorpusStats, term: str) -> float:
    n, df = max(stats.docs, 1), stats.doc_freq.get(term, 0)
    return max(1e-6, math.log((n - df + 0.5) / (df + 0.5)))
