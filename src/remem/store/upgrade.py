"""Re-indexing a store whose index fields (terms, canonical forms ...) were computed under
older rules than `INDEX_VERSION`: once, when a command that writes opens it (`open_store`),
or in the upgraded copy in memory a command that only reads makes of an older remem's
SQLite store (`sqlite.reading`)."""

from __future__ import annotations

from collections.abc import Callable

from remem.store.protocol import INDEX_VERSION, IndexFields, Store

__all__ = ["NOTIFY_AT", "upgrade_index"]

NOTIFY_AT = 5_000  # entries to re-index before it is worth telling (~2 s and up)


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
