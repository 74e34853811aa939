"""The embedded default store: one SQLite file, WAL, FTS5 over jieba-segmented terms."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from remem.entry import AuditRecord, Entry, format_ts, to_utc, utcnow
from remem.errors import StoreError
from remem.store.protocol import (
    MAX_POSTINGS,
    Candidate,
    CorpusStats,
    Domain,
    Filter,
    IndexFields,
    rarest,
)
from remem.store.sqlite.open import open_file, store_error
from remem.store.sqlite.rows import (
    E_COLUMNS,
    ENTRY_COLUMNS,
    dumps,
    entry_params,
    match_expr,
    row_to_entry,
    where_clause,
)


class SQLiteStore:
    """A `Store` in one SQLite file. Safe for threads (one lock) and processes (WAL +
    IMMEDIATE transactions + a busy timeout). With `synchronous="FULL"` (the default)
    every commit is fsynced, so an acknowledged write survives power loss; "NORMAL"
    survives a crashed or killed process but may lose the last writes on power loss,
    and saves then cost no disk flush."""

    def __init__(
        self, path: str | Path, *, busy_timeout: float = 30.0, synchronous: str = "FULL"
    ) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self._synchronous = synchronous.upper()
        self.path = str(path)
        self.notices: list[str] = []
        self.read_only = False
        self._lock = threading.RLock()
        self._depth = 0
        self._writes = 0
        self._busy_timeout = busy_timeout
        self._conn = self._open()

    def _open(self) -> sqlite3.Connection:
        conn, self.read_only = open_file(
            Path(self.path), self._synchronous, self._busy_timeout, self.notices
        )
        return conn

    def _store_error(self, exc: sqlite3.Error) -> StoreError:
        return store_error(self.path, exc)

    # -- transactions ----------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[None]:
        with self._lock:
            if self.read_only:
                raise StoreError(
                    f"cannot write the store {self.path}: its folder is read-only; "
                    "nothing was changed"
                )
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._store_error(exc) from exc
            self._depth = 1
            try:
                yield
                self._conn.execute("COMMIT")
                self._writes += 1
            except BaseException as exc:
                self._rollback()
                if isinstance(exc, sqlite3.Error):
                    raise self._store_error(exc) from exc
                raise
            finally:
                self._depth = 0

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the transaction is gone already; the original error matters

    def _q(self, sql: str, params: Any = ()) -> list[Any]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise self._store_error(exc) from exc

    # -- writes ----------------------------------------------------------------------------
    def _audit(self, entry_id: str, action: str, detail: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO audit(entry_id, action, at, detail) VALUES (?, ?, ?, ?)",
            (entry_id, action, format_ts(utcnow()), dumps(detail)),
        )

    def _write_keys(self, rowid: int, index: IndexFields) -> None:
        self._conn.execute("DELETE FROM entry_keys WHERE entry_rowid = ?", (rowid,))
        self._conn.executemany(
            "INSERT INTO entry_keys(entry_rowid, key, value) VALUES (?, ?, ?)",
            [(rowid, k, v) for k, v in index.keys.items()],
        )

    def _count_terms(self, terms: Sequence[str], step: int) -> None:
        distinct = [(t,) for t in set(terms)]
        if step > 0:
            self._conn.executemany(
                "INSERT INTO term_df(term, df) VALUES (?, 1) "
                "ON CONFLICT(term) DO UPDATE SET df = df + 1",
                distinct,
            )
        else:
            self._conn.executemany("UPDATE term_df SET df = df - 1 WHERE term = ?", distinct)
            # only these terms: "WHERE df <= 0" alone scans the whole table each time
            self._conn.executemany("DELETE FROM term_df WHERE term = ? AND df <= 0", distinct)

    def insert(
        self, entry: Entry, index: IndexFields, *, action: str, detail: dict[str, Any]
    ) -> None:
        with self.write():
            self._insert_row(entry, index)
            self._audit(entry.id, action, detail)

    def _insert_row(self, entry: Entry, index: IndexFields) -> None:
        params = entry_params(entry, index)
        names = ", ".join(params)
        marks = ", ".join(f":{n}" for n in params)
        cur = self._conn.execute(f"INSERT INTO entries({names}) VALUES ({marks})", params)
        assert cur.lastrowid is not None
        self._write_keys(cur.lastrowid, index)
        self._count_terms(index.terms, +1)

    def update(
        self, entry: Entry, index: IndexFields, *, action: str, detail: dict[str, Any]
    ) -> None:
        params = entry_params(entry, index)
        sets = ", ".join(f"{n} = :{n}" for n in params if n != "id")
        with self.write():
            row = self._conn.execute(
                "SELECT rowid, terms FROM entries WHERE id = ?", (entry.id,)
            ).fetchone()
            if row is None:
                raise StoreError(f"no entry {entry.id} to update")
            self._conn.execute(f"UPDATE entries SET {sets} WHERE id = :id", params)
            self._write_keys(row[0], index)
            if row[1] != params["terms"]:
                self._count_terms(row[1].split(), -1)
                self._count_terms(index.terms, +1)
            self._audit(entry.id, action, detail)

    def remove(self, entry_id: str, *, action: str, detail: dict[str, Any]) -> bool:
        with self.write():
            row = self._conn.execute(
                "SELECT terms FROM entries WHERE id = ?", (entry_id,)
            ).fetchone()
            if row is None:
                return False
            self._conn.execute("DELETE FROM entries WHERE id = ?", (entry_id,))
            self._conn.execute("DELETE FROM usage WHERE entry_id = ?", (entry_id,))
            self._count_terms(row[0].split(), -1)
            self._audit(entry_id, action, detail)
            return True

    def add_audit(self, record: AuditRecord) -> None:
        with self.write():
            self._add_audit([record])

    def _add_audit(self, records: Sequence[AuditRecord]) -> None:
        self._conn.executemany(
            "INSERT INTO audit(entry_id, action, at, detail) VALUES (?, ?, ?, ?)",
            [(r.entry_id, r.action, format_ts(r.at), dumps(r.detail)) for r in records],
        )

    def restore(
        self, entries: Sequence[tuple[Entry, IndexFields]], audit: Sequence[AuditRecord]
    ) -> int:
        with self.write():
            ids = [e.id for e, _ in entries]
            present = self._existing("SELECT id FROM entries WHERE id IN ({})", ids)
            orphans = {r.entry_id for r in audit} - set(ids)
            present |= self._existing("SELECT entry_id FROM audit WHERE entry_id IN ({})", orphans)
            fresh = [(e, index) for e, index in entries if e.id not in present]
            for entry, index in fresh:
                self._insert_row(entry, index)
            self._add_audit([r for r in audit if r.entry_id not in present])
            return len(fresh)

    def _existing(self, sql: str, ids: Iterable[str]) -> set[str]:
        """The ids among `ids` that `sql` (with one `IN ({})`) finds, in chunks."""
        ids, found = list(ids), set()
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            found |= {
                r[0] for r in self._conn.execute(sql.format(", ".join("?" * len(chunk))), chunk)
            }
        return found

    def index_version(self) -> int | None:
        rows = self._q("SELECT value FROM meta WHERE key = 'index_version'")
        return int(rows[0][0]) if rows else None

    def reindex(self, entries: Sequence[tuple[Entry, IndexFields]], version: int) -> None:
        with self.write():
            for entry, index in entries:
                row = self._conn.execute(
                    "SELECT rowid, terms FROM entries WHERE id = ?", (entry.id,)
                ).fetchone()
                if row is None:
                    continue  # deleted meanwhile
                params = entry_params(entry, index)
                self._conn.execute(
                    "UPDATE entries SET canon = :canon, skeleton = :skeleton, terms = :terms, "
                    "term_count = :term_count WHERE id = :id",
                    params,
                )
                self._write_keys(row[0], index)
                self._count_terms(row[1].split(), -1)
                self._count_terms(index.terms, +1)
            self._conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('index_version', ?)",
                (str(version),),
            )

    def mark_used(self, ids: Sequence[str], at: datetime) -> None:
        if not ids or self.read_only:
            return  # a read-only store still answers; it just forgets what it served
        with self.write():
            self._conn.executemany(
                "INSERT INTO usage(entry_id, used_at, uses) VALUES (?, ?, 1) ON CONFLICT("
                "entry_id) DO UPDATE SET used_at = max(used_at, excluded.used_at), uses = uses + 1",
                [(eid, format_ts(at)) for eid in set(ids)],
            )

    def last_used(self, ids: Sequence[str]) -> dict[str, datetime]:
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = self._q(f"SELECT entry_id, used_at FROM usage WHERE entry_id IN ({marks})", ids)
        return {eid: to_utc(at) for eid, at in rows}

    # -- reads -----------------------------------------------------------------------------
    def get(self, entry_id: str) -> Entry | None:
        rows = self._q(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id = ?", (entry_id,))
        return row_to_entry(rows[0]) if rows else None

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        rows = self._q(
            "SELECT id FROM entries WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            (prefix, prefix + "\uffff", limit),
        )
        return [r[0] for r in rows]

    def find(
        self, flt: Filter, *, limit: int | None = None, contains: str | None = None
    ) -> list[Entry]:
        where, params = where_clause(flt, utcnow())
        if contains is not None:
            where += " AND instr(lower(e.content), lower(:contains)) > 0"
            params["contains"] = contains
        params["limit"] = -1 if limit is None else limit
        rows = self._q(
            f"SELECT {E_COLUMNS} FROM entries e WHERE {where} "
            "ORDER BY e.created_at DESC, e.rowid DESC LIMIT :limit",
            params,
        )
        return [row_to_entry(r) for r in rows]

    def _doc_freq(self, terms: Sequence[str]) -> dict[str, int]:
        if not terms:
            return {}
        marks = ", ".join("?" for _ in terms)
        rows = self._q(f"SELECT term, df FROM term_df WHERE term IN ({marks})", list(terms))
        return {term: doc for term, doc in rows}

    def _corpus(self, terms: Sequence[str]) -> CorpusStats:
        docs, total = self._q("SELECT docs, terms FROM corpus WHERE id = 1")[0]
        return CorpusStats(docs, (total / docs) if docs else 0.0, self._doc_freq(terms))

    def keyword(
        self, terms: Sequence[str], flt: Filter, *, limit: int, postings: int = MAX_POSTINGS
    ) -> tuple[list[Candidate], CorpusStats]:
        stats = self._corpus(terms)
        chosen = rarest(stats, terms, budget=postings)
        if not chosen:
            return [], stats
        where, params = where_clause(flt, utcnow())
        params.update(match=match_expr(chosen), limit=limit)
        rows = self._q(
            f"SELECT {E_COLUMNS}, e.terms FROM entries_fts f JOIN entries e ON e.rowid = f.rowid "
            f"WHERE entries_fts MATCH :match AND {where} ORDER BY f.rank LIMIT :limit",
            params,
        )
        return [Candidate(row_to_entry(r), r[22].split()) for r in rows], stats

    def same_domain(self, domain: Domain, index: IndexFields, *, limit: int = 20) -> list[Entry]:
        # The unary + keeps SQLite from scanning a whole project through the visibility
        # index: the selective lookups (canon, skeleton, keys, FTS) must drive each query.
        dom = (
            "+e.type = :type AND +e.scope = :scope AND +e.project IS :project "
            "AND +e.session_id IS :session_id AND +e.user_id IS :user_id "
            "AND +e.agent_id IS :agent_id AND +e.superseded_by IS NULL "
            "AND (+e.expires_at IS NULL OR +e.expires_at > :now)"
        )
        params: dict[str, Any] = {
            "type": domain.type, "scope": domain.scope, "project": domain.project,
            "session_id": domain.session_id, "user_id": domain.user_id,
            "agent_id": domain.agent_id, "now": format_ts(utcnow()), "canon": index.canon,
            "skeleton": index.skeleton, "limit": limit,
        }  # fmt: skip
        found = self._q(
            f"SELECT {E_COLUMNS} FROM entries e WHERE e.canon = :canon AND {dom} LIMIT :limit",
            params,
        )
        if index.skeleton:
            found += self._q(
                f"SELECT {E_COLUMNS} FROM entries e WHERE e.skeleton = :skeleton "
                f"AND e.skeleton != '' AND {dom} LIMIT :limit",
                params,
            )
        if index.keys:
            # Only a different value for the same named thing can conflict.
            pairs = " UNION ALL ".join(
                f"SELECT entry_rowid FROM entry_keys WHERE key = :k{i} AND value != :v{i}"
                for i in range(len(index.keys))
            )
            for i, (key, value) in enumerate(index.keys.items()):
                params.update({f"k{i}": key, f"v{i}": value})
            found += self._q(
                f"SELECT {E_COLUMNS} FROM entries e WHERE {dom} AND e.rowid IN ({pairs}) "
                "LIMIT :limit",
                params,
            )
        rare = rarest(self._corpus(index.terms), index.terms, most=2)
        if rare:
            # Near-identical wording (Dice >= 0.8) shares the rarest known terms, so an
            # entry must hold both: a small intersection, cheap to rank even at 100k rows.
            params.update(match=match_expr(rare, "AND"), near=min(limit, 8))
            found += self._q(
                f"SELECT {E_COLUMNS} FROM entries_fts f JOIN entries e ON e.rowid = f.rowid "
                f"WHERE entries_fts MATCH :match AND {dom} ORDER BY f.rank LIMIT :near",
                params,
            )
        unique = {row[0]: row for row in found}
        return [row_to_entry(r) for r in unique.values()]

    # -- vectors ---------------------------------------------------------------------------
    def candidates(self, ids: Sequence[str], flt: Filter) -> list[Candidate]:
        if not ids:
            return []
        where, params = where_clause(flt, utcnow())
        params.update({f"id{i}": v for i, v in enumerate(ids)})
        marks = ", ".join(f":id{i}" for i in range(len(ids)))
        # CROSS JOIN fixes the order: the id lookups drive, not a scan of the project.
        rows = self._q(
            f"SELECT {E_COLUMNS}, e.terms FROM (SELECT rowid AS r FROM entries WHERE id IN "
            f"({marks})) ids CROSS JOIN entries e ON e.rowid = ids.r WHERE {where}",
            params,
        )
        return [Candidate(row_to_entry(r), r[22].split()) for r in rows]

    def put_vectors(self, model: str, dim: int, vectors: Sequence[tuple[str, bytes]]) -> None:
        with self.write():
            self._conn.executemany(
                "INSERT OR REPLACE INTO vectors(entry_rowid, model, dim, vec) "
                "SELECT rowid, ?, ?, ? FROM entries WHERE id = ?",
                [(model, dim, blob, eid) for eid, blob in vectors],
            )

    def vector_models(self) -> list[tuple[str, int]]:
        return [(m, d) for m, d in self._q("SELECT DISTINCT model, dim FROM vectors ORDER BY 1")]

    def vectors(self, model: str) -> tuple[list[str], list[bytes]]:
        rows = self.vector_rows(model)
        return [r[1] for r in rows], [r[2] for r in rows]

    def vector_rows(
        self, model: str, *, after: int = 0, limit: int | None = None
    ) -> list[tuple[int, str, bytes]]:
        rows = self._q(
            "SELECT v.entry_rowid, e.id, v.vec FROM vectors v "
            "JOIN entries e ON e.rowid = v.entry_rowid "
            "WHERE v.model = ? AND v.entry_rowid > ? ORDER BY v.entry_rowid LIMIT ?",
            (model, after, -1 if limit is None else limit),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def nearest(
        self, model: str, vector: bytes, n: int, flt: Filter | None = None
    ) -> list[tuple[str, float]] | None:
        return None  # no vector index in SQLite: VectorIndex scans its own matrix

    def unembedded(self, model: str, *, limit: int, after: int = 0) -> list[tuple[int, Entry]]:
        rows = self._q(
            f"SELECT {E_COLUMNS}, e.rowid FROM entries e LEFT JOIN vectors v "
            "ON v.entry_rowid = e.rowid AND v.model = ? "
            "WHERE e.rowid > ? AND v.entry_rowid IS NULL ORDER BY e.rowid LIMIT ?",
            (model, after, limit),
        )
        return [(r[22], row_to_entry(r)) for r in rows]

    def generation(self) -> tuple[int, int]:
        return int(self._q("PRAGMA data_version")[0][0]), self._writes

    def superseded(self, entry_id: str) -> list[Entry]:
        rows = self._q(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE superseded_by = ? ORDER BY created_at",
            (entry_id,),
        )
        return [row_to_entry(r) for r in rows]

    def audit(self, entry_id: str | None = None) -> list[AuditRecord]:
        sql = "SELECT seq, entry_id, action, at, detail FROM audit"
        rows = (
            self._q(sql + " WHERE entry_id = ? ORDER BY seq", (entry_id,))
            if entry_id
            else (self._q(sql + " ORDER BY seq"))
        )
        return [
            AuditRecord(eid, action, to_utc(at), json.loads(d), seq)
            for seq, eid, action, at, d in rows
        ]

    def iter_all(self) -> Iterator[Entry]:
        rows = self._q(f"SELECT {ENTRY_COLUMNS} FROM entries ORDER BY created_at, rowid")
        for row in rows:
            yield row_to_entry(row)

    def counts(self) -> dict[str, Any]:
        by_type = dict(self._q(
            "SELECT type, count(*) FROM entries WHERE superseded_by IS NULL GROUP BY type"
        ))  # fmt: skip
        by_scope = dict(self._q(
            "SELECT scope, count(*) FROM entries WHERE superseded_by IS NULL GROUP BY scope"
        ))  # fmt: skip
        total, history = self._q("SELECT count(*), count(superseded_by) FROM entries")[0]
        audit = self._q("SELECT count(*) FROM audit")[0][0]
        path = Path(self.path)
        size = sum(
            p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists()
        )
        return {
            "entries": total - history, "history": history, "audit_records": audit,
            "by_type": by_type, "by_scope": by_scope, "bytes": size,
        }  # fmt: skip

    def integrity_check(self) -> str:
        return str(self._q("PRAGMA integrity_check")[0][0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
