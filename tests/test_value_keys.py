"""Value terms stored beside each subject key (SQLite's migration 9, PostgreSQL's 7), on
both backends: every write keys a memory's value with its subject, a store of the
schema before opens, is keyed once and loses nothing, and keys forgotten under newer
subject rules forget their value terms too."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pg
from remem import Memory
from remem.store.backends import open_store
from remem.store.protocol import Domain
from remem.store.sqlite.schema import LATEST as SQLITE_LATEST
from remem.truth import index, keys

SAYINGS = [
    "测试数据库用 SQLite",
    "The billing service listens on port 9090",
    "部署脚本在 scripts/deploy.sh",
    "Java 版本定为 17",
    "She went hiking last weekend",  # no subject the rules read
]


def raw(location: str, sql: str) -> list[Any]:
    """Rows of `sql` read past remem (each backend's own driver)."""
    if location.startswith("postgresql"):
        with pg.connect(location) as conn:
            return list(conn.execute(sql).fetchall())
    conn = sqlite3.connect(location)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def undo_migration(location: str) -> None:
    """Back to the schema before value terms, as an older remem left a store."""
    statements = [
        "DROP INDEX entries_unkeyed",  # SQLite drops no column a partial index names
        "ALTER TABLE entries DROP COLUMN value_key",
        "CREATE INDEX entries_unkeyed ON entries(id) WHERE subject_key IS NULL",
    ]
    if location.startswith("postgresql"):
        with pg.connect(location) as conn:
            for sql in statements:
                conn.execute(sql)
            conn.execute("DELETE FROM schema_migrations WHERE version >= 7")
        return
    conn = sqlite3.connect(location)
    try:
        for sql in statements:
            conn.execute(sql)
        conn.execute("DELETE FROM schema_migrations WHERE version >= 9")
        conn.commit()
    finally:
        conn.close()


def keyed(location: str) -> dict[str, tuple[str | None, str | None]]:
    rows = raw(location, "SELECT id, subject_key, value_key FROM entries")
    return {r[0]: (r[1], r[2]) for r in rows}


def test_every_save_stores_its_value_terms(location: str) -> None:
    with Memory(location, project="p", embedder=None) as mem:
        saved = [mem.save(s).entry for s in SAYINGS]
    stored = keyed(location)
    for entry in saved:
        key, terms = index.subject_keys(entry)
        assert stored[entry.id] == (
            key,
            json.dumps(list(terms), ensure_ascii=False).replace(" ", ""),
        )
    assert stored[saved[0].id][1] == '["sqlite"]'
    assert stored[saved[-1].id] == ("", "[]")
    assert stored[saved[3].id][1] == '["java","17"]'  # the product's version: Java 17


def test_an_older_store_is_keyed_once_and_loses_nothing(location: str) -> None:
    with Memory(location, project="p", embedder=None) as mem:
        saved = [mem.save(s).entry for s in SAYINGS]
        before = [mem.get(e.id) for e in saved]
    expected = keyed(location)
    undo_migration(location)
    assert all(len(r) == 2 for r in raw(location, "SELECT id, subject_key FROM entries"))

    with Memory(location, project="p", embedder=None) as mem:
        assert [mem.get(e.id) for e in saved] == before  # nothing lost or changed
        assert mem.store.unkeyed(10) == []
        # the same keys, the value terms back (a memory with no subject has none to
        # fold: its "" key stays, unread)
        assert keyed(location) == {**expected, saved[-1].id: ("", None)}
        # and the same decisions as before the upgrade
        assert mem.save("测试数据库用 SQLite").status == "duplicate"
        changed = mem.save("测试数据库改用 MySQL")
        assert changed.status == "superseded" and changed.replaced is not None
        assert changed.replaced.id == saved[0].id
        assert mem.save("The billing service listens on port 9191").status == "conflict"
    versions = [r[0] for r in raw(location, "SELECT version FROM schema_migrations ORDER BY 1")]
    store = open_store(location)
    try:  # opened again: nothing left to key, nothing migrated twice
        assert store.unkeyed(10) == [] and versions[-1] in (7, SQLITE_LATEST)
    finally:
        store.close()


def test_candidates_carry_their_value_terms(location: str) -> None:
    with Memory(location, project="p", embedder=None) as mem:
        old = mem.save("The billing service listens on port 9090").entry
        probe = mem._build("The billing service listens on port 9191", type="fact",
                           scope="project", source="user_explicit", linked_paths=[],
                           facts={}, confidence="confirmed")  # fmt: skip
        near = mem.store.same_domain(Domain.of(probe), index.fields(probe))
        assert [(n.entry.id, n.value_terms) for n in near] == [(old.id, ("9090",))]
        assert keys.keys(old.subject or "", old.value)[1] == ("9090",)
        # newer subject rules forget the key, and the value terms with it
        mem.store.reread_subjects(99)
        near = mem.store.same_domain(Domain.of(probe), index.fields(probe))
        assert [(n.subject_key, n.value_terms) for n in near] == [(None, None)]
        assert keyed(location)[old.id] == (None, None)
