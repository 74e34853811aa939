"""Many saves at once (issue 32): `Memory.save_many`, and the turns of a large
`Memory.add_messages`. Each entry is decided by `remem.truth.writes.save`, in order, so
every entry sees the ones before it (a repeat, a change or a conflict between two rows of
one input is decided as two consecutive saves decide it); what is batched is the rest:
one transaction for many entries, their vectors embedded in one call, their index fields
and checks read once, before the write lock is taken.

Resumable by content: running the same input again decides what already landed as
duplicates of itself (refreshed, never stored twice) and saves the rest."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from remem import text
from remem.entry import Entry
from remem.errors import InvalidInput, SecretRefused
from remem.truth import index

if TYPE_CHECKING:
    from remem.truth.writes import SaveResult

# A transaction holds the write lock about this long: a concurrent save waits for one
# batch, not for the whole input; each batch is sized from the last one's pace.
BATCH_SECONDS = 0.25
FIRST_BATCH, MAX_BATCH = 50, 2000
# SQLite's lock is not fair: a waiting writer polls every 100 ms at most and would never
# find a short gap between two batches, so a bulk write leaves one of 0.15 s every second.
# The work a batch does before it takes the lock (reading subjects, secret checks,
# vectors) counts toward that gap: the sleep is only what it lacks.
YIELD_EVERY, YIELD_FOR = 1.0, 0.15


@dataclass
class Pace:
    """How many entries the next transaction takes, and the pauses for other writers.
    Call `pause` just before taking the lock and `took` just after letting it go."""

    size: int = FIRST_BATCH
    since: float = field(default_factory=time.monotonic)  # the last gap of YIELD_FOR
    released: float = 0.0  # when the last transaction ended

    def pause(self) -> None:
        now = time.monotonic()
        if now - self.since < YIELD_EVERY:
            return
        if (short := YIELD_FOR - (now - self.released)) > 0:
            time.sleep(short)
        self.since = time.monotonic()

    def took(self, count: int, seconds: float) -> None:
        """The last batch decided `count` entries in `seconds`: size the next one."""
        self.released = time.monotonic()
        if count and seconds > 0:
            fit = int(count * BATCH_SECONDS / seconds)
            self.size = max(1, min(MAX_BATCH, fit, self.size * 4))


def decide_all(
    mem: Any,  # a Memory (not imported: it imports this module)
    built: Sequence[Entry | SaveResult],
    *,
    force: bool,
    allow_secret: bool,
    progress: Callable[[int], None] | None = None,
) -> list[SaveResult]:
    """Decide and write `built` in order (a `SaveResult` is an answer already given:
    a refusal), a batch to a transaction; `progress(n)`: n more done."""
    results: list[SaveResult] = []
    pace, start = Pace(), 0
    while start < len(built):
        batch = built[start : start + pace.size]
        entries = [e for e in batch if isinstance(e, Entry)]
        for entry in entries:
            index.fields(entry)  # its terms cached outside the lock; the decision asks again
        vectors = prepare(mem.semantic, entries)
        pace.pause()
        began = time.perf_counter()
        stored: list[str] = []  # the batch's entries written with a vector so far
        with mem.store.write(), text.in_write():
            for item in batch:
                if not isinstance(item, Entry):
                    results.append(item)
                    continue
                with_batch(mem.semantic, item, vectors, stored)
                results.append(done := mem._decide(item, force, allow_secret))
                if item.id in vectors and done.status in ("added", "superseded"):
                    stored.append(item.id)
        pace.took(len(batch), time.perf_counter() - began)
        start += len(batch)
        if progress is not None:
            progress(len(batch))
    return results


def prepare(check: object, entries: Sequence[Entry]) -> dict[str, bytes]:
    """What `SemanticCheck.prepare` does for `entries` (their vectors and nearest, before
    the write transaction: a warm service asked from inside it would wait for the lock
    its caller holds), the vectors embedded in one call (by the warm service when there
    is one, else here): the model, not remem, is the floor of hybrid ingest. Returns the
    vectors by entry id ({} without an embedder)."""
    from remem.truth.dedup import CONFLICT_TYPES
    from remem.truth.semantic import SemanticCheck

    if not isinstance(check, SemanticCheck) or not hasattr(check.index, "embedder"):
        return {}
    index: Any = check.index
    check._prepared = {}
    wanted = [e for e in entries if e.type in CONFLICT_TYPES]
    if not wanted:
        return {}
    from remem.retrieval.vector_index import embed_text

    matrix = index.embedder.embed([embed_text(e) for e in wanted])
    vectors = {}
    for entry, row in zip(wanted, matrix, strict=True):
        raw = vectors[entry.id] = row.astype("<f4").tobytes()
        check._prepared[entry.id] = (entry, raw, index.nearest(row, check.near))
    return vectors


def with_batch(check: Any, entry: Entry, vectors: dict[str, bytes], stored: list[str]) -> None:
    """Add to `entry`'s prepared nearest the entries of its batch written before it
    (`stored`, with their vectors): the `n` nearest of the store as the batch began and
    of those are the `n` nearest a save after each of them would find."""
    if not stored or (ready := check._prepared.get(entry.id)) is None:
        return
    import numpy as np

    vector = np.frombuffer(ready[1], dtype="<f4")
    batch = np.frombuffer(b"".join(vectors[i] for i in stored), dtype="<f4")
    cosines = batch.reshape(len(stored), -1) @ vector
    found, seen = list(ready[2]), {eid for eid, _ in ready[2]}
    found += [(i, float(c)) for i, c in zip(stored, cosines, strict=True) if i not in seen]
    found.sort(key=lambda ic: -ic[1])
    check._prepared[entry.id] = (entry, ready[1], found[: check.near])


SAVE_FIELDS = frozenset(
    "content type scope source metadata created_at linked_paths expires_at entity facts "
    "importance confidence".split()
)


def build_all(
    mem: Any, items: Sequence[str | dict[str, Any]], *, force: bool
) -> list[Entry | SaveResult]:
    """The entry of each item (text, or `Memory.save`'s keywords with `content`), all
    checked before anything is written: a bad item raises InvalidInput naming it; one
    that looks like a secret is answered "refused" unless `force` (SPEC SE3)."""
    from remem.truth.writes import SaveResult

    built: list[Entry | SaveResult] = []
    for i, item in enumerate(items):
        fields: Any = {"content": item} if isinstance(item, str) else item
        if not isinstance(fields, dict) or not isinstance(fields.get("content"), str):
            raise InvalidInput(f"item {i}: expected text or an object with content")
        if unknown := sorted(set(fields) - SAVE_FIELDS):
            raise InvalidInput(f"item {i}: unknown field {unknown[0]!r}")
        kwargs: dict[str, Any] = {k: v for k, v in fields.items() if k != "content"}
        try:
            built.append(mem._entry(fields["content"], allow_secret=force, **kwargs))
        except SecretRefused as exc:
            unsaved = Entry(content=mem.check_content(fields["content"]))
            built.append(SaveResult("refused", unsaved, reasons=[str(exc)]))
        except (InvalidInput, TypeError, ValueError) as exc:
            raise InvalidInput(f"item {i}: {exc}") from exc
    return built
