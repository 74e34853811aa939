"""Vectors in the store and semantic relevance (SPEC RT3, LT9).

`VectorIndex` keeps one embedder's vectors in the store (tagged with the model, so
spaces never mix) and an in-process matrix of them, refreshed when the store
changes (`remem.retrieval.matrix`: faiss float16, fast-scan codes past 50k vectors whose
candidates are re-scored from the store, or numpy float32; benchmarks/README.md has the
current costs at 100k). The matrix rows are named by the store's positions of their
entries (8 bytes a row), and ids are looked up only for the rows a search returns.
Entries are embedded lazily, in batches, the first time a search needs them.
"""

from __future__ import annotations

import re
import time
from array import array
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from remem.entry import Entry
from remem.errors import StoreBusy
from remem.retrieval.matrix import REFINE, Matrix, new_matrix, one_thread
from remem.retrieval.warm import WarmEmbedder
from remem.store.candidates import Candidate
from remem.store.protocol import Filter, Store

if TYPE_CHECKING:
    from remem.retrieval.embedding import Embedder, Vectors

BATCH = 256
LOAD_SLICE = 8192  # vectors converted at a time when the matrix is filled


def embed_text(entry: Entry) -> str:
    """What is embedded for an entry: its entity and content, and for a conversation
    turn the turns around it (`remem.conversation`): on LoCoMo USE alone then finds
    0.59 / 0.54 of the evidence at 10, against 0.24 / 0.42 for the turn alone."""
    own = f"{entry.entity}: {entry.content}" if entry.entity else entry.content
    if entry.type != "conversation":
        return own
    around = [entry.metadata.get("context"), own, entry.metadata.get("reply")]
    return "\n".join(part for part in around if isinstance(part, str) and part)


def without_names(query: str, names: Iterable[str]) -> str | None:
    """`query` with each of `names` (and an English possessive after it) taken out, or
    None when it holds none of them or nothing else."""
    out = query
    for name in sorted({n.strip() for n in names if n.strip()}, key=len, reverse=True):
        left = r"(?<![A-Za-z0-9])" if name[0].isascii() and name[0].isalnum() else ""
        right = r"(?:['’]s)?(?![A-Za-z0-9])" if name[-1].isascii() else ""
        out = re.sub(left + re.escape(name) + right, " ", out, flags=re.IGNORECASE)
    out = " ".join(out.split())
    return out if out and out != " ".join(query.split()) else None


# A query of several lines (a conversation so far) is embedded whole and its last lines
# on their own, at this weight: what was just said is most of what to recall.
TAIL_LINES = 2
TAIL_WEIGHT = 0.6


def query_vector(embedder: Embedder, query: str, names: Sequence[str] = ()) -> Vectors:
    """What a search compares the entries with: the query's vector, averaged with
    - the query without `names`, when it names entities of its candidates (who said it:
      "What has Melanie painted?"): the entity boost already favours that entity's
      memories, and a name in the vector pulls toward every turn addressing them
      ("Thanks, Melanie!"). LoCoMo R@10 0.809 -> 0.826;
    - its last `TAIL_LINES` lines at `TAIL_WEIGHT`, when it has more: a dialogue's
      vector alone is the average of everything said. MADial R@10 zh 0.794 -> 0.803,
      en 0.778 -> 0.811.
    Sets without either do not change (the grid: `git show 711d3dc:benchmarks/README.md`)."""
    import numpy as np

    texts, weights = [query], [1.0]
    rest = without_names(query, names)
    if rest is not None:
        texts.append(rest)
        weights.append(1.0)
    lines = [line for line in query.splitlines() if line.strip()]
    if len(lines) > TAIL_LINES:
        texts.append("\n".join(lines[-TAIL_LINES:]))
        weights.append(TAIL_WEIGHT)
    if len(texts) == 1:
        one: Vectors = embedder.embed([query], query=True).reshape(-1)
        return one
    total = (
        np.asarray(weights, dtype=np.float32)[:, None] * embedder.embed(texts, query=True)
    ).sum(axis=0)
    mean: Vectors = (total / (np.linalg.norm(total) or 1.0)).astype(np.float32)
    return mean


class VectorIndex:
    """One embedder's vectors of one store, cached in a `Matrix` that grows as
    entries are added (deleted entries linger in it; searches drop them) and is
    topped up from the store whenever its generation changes (other processes)."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        *,
        matrix: str = "auto",
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.notify = notify  # told once when a first embedding of many entries starts
        self.kind = matrix
        # The store position of each matrix row: at 750k a list of ids and a dict of
        # their rows took ~150 MB, this takes 6.
        self._positions = array("q")
        self._matrix: Matrix | None = None
        self._position = 0  # the last entry position whose vector is cached
        self._embedded_to = 0  # every entry up to this position has a vector
        self._generation: tuple[int, int] | None = None
        self._own_index: bool | None = None  # does the store answer `nearest` itself?
        self._last_query: tuple[tuple[str, tuple[str, ...]], Vectors] | None = None
        # The warm service answers with the vectors it has when another process holds
        # the write lock (storing the ones it embedded waits for the next request), and
        # embeds at most `sync_budget` seconds of memories stored without a vector per
        # request (the rest between requests): a save never waits for a backlog.
        self.yield_to_writers = False
        self.sync_budget: float | None = None
        self._behind = False  # a sync stopped early: go on next time
        # One-shot commands leave the model and the matrix to the warm service.
        # A store this process may not write is searched here: the service would open its
        # file itself, and upgrade an older remem's store that a command only reads.
        self.warm = embedder if isinstance(embedder, WarmEmbedder) and store.writable else None

    @property
    def model(self) -> str:
        return self.embedder.name

    def calibrate(self, cosine: float) -> float:
        """Cosine as relevance in [0, 1] by the embedder's own scale."""
        e = self.embedder
        return min(1.0, max(0.0, (cosine - e.low) / (e.high - e.low)))

    def embed_entry(self, entry: Entry) -> Vectors:
        """The vector of `entry` (stored or not) by this index's embedder."""
        vector: Vectors = self.embedder.embed([embed_text(entry)])[0]
        return vector

    def near_entry(self, entry: Entry, n: int) -> tuple[bytes, list[tuple[str, float]]]:
        """The vector of `entry` (stored or not, as float32 bytes) and its `n` nearest
        entries; with the warm service in one request (no model, no numpy here)."""
        if self.warm is not None:
            location = str(Path(self.store.path).resolve())
            found = self.warm.near_entry(location, embed_text(entry), n)
            if found is not None:
                return found
        vector = self.embed_entry(entry)
        return vector.astype("<f4").tobytes(), self.nearest(vector, n)

    def put(self, entry: Entry, vector: Vectors | bytes) -> None:
        """Store `entry`'s vector (an array, or float32 bytes as `near_entry` gives it)."""
        raw = vector if isinstance(vector, bytes) else vector.astype("<f4").tobytes()
        self.store.put_vectors(self.embedder.name, len(raw) // 4, [(entry.id, raw)])

    @property
    def behind(self) -> bool:
        """Whether the last sync stopped before every entry had a vector."""
        return self._behind

    def sync(
        self,
        progress: Callable[[int], None] | None = None,
        *,
        full: bool = True,
        budget: float | None = None,
    ) -> int:
        """Embed every entry (past the known-embedded ones unless `full`) that has no
        vector of this model yet, or as many as `budget` seconds allow; returns how many."""
        done = 0
        name = self.embedder.name
        after = 0 if full else self._embedded_to
        was_behind, self._behind = self._behind, False
        deadline = None if budget is None else time.monotonic() + budget
        while batch := self.store.unembedded(name, limit=BATCH, after=after):
            if done == 0 and len(batch) == BATCH and self.notify is not None:
                self.notify(f"remem: embedding memories with {name} for semantic search (once)")
                self.notify = None
            vectors = self.embedder.embed([embed_text(e) for _, e in batch])
            rows = [(e.id, vectors[i].tobytes()) for i, (_, e) in enumerate(batch)]
            try:
                self.store.put_vectors(name, int(vectors.shape[1]), rows)
            except StoreBusy:
                if not self.yield_to_writers:
                    raise
                self._behind = True
                break
            done += len(batch)
            after = batch[-1][0]
            if progress is not None:
                progress(len(batch))
            if deadline is not None and time.monotonic() > deadline and len(batch) == BATCH:
                self._behind = True
                break
        self._embedded_to = max(self._embedded_to, after)
        # Vectors of a backlog may sit before rows the matrix holds already, which a
        # top-up (from the last row on) would never read: once done, load it again.
        if full or (was_behind and not self._behind):
            self._matrix, self._position, self._generation = None, 0, None
            self._positions = array("q")
        return done

    def _refresh(self) -> bool:
        """Embed what other writers stored without vectors; True when the store changed
        since the last look."""
        generation = self.store.generation()
        if generation == self._generation and not self._behind:
            return False
        self.sync(full=self._generation is None, budget=self.sync_budget)
        return True

    def _load(self) -> Matrix | None:
        if self._refresh():
            # A page at a time: all 100k blobs at once would add 200 MB to the peak.
            while rows := self.store.vector_rows(
                self.embedder.name, after=self._position, limit=LOAD_SLICE
            ):
                self._position = rows[-1][0]
                if not self._behind:  # else entries before some of these have no vector
                    self._embedded_to = max(self._embedded_to, self._position)
                self._add(rows)
            self._generation = self.store.generation()
        return self._matrix

    def _add(self, rows: list[tuple[int, str, bytes]]) -> None:
        """Append rows to the matrix a slice at a time, releasing each slice's blobs
        as it goes: at 100k the blobs are 200 MB, and one joined copy of them all
        would add as much again to the peak memory of a first search."""
        import numpy as np

        dim = len(rows[0][2]) // 4
        if self._matrix is None:
            self._matrix = new_matrix(dim, self.kind)
        while rows:
            part, rows[:LOAD_SLICE] = rows[:LOAD_SLICE], []
            # vectors of another dimension are never compared
            part = [r for r in part if len(r[2]) == 4 * self._matrix.dim]
            vectors = np.frombuffer(b"".join(vec for _, _, vec in part), dtype=np.float32)
            self._matrix.add(vectors.reshape(len(part), self._matrix.dim))
            self._positions.extend(position for position, _, _ in part)

    def refresh(self) -> None:
        """Bring the index up to date with the store (embedding entries other writers
        left without vectors, loading new vectors into the cache). `nearest` does this
        itself unless told not to; a caller searching in another thread does it first,
        so that the thread never waits on the store."""
        if self._own_index is None:
            # Only None (no index of its own) vs a list matters; a 1-d probe finds nothing.
            self._own_index = self.store.nearest(self.embedder.name, bytes(4), 1) is not None
        if self._own_index:
            if self._refresh():
                self._generation = self.store.generation()
        elif self.warm is None:
            self._load()

    def nearest(
        self, vector: Vectors, n: int, *, refresh: bool = True, flt: Filter | None = None
    ) -> list[tuple[str, float]]:
        """The `n` entries closest to `vector`: from the store's own index when it has
        one (PostgreSQL's HNSW, which applies `flt`), else from the cache (any scope:
        the caller filters afterwards)."""
        if n < 1:
            return []
        if refresh or self._own_index is None:
            self.refresh()
        if self._own_index:
            blob = vector.astype("<f4").tobytes()
            return self.store.nearest(self.embedder.name, blob, n, flt) or []
        warm = self._from_warm(n, vector=vector)
        if warm is not None:
            return warm
        matrix = self._matrix
        if matrix is None or not len(matrix) or matrix.dim != vector.shape[-1]:
            return []
        with one_thread():
            return self._top(matrix, vector, n)

    def _top(self, matrix: Matrix, vector: Vectors, n: int) -> list[tuple[str, float]]:
        """The `n` rows of `matrix` nearest to `vector`, named by the store (rows of
        entries deleted since drop out). A matrix that only estimates (fast-scan codes)
        offers `REFINE` times as many, and their stored vectors give the cosines."""
        import numpy as np

        rows, scores = matrix.top(vector, n if matrix.exact else n * REFINE)
        ranked = [(self._positions[r], s) for r, s in zip(rows, scores, strict=True) if r >= 0]
        if not matrix.exact:
            found = self.store.vectors_at(self.embedder.name, [p for p, _ in ranked])
            kept = [(p, b) for p, b in found.items() if len(b) == 4 * matrix.dim]
            if not kept:
                return []
            stored = np.frombuffer(b"".join(b for _, b in kept), dtype=np.float32)
            query = vector.astype(np.float32).reshape(-1)
            cosines = stored.reshape(len(kept), matrix.dim) @ query
            best = np.argsort(-cosines, kind="stable")[:n].tolist()
            ranked = [(kept[i][0], float(cosines[i])) for i in best]
        id_of = self.store.ids_at([p for p, _ in ranked[:n]])
        return [(id_of[p], s) for p, s in ranked[:n] if p in id_of]

    def _from_warm(
        self,
        n: int,
        *,
        text: str | None = None,
        vector: Vectors | None = None,
        names: Sequence[str] = (),
    ) -> list[tuple[str, float]] | None:
        """The nearest from the warm service's matrix of this store; None without one
        (then this process loads its own, once)."""
        if self.warm is None:
            return None
        location = str(Path(self.store.path).resolve())
        hits = self.warm.nearest(location, n, text=text, vector=vector, names=names)
        if hits is None:
            self.warm = None  # unreachable: from now on, this process's own matrix
            self._load()
        return hits

    def embed_query(self, text: str, names: Sequence[str] = ()) -> Vectors:
        """The vector of a query naming `names` (`query_vector`); the last one is kept (a
        hybrid search asks for it once for the nearest entries and again for the keyword
        candidates' cosines)."""
        key = (text, tuple(names))
        last = self._last_query  # one read: threads searching at once each get their own
        if last is None or last[0] != key:
            with one_thread():
                vector = query_vector(self.embedder, text, names)
            last = self._last_query = (key, vector)
        return last[1]

    def cosines(self, vector: Vectors, ids: Sequence[str]) -> dict[str, float]:
        """Cosine of `vector` with the stored vectors of `ids` (those that have one), as
        `nearest` scores them: from the store, whose rows the matrix holds no exact copy
        of past 50k vectors."""
        import numpy as np

        dim = int(vector.shape[-1])
        stored = self.store.vectors_of(self.embedder.name, ids) if ids else {}
        kept = [(e, b) for e, b in stored.items() if len(b) == 4 * dim]
        if not kept:
            return {}
        rows = np.frombuffer(b"".join(b for _, b in kept), dtype=np.float32).reshape(-1, dim)
        scores = (rows @ vector.astype(np.float32)).tolist()
        return dict(zip((e for e, _ in kept), scores, strict=True))

    def _query_cosines(
        self, query: str, n: int, flt: Filter, *, refresh: bool = True, names: Sequence[str] = ()
    ) -> dict[str, float]:
        """Cosines of `query` with its `n` nearest entries; with the warm service, in one
        request (this process then needs neither the model nor numpy)."""
        if self._own_index is None:
            self.refresh()
        if not self._own_index and self.warm is not None:
            near = self._from_warm(n, text=query, names=names)
            if near is not None:
                return dict(near)
        vector = self.embed_query(query, names)
        return dict(self.nearest(vector, n, refresh=refresh, flt=flt))

    def candidate_cosines(
        self, query: str, ids: list[str], names: Sequence[str] = ()
    ) -> dict[str, float]:
        """Cosines of `query` with the keyword candidates the nearest did not reach."""
        if not ids:
            return {}
        if not self._own_index and self.warm is not None:
            location = str(Path(self.store.path).resolve())
            found = self.warm.cosines(location, query, ids, names=names)
            if found is not None:
                return found
        return self.cosines(self.embed_query(query, names), ids)

    def semantic(
        self, query: str, want: int, flt: Filter, seen: set[str], names: Sequence[str] = ()
    ) -> tuple[dict[str, float], list[Candidate]]:
        """Cosines of the entries nearest to `query` (naming `names`), and the candidates
        (not in `seen`, passing `flt`) they add: the semantic side of a hybrid search
        (`Recall.rank`). The in-process index ranks every project
        of a shared store: when most of its nearest belong to others, it looks 8x further."""
        near = self._query_cosines(query, want, flt, names=names)
        extra = self.store.candidates([e for e in near if e not in seen], flt)
        passing = len(extra) + len(seen & near.keys())
        if len(near) >= want and passing < want // 2:
            wider = self._query_cosines(query, want * 8, flt, refresh=False, names=names)
            extra += self.store.candidates(
                [e for e in wider if e not in near and e not in seen], flt
            )
            near = wider
        return near, extra
