"""Versioned, named migrations of the SQLite store, applied when a store opens."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from remem.entry import format_ts, utcnow
from remem.store.tables import (
    SQLITE_TYPES,
    api_tokens,
    early,
    entries_v1,
    truth,
    value_keys,
    vectors,
)

# Terms are produced by remem.text and joined by spaces; these token characters
# keep "3.11", "spring-boot" and "c++" whole inside FTS5 as they are in Python.
FTS_TOKENIZE = "unicode61 remove_diacritics 2 tokenchars '._-+#'"

_V1 = (
    entries_v1(SQLITE_TYPES)
    + f"""
CREATE VIRTUAL TABLE entries_fts USING fts5(
    terms, content='entries', content_rowid='rowid', tokenize="{FTS_TOKENIZE}"
);
CREATE VIRTUAL TABLE entries_vocab USING fts5vocab(entries_fts, 'row');

CREATE TABLE corpus (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    docs INTEGER NOT NULL,
    terms INTEGER NOT NULL
);
INSERT INTO corpus VALUES (1, 0, 0);

CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
    INSERT INTO entries_fts(rowid, terms) VALUES (new.rowid, new.terms);
    UPDATE corpus SET docs = docs + 1, terms = terms + new.term_count WHERE id = 1;
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
    INSERT INTO entries_fts(entries_fts, rowid, terms) VALUES ('delete', old.rowid, old.terms);
    UPDATE corpus SET docs = docs - 1, terms = terms - old.term_count WHERE id = 1;
END;
CREATE TRIGGER entries_au AFTER UPDATE OF terms ON entries BEGIN
    INSERT INTO entries_fts(entries_fts, rowid, terms) VALUES ('delete', old.rowid, old.terms);
    INSERT INTO entries_fts(rowid, terms) VALUES (new.rowid, new.terms);
    UPDATE corpus SET terms = terms - old.term_count + new.term_count WHERE id = 1;
END;
"""
)

Migration = tuple[int, str, Callable[[sqlite3.Connection], None]]


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        # executescript would COMMIT our transaction; run statement by statement.
        for statement in _statements(sql):
            conn.execute(statement)

    return run


def _statements(sql: str) -> list[str]:
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    return [s for s in out if s]


# Document frequencies for BM25 and candidate choice, kept by the store on every
# write: a primary-key lookup instead of fts5vocab's (~1 ms per query at 100k rows).
_V2 = """
CREATE TABLE term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO term_df SELECT term, doc FROM entries_vocab;
"""

# Embeddings (SPEC RT3): one vector per entry, tagged with its model and dimension so
# that spaces never mix; a new model re-embeds (`remem reindex`).
_V3 = vectors(SQLITE_TYPES)

# When an entry was last put into a prompt (SPEC RT8 hot/warm/cold); kept apart from
# `entries` so that marking use never rewrites an entry row or its FTS postings.
_V4 = """
CREATE TABLE usage (
    entry_id TEXT PRIMARY KEY,
    used_at TEXT NOT NULL,
    uses INTEGER NOT NULL
) WITHOUT ROWID;
"""

# Settings of the store itself, e.g. the INDEX_VERSION its terms were computed under.
# A store that has entries but no index_version was indexed by version 1.
_V5 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO meta SELECT 'index_version', '1' WHERE EXISTS (SELECT 1 FROM entries);
"""

# Who may use `remem serve`: hashed API tokens bound to a user (and agent).
_V6 = api_tokens(SQLITE_TYPES)

# The store's id and a generation raised by every commit: with the record remem keeps
# beside the store (`state`), what tells that commits it made are gone (issue 29).
_V10 = """
INSERT OR IGNORE INTO meta VALUES ('store_id', lower(hex(randomblob(16)))), ('generation', '0');
"""

MIGRATIONS: list[Migration] = [
    (1, "entries, fts5 index, named values, audit log", _script(_V1)),
    (2, "document frequencies per term", _script(_V2)),
    (3, "embedding vectors per entry, tagged with model and dimension", _script(_V3)),
    (4, "last use of each entry in a prompt", _script(_V4)),
    (5, "store settings (index version)", _script(_V5)),
    (6, "api tokens of the server", _script(_V6)),
    (7, "subject, value and validity of each entry", _script(truth(SQLITE_TYPES))),
    (8, "named values and subject words indexed in entry order", _script(early(SQLITE_TYPES))),
    (9, "value terms beside each subject key", _script(value_keys(SQLITE_TYPES))),
    (10, "store id and write generation", _script(_V10)),
]


LATEST = MIGRATIONS[-1][0]  # the newest schema this remem knows


def migrate(conn: sqlite3.Connection) -> list[int]:
    """Apply pending migrations in one IMMEDIATE transaction; returns the versions applied.

    Two processes opening a new store at once serialise on the write lock, and
    the second sees the first's work, so nothing runs twice.
    """
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    current = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0]
    if current >= MIGRATIONS[-1][0]:
        return []
    applied: list[int] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = conn.execute(
            "SELECT coalesce(max(version), 0) FROM schema_migrations"
        ).fetchone()[0]
        for version, name, run in MIGRATIONS:
            if version > current:
                run(conn)
                conn.execute(
                    "INSERT INTO schema_migrations VALUES (?, ?, ?)",
                    (version, name, format_ts(utcnow())),
                )
                applied.append(version)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a full disk ends the transaction by itself
            conn.execute("ROLLBACK")
        raise
    return applied
