"""What a command that only reads (`search`, `list`, `export` ...), or any command on a
file it may not write, opens where the store cannot be read as it is: nothing (an empty
store in memory), or the store of an older remem, copied into memory and upgraded there,
never on disk (issue 29: reading must not change, create or rename anything; a command
that writes upgrades the file)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from remem.errors import StoreError
from remem.store.sqlite.schema import LATEST, migrate

# An older store larger than this is not copied into memory: it is upgraded by a command
# that writes first. Stores are some KB a memory; 100k memories are about 300 MB.
COPY_LIMIT = 1 << 30


def empty() -> sqlite3.Connection:
    """An empty store in memory: what a command that only reads sees where there is no
    store yet (it creates none)."""
    conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    migrate(conn)
    return conn


def schema_version(conn: sqlite3.Connection) -> int | None:
    """The schema version of the open store (None: an empty database, a store not begun;
    `refuse_foreign` has turned away every other database without remem's table)."""
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'")
    if found.fetchone() is None:
        return None
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
    return int(row[0])


def upgraded_copy(conn: sqlite3.Connection, path: Path, version: int) -> sqlite3.Connection:
    """The store open on `conn` (which is closed) copied into memory and migrated there:
    the older store read as this remem reads its own, its file left as it was."""
    try:
        files = (path, path.with_name(path.name + "-wal"))
        size = sum(p.stat().st_size for p in files if p.exists())
        if size > COPY_LIMIT:
            raise StoreError(
                f"the store {path} was made by an older remem (schema {version}, this one's "
                f"is {LATEST}) and is too large to read upgraded in memory; nothing was "
                "changed: `remem reindex`, or any command that writes, upgrades it"
            )
        copy = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.backup(copy)  # a read of the file, through the one connection, like any query
    finally:
        conn.close()
    copy.execute("PRAGMA foreign_keys=ON")
    migrate(copy)
    return copy


def older_notice(path: Path, version: int) -> str:
    return (
        f"remem: the store {path} was made by an older remem (schema {version}, this one's is "
        f"{LATEST}); it was read from a copy upgraded in memory, the file left as it was: "
        "`remem reindex`, or any command that writes, upgrades it"
    )


def refusal(path: Path, version: int) -> str:
    """Why a write through such a copy is refused (it would be lost with the copy)."""
    return (
        f"cannot write the store {path}: it was made by an older remem (schema {version}) "
        "and read from a copy upgraded in memory, which this command does not keep (it only "
        "reads, or the file is not this account's to write); nothing was changed"
    )
