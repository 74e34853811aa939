"""Which `Store` a location names: a file is the embedded SQLite store, a
`postgresql://` URL the shared PostgreSQL store. Only this module tells them apart."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from remem.errors import InvalidInput
from remem.settings import describe, is_url
from remem.store.protocol import Store
from remem.store.upgrade import upgrade_index

__all__ = ["describe", "open_store"]


def open_store(
    location: str | os.PathLike[str],
    *,
    synchronous: str = "FULL",
    upgrade: bool = True,
    notify: Callable[[str], None] | None = None,
    create: bool = True,
    busy_timeout: float = 30.0,
) -> Store:
    """Open (creating and migrating if needed) the store at `location`.

    `synchronous` applies to SQLite only; PostgreSQL commits durably per its own
    settings. Entries indexed under older term rules are re-indexed first, unless
    `upgrade` is off (a store only read from, as `remem migrate`'s source). `create` off
    (a command that only reads): a SQLite file is neither created, moved aside nor
    migrated (an older remem's is read from an upgraded copy in memory), and a PostgreSQL
    store of an older remem is refused in one line.
    `busy_timeout`: seconds a SQLite write waits for another process's lock."""
    store: Store
    if os.fspath(location) == ":memory:":  # sqlite3's name for a store in memory
        raise InvalidInput(
            "remem keeps memories in a file: ':memory:' would make a file of that name in "
            "this folder; give a path (one in a temporary folder for a throwaway store)"
        )
    if isinstance(location, str) and is_url(location):
        from remem.store.postgres.conn import NoStoreYet
        from remem.store.postgres.store import PostgresStore

        try:
            store = PostgresStore(location, upgrade=create)
        except NoStoreYet:  # read as empty, as a missing SQLite file is: nothing created
            return _nothing(describe(location))
    else:
        from remem.store.sqlite.store import SQLiteStore

        store = SQLiteStore(
            Path(location), synchronous=synchronous, create=create, busy_timeout=busy_timeout
        )
    done = upgrade_index(store, notify=notify) if upgrade else 0
    if done:
        store.notices.append(f"remem: re-indexed {done} memories for the current search rules")
    return store


def _nothing(name: str) -> Store:
    """An empty store in memory named `name`: what a command that only reads sees of a
    database where remem has begun no store yet."""
    import tempfile
    import uuid

    from remem.store.sqlite.store import SQLiteStore

    missing = Path(tempfile.gettempdir()) / f"remem-no-store-{uuid.uuid4().hex}" / "memory.db"
    store = SQLiteStore(missing, create=False)  # no such file: read as empty, none made
    store.path = name
    return store
