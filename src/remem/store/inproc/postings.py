"""An in-process copy of a SQL store's keyword postings, for a long-lived process.

At 100k entries a query's common terms match thousands of rows, and FTS5 spends
~15 ms computing bm25() for each of them before ORDER BY rank can cut (PostgreSQL's
postings GROUP BY costs the same order). `KeywordIndex` holds the terms of every entry
as numpy postings and scores those rows by the same formula (Okapi BM25 as FTS5 and
`remem.store.postgres.bm25` compute it: k1 1.2, b 0.75, idf clamped at 1e-6, the
store's document counts) in well under a millisecond; the store then reads only the
best rows, passing its filter, by id. The store stays the source of truth: the index
is topped up from it whenever its generation moves (new rows by position, rows named
by new audit records, a full rebuild when the counts disagree or the index version
changed), and a process that searches once never builds it (`SQLStore.keyword`).
Needs numpy (the `embed` or `postgres` extra); without it the SQL path serves.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol

from remem.store.protocol import CorpusStats
from remem.store.rows import Dialect

if TYPE_CHECKING:
    from numpy.typing import NDArray

K1, B = 1.2, 0.75  # FTS5's bm25() defaults, as in remem.store.postgres.bm25


@dataclass(frozen=True, slots=True)
class Mark:
    """How far the index has read its store: what a refresh compares."""

    generation: tuple[int, int]
    pos: int  # the highest entry position read
    seq: int  # the highest audit sequence number read
    version: int | None  # the store's index_version


class KeywordIndex:
    """Postings of entry terms: (term, doc, tf) sorted by term in CSR arrays, and the
    docs added since in a small unsorted tail, folded in when it grows past an eighth.
    A replaced or removed entry's old doc is only marked dead. Docs are numbered in the
    order they came; `ids` and `_pos` map them back to entries."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # held by the store around refresh + top
        self.reset()

    def reset(self) -> None:
        """Empty, as if new."""
        import numpy as np

        self._np = np
        self.mark: Mark | None = None
        self._vocab: dict[str, int] = {}
        self.ids: list[str] = []
        self._doc_of: dict[str, int] = {}  # entry id -> its live doc
        self._pos = np.zeros(0, np.int64)
        self._length = np.zeros(0, np.float64)
        self._alive = np.zeros(0, bool)
        # the sorted part: postings of term t at [_ptr[t], _ptr[t + 1])
        self._ptr = np.zeros(1, np.int64)
        self._docs = np.zeros(0, np.int32)
        self._tf = np.zeros(0, np.int32)
        # the tail: (term, doc, tf) of the docs added since the last fold; int32 like
        # the sorted part (a 64-bit tail was most of the peak memory of a first build)
        self._tail = _empty_tail(np)

    def __len__(self) -> int:
        """Live entries."""
        return len(self._doc_of)

    def put(
        self, rows: Sequence[tuple[str, int, Sequence[str], int]], *, fold: bool = True
    ) -> None:
        """Add or replace entries: (id, position, terms, term_count) each."""
        np = self._np
        if not rows:
            return
        self.remove([r[0] for r in rows if r[0] in self._doc_of])
        first = len(self.ids)
        docs = np.arange(first, first + len(rows), dtype=np.int64)
        self.ids += [r[0] for r in rows]
        self._doc_of.update(zip((r[0] for r in rows), docs.tolist(), strict=True))
        self._grow(first + len(rows))
        self._pos[first : first + len(rows)] = [r[1] for r in rows]
        self._length[first : first + len(rows)] = [r[3] for r in rows]
        self._alive[first : first + len(rows)] = True
        vocab = self._vocab
        tokens = list(chain.from_iterable(r[2] for r in rows))
        for term in dict.fromkeys(tokens):  # C loops but for the new distinct terms
            if term not in vocab:
                vocab[term] = len(vocab)
        flat = np.fromiter(map(vocab.__getitem__, tokens), np.int64, count=len(tokens))
        per_doc = np.repeat(docs, np.fromiter((len(r[2]) for r in rows), np.int64, len(rows)))
        # one posting per (term, doc), its count as tf
        keys, tf = np.unique(flat << 32 | per_doc, return_counts=True)
        terms, owners, old = keys >> 32, keys & 0xFFFFFFFF, self._tail
        self._tail = (
            np.concatenate([old[0], terms.astype(np.int32)]),
            np.concatenate([old[1], owners.astype(np.int32)]),
            np.concatenate([old[2], tf.astype(np.int32)]),
        )
        if fold and len(self._tail[0]) > max(20_000, len(self._docs) // 8):
            self.fold()

    def _grow(self, docs: int) -> None:
        """Room for `docs` docs in the per-doc arrays, doubling: a long-lived process
        adds one doc per save, and copying three 100k-long arrays for each cost more
        than the search it was topped up for. The slots past the last doc stay dead."""
        np = self._np
        if docs <= len(self._pos):
            return
        room = max(docs, 2 * len(self._pos)) - len(self._pos)
        self._pos = np.concatenate([self._pos, np.zeros(room, np.int64)])
        self._length = np.concatenate([self._length, np.zeros(room, np.float64)])
        self._alive = np.concatenate([self._alive, np.zeros(room, bool)])

    def remove(self, ids: Sequence[str]) -> None:
        for eid in ids:
            doc = self._doc_of.pop(eid, None)
            if doc is not None:
                self._alive[doc] = False

    def fold(self) -> None:
        """Merge the tail into the sorted part, dropping dead docs' postings."""
        np = self._np
        counts = np.diff(self._ptr)
        ranks = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
        terms = np.concatenate([ranks, self._tail[0]])
        docs = np.concatenate([self._docs, self._tail[1]])
        tf = np.concatenate([self._tf, self._tail[2]])
        # released before the sort, which holds its 64-bit keys and order at once
        del ranks
        self._tail = _empty_tail(np)  # new arrays: a [:0] slice would keep these alive
        keep = self._alive[docs]
        if not keep.all():
            terms, docs, tf = terms[keep], docs[keep], tf[keep]
        del keep
        order = np.argsort(terms.astype(np.int64) << 32 | docs)
        self._docs, self._tf = docs[order], tf[order]
        del order, docs, tf
        per_term = np.bincount(terms, minlength=len(self._vocab))
        self._ptr = np.concatenate([[0], np.cumsum(per_term)]).astype(np.int64)

    def settle(self) -> None:
        """Copy the strings it keeps (entry ids, terms) anew once the rows they came from
        are gone: left among those rows' millions of short-lived term strings, they pin
        most of the memory those took (at 100k, ~125 MB of RSS for ~30 MB of index)."""
        np = self._np
        ids = np.array(self.ids, dtype=str)
        terms = np.array(list(self._vocab), dtype=str)
        numbers = list(self._vocab.values())
        live = list(self._doc_of.values())
        self.ids, self._vocab, self._doc_of = [], {}, {}
        self.ids = ids.tolist()
        self._vocab = dict(zip(terms.tolist(), numbers, strict=True))
        self._doc_of = {self.ids[d]: d for d in live}

    def _postings(self, term: str) -> tuple[NDArray[Any], NDArray[Any]]:
        np = self._np
        t = self._vocab.get(term)
        if t is None:
            return self._docs[:0], self._tf[:0]
        docs, tf = self._docs[:0], self._tf[:0]
        if t + 1 < len(self._ptr):
            lo, hi = self._ptr[t], self._ptr[t + 1]
            docs, tf = self._docs[lo:hi], self._tf[lo:hi].astype(np.float64)
        if len(self._tail[0]):
            mine = self._tail[0] == t
            if mine.any():
                docs = np.concatenate([docs, self._tail[1][mine]])
                tf = np.concatenate([tf, self._tail[2][mine]]).astype(np.float64)
        return docs, tf

    def top(self, terms: Sequence[str], stats: CorpusStats, n: int) -> tuple[list[str], int]:
        """Ids of the best `n` live entries holding any of `terms` by BM25 (ties: the
        earlier position), scored as FTS5's bm25() and the PostgreSQL backend do, and
        how many live entries hold any."""
        np = self._np
        docs_n = max(stats.docs, 1)
        avg = stats.avg_len if stats.avg_len > 0 else 1.0
        parts_docs: list[NDArray[Any]] = []
        parts_score: list[NDArray[Any]] = []
        for term in terms:  # in the order FTS5 sums its phrases: the same float result
            docs, tf = self._postings(term)
            if not len(docs):
                continue
            df = stats.doc_freq.get(term, 0)
            idf = max(1e-6, math.log((docs_n - df + 0.5) / (df + 0.5)))
            dl = self._length[docs]
            parts_docs.append(docs)
            parts_score.append(idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * dl / avg))))
        if not parts_docs:
            return [], 0
        found, where = np.unique(np.concatenate(parts_docs), return_inverse=True)
        scores = np.bincount(where, weights=np.concatenate(parts_score))
        live = self._alive[found]
        found, scores = found[live], scores[live]
        matched = len(found)
        if matched > n:  # the n best and every doc tied with the last of them
            cut = np.partition(-scores, n - 1)[n - 1]
            near = np.flatnonzero(-scores <= cut)
            found, scores = found[near], scores[near]
        order = np.lexsort((self._pos[found], -scores))[:n]
        ids = self.ids
        return [ids[d] for d in found[order].tolist()], matched


def _empty_tail(np: Any) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int32)


class Source(Protocol):
    """What the kept postings read from a SQL store (`remem.store.sql.SQLStore`)."""

    dialect: Dialect
    keep_index_after: int  # keyword searches served by SQL before the postings are kept
    keep_index_from: int  # ... and the entries a store needs for them
    _keyword_searches: int
    _kept: KeywordIndex | None

    def generation(self) -> tuple[int, int]: ...
    def index_version(self) -> int | None: ...
    def _rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]: ...
    def _in(self, prefix: str, ids: Iterable[str]) -> list[Any]: ...
    def _among(self, ids: Sequence[str], where: str, params: dict[str, Any]) -> list[Any]: ...


def kept_best(
    store: Source,
    terms: list[str],
    stats: CorpusStats,
    where: str,
    params: dict[str, Any],
    limit: int,
) -> list[Any] | None:
    """`store._best`'s rows from the postings the store keeps in memory; None before the
    store keeps them (its first searches, or without numpy) or when too few of the best
    entries pass `where` (a store shared by many projects: SQL then ranks and filters
    at once)."""
    store._keyword_searches += 1
    if store._kept is None:
        if store._keyword_searches <= store.keep_index_after or stats.docs < store.keep_index_from:
            return None  # (FTS5 needs ~1-2 ms below a few thousand entries: no numpy)
        if importlib.util.find_spec("numpy") is None:
            store.keep_index_after = sys.maxsize
            return None
        store._kept = KeywordIndex()
    index = store._kept
    step = limit + limit // 4 + 16  # ranked ahead, for the entries `where` turns down
    with index.lock:
        refresh_index(index, store)
        best, matched = index.top(terms, stats, step)
    # Most entries pass: their rows are read `limit` at a time (~20 us a row at 100k).
    found: dict[str, Any] = {}
    for start in range(0, len(best), limit):
        found.update((r[0], r) for r in store._among(best[start : start + limit], where, params))
        if len(found) >= limit:
            break
    if len(found) < limit and matched > len(best):
        return None
    return [found[i] for i in best if i in found][:limit]


# Rows read at a time when the index is built: each row's terms are a list of short
# strings, and a page of them is most of the peak of a first search (20,000 a page
# took 192 MB of peak RSS at 100k, 2,000 156 MB, for the same index).
PAGE = 2_000
Row = tuple[str, int, list[str], int]


def refresh_index(index: KeywordIndex, store: Source) -> None:
    """Bring `index` up to date with `store` (call with `index.lock` held): nothing when
    its generation has not moved; else the rows past the last position read and those
    named by new audit records (edits, deletes) are read again, and it is rebuilt when
    the index version changed or the count of entries disagrees."""
    generation = store.generation()
    mark = index.mark
    if mark is not None and mark.generation == generation:
        return
    version = store.index_version()
    if mark is None or mark.version != version:
        _rebuild(index, store, generation, version)
        return
    pos = store.dialect.pos
    audit = store._rows("SELECT seq, entry_id FROM audit WHERE seq > :s", {"s": mark.seq})
    seq = max((int(r[0]) for r in audit), default=mark.seq)
    rows = _read(store, f"WHERE {pos} > :after ORDER BY {pos}", {"after": mark.pos})
    index.put(rows)
    last = max((r[1] for r in rows), default=mark.pos)
    touched = sorted({str(r[1]) for r in audit} - {r[0] for r in rows})
    if touched:
        again = [
            _row(r, store.dialect)
            for r in store._in(_SELECT.format(pos=store.dialect.pos) + " WHERE id", touched)
        ]
        index.put(again)
        index.remove(sorted(set(touched) - {r[0] for r in again}))
    # the entries as counted by the corpus row kept with them in every write (a
    # count(*) of entries walks a whole index: ~2 ms at 100k, after every save)
    if int(store._rows("SELECT docs FROM corpus WHERE id = 1")[0][0]) != len(index):
        _rebuild(index, store, generation, version)  # e.g. a reused SQLite rowid
        return
    index.mark = Mark(generation, last, seq, version)


_SELECT = "SELECT id, {pos}, terms, term_count FROM entries"


def _rebuild(
    index: KeywordIndex, store: Source, generation: tuple[int, int], version: int | None
) -> None:
    index.reset()
    seq = int(store._rows("SELECT coalesce(max(seq), 0) FROM audit")[0][0])
    pos = store.dialect.pos
    last = 0
    while rows := _read(
        store, f"WHERE {pos} > :after ORDER BY {pos} LIMIT {PAGE}", {"after": last}
    ):
        index.put(rows, fold=False)
        last = rows[-1][1]
    del rows
    index.fold()
    index.settle()
    index.mark = Mark(generation, last, seq, version)


def _read(store: Source, rest: str, params: dict[str, Any]) -> list[Row]:
    d = store.dialect
    sql = f"{_SELECT.format(pos=d.pos)} {rest}"
    return [_row(r, d) for r in store._rows(sql, params)]


def _row(r: Sequence[Any], d: Dialect) -> Row:
    return (str(r[0]), int(r[1]), d.load_terms(r[2]), int(r[3]))
