"""Versioned, named migrations of the PostgreSQL store, applied when a store opens.

PostgreSQL's own text parser cannot segment Chinese, so entries keep remem's terms
(jieba tokens and stemmed English words, as in SQLite) in a `text[]` column with a
GIN index; BM25 is computed from them in SQL. Vectors sit in a pgvector column
with one HNSW index per embedding model (a partial index on the model's rows).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from remem.store.tables import (
    POSTGRES_TYPES,
    api_tokens,
    early,
    entries_v1,
    truth,
    value_keys,
    vectors,
)

# One advisory lock id (any constant) serialises migrations and writers, as SQLite's
# BEGIN IMMEDIATE does: the dedup check and the insert must see the same state.
LOCK_ID = 0x72656D656D  # "remem"

_V1 = (
    entries_v1(POSTGRES_TYPES)
    + vectors(POSTGRES_TYPES)
    + """
CREATE INDEX entries_terms ON entries USING gin(terms);

CREATE TABLE term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL);

-- docs and terms for BM25; gen counts commits so that caches see other writers.
CREATE TABLE corpus (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    docs BIGINT NOT NULL,
    terms BIGINT NOT NULL,
    gen BIGINT NOT NULL
);
INSERT INTO corpus VALUES (1, 0, 0, 0);

CREATE TABLE usage (
    entry_id TEXT PRIMARY KEY,
    used_at TIMESTAMPTZ NOT NULL,
    uses INTEGER NOT NULL
);
"""
)

# An inverted index for BM25: scoring from postings (term, entry, tf, length) is an
# index-only scan and one aggregate, where scoring the rows' term arrays costs ~1 µs
# per term per row (30+ ms for a common query at 100k entries).
_V2 = """
CREATE TABLE postings (
    term TEXT NOT NULL,
    entry_pos BIGINT NOT NULL REFERENCES entries(pos) ON DELETE CASCADE,
    tf INTEGER NOT NULL,
    dl INTEGER NOT NULL,
    PRIMARY KEY (term, entry_pos) INCLUDE (tf, dl)
);
CREATE INDEX postings_entry ON postings(entry_pos);
-- What filters read, so that thousands of scored candidates are filtered from the
-- index alone; only the winners' rows are fetched.
CREATE INDEX entries_filter ON entries(pos) INCLUDE (scope, project, session_id, user_id,
    agent_id, superseded_by, expires_at, type, entity, created_at);
INSERT INTO postings SELECT t, e.pos, count(*), e.term_count
    FROM entries e, unnest(e.terms) AS t GROUP BY t, e.pos;
ANALYZE entries;
ANALYZE postings;
"""

# Settings of the store itself (see remem.store.sqlite.schema's migration 5).
_V3 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta SELECT 'index_version', '1' WHERE EXISTS (SELECT 1 FROM entries);
"""

# Who may use `remem serve` (see remem.store.sqlite.schema's migration 6).
_V4 = api_tokens(POSTGRES_TYPES)

# What filters read now includes validity ("true now", "as of"): the covering index
# of migration 2 gains valid_from and valid_to.
_V5_INDEX = """
DROP INDEX entries_filter;
CREATE INDEX entries_filter ON entries(pos) INCLUDE (scope, project, session_id, user_id,
    agent_id, superseded_by, expires_at, type, entity, created_at, valid_from, valid_to);
ANALYZE entries;
"""

MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "entries, term index, named values, audit log, vectors, usage", _V1),
    (2, "postings for BM25", _V2),
    (3, "store settings (index version)", _V3),
    (4, "api tokens of the server", _V4),
    (5, "subject, value and validity of each entry", truth(POSTGRES_TYPES) + _V5_INDEX),
    (6, "named values and subject words indexed in entry order", early(POSTGRES_TYPES)),
    (7, "value terms beside each subject key", value_keys(POSTGRES_TYPES)),
]


def _statements(sql: str) -> list[str]:
    body = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    return [s.strip() for s in body.split(";") if s.strip()]


LATEST = MIGRATIONS[-1][0]  # the newest schema this remem knows


def migrate(conn: Any) -> list[int]:
    """Apply pending migrations in one transaction under the writers' lock; returns the
    versions applied. `conn` is a psycopg connection in autocommit mode."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_ID,))
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)"
        )
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        applied: list[int] = []
        for version, name, sql in MIGRATIONS:
            if version > row[0]:
                for statement in _statements(sql):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations VALUES (%s, %s, now())", (version, name)
                )
                applied.append(version)
        return applied


def has_store(conn: Any) -> bool:
    """Has remem begun a store in this database?"""
    return bool(conn.execute("SELECT to_regclass('schema_migrations')").fetchone()[0] is not None)


def refuse_older(conn: Any, name: str) -> None:
    """Refuse a database an older remem made, for a command that only reads: migrating
    it would change a shared store, and it cannot be copied aside to read. (A database
    without a store yet is begun as before; a current one `migrate` leaves as it is.)"""
    if conn.execute("SELECT to_regclass('schema_migrations')").fetchone()[0] is None:
        return
    found = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0]
    if found and found < LATEST:
        from remem.errors import StoreError

        raise StoreError(
            f"the store {name} was made by an older remem (schema {found}, this one's is "
            f"{LATEST}); a command that only reads does not upgrade it, and nothing was "
            "changed: `remem reindex`, or any command that writes, upgrades it"
        )


def hnsw_index_sql(model: str, dim: int) -> str:
    """An HNSW index (cosine) over one model's vectors: pgvector indexes need a fixed
    dimension, and each model has its own, so each gets a partial index."""
    slug = re.sub(r"[^a-z0-9]+", "_", model.lower())[:30]
    digest = hashlib.sha1(f"{model}:{dim}".encode()).hexdigest()[:8]
    literal = model.replace("'", "''")
    return (
        f"CREATE INDEX IF NOT EXISTS vectors_hnsw_{slug}_{digest} ON vectors USING hnsw "
        f"((vec::vector({int(dim)})) vector_cosine_ops) WHERE model = '{literal}' "
        f"AND dim = {int(dim)}"
    )
