"""Copy a whole store into another (`remem migrate`, issue #7): every entry with its
history, the audit log, last-use times and vectors, exactly (ids, times, version links).

Resumable by re-running: entries go over in batches, each batch with the audit records
of its entries in one `Store.restore` transaction, and `restore` skips ids the
destination holds already. Records of deleted entries follow, grouped by id, and vectors
last (`put_vectors` replaces, so writing them twice changes nothing). The source is only
read. Works between any two `Store`s: SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from remem.entry import AuditRecord, Entry
from remem.errors import StoreError
from remem.store.protocol import IndexFields, Store

__all__ = ["MigrateResult", "Progress", "migrate", "preview"]

Progress = Callable[[int], None]
"""Called with the number of source entries handled, after each committed batch."""

T = TypeVar("T")


@dataclass(slots=True)
class MigrateResult:
    """What a migration copied (or, with `dry_run`, would copy)."""

    entries: int  # in the source, history versions included
    copied: int  # entries added to the destination
    present: int  # entries the destination held already (an earlier, interrupted run)
    audit_records: int  # audit records added to the destination
    vectors: dict[str, int] = field(default_factory=dict)  # vectors written, per model
    destination_entries: int = 0  # entries in the destination afterwards, history included
    seconds: float = 0.0
    dry_run: bool = False


@dataclass(slots=True)
class _Snapshot:
    """The source as read once: entries oldest first, and their audit records by id."""

    entries: list[Entry]
    records: dict[str, list[AuditRecord]]  # of the entries above
    orphans: dict[str, list[AuditRecord]]  # of deleted entries


Select = Callable[[Entry], bool]
"""Which entries of the source to copy (one partition's); None: all of them."""


def migrate(
    src: Store,
    dst: Store,
    *,
    batch: int = 500,
    progress: Progress | None = None,
    select: Select | None = None,
) -> MigrateResult:
    """Copy everything in `src` that `dst` lacks (only the entries `select` keeps, with
    their records and vectors, when given); raise StoreError if `dst` ends up with
    fewer entries than were to be copied. A run killed at any point is completed,
    without duplicates, by running it again."""
    if batch < 1:
        raise ValueError("batch must be at least 1")
    start = time.perf_counter()
    snap = _snapshot(src, select)
    audit_before = _audit_count(dst)
    copied = 0
    for chunk in _chunks(snap.entries, batch):
        copied += _copy_batch(src, dst, chunk, snap.records)
        if progress is not None:
            progress(len(chunk))
    # All records of one id go in one call: `restore` adds a deleted entry's records
    # only while the destination holds none of that id.
    orphan_ids = list(snap.orphans)
    for ids in _chunks(orphan_ids, batch):
        dst.restore([], _by_seq(r for eid in ids for r in snap.orphans[eid]))
    wanted = None if select is None else {e.id for e in snap.entries}
    vectors = {
        model: _copy_vectors(src, dst, model, dim, batch, wanted)
        for model, dim in src.vector_models()
    }
    have = _entry_count(dst)
    if have < len(snap.entries):
        raise StoreError(
            f"after the copy {dst.path} holds {have} entries, fewer than the "
            f"{len(snap.entries)} of {src.path}; run the migration again"
        )
    return MigrateResult(
        entries=len(snap.entries),
        copied=copied,
        present=len(snap.entries) - copied,
        audit_records=_audit_count(dst) - audit_before,
        vectors=vectors,
        destination_entries=have,
        seconds=time.perf_counter() - start,
    )


def preview(src: Store, dst: Store | None, select: Select | None = None) -> MigrateResult:
    """What `migrate(src, dst)` would copy, writing nothing; `dst` None is a
    destination that does not exist yet."""
    start = time.perf_counter()
    snap = _snapshot(src, select)
    wanted = {e.id for e in snap.entries}
    fresh = [e for e in snap.entries if dst is None or dst.get(e.id) is None]
    audit = sum(len(snap.records.get(e.id, ())) for e in fresh)
    audit += sum(
        len(records) for eid, records in snap.orphans.items() if dst is None or not dst.audit(eid)
    )
    return MigrateResult(
        entries=len(snap.entries),
        copied=len(fresh),
        present=len(snap.entries) - len(fresh),
        audit_records=audit,
        vectors={
            model: sum(1 for _, eid, _ in src.vector_rows(model) if eid in wanted)
            for model, _ in src.vector_models()
        },
        destination_entries=0 if dst is None else _entry_count(dst),
        seconds=time.perf_counter() - start,
        dry_run=True,
    )


def _snapshot(src: Store, select: Select | None) -> _Snapshot:
    # Entries first, then the log: an entry saved in between has records but no entry
    # here, and is told apart from a deleted one below.
    entries = [e for e in src.iter_all() if select is None or select(e)]
    ids = {e.id for e in entries}
    records: dict[str, list[AuditRecord]] = defaultdict(list)
    orphans: dict[str, list[AuditRecord]] = defaultdict(list)
    for record in src.audit():
        (records if record.entry_id in ids else orphans)[record.entry_id].append(record)
    # Copying the records of an entry saved during the read without the entry would
    # make a re-run duplicate them (the entry comes over then, with all its records).
    for eid in [eid for eid in orphans if src.get(eid) is not None]:
        del orphans[eid]
    if select is not None:  # whose a deleted entry was, its records no longer say
        orphans.clear()
    return _Snapshot(entries, dict(records), dict(orphans))


def _copy_batch(
    src: Store, dst: Store, chunk: Sequence[Entry], records: dict[str, list[AuditRecord]]
) -> int:
    """One transaction: the entries `dst` lacks, their audit records and when they were
    last used. Entries found present are left out before their index fields are built:
    that is most of the work (terms, stemming), and a re-run finds most of them."""
    missing = [entry for entry in chunk if dst.get(entry.id) is None]
    if not missing:
        return 0
    pairs = [(entry, IndexFields.of(entry)) for entry in missing]
    # Only the records of entries passed: `restore` drops them with their entry when a
    # concurrent run copied it meanwhile, so nothing is ever added twice.
    audit = _by_seq(r for entry in missing for r in records.get(entry.id, ()))
    used: dict[datetime, list[str]] = defaultdict(list)
    for eid, at in src.last_used([entry.id for entry in missing]).items():
        used[at].append(eid)
    with dst.write():
        added = dst.restore(pairs, audit)
        for at, ids in used.items():
            dst.mark_used(ids, at)
    return added


def _copy_vectors(
    src: Store, dst: Store, model: str, dim: int, batch: int, wanted: set[str] | None
) -> int:
    rows = [r for r in src.vector_rows(model) if wanted is None or r[1] in wanted]
    for chunk in _chunks(rows, batch):
        dst.put_vectors(model, dim, [(eid, blob) for _, eid, blob in chunk])
    return len(rows)


def _by_seq(records: Iterable[AuditRecord]) -> list[AuditRecord]:
    """Records in the source's order, so the destination's log reads the same way."""
    return sorted(records, key=lambda r: r.seq)


def _chunks(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _entry_count(store: Store) -> int:
    # Current and history together: a batch whose entries are superseded by entries of
    # a later batch counts the same before and after that batch lands.
    counts = store.counts()
    return int(counts["entries"]) + int(counts["history"])


def _audit_count(store: Store) -> int:
    return int(store.counts()["audit_records"])
