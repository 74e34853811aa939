"""An in-process copy of what a save's candidate lookup reads, for a long-lived process.

`NearRows.same_domain` asks SQL five to seven questions per save (the same canonical
form, subject and skeleton; named values; narrower subjects; the entries sharing the
rarest terms, ranked by FTS5's bm25 over often ~2,000 rows before the domain filter
and LIMIT 8): ~2 ms of a save's ~4.4 ms of CPU at 100k entries. `NearIndex` keeps, for
every current entry, what those questions compare (domain, validity, canonical form,
skeleton, subject key, named values, terms) with sorted position lists per value, and
answers them in entry order with the same limits and the same ranking (Okapi BM25 as
FTS5 and the PostgreSQL backend compute it, ties by position); the store then reads the
chosen rows by position. The store stays the source of truth: the index is refreshed
from it whenever its generation moved (rows past the last position read, rows named by
new audit records or written by this process, a rebuild when the index version or the
subject rules changed or the count of entries disagrees), and it is never used while
this process has uncommitted (or rolled back) writes of its own: SQL answers then.
"""

from __future__ import annotations

import heapq
import math
import sys
import threading
from bisect import bisect_left
from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from remem.store.protocol import CorpusStats, IndexFields
from remem.store.rows import Dialect

K1, B = 1.2, 0.75  # FTS5's bm25() defaults, as in remem.store.postings
DomainKey = tuple[Any, ...]  # type, scope, project, session_id, user_id, agent_id


@dataclass(frozen=True, slots=True)
class Mark:
    """How far the index has read its store: what a refresh compares."""

    generation: tuple[int, int]
    pos: int  # the highest entry position read
    seq: int  # the highest audit sequence number read
    version: tuple[Any, ...]  # index_version and subject_rules of the store


class Doc:
    """What the lookups compare of one current entry. `until` is the earlier of its
    expiry and end of validity as the store holds them (None: neither); `terms` its
    distinct terms, `length` how many it has with repeats (BM25's document length),
    `counts` (until it is listed) how often it holds each term. Its canonical form
    and skeleton are kept as their hashes (a string of ~100 characters each, at 100k
    entries ~40 MB): two forms of one hash among 100k are about one chance in 10^9."""

    __slots__ = ("id", "pos", "domain", "until", "canon", "skeleton", "subject", "keys",
                 "terms", "length", "counts")  # fmt: skip

    def __init__(self, eid: str, pos: int, domain: DomainKey, until: Any, canon: str,
                 skeleton: str, subject: str | None, terms: list[str]) -> None:  # fmt: skip
        self.id, self.pos, self.domain, self.until = eid, pos, domain, until
        self.canon, self.skeleton = hash(canon), hash(skeleton) if skeleton else 0
        self.subject = subject
        self.keys: tuple[tuple[str, str], ...] = ()
        self.counts: Counter[str] | None = Counter(terms)
        self.terms, self.length = tuple(self.counts), len(terms)

    @property
    def rank(self) -> int:
        """Its place among entries with the same count of each shared term: the shorter
        first (BM25 falls with length), of equal length the earlier."""
        return self.length << _POS_BITS | self.pos

    def words(self) -> set[str]:
        return set(self.subject.split()) if self.subject else set()

    def value(self, key: str) -> str | None:
        for k, v in self.keys:  # a loop: a generator costs more than its few pairs
            if k == key:
                return v
        return None


_POS_BITS = 40
_POS_MASK = (1 << _POS_BITS) - 1
# value -> the sorted positions of the docs holding it; a value most docs hold alone (a
# canonical form) keeps its one position bare: a list of one costs 72 bytes more a doc
Table = dict[Any, "int | list[int]"]


def _add(table: Table, value: Any, pos: int) -> None:
    found = table.get(value)
    if found is None:
        table[value] = pos
    elif isinstance(found, int):
        if found != pos:
            table[value] = [found, pos] if found < pos else [pos, found]
    elif found[-1] < pos:
        found.append(pos)  # positions mostly come in order
    else:
        i = bisect_left(found, pos)
        if i == len(found) or found[i] != pos:
            found.insert(i, pos)


def _drop(table: Table, value: Any, pos: int) -> None:
    found = table.get(value)
    if found is None or found == pos:
        table.pop(value, None)
        return
    if isinstance(found, int):
        return
    i = bisect_left(found, pos)
    if i < len(found) and found[i] == pos:
        del found[i]
        if len(found) == 1:
            table[value] = found[0]


def _get(table: Table, value: Any) -> Sequence[int]:
    found = table.get(value, ())
    return (found,) if isinstance(found, int) else found


class NearIndex:
    """The current entries of a store as `same_domain` reads them (see the module)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # held by the store around refresh + lookup
        self.started: Mark | None = None  # while built a step at a time: how far it read
        self.reset()

    def reset(self) -> None:
        self.mark: Mark | None = None
        self.docs: dict[int, Doc] = {}  # position -> current entry
        self.rows: dict[str, int] = {}  # id -> position, of every entry (history too)
        self._canon, self._skeleton, self._subject = Table(), Table(), Table()
        self._keys, self._words = Table(), Table()
        # per domain, term -> the ranks of its docs (unordered); per term, the docs
        # holding it more than once (rank -> count)
        self._terms: dict[DomainKey, dict[str, list[int]]] = {}
        self._repeats: dict[str, dict[int, int]] = {}
        self._vocab: dict[str, str] = {}  # one string object per term
        self._domains: dict[DomainKey, DomainKey] = {}  # one tuple per domain
        self.unkeyed: set[str] = set()  # current entries whose subject is not keyed yet
        self.touched: set[str] = set()  # entries this process wrote since the last refresh
        # the rows (K_COLUMNS) of recent candidates: a save's candidates come back save
        # after save (the first entries naming "port", those of one subject), and every
        # change to one reaches `_list` or `_unlist`, which forget its row
        self.cached: OrderedDict[int, Any] = OrderedDict()

    def put(self, doc: Doc | None, eid: str, pos: int) -> None:
        """Add or replace the entry `eid` at `pos` (`doc` None: it is not current)."""
        if eid in self.rows:
            self.remove(eid)
        prior = self.docs.get(pos)
        if prior is not None:  # a position reused for another entry (SQLite's rowid)
            self.remove(prior.id)
        self.rows[eid] = pos
        if doc is not None:
            self._list(doc)

    def remove(self, eid: str) -> None:
        pos = self.rows.pop(eid, None)
        doc = self.docs.get(pos) if pos is not None else None
        if doc is not None and doc.id == eid:
            self._unlist(doc)

    def _list(self, doc: Doc) -> None:
        pos, vocab, rank = doc.pos, self._vocab, doc.rank
        doc.domain = self._domains.setdefault(doc.domain, doc.domain)
        self.docs[pos] = doc
        self.cached.pop(pos, None)
        if doc.subject is None:
            self.unkeyed.add(doc.id)
        _add(self._canon, doc.canon, pos)
        if doc.skeleton:
            _add(self._skeleton, doc.skeleton, pos)
        if doc.subject:
            _add(self._subject, doc.subject, pos)
            for word in doc.words():
                _add(self._words, word, pos)
        for key, _ in doc.keys:
            _add(self._keys, key, pos)
        doc.terms = terms = tuple([vocab.setdefault(t, t) for t in doc.terms])
        table = self._terms.setdefault(doc.domain, {})
        for term in terms:  # the bulk of a build: kept inline
            found = table.get(term)
            if found is None:
                table[term] = [rank]
            else:
                found.append(rank)
        if doc.counts is not None and len(doc.counts) < doc.length:
            for term, n in doc.counts.items():
                if n > 1:
                    self._repeats.setdefault(term, {})[rank] = n
        doc.counts = None  # what it told is in _repeats

    def _unlist(self, doc: Doc) -> None:
        pos, rank = doc.pos, doc.rank
        del self.docs[pos]
        self.cached.pop(pos, None)
        self.unkeyed.discard(doc.id)
        _drop(self._canon, doc.canon, pos)
        _drop(self._skeleton, doc.skeleton, pos)
        if doc.subject:
            _drop(self._subject, doc.subject, pos)
            for word in doc.words():
                _drop(self._words, word, pos)
        for key, _ in doc.keys:
            _drop(self._keys, key, pos)
        table = self._terms.get(doc.domain, {})
        for term in doc.terms:
            found = table.get(term)
            if found is not None and rank in found:
                found.remove(rank)
                if not found:
                    del table[term]
        if len(doc.terms) < doc.length:
            for term in doc.terms:
                self._repeats.get(term, {}).pop(rank, None)

    # -- the lookups of same_domain, in its order ---------------------------------------
    def lookup(
        self, domain: DomainKey, now: Any, index: IndexFields, limit: int, broader: bool,
        rare: Sequence[str], stats: CorpusStats,
    ) -> list[int]:  # fmt: skip
        """Positions of `same_domain`'s answer, in its order (each once)."""

        def passes(doc: Doc) -> bool:
            return doc.domain == domain and (doc.until is None or doc.until > now)

        found: list[int] = []
        if broader and index.subject:
            found += self._narrower(index.subject, passes, limit)
        found += self._first(_get(self._canon, hash(index.canon)), passes, limit)
        if index.subject:
            found += self._first(_get(self._subject, index.subject), passes, limit)
        if index.skeleton:
            found += self._first(_get(self._skeleton, hash(index.skeleton)), passes, limit)
        found += self._named(index.keys, passes, limit)
        if rare:
            found += self._sharing(domain, rare, stats, passes, min(limit, 8))
        return list(dict.fromkeys(found))

    def _first(self, positions: Iterable[int], passes: Any, limit: int) -> list[int]:
        out: list[int] = []
        docs = self.docs
        for pos in positions:
            if passes(docs[pos]):
                out.append(pos)
                if len(out) == limit:
                    break
        return out

    def _narrower(self, subject: str, passes: Any, limit: int) -> list[int]:
        """Entries whose subject key holds every word of `subject` but is another key."""
        words = set(subject.split())
        lists = sorted((_get(self._words, w) for w in words), key=len)
        docs = self.docs
        wanted = (p for p in lists[0] if docs[p].subject != subject and words <= docs[p].words())
        return self._first(wanted, passes, limit)

    def _named(self, keys: dict[str, str], passes: Any, limit: int) -> list[int]:
        """Entries naming one of `keys` with another value: the first `limit` of each key
        in entry order, then the first `limit` of them all."""
        docs, found = self.docs, set[int]()
        for key, value in keys.items():
            n = 0
            for pos in _get(self._keys, key):
                doc = docs[pos]
                # the domain first: a common name ("port") is held by many docs of others
                if passes(doc) and doc.value(key) != value:
                    found.add(pos)
                    n += 1
                    if n == limit:
                        break
        return sorted(found)[:limit]

    def _sharing(
        self, domain: DomainKey, rare: Sequence[str], stats: CorpusStats, passes: Any, n: int
    ) -> list[int]:
        """Entries of `domain` holding every term of `rare`, best BM25 first (ties: the
        earlier). Of the entries holding each once, BM25 orders those by length alone:
        only the first `n` of them by rank are scored, with every one holding some more
        than once."""
        table = self._terms.get(domain, {})
        lists = sorted((table.get(t, []) for t in rare), key=len)
        both = set(lists[0]).intersection(*lists[1:])
        repeated = set[int]()
        for term in rare:
            repeated.update(both.intersection(self._repeats.get(term, {})))
        docs = self.docs
        chosen = [docs[r & _POS_MASK] for r in repeated]
        chosen += self._first_ranks(both - repeated, passes, n)
        docs_n = max(stats.docs, 1)
        avg = stats.avg_len if stats.avg_len > 0 else 1.0
        idf = [_idf(docs_n, stats.doc_freq.get(t, 0)) for t in rare]
        scored = []
        for doc in chosen:
            if not passes(doc):
                continue
            dl, score = doc.length, 0.0
            for term, weight in zip(rare, idf, strict=True):  # FTS5's order of phrases
                tf = self._repeats.get(term, {}).get(doc.rank, 1)
                score += weight * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * dl / avg)))
            scored.append((-score, doc.pos))
        scored.sort()
        return [pos for _, pos in scored[:n]]

    def _first_ranks(self, ranks: set[int], passes: Any, n: int) -> list[Doc]:
        """The first `n` docs of `ranks` in rank order that pass: the `n` lowest ranks
        picked by a heap, all of them sorted only when one of those does not pass (a
        shared term may be held by thousands of docs of a domain)."""
        if 0 < n and 4 * n < len(ranks):
            found = self._first_docs(heapq.nsmallest(n, ranks), passes, n)
            if len(found) == n:
                return found
        return self._first_docs(sorted(ranks), passes, n)

    def _first_docs(self, ranks: list[int], passes: Any, n: int) -> list[Doc]:
        docs, out = self.docs, []
        for r in ranks:
            doc = docs[r & _POS_MASK]
            if passes(doc):
                out.append(doc)
                if len(out) == n:
                    break
        return out


def _idf(docs: int, df: int) -> float:
    return max(1e-6, math.log((docs - df + 0.5) / (df + 0.5)))


class Source(Protocol):
    """What the index reads from a SQL store (`remem.store.sql.SQLStore`)."""

    dialect: Dialect

    def generation(self) -> tuple[int, int]: ...
    def _rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]: ...


PAGE = 2_000  # rows read at a time when the index is built
CACHED = 4096  # candidate rows kept (~1 KB each)
_IDS = 500  # ids per lookup of changed rows (under SQLite's limit of bound values)
_COLUMNS = (
    "e.id, e.{pos}, e.superseded_by IS NULL, e.type, e.scope, e.project, e.session_id, "
    "e.user_id, e.agent_id, e.expires_at, e.valid_to, e.canon, e.skeleton, e.subject_key, "
    "e.terms"
)
_VERSION = (
    "SELECT (SELECT value FROM meta WHERE key = 'index_version'), "
    "(SELECT value FROM meta WHERE key = 'subject_rules'), "
    "(SELECT docs FROM corpus WHERE id = 1)"
)


def refresh(index: NearIndex, store: Source) -> None:
    """Bring `index` up to date with `store` (call with `index.lock` held, inside the
    store's write transaction, with no uncommitted write of this process): nothing when
    its generation has not moved and this process wrote nothing since."""
    generation = store.generation()
    mark = index.mark
    if mark is not None and mark.generation == generation and not index.touched:
        return
    if mark is not None and mark.generation[0] == generation[0] and len(index.touched) <= _IDS:
        # only this process wrote since (SQLite's data_version moves with the commits of
        # other connections alone): its rows are read again, nothing else
        _read_ids(index, store, index.touched)
        index.touched.clear()
        index.mark = replace(mark, generation=generation)
        return
    *found, docs = store._rows(_VERSION)[0]
    version = tuple(found)
    if mark is None or mark.version != version:
        _rebuild(index, store)
        return
    audit = store._rows("SELECT seq, entry_id FROM audit WHERE seq > :s", {"s": mark.seq})
    seq = max((int(r[0]) for r in audit), default=mark.seq)
    # the rows named by audit records or written by this process, and those not keyed
    # yet (another process may have keyed them since), besides the rows added since
    named = {str(r[1]) for r in audit} | index.touched | index.unkeyed
    if len(named) > _IDS:
        _rebuild(index, store)
        return
    # two statements: SQLite scans the whole table for "e.rowid > :after OR e.id IN"
    read, last = _read(index, store, f"e.{store.dialect.pos} > :after", {"after": mark.pos})
    _read_ids(index, store, named - read)
    index.touched.clear()
    if int(docs) != len(index.rows):  # e.g. a reused SQLite rowid: read it all again
        _rebuild(index, store)
        return
    index.mark = Mark(generation, max(last, mark.pos), seq, version)


def _rebuild(index: NearIndex, store: Source) -> None:
    index.started = None
    build_step(index, store, sys.maxsize)
    index.touched.clear()  # all read just now


def build_step(index: NearIndex, store: Source, entries: int) -> bool:
    """Read about `entries` more entries into `index` (built anew from its first step);
    True once it holds them all, its mark then as if read in one go when it started:
    what changed since (audit records, this process's writes, rows past the last read)
    is read again by its first refresh."""
    if index.started is None:
        index.reset()
        generation = store.generation()
        *found, _ = store._rows(_VERSION)[0]
        seq = int(store._rows("SELECT coalesce(max(seq), 0) FROM audit")[0][0])
        index.started = Mark(generation, 0, seq, tuple(found))
    start, pos, done, page = index.started, store.dialect.pos, 0, min(PAGE, entries)
    last = start.pos
    while True:
        rest = f"e.{pos} > :after ORDER BY e.{pos} LIMIT {page}"
        read, end = _read(index, store, rest, {"after": last})
        last, done = max(last, end), done + len(read)
        if len(read) < page:  # the last page
            index.mark, index.started = replace(start, pos=last), None
            return True
        if done >= entries:
            index.started = replace(start, pos=last)
            return False


def _read_ids(index: NearIndex, store: Source, ids: set[str]) -> None:
    """Read the entries `ids` again; those gone are removed."""
    if ids:
        params: dict[str, Any] = {}
        read, _ = _read(index, store, store.dialect.any("e.id", "ids", sorted(ids), params), params)
        for eid in ids - read:
            index.remove(eid)


def _read(
    index: NearIndex, store: Source, where: str, params: dict[str, Any]
) -> tuple[set[str], int]:
    """Put the rows of `where` into the index, their named values with them; the ids
    read and the highest position among them."""
    d = store.dialect
    rows = store._rows(f"SELECT {_COLUMNS.format(pos=d.pos)} FROM entries e WHERE {where}", params)
    docs: dict[int, Doc] = {}
    for r in rows:
        eid, pos = str(r[0]), int(r[1])
        if r[2]:  # current
            until = min((t for t in (r[9], r[10]) if t is not None), default=None)
            terms = d.load_terms(r[14])
            docs[pos] = Doc(eid, pos, tuple(r[3:9]), until, r[11], r[12], r[13], terms)
        else:
            index.put(None, eid, pos)
    keyed = _keys_of(store, sorted(docs))
    for pos, doc in docs.items():
        doc.keys = tuple(keyed.get(pos, ()))
        index.put(doc, doc.id, pos)
    return {str(r[0]) for r in rows}, max((int(r[1]) for r in rows), default=0)


def _keys_of(store: Source, positions: list[int]) -> dict[int, list[tuple[str, str]]]:
    """The named values of the entries at `positions` (sorted): by list when they are
    few, else by the range they span."""
    if not positions:
        return {}
    d, params = store.dialect, {"lo": positions[0], "hi": positions[-1]}
    ref = f"k.{d.ref}"
    cond = (
        d.any(ref, "pos", positions, params)
        if len(positions) <= _IDS
        else f"{ref} >= :lo AND {ref} <= :hi"
    )
    wanted, keyed = set(positions), dict[int, list[tuple[str, str]]]()
    sql = f"SELECT {ref}, k.key, k.value FROM entry_keys k WHERE {cond}"
    for at, key, value in store._rows(sql, params):
        if int(at) in wanted:
            keyed.setdefault(int(at), []).append((key, value))
    return keyed
