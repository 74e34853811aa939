"""A save's candidates in SQL, written once for both SQL backends: `same_domain` (the
current entries a new one may repeat or contradict, each with its stored subject key)
and the subject keys they are found by (`unkeyed`, `set_subjects`, `subject_rules`,
`reread_subjects`). A mixin of `SQLStore`, kept apart so that the shared core stays
within its size budget; it uses only the core's `:name` statements, the backend's
`Dialect` and its keyword lookups (`_corpus`, `_sharing`)."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, cast

from remem.entry import Entry
from remem.store.inproc.near_index import CACHED, NearIndex
from remem.store.inproc.near_read import build_step, refresh
from remem.store.protocol import CorpusStats, Domain, IndexFields, Near, rarest
from remem.store.rows import (
    ENTRY_COLUMNS,
    K_COLUMNS,
    N_COLUMNS,
    Dialect,
    domain_clause,
    dump_value_key,
    load_value_key,
    row_to_entry,
)

_PROBE = 1024  # entries counted per subject word to choose the one to start from


class NearRows:
    """`Store.same_domain` and the subject keys of entries, in SQL."""

    dialect: Dialect
    # saves' lookups answered by SQL before the candidate index is kept in memory
    # (inproc/near_index.py), and the entries a store needs for it: a one-shot `remem save`
    # makes one to three lookups and never pays the build (~7 s of CPU at 100k entries)
    keep_near_after, keep_near_from = 6, 5000
    # entries read into it per save while it is built: at 100k entries a long-lived
    # process pauses on 20 saves for ~0.4 s of CPU each, not on one for 7 s
    keep_near_step = 5000
    _near_lookups, _near, _near_wanted = 0, cast("NearIndex | None", None), False
    _building = cast("NearIndex | None", None)  # the index while it is being read
    _dirty_commit = -1  # this process's commit count when it last wrote an entry

    if TYPE_CHECKING:  # supplied by SQLStore and the backend

        def write(self) -> AbstractContextManager[None]: ...
        def _rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]: ...
        def _run(self, sql: str, params: dict[str, Any] | None = None) -> None: ...
        def _run_many(self, sql: str, rows: Sequence[Any]) -> None: ...
        def _corpus(self, terms: Sequence[str]) -> CorpusStats: ...
        def _sharing(
            self, rare: list[str], stats: CorpusStats, dom: str, params: dict[str, Any], n: int
        ) -> list[Any]: ...
        def _write_subjects(
            self, batch: Sequence[tuple[str, str]], *, new: bool = False
        ) -> None: ...
        def generation(self) -> tuple[int, int]: ...
        def _commits(self) -> int: ...

    def same_domain(
        self, domain: Domain, index: IndexFields, *, limit: int = 20, broader: bool = False
    ) -> list[Near]:
        d = self.dialect
        dom, params = domain_clause(domain, d)
        params.update(canon=index.canon, skeleton=index.skeleton, limit=limit)
        stats = self._corpus(index.terms)
        rare = rarest(stats, index.terms, most=2)
        kept = self._kept_near(stats, rare)
        if kept is not None:
            key = (
                domain.type,
                domain.scope,
                domain.project,
                domain.session_id,
                domain.user_id,
                domain.agent_id,
            )
            with kept.lock:
                refresh(kept, self)
                at = kept.lookup(key, params["now"], index, limit, broader, rare, stats)
            return self._near_at(at, dom, params)
        found = self._same_subject(index, dom, params, broader)
        same = f"SELECT {K_COLUMNS} FROM entries e WHERE e.canon = :canon AND {dom} LIMIT :limit"
        if index.subject:  # the same canonical form or the same subject, in one round trip
            params["subject"] = index.subject
            # `!= ''` states the condition of the partial index entries_subject, so the
            # planner may use it (a bound :subject alone does not prove it)
            by_key = same.replace(
                "e.canon = :canon", "e.subject_key = :subject AND e.subject_key != ''"
            )
            same = f"SELECT * FROM ({same}) c UNION ALL SELECT * FROM ({by_key}) k"
        found += self._rows(same, params)
        if index.skeleton:
            found += self._rows(
                f"SELECT {K_COLUMNS} FROM entries e WHERE e.skeleton = :skeleton "
                f"AND e.skeleton != '' AND {dom} LIMIT :limit",
                params,
            )
        found += self._named(index, dom, params)
        if rare:
            # Near-identical wording (Dice >= 0.8) shares the rarest known terms, so an
            # entry must hold both: a small intersection, cheap to rank even at 100k rows.
            found += self._sharing(rare, stats, dom, params, min(limit, 8))
        unique = {row[0]: row for row in found}
        return [_near(r) for r in unique.values()]

    def _kept_near(self, stats: CorpusStats, rare: list[str]) -> NearIndex | None:
        """The candidate index to answer this lookup from, None where SQL answers: the
        first lookups of a process, a small store, this process's own writes not
        committed yet (or rolled back: the index reads only what was committed), rare
        terms FTS5 would read as phrases of several words."""
        self._near_lookups += 1
        if self._near is None:
            wanted = self._near_lookups > self.keep_near_after and stats.docs >= self.keep_near_from
            self._near_wanted = self._near_wanted or wanted
            return None  # built by keep_near, outside the write transaction
        if self._dirty_commit == self._commits() or not all(map(_one_token, rare)):
            return None
        return self._near

    @property
    def near_kept(self) -> bool:
        """Whether this process holds the candidate index (a long-lived process's saves
        in a large store, once built: `keep_near`)."""
        return self._near is not None

    def keep_near(self) -> None:
        """Build the candidate index once this process has made enough lookups in a large
        store, `keep_near_step` entries a call (SQL answers until it has read them all).
        Call it outside a write transaction: the build reads every entry (~7 s of CPU at
        100k entries) and other writers must not wait for it; what is written meanwhile
        reaches the index by its first refresh."""
        if self._near is None and self._near_wanted and self._dirty_commit != self._commits():
            index = self._building or NearIndex()
            with index.lock:
                done = build_step(index, self, self.keep_near_step)
            self._near, self._building = (index, None) if done else (None, index)
            # The index is ~10 objects an entry, none in a reference cycle: left to the
            # cyclic collector, each of its full passes walks them all (~0.4 s of CPU at
            # 100k entries, once every ~180 saves of a long-lived process, and in 4 of the
            # build's 16 steps). Frozen, they are skipped. Process-wide: what is alive now
            # is never scanned for cycles again (it is still freed by reference counts).
            gc.freeze()

    def _wrote(self, ids: Sequence[str]) -> None:
        """Note this process's (uncommitted) write of these entries."""
        self._dirty_commit = self._commits()
        for index in (self._near, self._building):
            if index is not None:
                index.touched.update(ids)

    def _near_at(self, positions: list[int], dom: str, params: dict[str, Any]) -> list[Near]:
        """The candidates at `positions` (each passing `dom`, as the index found), in that
        order: their rows from the index's cache, the others read (with `dom` again)."""
        assert self._near is not None
        cached, d = self._near.cached, self.dialect
        missing = [p for p in positions if p not in cached]
        if missing:
            cond = d.any(f"e.{d.pos}", "near", missing, params)
            sql = f"SELECT {K_COLUMNS}, e.{d.pos} FROM entries e WHERE {cond} AND {dom}"
            for row in self._rows(sql, params):
                cached[int(row[-1])] = row
        found = [_near(cached[p]) for p in positions if p in cached]
        while len(cached) > CACHED:
            # the oldest first; a plain dict finds its first key by skipping the slots of
            # the keys deleted before it (~15 us a row once full, at 4,096 rows)
            cached.popitem(last=False)
        return found

    def _named(self, index: IndexFields, dom: str, params: dict[str, Any]) -> list[Any]:
        """Rows (K_COLUMNS) of the domain naming one of `index.keys` with another value
        (only a different value for the same named thing can conflict), the first
        `:limit` in entry order: each key's walk of entry_keys_key stops at its first."""
        d = self.dialect
        walks = []
        for i, (key, value) in enumerate(index.keys.items()):
            params.update({f"k{i}": key, f"v{i}": value})
            walks.append(
                f"SELECT * FROM (SELECT {K_COLUMNS}, k.{d.ref} AS at FROM entry_keys k "
                f"JOIN entries e ON e.{d.pos} = k.{d.ref} WHERE k.key = :k{i} "
                f"AND k.value != :v{i} AND {dom} ORDER BY k.{d.ref} LIMIT :limit) w{i}"
            )
        if not walks:
            return []
        rows = {r[0]: r for r in self._rows(" UNION ALL ".join(walks), params)}
        first = sorted(rows.values(), key=lambda r: r[-1])[: params["limit"]]
        return [r[:-1] for r in first]

    def _same_subject(
        self, index: IndexFields, dom: str, params: dict[str, Any], broader: bool
    ) -> list[Any]:
        """Rows (K_COLUMNS) of the domain about a narrower subject than `index.subject`
        (whose key holds every word of this key), when `broader`. The walk starts from
        the word fewest entries hold (each word's count read up to _PROBE)."""
        words = sorted(set((index.subject or "").split())) if broader else []
        if not words:
            return []
        d = self.dialect
        probes = ", ".join(
            f"(SELECT count(*) FROM (SELECT 1 FROM subject_terms WHERE term = :pw{i} "
            f"LIMIT {_PROBE}) p{i})"
            for i in range(len(words))
        )
        sizes = self._rows(f"SELECT {probes}", {f"pw{i}": w for i, w in enumerate(words)})[0]
        if not all(sizes):
            return []  # a word no subject holds
        # the rarest first (of equal counts, the longest), each next one a lookup per entry
        order = sorted(zip(sizes, words, strict=True), key=lambda sw: (sw[0], -len(sw[1])))
        params.update({f"sw{i}": w for i, (_, w) in enumerate(order)}, subject=index.subject)
        holds = "".join(
            f" AND EXISTS (SELECT 1 FROM subject_terms t WHERE t.term = :sw{i} "
            f"AND t.{d.ref} = s.{d.ref})"
            for i in range(1, len(order))
        )
        return self._rows(
            f"SELECT {K_COLUMNS} FROM entries e WHERE {dom} AND e.subject_key != :subject "
            f"AND e.{d.pos} IN (SELECT s.{d.ref} FROM subject_terms s WHERE s.term = :sw0"
            f"{holds}) LIMIT :limit",
            params,
        )

    def unkeyed(self, limit: int) -> list[Entry]:
        rows = self._rows(
            # ORDER BY id: the order of the partial index entries_unkeyed, so the (usually
            # empty) answer comes from that index, not from a scan of every entry at open
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE subject_key IS NULL ORDER BY id LIMIT :n",
            {"n": limit},
        )
        return [row_to_entry(r) for r in rows]

    def subject_rules(self) -> int | None:
        rows = self._rows("SELECT value FROM meta WHERE key = 'subject_rules'")
        return int(rows[0][0]) if rows else None

    def reread_subjects(self, rules: int) -> int:
        # "no subject" keys are read again; a stored subject is keyed again (the concepts
        # its key is made of may have changed with the rules)
        stale = "subject_key = '' AND (subject IS NULL OR subject = '') OR subject != ''"
        with self.write():
            # counted first: SQLite's cursor reports no rowcount through `_run`
            n = int(self._rows(f"SELECT count(*) FROM entries WHERE {stale}")[0][0])
            self._run(f"UPDATE entries SET subject_key = NULL, value_key = NULL WHERE {stale}")
            self._wrote([])
            if self._near is not None:
                self._near.mark = None  # every key may change: built again
            self._building = None
            self._run(
                "INSERT INTO meta(key, value) VALUES ('subject_rules', :v) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                {"v": str(rules)},
            )
            return n

    def set_subjects(self, rows: Sequence[tuple[Entry, str, tuple[str, ...] | None]]) -> None:
        with self.write():
            self._run_many(
                "UPDATE entries SET subject = :subject, value = :value, subject_key = :key, "
                "value_key = :terms WHERE id = :id",
                [
                    {
                        "id": e.id,
                        "subject": e.subject,
                        "value": e.value,
                        "key": key,
                        "terms": dump_value_key(terms),
                    }
                    for e, key, terms in rows
                ],
            )
            self._write_subjects([(e.id, key) for e, key, _ in rows])  # '' drops old words
            self._wrote([e.id for e, _, _ in rows])


def _one_token(term: str) -> bool:
    """Whether FTS5 (tokenchars ._-+#) reads `term` as one word, as the index does."""
    return all(ch.isalnum() or ch in "._-+#" for ch in term)


def _near(row: Sequence[Any]) -> Near:
    """A row of K_COLUMNS as a `Near`; its value terms only with the key they were
    computed with (a key forgotten under newer rules forgets them too)."""
    key, canon, terms = row[N_COLUMNS : N_COLUMNS + 3]
    return Near(row_to_entry(row), key, canon, load_value_key(terms) if key is not None else None)
