"""The shared store for teams: PostgreSQL with pgvector, behind the same `Store` protocol.

Selected by a `postgresql://` location (`REMEM_DB`, `--db`). Connections come from a
pool; every write transaction takes one advisory lock, so that the dedup check and
the insert of a save see the same state in every process (as SQLite's BEGIN
IMMEDIATE does) and `pos` grows in commit order, which the vector cache relies on.
Only PostgreSQL's own part lives here: the pool, BM25 from a postings table (with
the corpus counts it needs), vectors in pgvector with an HNSW index per model, and
use records outside the writers' lock; everything else is `remem.store.sql`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from remem.entry import utcnow
from remem.settings import describe
from remem.store.postgres.bm25 import BM25_POSTINGS, bm25, bm25_params, indexable
from remem.store.postgres.conn import Connections
from remem.store.postgres.schema import LATEST, hnsw_index_sql
from remem.store.protocol import CorpusStats, Filter
from remem.store.rows import C_COLUMNS, K_COLUMNS, Dialect
from remem.store.sql import SQLStore, where_clause

POSTGRES = Dialect(
    mark="%({})s",
    same="IS NOT DISTINCT FROM",
    time=lambda t: t,
    pos="pos",
    ref="entry_pos",
    no_limit=None,
    lists=True,
    keep_terms=indexable,
)


class PostgresStore(SQLStore):
    """A `Store` in a PostgreSQL database (pgvector required). Thread-safe: reads take
    any pooled connection; a write transaction keeps one for its thread."""

    dialect = POSTGRES

    def __init__(
        self,
        url: str,
        *,
        pool_size: int | None = None,
        connect_timeout: int = 10,
        upgrade: bool = True,
    ):
        """`upgrade` off (a command that only reads): an older remem's schema is refused."""
        self.url = url
        self.path = describe(url)
        self.notices: list[str] = []
        self._db = Connections(
            url, self.path, pool_size=pool_size, timeout=connect_timeout, upgrade=upgrade
        )
        self._conn = self._db.conn
        self._indexed: set[tuple[str, int]] = set()  # the vector indexes made (put_vectors)
        self._check_schema(self.path, LATEST)

    # -- connection ------------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[None]:
        self._writable()
        with self._db.transaction():
            yield

    def _q(self, sql: str, params: Any = None) -> list[Any]:
        return self._db.q(sql, params)

    def _x(self, sql: str, params: Any = None) -> None:
        self._db.x(sql, params)

    def _xmany(self, sql: str, rows: Sequence[Any]) -> None:
        with self._conn() as conn:
            conn.cursor().executemany(sql, rows)

    # -- keyword index: postings and corpus counts, kept here ----------------------------------
    def _reindexed(
        self, new: Sequence[tuple[str, Sequence[str]]], old: Sequence[Sequence[str]], docs: int
    ) -> None:
        self._batch(
            "DELETE FROM postings WHERE entry_pos IN "
            "(SELECT e.pos FROM {rows} JOIN entries e ON e.id = r.id)",
            (("id", "text"),),
            [(eid,) for eid, _ in new],
        )
        self._batch(
            "INSERT INTO postings(term, entry_pos, tf, dl) SELECT r.term, e.pos, count(*), "
            "max(r.dl) FROM {rows} JOIN entries e ON e.id = r.id GROUP BY r.term, e.pos",
            (("id", "text"), ("term", "text"), ("dl", "int")),
            [(eid, term, len(terms)) for eid, terms in new for term in terms],
        )
        delta = sum(len(t) for _, t in new) - sum(len(t) for t in old)
        self._x(
            "UPDATE corpus SET docs = docs + %s, terms = terms + %s WHERE id = 1", (docs, delta)
        )

    def _corpus(self, terms: Sequence[str]) -> CorpusStats:
        rows = self._q(
            "SELECT c.docs, c.terms, t.term, t.df FROM corpus c LEFT JOIN term_df t "
            "ON t.term = ANY(%s) WHERE c.id = 1",
            (indexable(terms),),
        )
        docs, total = rows[0][0], rows[0][1]
        doc_freq = {t: d for _, _, t, d in rows if t is not None}
        return CorpusStats(docs, (total / docs) if docs else 0.0, doc_freq)

    def _best(
        self, terms: list[str], stats: CorpusStats, where: str, params: dict[str, Any], limit: int
    ) -> list[Any]:
        params = {**params, **bm25_params(stats, terms), "limit": limit}
        sql = (
            f"WITH scored AS ({BM25_POSTINGS}), top AS (SELECT s.pos, s.score FROM scored s "
            f"JOIN entries e ON e.pos = s.pos WHERE {where} "
            "ORDER BY s.score DESC, s.pos LIMIT :limit) "
            f"SELECT {C_COLUMNS} FROM top t JOIN entries e ON e.pos = t.pos "
            "ORDER BY t.score DESC, t.pos"
        )
        return self._db.index_only(POSTGRES.sql(sql), params)

    def _sharing(
        self, rare: list[str], stats: CorpusStats, dom: str, params: dict[str, Any], n: int
    ) -> list[Any]:
        score, score_params = bm25(stats, rare)
        params = {**params, **score_params, "rare": rare, "near": n}
        return self._rows(
            f"SELECT {K_COLUMNS} FROM entries e WHERE e.terms @> :rare::text[] "
            f"AND {dom} ORDER BY {score} DESC, e.pos LIMIT :near",
            params,
        )

    def _among(self, ids: Sequence[str], where: str, params: dict[str, Any]) -> list[Any]:
        return self._rows(
            f"SELECT {C_COLUMNS} FROM entries e WHERE e.id = ANY(:ids) AND {where}",
            {**params, "ids": list(ids)},
        )

    # -- use records and vectors -----------------------------------------------------------
    def mark_used(self, ids: Sequence[str], at: datetime) -> None:
        if not ids or self.refuse_writes:
            return
        # One statement is atomic on its own, and use records touch nothing a save's
        # checks read: no writers' lock, no generation bump, no wait behind saves.
        self._x(
            "INSERT INTO usage(entry_id, used_at, uses) SELECT unnest(%s::text[]), %s, 1 "
            "ON CONFLICT (entry_id) DO UPDATE SET "
            "used_at = greatest(usage.used_at, excluded.used_at), uses = usage.uses + 1",
            (sorted(set(ids)), at),
        )

    def put_vectors(self, model: str, dim: int, vectors: Sequence[tuple[str, bytes]]) -> None:
        if not vectors:
            return
        made = (model, dim) in self._indexed  # once a process: each is a round trip
        with self.write():
            if not made:
                self._x(hnsw_index_sql(model, dim))
            self._x(
                "INSERT INTO vectors(entry_pos, model, dim, vec) "
                "SELECT e.pos, %s, %s, v.vec FROM unnest(%s::text[], %s::vector[]) AS v(id, vec) "
                "JOIN entries e ON e.id = v.id "
                "ON CONFLICT (entry_pos) DO UPDATE SET model = excluded.model, "
                "dim = excluded.dim, vec = excluded.vec",
                (model, dim, [eid for eid, _ in vectors], [_vector(b) for _, b in vectors]),
            )
        self._indexed.add((model, dim))  # committed: the index is there

    def vector_rows(
        self, model: str, *, after: int = 0, limit: int | None = None
    ) -> list[tuple[int, str, bytes]]:
        with self._conn() as conn:
            cur = conn.cursor(binary=True)
            rows = cur.execute(
                "SELECT v.entry_pos, e.id, v.vec FROM vectors v JOIN entries e "
                "ON e.pos = v.entry_pos WHERE v.model = %s AND v.entry_pos > %s "
                "ORDER BY v.entry_pos LIMIT %s",
                (model, after, limit),
            ).fetchall()
        return [(int(p), eid, _blob(vec)) for p, eid, vec in rows]

    def vectors_at(self, model: str, positions: Sequence[int]) -> dict[int, bytes]:
        if not positions:
            return {}
        with self._conn() as conn:
            cur = conn.cursor(binary=True)
            rows = cur.execute(
                "SELECT entry_pos, vec FROM vectors WHERE entry_pos = ANY(%s) AND model = %s",
                (list(dict.fromkeys(positions)), model),
            ).fetchall()
        return {int(p): _blob(vec) for p, vec in rows}

    def ids_at(self, positions: Sequence[int]) -> dict[int, str]:
        if not positions:
            return {}
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT pos, id FROM entries WHERE pos = ANY(%s)", (list(set(positions)),)
            ).fetchall()
        return {int(p): str(eid) for p, eid in rows}

    def vectors_of(self, model: str, ids: Sequence[str]) -> dict[str, bytes]:
        if not ids:
            return {}
        with self._conn() as conn:
            cur = conn.cursor(binary=True)
            rows = cur.execute(
                "SELECT e.id, v.vec FROM entries e JOIN vectors v ON v.entry_pos = e.pos "
                "WHERE e.id = ANY(%s) AND v.model = %s",
                (list(dict.fromkeys(ids)), model),
            ).fetchall()
        return {eid: _blob(vec) for eid, vec in rows}

    def nearest(
        self, model: str, vector: bytes, n: int, flt: Filter | None = None
    ) -> list[tuple[str, float]] | None:
        """From the model's HNSW index (approximate, like any ANN). The index finds
        the nearest rows before `flt` applies, so when it leaves fewer than `n` (one
        small project of a team store) the rows passing `flt` are scanned exactly."""
        dim = len(vector) // 4
        # The model is a literal so that the planner matches the model's partial index.
        literal = model.replace("'", "''").replace("%", "%%")
        where, params = where_clause(flt, utcnow(), POSTGRES) if flt is not None else ("TRUE", {})
        params.update(q=_vector(vector), n=n)
        distance = f"(v.vec::vector({dim})) <=> %(q)s::vector({dim})"
        sql = (
            f"SELECT e.id, 1 - ({distance}) FROM vectors v JOIN entries e "
            f"ON e.pos = v.entry_pos WHERE v.model = '{literal}' AND v.dim = {dim} "
            f"AND {POSTGRES.sql(where)} ORDER BY {distance} LIMIT %(n)s"
        )
        with self._conn() as conn, conn.transaction():
            # The index returns at most ef_search rows; a wide n needs a wider search.
            conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, min(n * 4, 1000))}")
            rows = conn.execute(sql, params).fetchall()
            if flt is not None and len(rows) < n:
                conn.execute("SET LOCAL enable_indexscan = off")
                rows = conn.execute(sql, params).fetchall()
        return [(eid, float(sim)) for eid, sim in rows]

    # -- the rest --------------------------------------------------------------------------
    def generation(self) -> tuple[int, int]:
        return int(self._q("SELECT gen FROM corpus WHERE id = 1")[0][0]), self._db.commits

    def _commits(self) -> int:
        return self._db.commits

    def _bytes(self) -> int:
        size = self._q(
            "SELECT sum(pg_total_relation_size(c)) FROM unnest(ARRAY['entries', 'entry_keys', "
            "'term_df', 'audit', 'vectors', 'usage', 'corpus', 'postings']::regclass[]) AS c"
        )[0][0]
        return int(size or 0)

    def close(self) -> None:
        self._db.close()


def _vector(blob: bytes) -> Any:
    import numpy as np

    return np.frombuffer(blob, dtype=np.float32)


def _blob(vec: Any) -> bytes:
    """pgvector's Vector (big-endian on the wire) as our native float32 bytes."""
    import numpy as np

    return bytes(vec.to_numpy().astype(np.float32).tobytes())
