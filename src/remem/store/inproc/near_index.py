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
How it reads the store (built in steps, refreshed): `remem.store.inproc.near_read`.
"""

from __future__ import annotations

import heapq
import math
import threading
from bisect import bisect_left, insort
from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from remem.store.protocol import CorpusStats, IndexFields

CACHED = 4096  # candidate rows kept (~1 KB each)
K1, B = 1.2, 0.75  # FTS5's bm25() defaults, as in remem.store.inproc.postings
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

    __slots__ = (
        "id",
        "pos",
        "domain",
        "until",
        "canon",
        "skeleton",
        "subject",
        "keys",
        "terms",
        "length",
        "counts",
    )

    def __init__(
        self,
        eid: str,
        pos: int,
        domain: DomainKey,
        until: Any,
        canon: str,
        skeleton: str,
        subject: str | None,
        terms: list[str],
    ) -> None:
        self.id, self.pos, self.domain, self.until = eid, pos, domain, until
        self.canon, self.skeleton = hash(canon), hash(skeleton) if skeleton else 0
        self.subject = subject
        self.keys: tuple[tuple[str, str], ...] = ()
        self.terms, self.length = tuple(dict.fromkeys(terms)), len(terms)
        # counted only where a term repeats (a Counter a doc was ~15% of a build)
        repeats = len(self.terms) < self.length
        self.counts: Counter[str] | None = Counter(terms) if repeats else None

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
        self.ranked = False  # those lists in rank order: once the index holds every entry
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
        table, ranked = self._terms.setdefault(doc.domain, {}), self.ranked
        for term in terms:  # the bulk of a build: kept inline
            found = table.get(term)
            if found is None:
                table[term] = [rank]
            elif ranked:
                insort(found, rank)
            else:
                found.append(rank)  # a build: put in rank order once it is done
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
            if found is None:
                continue
            at = bisect_left(found, rank) if self.ranked else _index(found, rank)
            if at < len(found) and found[at] == rank:
                del found[at]
                if not found:
                    del table[term]
        if len(doc.terms) < doc.length:
            for term in doc.terms:
                self._repeats.get(term, {}).pop(rank, None)

    def rank(self) -> None:
        """Put each term's docs in rank order (the build appends them in entry order);
        from now on every doc listed goes to its place."""
        if not self.ranked:
            for table in self._terms.values():
                for found in table.values():
                    found.sort()
            self.ranked = True

    # -- the lookups of same_domain, in its order ---------------------------------------
    def lookup(
        self,
        domain: DomainKey,
        now: Any,
        index: IndexFields,
        limit: int,
        broader: bool,
        rare: Sequence[str],
        stats: CorpusStats,
    ) -> list[int]:
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
        if len(rare) == 1 and self.ranked:  # in rank order already: no set, no sort
            return self._score(
                self._first_of(table.get(rare[0], []), rare[0], passes, n), rare, stats, passes, n
            )
        lists = sorted((table.get(t, []) for t in rare), key=len)
        both = set(lists[0]).intersection(*lists[1:])
        repeated = set[int]()
        for term in rare:
            repeated.update(both.intersection(self._repeats.get(term, {})))
        docs = self.docs
        chosen = [docs[r & _POS_MASK] for r in repeated]
        chosen += self._first_ranks(both - repeated, passes, n)
        return self._score(chosen, rare, stats, passes, n)

    def _first_of(self, ranks: list[int], term: str, passes: Any, n: int) -> list[Doc]:
        """`_sharing`'s choice among the docs of one term (`ranks` in rank order): every
        one holding it more than once, and the first `n` others that pass."""
        repeats, docs = self._repeats.get(term, {}), self.docs
        repeated = set[int]()
        for r in repeats:
            at = bisect_left(ranks, r)
            if at < len(ranks) and ranks[at] == r:
                repeated.add(r)
        chosen = [docs[r & _POS_MASK] for r in repeated]
        others = (r for r in ranks if r not in repeated)
        return chosen + self._first_docs(others, passes, n)

    def _score(
        self, chosen: list[Doc], rare: Sequence[str], stats: CorpusStats, passes: Any, n: int
    ) -> list[int]:
        """The positions of the best `n` of `chosen` that pass, by BM25 over `rare`."""
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

    def _first_docs(self, ranks: Iterable[int], passes: Any, n: int) -> list[Doc]:
        docs, out = self.docs, []
        for r in ranks:
            doc = docs[r & _POS_MASK]
            if passes(doc):
                out.append(doc)
                if len(out) == n:
                    break
        return out


def _index(found: list[int], rank: int) -> int:
    return found.index(rank) if rank in found else len(found)


def _idf(docs: int, df: int) -> float:
    return max(1e-6, math.log((docs - df + 0.5) / (df + 0.5)))
