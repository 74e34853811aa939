"""The embedded default store: one SQLite file, WAL, FTS5 over jieba-segmented terms.

Only SQLite's own part lives here: the connection and its transactions, keyword
search through FTS5 (whose index and corpus counts triggers keep), vectors as BLOBs (int8
and a scale: `remem.store.sqlite.codec`) and use records; everything else is
`remem.store.sql`'s."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from remem.entry import format_ts
from remem.errors import StoreError
from remem.store.protocol import CorpusStats, Filter
from remem.store.rows import C_COLUMNS, K_COLUMNS, Dialect
from remem.store.sql import SQLStore
from remem.store.sqlite import codec, state
from remem.store.sqlite.damage import OPEN_HERE
from remem.store.sqlite.open import open_file, store_error
from remem.store.sqlite.reading import refusal
from remem.store.sqlite.schema import LATEST
from remem.store.upgrade import upgrade_index

_IDS_PER_QUERY = 500  # under SQLite's limit of bound parameters

SQLITE = Dialect(
    mark=":{}",
    same="IS",
    time=format_ts,
    pos="rowid",
    ref="entry_rowid",
    no_limit=-1,
    lists=False,
    hint="+",
    newest="INDEXED BY entries_created",
    store_terms=" ".join,
    load_terms=str.split,
)


def match_expr(terms: Sequence[str], op: str = "OR") -> str:
    return f" {op} ".join('"' + t.replace('"', '""') + '"' for t in terms)


def _chunks(positions: Sequence[int]) -> Iterator[list[int]]:
    unique = sorted(set(positions))  # in order: neighbouring rows share pages
    for i in range(0, len(unique), _IDS_PER_QUERY):
        yield unique[i : i + _IDS_PER_QUERY]


def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, ValueError):
        return path


class SQLiteStore(SQLStore):
    """A `Store` in one SQLite file. Safe for threads (one lock) and processes (WAL +
    IMMEDIATE transactions + a busy timeout). With `synchronous="FULL"` (the default)
    every commit is fsynced, so an acknowledged write survives power loss; "NORMAL"
    survives a crashed or killed process but may lose the last writes on power loss,
    and saves then cost no disk flush."""

    dialect = SQLITE

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 30.0,
        synchronous: str = "FULL",
        create: bool = True,
    ) -> None:
        """`create` off: a command that only reads, which creates, moves or renames
        nothing (a missing store reads as empty, a damaged one is an error)."""
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self._synchronous = synchronous.upper()
        self.path = str(path)
        self.notices: list[str] = []
        self.read_only = False
        self._lock = threading.RLock()
        self._depth = 0
        self._writes = 0
        # inside a write transaction that has written nothing yet, the corpus counts and
        # term frequencies it read (`_corpus`; key None: the counts); None elsewhere
        self._counts: dict[str | None, Any] | None = None
        self._busy_timeout = busy_timeout
        # counted before it opens: another thread's open must not ask the -shm lock
        # (`damage.in_use`) and drop this one's by closing its descriptor
        self._held = _resolved(self.path)
        OPEN_HERE[self._held] = OPEN_HERE.get(self._held, 0) + 1
        try:
            opened = open_file(
                Path(self.path), self._synchronous, self._busy_timeout, self.notices, create=create
            )
        except BaseException:
            OPEN_HERE[self._held] -= 1
            raise
        self._conn, self.read_only, self._state = opened.conn, opened.read_only, opened.keeper
        self._check_schema(self.path, LATEST)
        if opened.older is not None:  # an older remem's store, read from a copy in memory
            upgrade_index(self)  # its terms by today's rules, for today's queries: in the copy
            self.refuse_writes = refusal(Path(self.path), opened.older)
        self._copy = opened.older is not None

    # -- connection ------------------------------------------------------------------------
    @contextmanager
    def write(self, *, derived: bool = False) -> Iterator[None]:
        """One write transaction; `derived`: of data derived from the entries (vectors),
        which an older remem's store read from a copy in memory keeps for this command."""
        with self._lock:
            if not (derived and self._copy):
                self._writable()
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
                raise store_error(self.path, exc) from exc
            self._depth, self._counts = 1, {}
            try:
                yield
                generation = self._conn.execute(state.BUMP).fetchall()  # (done, not pending)
                before = self._state.before() if self._state else None
                self._conn.execute("COMMIT")
                self._writes += 1
                if self._state and generation:
                    self._state.after(int(generation[0][0]), before)
            except BaseException as exc:
                self._rollback()
                if isinstance(exc, sqlite3.Error):
                    raise store_error(self.path, exc) from exc
                raise
            finally:
                self._depth, self._counts = 0, None

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the transaction is gone already; the original error matters

    def _q(self, sql: str, params: Any = None) -> list[Any]:
        with self._lock:
            try:
                return self._conn.execute(sql, params or ()).fetchall()
            except sqlite3.Error as exc:
                raise store_error(self.path, exc) from exc

    def _x(self, sql: str, params: Any = None) -> None:
        self._counts = None  # a write may change them
        self._conn.execute(sql, params or ())

    def _xmany(self, sql: str, rows: Sequence[Any]) -> None:
        self._counts = None
        self._conn.executemany(sql, rows)

    # -- keyword index: FTS5, kept by triggers -----------------------------------------------
    def _reindexed(
        self, new: Sequence[tuple[str, Sequence[str]]], old: Sequence[Sequence[str]], docs: int
    ) -> None:
        pass  # the entries_* triggers update entries_fts and corpus with the row

    def _corpus(self, terms: Sequence[str]) -> CorpusStats:
        with self._lock:  # (another thread waits for a write transaction, as in `_q`)
            # what this write transaction read of the counts before it wrote anything: a
            # save asks them 1-6 times (its lookups), of terms asked before
            seen = self._counts if self._counts is not None else {}
            wanted = [t for t in dict.fromkeys(terms) if t not in seen]
            if wanted or None not in seen:  # the counts and frequencies in one statement
                sql = "SELECT NULL, docs, terms FROM corpus WHERE id = 1"
                if wanted:
                    marks = ", ".join("?" for _ in wanted)
                    sql += f" UNION ALL SELECT term, df, 0 FROM term_df WHERE term IN ({marks})"
                seen.update(dict.fromkeys(wanted, 0))
                for term, df, total in self._q(sql, wanted):
                    seen[term] = (df, total) if term is None else df
            docs, total = seen[None]
            doc_freq = {t: seen[t] for t in terms if seen[t]}
        return CorpusStats(docs, (total / docs) if docs else 0.0, doc_freq)

    def _best(
        self, terms: list[str], stats: CorpusStats, where: str, params: dict[str, Any], limit: int
    ) -> list[Any]:
        params = {**params, "match": match_expr(terms), "limit": limit}
        return self._q(
            f"SELECT {C_COLUMNS} FROM entries_fts f JOIN entries e ON e.rowid = f.rowid "
            f"WHERE entries_fts MATCH :match AND {where} ORDER BY f.rank LIMIT :limit",
            params,
        )

    def _sharing(
        self, rare: list[str], stats: CorpusStats, dom: str, params: dict[str, Any], n: int
    ) -> list[Any]:
        params = {**params, "match": match_expr(rare, "AND"), "near": n}
        return self._q(
            f"SELECT {K_COLUMNS} FROM entries_fts f JOIN entries e ON e.rowid = f.rowid "
            f"WHERE entries_fts MATCH :match AND {dom} ORDER BY f.rank LIMIT :near",
            params,
        )

    def _among(self, ids: Sequence[str], where: str, params: dict[str, Any]) -> list[Any]:
        params = {**params, **{f"id{i}": v for i, v in enumerate(ids)}}
        marks = ", ".join(f":id{i}" for i in range(len(ids)))
        # CROSS JOIN fixes the order: the id lookups drive, not a scan of the project.
        return self._q(
            f"SELECT {C_COLUMNS} FROM (SELECT rowid AS r FROM entries WHERE id IN "
            f"({marks})) ids CROSS JOIN entries e ON e.rowid = ids.r WHERE {where}",
            params,
        )

    # -- use records and vectors -----------------------------------------------------------
    def mark_used(self, ids: Sequence[str], at: datetime) -> None:
        if not ids or self.read_only or self.refuse_writes:
            return  # a read-only store still answers; it just forgets what it served
        with self.write():
            self._conn.executemany(
                "INSERT INTO usage(entry_id, used_at, uses) VALUES (?, ?, 1) ON CONFLICT("
                "entry_id) DO UPDATE SET used_at = max(used_at, excluded.used_at), uses = uses + 1",
                [(eid, format_ts(at)) for eid in set(ids)],
            )

    def put_vectors(self, model: str, dim: int, vectors: Sequence[tuple[str, bytes]]) -> None:
        with self.write(derived=True):
            self._conn.executemany(
                "INSERT OR REPLACE INTO vectors(entry_rowid, model, dim, vec) "
                "SELECT rowid, ?, ?, ? FROM entries WHERE id = ?",
                [
                    (model, dim, blob, eid)
                    for (eid, _), blob in zip(
                        vectors, codec.encode([b for _, b in vectors], dim), strict=True
                    )
                ],
            )

    def vector_rows(
        self, model: str, *, after: int = 0, limit: int | None = None
    ) -> list[tuple[int, str, bytes]]:
        rows = self._q(
            "SELECT v.entry_rowid, e.id, v.vec, v.dim FROM vectors v "
            "JOIN entries e ON e.rowid = v.entry_rowid "
            "WHERE v.model = ? AND v.entry_rowid > ? ORDER BY v.entry_rowid LIMIT ?",
            (model, after, -1 if limit is None else limit),
        )
        blobs = codec.decode([r[2] for r in rows], [r[3] for r in rows])
        return [(r[0], r[1], b) for r, b in zip(rows, blobs, strict=True)]

    def vectors_at(self, model: str, positions: Sequence[int]) -> dict[int, bytes]:
        # no join: a search reads ~250 of these and names only the best 50 (`ids_at`)
        sql = "SELECT entry_rowid, vec, dim FROM vectors WHERE entry_rowid IN ({}) AND model = ?"
        return self._decoded(sql, _chunks(positions), model)

    def ids_at(self, positions: Sequence[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        for chunk in _chunks(positions):
            rows = self._q(
                f"SELECT rowid, id FROM entries WHERE rowid IN ({','.join('?' * len(chunk))})",
                tuple(chunk),
            )
            found.update((r[0], r[1]) for r in rows)
        return found

    def vectors_of(self, model: str, ids: Sequence[str]) -> dict[str, bytes]:
        unique = list(dict.fromkeys(ids))
        chunks = (unique[i : i + _IDS_PER_QUERY] for i in range(0, len(unique), _IDS_PER_QUERY))
        # `+v.model`: look entries up by id, never scan the model's index of vectors
        sql = (
            "SELECT e.id, v.vec, v.dim FROM entries e JOIN vectors v ON v.entry_rowid = e.rowid "
            "WHERE e.id IN ({}) AND +v.model = ?"
        )
        return self._decoded(sql, chunks, model)

    def _decoded(self, sql: str, chunks: Iterable[Sequence[Any]], model: str) -> dict[Any, bytes]:
        """The vectors `sql` finds for each chunk of keys (its IN list `{}`), by its first
        column, decoded to float32 bytes (`codec`)."""
        found: dict[Any, bytes] = {}
        for chunk in chunks:
            rows = self._q(sql.format(",".join("?" * len(chunk))), (*chunk, model))
            blobs = codec.decode([r[1] for r in rows], [r[2] for r in rows])
            found.update((r[0], b) for r, b in zip(rows, blobs, strict=True))
        return found

    def nearest(
        self, model: str, vector: bytes, n: int, flt: Filter | None = None
    ) -> list[tuple[str, float]] | None:
        return None  # no vector index in SQLite: VectorIndex scans its own matrix

    # -- the rest --------------------------------------------------------------------------
    def generation(self) -> tuple[int, int]:
        return int(self._q("PRAGMA data_version")[0][0]), self._writes

    def _commits(self) -> int:
        return self._writes

    def _bytes(self) -> int:
        path = Path(self.path)
        return sum(
            p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists()
        )

    def integrity_check(self) -> str:
        return str(self._q("PRAGMA integrity_check")[0][0])

    def close(self) -> None:
        with self._lock:
            if self._state is None:
                self._conn.close()
            else:  # closing may checkpoint the log into the file: recorded as remem's
                ident, before = state.identity(self._conn), self._state.before()
                self._conn.close()
                self._state.after(ident[1] if ident else None, before)
                self._state.close()
                self._state = None
            if OPEN_HERE.get(self._held, 0) > 0:
                OPEN_HERE[self._held] -= 1
