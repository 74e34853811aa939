"""BM25 in PostgreSQL's SQL, for `remem.store.postgres.store`: from the postings table
(keyword search) or as an expression over a row's terms (near-duplicate checks), with
FTS5's formula so both backends rank alike. Parameters use the shared core's
`:name` marks."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from remem.store.protocol import CorpusStats

# A GIN key must fit in an index page; longer "terms" (a base64 blob, a hash run
# together) are useless for search anyway and stay out of the index.
MAX_TERM_BYTES = 512
# FTS5's bm25() defaults, so both backends rank keyword candidates alike.
K1, B = 1.2, 0.75


def indexable(terms: Sequence[str]) -> list[str]:
    return [t for t in terms if t and len(t.encode("utf-8")) <= MAX_TERM_BYTES]


def bm25(stats: CorpusStats, terms: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """An SQL expression scoring row `e` by Okapi BM25 over `terms` (FTS5's formula,
    idf clamped at a small positive value), with its parameters."""
    idf = [_idf(stats, t) for t in terms]
    # Unrolled per term: a correlated unnest() per row costs several times more.
    parts = []
    params: dict[str, Any] = {"bm_avg": max(stats.avg_len, 1.0)}
    for i, (term, weight) in enumerate(zip(terms, idf, strict=True)):
        tf = f"coalesce(cardinality(array_positions(e.terms, (:bm_t{i})::text)), 0)"
        parts.append(
            f"{weight!r}::float8 * {tf} * {K1 + 1}::float8 / ({tf} + {K1}::float8 * "
            f"({1 - B}::float8 + {B}::float8 * e.term_count / :bm_avg::float8))"
        )
        params[f"bm_t{i}"] = term
    expr = "(" + " + ".join(parts or ["0"]) + ")"
    return expr, params


# BM25 of every entry holding a query term, from the postings alone (index-only scan).
BM25_POSTINGS = (
    "SELECT p.entry_pos AS pos, sum(q.idf * p.tf * :bm_k1p / (p.tf + :bm_k1 * "
    "(:bm_1mb + :bm_b * p.dl / :bm_avg))) AS score "
    "FROM unnest(:bm_terms::text[], :bm_idf::float8[]) AS q(term, idf) "
    "JOIN postings p ON p.term = q.term GROUP BY p.entry_pos"
)


def bm25_params(stats: CorpusStats, terms: Sequence[str]) -> dict[str, Any]:
    """Parameters of BM25_POSTINGS for `terms` (FTS5's formula, idf clamped)."""
    return {
        "bm_k1p": K1 + 1,
        "bm_k1": K1,
        "bm_1mb": 1 - B,
        "bm_b": B,
        "bm_avg": max(stats.avg_len, 1.0),
        "bm_terms": list(terms),
        "bm_idf": [_idf(stats, t) for t in terms],
    }


def _idf(stats: CorpusStats, term: str) -> float:
    n, df = max(stats.docs, 1), stats.doc_freq.get(term, 0)
    return max(1e-6, math.log((n - df + 0.5) / (df + 0.5)))
