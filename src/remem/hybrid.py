"""Vectors in the store and semantic relevance (SPEC RT3, LT9).

`VectorIndex` keeps one embedder's vectors in the store (tagged with the model, so
spaces never mix) and an in-process matrix of them, refreshed when the store
changes; a query is one brute-force matrix product (fine to ~100k entries).
Entries are embedded lazily, in batches, the first time a search needs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from remem.dedup import CONFLICT_TYPES, Match
from remem.entry import Entry
from remem.store import Domain, Store

if TYPE_CHECKING:
    from remem.embedding import Embedder, Vectors

BATCH = 256
_NUMBER = re.compile(r"\d+(?:\.\d+)*")


def embed_text(entry: Entry) -> str:
    """What is embedded for an entry: its entity and content."""
    return f"{entry.entity}: {entry.content}" if entry.entity else entry.content


class VectorIndex:
    """One embedder's vectors of one store, cached as a few matrices that grow as
    entries are added (deleted entries linger in the cache; searches drop them)."""

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder
        self._ids: list[str] = []
        self._chunks: list[Vectors] = []
        self._position = 0  # the last entry position whose vector is cached
        self._embedded_to = 0  # every entry up to this position has a vector
        self._generation: tuple[int, int] | None = None

    def calibrate(self, cosine: float) -> float:
        """Cosine as relevance in [0, 1] by the embedder's own scale."""
        e = self.embedder
        return min(1.0, max(0.0, (cosine - e.low) / (e.high - e.low)))

    def put(self, entry: Entry, vector: Vectors) -> None:
        self.store.put_vectors(self.embedder.name, vector.shape[-1], [(entry.id, vector.tobytes())])

    def sync(self, progress: Callable[[int], None] | None = None, *, full: bool = True) -> int:
        """Embed every entry (past the known-embedded ones unless `full`) that has no
        vector of this model yet; returns how many."""
        done = 0
        name = self.embedder.name
        after = 0 if full else self._embedded_to
        while batch := self.store.unembedded(name, limit=BATCH, after=after):
            vectors = self.embedder.embed([embed_text(e) for _, e in batch])
            rows = [(e.id, vectors[i].tobytes()) for i, (_, e) in enumerate(batch)]
            self.store.put_vectors(name, int(vectors.shape[1]), rows)
            done += len(batch)
            after = batch[-1][0]
            if progress is not None:
                progress(len(batch))
        self._embedded_to = max(self._embedded_to, after)
        if full:
            self._chunks, self._ids, self._position, self._generation = [], [], 0, None
        return done

    def _load(self) -> tuple[list[str], list[Vectors]]:
        import numpy as np

        generation = self.store.generation()
        if generation != self._generation:
            self.sync(full=self._generation is None)
            rows = self.store.vector_rows(self.embedder.name, after=self._position)
            if rows:
                self._ids += [eid for _, eid, _ in rows]
                blob = b"".join(vec for _, _, vec in rows)
                self._chunks.append(np.frombuffer(blob, dtype=np.float32).reshape(len(rows), -1))
                self._position = rows[-1][0]
                self._embedded_to = max(self._embedded_to, self._position)
            if len(self._chunks) > 8:
                self._chunks = [np.concatenate(self._chunks)]
            self._generation = self.store.generation()
        return self._ids, self._chunks

    def nearest(self, vector: Vectors, n: int) -> list[tuple[str, float]]:
        """The `n` entries (any scope: filter afterwards) closest to `vector`."""
        import numpy as np

        ids, chunks = self._load()
        if not ids or any(c.shape[1] != vector.shape[-1] for c in chunks):
            return []
        flat = vector.reshape(-1)
        scores = np.concatenate([c @ flat for c in chunks])
        n = min(n, len(ids))
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top])]
        return [(ids[i], float(scores[i])) for i in top]

    def query(self, text: str, n: int) -> dict[str, float]:
        """Calibrated semantic relevance of the `n` entries nearest to `text`."""
        vector = self.embedder.embed([text], query=True)[0]
        weight = self.embedder.weight
        return {
            eid: weight * rel
            for eid, cos in self.nearest(vector, n)
            if (rel := self.calibrate(cos))
        }


class SemanticCheck:
    """SPEC LT9 through the `dedup.SimilarityCheck` seam: among the nearest entries of
    the same domain, the same meaning with the same numbers is a duplicate, and with
    different numbers (of a statement type) a conflict."""

    def __init__(self, index: VectorIndex, *, duplicate: float = 0.95, conflict: float = 0.95):
        self.index = index
        self.duplicate = duplicate
        self.conflict = conflict
        self.last_vector: Vectors | None = None

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match]:
        self.last_vector = None
        if incoming.type not in CONFLICT_TYPES:
            return []  # conversation turns, events, tool output: never merged by meaning
        vector = self.index.embedder.embed([embed_text(incoming)])[0]
        self.last_vector = vector
        domain = Domain.of(incoming)
        near = [(eid, rel) for eid, cos in self.index.nearest(vector, 8)
                if (rel := self.index.calibrate(cos)) >= self.conflict]  # fmt: skip
        matches = []
        for eid, rel in near:
            entry = self.index.store.get(eid)
            if entry is None or not entry.is_current or Domain.of(entry) != domain:
                continue
            same_numbers = set(_NUMBER.findall(entry.content)) == set(
                _NUMBER.findall(incoming.content)
            )
            if same_numbers and rel >= self.duplicate:
                matches.append(Match(entry, "duplicate", f"same meaning (similarity {rel:.2f})"))
            elif not same_numbers:
                matches.append(Match(entry, "conflict", f"same subject, other value ({rel:.2f})"))
        return matches
