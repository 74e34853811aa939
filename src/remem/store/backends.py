"""Which `Store` a location names: a file is the embedded SQLite store, a
`postgresql://` URL the shared PostgreSQL store. Only this module tells them apart."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from remem.settings import describe, is_url
from remem.store.protocol import INDEX_VERSION, IndexFields, Store

__all__ = ["describe", "open_store"]

NOTIFY_AT = 5_000  # entries to re-index before it is worth telling (~2 s and up)


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
    `upgrade` is off (a store only read from, as `remem migrate`'s source). `create` off:
    a SQLite file is neither created nor moved aside (a command that only reads).
    `busy_timeout`: seconds a SQLite write waits for another process's lock."""
    store: Store
    if isinstance(location, str) and is_url(location):
        from remem.store.postgres.store import PostgresStore

        store = PostgresStore(location)
    else:
        from remem.store.sqlite.store import SQLiteStore

        store = SQLiteStore(
            Path(location), synchronous=synchronous, create=create, busy_timeout=busy_timeout
        )
    done = upgrade_index(store, notify=notify) if upgrade else 0
    if done:
        store.notices.append(f"remem: re-indexed {done} memories for the current search rules")
    return store


def upgrade_index(
    store: Store, *, batch: int = 1000, notify: Callable[[str], None] | None = None
) -> int:
    """Re-index every entry if the store's index fields predate INDEX_VERSION; returns
    how many (0 when current, or when the store is read-only). `notify` hears, before
    the work starts, what is about to take a while."""
    if not store.writable:
        return 0
    version = store.index_version()
    if version is None:
        store.reindex([], INDEX_VERSION)  # a new store: record the rules it starts with
        return 0
    if version >= INDEX_VERSION:
        return 0
    entries = list(store.iter_all())
    if notify is not None and len(entries) >= NOTIFY_AT:
        notify(f"remem: re-indexing {len(entries)} memories for the current search rules (once)")
    for start in range(0, len(entries), batch):
        part = entries[start : start + batch]
        store.reindex([(e, IndexFields.of(e)) for e in part], version)
    store.reindex([], INDEX_VERSION)  # only now: an interrupted run starts over
    return len(entries)
