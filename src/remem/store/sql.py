"""The SQL core both SQL backends share: visibility filters, entry rows, audit records,
restore, re-indexing and every read that is the same in SQLite and PostgreSQL. A backend
(`SQLiteStore`, `PostgresStore`) supplies its `Dialect`, its connection handling
(`write`, `_q`, `_x`, `_xmany`) and what is really different: keyword search (FTS5 /
postings), the upkeep of its keyword index, vectors and use records. The tables of the
index fields (document frequencies, named values, subject words: `index_tables`), a
save's candidates (`near`), vector rows (`vector_table`) and API tokens (`api_tokens`)
are mixins of their own."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, cast

from remem.entry import AuditRecord, Entry, to_utc, utcnow
from remem.errors import StoreError
from remem.store.api_tokens import TokenTable
from remem.store.candidates import Candidate, Entries, stored_json
from remem.store.index_tables import IndexTables
from remem.store.inproc.postings import KeywordIndex, kept_best
from remem.store.near import NearRows
from remem.store.protocol import MAX_POSTINGS, CorpusStats, Filter, IndexFields, rarest
from remem.store.rows import (
    CHUNK,
    E_COLUMNS,
    ENTRY_COLUMNS,
    Dialect,
    domain_clause,
    dumps,
    row_candidate,
    row_to_entry,
    where_clause,
)
from remem.store.vector_table import VectorTable

__all__ = ["SQLStore", "domain_clause", "where_clause"]


def newer_schema(path: str, found: int, known: int) -> str | None:
    """Why a store must not be written when a newer remem made it (None: it may be)."""
    if found <= known:
        return None
    return (
        f"the store {path} was written by a newer remem (schema {found}; this remem knows "
        f"up to {known}): upgrade remem to change it; nothing was changed"
    )


class SQLStore(NearRows, VectorTable, TokenTable, IndexTables):
    """What a `Store` over SQL does alike in every dialect (see the module docstring)."""

    dialect: Dialect
    refuse_writes: str | None = None  # why nothing may be written (a newer remem's store)
    # keyword searches served by SQL before the postings are kept in memory (inproc/postings.py)
    keep_index_after, keep_index_from = 1, 5000
    _keyword_searches, _kept = 0, cast("KeywordIndex | None", None)

    @property
    def writable(self) -> bool:
        return not (self.read_only or self.refuse_writes)

    def _check_schema(self, path: str, known: int) -> None:
        """Refuse writes to a store whose schema is newer than `known` (reads still work:
        every table this remem reads is there)."""
        found = self._q("SELECT coalesce(max(version), 0) FROM schema_migrations")[0][0]
        self.refuse_writes = newer_schema(path, int(found), known)

    def _writable(self) -> None:
        if self.refuse_writes:
            raise StoreError(self.refuse_writes)

    # -- what each backend supplies -----------------------------------------------------
    def write(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _q(self, sql: str, params: Any = None) -> list[Any]:
        """Rows of a query in the driver's own marks (usable outside `write`)."""
        raise NotImplementedError

    def _x(self, sql: str, params: Any = None) -> None:
        """Run a statement inside `write`."""
        raise NotImplementedError

    def _xmany(self, sql: str, rows: Sequence[Any]) -> None:
        """Run a statement once per parameter set inside `write`."""
        raise NotImplementedError

    def _reindexed(
        self, new: Sequence[tuple[str, Sequence[str]]], old: Sequence[Sequence[str]], docs: int
    ) -> None:
        """Keep the keyword index beyond term_df in step: `new` (id, terms) were written,
        `old` term lists left, the document count moved by `docs`."""
        raise NotImplementedError

    def _sharing(
        self, rare: list[str], stats: CorpusStats, dom: str, params: dict[str, Any], n: int
    ) -> list[Any]:
        """Rows (K_COLUMNS) of the domain `dom` holding every term of `rare`, best first."""
        raise NotImplementedError

    def _best(
        self, terms: list[str], stats: CorpusStats, where: str, params: dict[str, Any], limit: int
    ) -> list[Any]:
        """Rows (E_COLUMNS, e.terms) passing `where` holding any of `terms`, best BM25
        first, at most `limit`."""
        raise NotImplementedError

    def _among(self, ids: Sequence[str], where: str, params: dict[str, Any]) -> list[Any]:
        """Rows (E_COLUMNS, e.terms) of the entries among `ids` passing `where`."""
        raise NotImplementedError

    def _bytes(self) -> int:
        raise NotImplementedError

    def _commits(self) -> int:
        """Write transactions this process committed (the second of `generation()`)."""
        raise NotImplementedError

    generation: Callable[[], tuple[int, int]]  # each backend's own method

    def _corpus(self, terms: Sequence[str]) -> CorpusStats:
        raise NotImplementedError

    # -- helpers ------------------------------------------------------------------------
    # Always a mapping: a driver then reads the marks (and a doubled % as one).
    def _rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]:
        return self._q(self.dialect.sql(sql), params or {})

    def _run(self, sql: str, params: dict[str, Any] | None = None) -> None:
        self._x(self.dialect.sql(sql), params or {})

    def _run_many(self, sql: str, rows: Sequence[Any]) -> None:
        if rows:
            self._xmany(self.dialect.sql(sql), rows)

    def _terms_of(self, ids: Sequence[str]) -> dict[str, list[str]]:
        found = self._in("SELECT id, terms FROM entries WHERE id", ids)
        return {eid: self.dialect.load_terms(terms) for eid, terms in found}

    def _in(self, prefix: str, ids: Iterable[str]) -> list[Any]:
        """Rows of `prefix` (ending in the column to test) for the given ids, in chunks."""
        ids = list(ids)
        step = max(len(ids), 1) if self.dialect.lists else CHUNK
        found: list[Any] = []
        for i in range(0, len(ids), step):
            params: dict[str, Any] = {}
            column = prefix.rsplit(" ", 1)[1]
            cond = self.dialect.any(column, "ids", ids[i : i + step], params)
            found += self._rows(f"{prefix.rsplit(' ', 1)[0]} {cond}", params)
        return found

    # -- writes -------------------------------------------------------------------------
    def _add_audit(self, records: Sequence[AuditRecord]) -> None:
        self._batch(
            "INSERT INTO audit(entry_id, action, at, detail) "
            "SELECT id, action, at, detail FROM {rows}",
            (("id", "text"), ("action", "text"), ("at", "timestamptz"), ("detail", "text")),
            [(r.entry_id, r.action, self.dialect.time(r.at), dumps(r.detail)) for r in records],
        )

    def _insert_rows(self, batch: Sequence[tuple[Entry, IndexFields]]) -> None:
        if not batch:
            return
        rows = [self.dialect.entry_params(entry, index) for entry, index in batch]
        names = ", ".join(rows[0])
        marks = ", ".join(f":{n}" for n in rows[0])
        self._run_many(f"INSERT INTO entries({names}) VALUES ({marks})", rows)
        self._wrote([entry.id for entry, _ in batch])
        self._write_keys([(entry.id, index) for entry, index in batch], new=True)
        self._write_subjects([(e.id, ix.subject) for e, ix in batch if ix.subject], new=True)
        new = [(r["id"], self.dialect.load_terms(r["terms"])) for r in rows]
        self._count_terms([terms for _, terms in new], +1)
        self._reindexed(new, [], len(rows))

    def insert(
        self,
        entry: Entry,
        index: IndexFields,
        *,
        action: str,
        detail: dict[str, Any],
        allow_secret: bool = False,
    ) -> None:
        from remem import secrets_door as secrets  # compiled on the first write, not a search

        secrets.admit(entry, allow_secret=allow_secret)  # the door no write goes round
        if allow_secret and secrets.entry_secrets(entry):
            detail = {**detail, "secret_forced": True}  # the audit log says who let it in
        with self.write():
            self._insert_rows([(entry, index)])
            self._add_audit([AuditRecord(entry.id, action, utcnow(), detail)])

    def update(
        self,
        entry: Entry,
        index: IndexFields,
        *,
        action: str,
        detail: dict[str, Any],
        allow_secret: bool = False,
    ) -> None:
        from remem import secrets_door as secrets

        params = self.dialect.entry_params(entry, index)
        if index.subject is None:
            del params["subject_key"]  # not known here: the stored key stays
        sets = ", ".join(f"{n} = :{n}" for n in params if n != "id")
        with self.write():
            old = self._terms_of([entry.id])
            if entry.id not in old:
                raise StoreError(f"no entry {entry.id} to update")
            # the door of insert, for the texts this update newly puts in the row
            secrets.admit_change(entry, self.get(entry.id), allow_secret=allow_secret)
            self._run(f"UPDATE entries SET {sets} WHERE id = :id", params)
            self._wrote([entry.id])
            self._write_keys([(entry.id, index)])
            if index.subject is not None:
                self._write_subjects([(entry.id, index.subject)])
            new = self.dialect.load_terms(params["terms"])
            if new != old[entry.id]:
                self._count_terms([old[entry.id]], -1)
                self._count_terms([new], +1)
                self._reindexed([(entry.id, new)], [old[entry.id]], 0)
            self._add_audit([AuditRecord(entry.id, action, utcnow(), detail)])

    def remove(self, entry_id: str, *, action: str, detail: dict[str, Any]) -> bool:
        with self.write():
            old = self._terms_of([entry_id])
            if entry_id not in old:
                return False
            self._run("DELETE FROM entries WHERE id = :id", {"id": entry_id})
            self._wrote([entry_id])
            self._run("DELETE FROM usage WHERE entry_id = :id", {"id": entry_id})
            self._count_terms([old[entry_id]], -1)
            self._reindexed([], [old[entry_id]], -1)
            self._add_audit([AuditRecord(entry_id, action, utcnow(), detail)])
            return True

    def add_audit(self, record: AuditRecord) -> None:
        with self.write():
            self._add_audit([record])

    def restore(
        self, entries: Sequence[tuple[Entry, IndexFields]], audit: Sequence[AuditRecord]
    ) -> int:
        with self.write():
            ids = [e.id for e, _ in entries]
            present = {r[0] for r in self._in("SELECT id FROM entries WHERE id", ids)}
            orphans = sorted({r.entry_id for r in audit} - set(ids))
            logged = self._in("SELECT DISTINCT entry_id FROM audit WHERE entry_id", orphans)
            present |= {r[0] for r in logged}
            fresh = [(e, index) for e, index in entries if e.id not in present]
            self._insert_rows(fresh)
            self._add_audit([r for r in audit if r.entry_id not in present])
            return len(fresh)

    def reindex(self, entries: Sequence[tuple[Entry, IndexFields]], version: int) -> None:
        with self.write():
            old = self._terms_of([e.id for e, _ in entries])
            kept = [(e, i) for e, i in entries if e.id in old]  # not deleted meanwhile
            rows = [self.dialect.entry_params(e, i) for e, i in kept]
            self._run_many(
                "UPDATE entries SET canon = :canon, skeleton = :skeleton, terms = :terms, "
                "term_count = :term_count WHERE id = :id",
                rows,
            )
            self._wrote([r["id"] for r in rows])
            self._write_keys([(e.id, i) for e, i in kept])
            new = [(r["id"], self.dialect.load_terms(r["terms"])) for r in rows]
            self._count_terms([old[eid] for eid, _ in new], -1)
            self._count_terms([terms for _, terms in new], +1)
            if new:
                self._reindexed(new, [old[eid] for eid, _ in new], 0)
            self._run(
                "INSERT INTO meta(key, value) VALUES ('index_version', :v) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                {"v": str(version)},
            )
        if self._kept is not None and entries:
            self._kept.mark = None  # terms changed without audit records: rebuild
        if self._near is not None and entries:
            self._near.mark = None
        if entries:
            self._building = None  # what it read is stale: started again

    # -- reads --------------------------------------------------------------------------
    def index_version(self) -> int | None:
        rows = self._rows("SELECT value FROM meta WHERE key = 'index_version'")
        return int(rows[0][0]) if rows else None

    def get(self, entry_id: str) -> Entry | None:
        rows = self._rows(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id = :id", {"id": entry_id})
        return row_to_entry(rows[0]) if rows else None

    def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        return self._entries(list(dict.fromkeys(ids))) if ids else {}

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        rows = self._rows(
            "SELECT id FROM entries WHERE id >= :lo AND id < :hi ORDER BY id LIMIT :n",
            {"lo": prefix, "hi": prefix + "\uffff", "n": limit},
        )
        return [r[0] for r in rows]

    def find(
        self, flt: Filter, *, limit: int | None = None, contains: str | None = None
    ) -> list[Entry]:
        d = self.dialect
        where, params = where_clause(flt, utcnow(), d)
        if contains is not None:
            # LIKE with our own escape character: a % or _ in the keyword is literal.
            where += " AND lower(e.content) LIKE '%' || lower(:contains) || '%' ESCAPE '!'"
            params["contains"] = contains.replace("!", "!!").replace("%", "!%").replace("_", "!_")
        params["limit"] = d.no_limit if limit is None else limit
        rows = self._rows(
            f"SELECT {E_COLUMNS} FROM entries e {d.newest} WHERE {where} "
            f"ORDER BY e.created_at DESC, e.{d.pos} DESC LIMIT :limit",
            params,
        )
        return [row_to_entry(r) for r in rows]

    def count(self, flt: Filter, at_most: int | None = None) -> int:
        where, params = where_clause(flt, utcnow(), self.dialect)
        params["at_most"] = self.dialect.no_limit if at_most is None else at_most
        sql = f"SELECT count(*) FROM (SELECT 1 FROM entries e WHERE {where} LIMIT :at_most) c"
        return int(self._rows(sql, params)[0][0])

    def aging(self, flt: Filter, verified_before: datetime) -> tuple[int, int, list[Entry]]:
        where, params = where_clause(flt, utcnow(), self.dialect)
        params["before"] = self.dialect.time(verified_before)
        old = (
            "SELECT count(*), coalesce(sum(CASE WHEN e.last_verified_at < :before THEN 1 "
            f"ELSE 0 END), 0) FROM entries e WHERE {where}"
        )
        linking = (
            f"SELECT {E_COLUMNS} FROM entries e WHERE {where} "
            "AND e.last_verified_at >= :before AND e.linked_paths != '[]'"
        )
        linked = [row_to_entry(r) for r in self._rows(linking, params)]
        passing, unverified = self._rows(old, params)[0]
        return int(passing), int(unverified), linked

    def keyword(
        self, terms: Sequence[str], flt: Filter, *, limit: int, postings: int = MAX_POSTINGS
    ) -> tuple[list[Candidate], CorpusStats]:
        stats = self._corpus(terms)
        chosen = rarest(stats, terms, budget=postings)
        if not chosen:
            return [], stats
        where, params = where_clause(flt, utcnow(), self.dialect)
        rows = kept_best(self, chosen, stats, where, params, limit)
        return self._candidates(rows or self._best(chosen, stats, where, params, limit)), stats

    def candidates(self, ids: Sequence[str], flt: Filter) -> list[Candidate]:
        if not ids:
            return []
        where, params = where_clause(flt, utcnow(), self.dialect)
        return self._candidates(self._among(ids, where, params))

    def _candidates(self, rows: Sequence[Any]) -> list[Candidate]:
        """Candidates of rows of `C_COLUMNS`; their entries are read together when asked."""
        load, group = self.dialect.load_terms, Entries(self._entries)
        return [row_candidate(r, load(r[6]), group) for r in rows]

    def _entries(self, ids: Sequence[str]) -> dict[str, Entry]:
        rows = self._in(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id", ids)
        return {r[0]: row_to_entry(r) for r in rows}

    def last_used(self, ids: Sequence[str]) -> dict[str, datetime]:
        rows = self._in("SELECT entry_id, used_at FROM usage WHERE entry_id", ids)
        return {eid: to_utc(at) for eid, at in rows}

    def superseded(self, entry_id: str) -> list[Entry]:
        rows = self._rows(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE superseded_by = :id "
            f"ORDER BY created_at, {self.dialect.pos}",
            {"id": entry_id},
        )
        return [row_to_entry(r) for r in rows]

    def audit(self, entry_id: str | None = None) -> list[AuditRecord]:
        sql = "SELECT seq, entry_id, action, at, detail FROM audit"
        rows = (
            self._rows(sql + " WHERE entry_id = :id ORDER BY seq", {"id": entry_id})
            if entry_id
            else self._rows(sql + " ORDER BY seq")
        )
        return [
            AuditRecord(eid, action, to_utc(at), stored_json(d), int(seq))
            for seq, eid, action, at, d in rows
        ]

    def iter_all(self) -> Iterator[Entry]:
        rows = self._rows(
            f"SELECT {ENTRY_COLUMNS} FROM entries ORDER BY created_at, {self.dialect.pos}"
        )
        for row in rows:
            yield row_to_entry(row)

    def counts(self) -> dict[str, Any]:
        # one pass over the entries (three took 1.1 s at 750k)
        groups = self._rows(
            "SELECT type, scope, superseded_by IS NULL, count(*) FROM entries GROUP BY 1, 2, 3"
        )
        by_type, by_scope, history = Counter[str](), Counter[str](), 0
        for type_, scope, current, n in groups:
            if current:
                by_type[type_] += n
                by_scope[scope] += n
            else:
                history += n
        audit = self._rows("SELECT count(*) FROM audit")[0][0]
        return {
            "entries": sum(by_type.values()),
            "history": history,
            "audit_records": audit,
            "by_type": dict(sorted(by_type.items())),
            "by_scope": dict(sorted(by_scope.items())),
            "bytes": self._bytes(),
        }
