"""The shared store for teams: PostgreSQL with pgvector, behind the same `Store` protocol.

Selected by a `postgresql://` location (`REMEM_DB`, `--db`). Connections come from a
pool; every write transaction takes one advisory lock, so that the dedup check and
the insert of a save see the same state in every process (as SQLite's BEGIN
IMMEDIATE does) and `pos` grows in commit order, which the vector cache relies on.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from remem.entry import AuditRecord, Entry, to_utc, utcnow
from remem.errors import StoreError
from remem.settings import describe
from remem.store.postgres.conn import Connections
from remem.store.postgres.rows import (
    BM25_POSTINGS,
    bm25,
    bm25_params,
    entry_params,
    indexable,
    where_clause,
)
from remem.store.postgres.schema import hnsw_index_sql
from remem.store.protocol import (
    MAX_POSTINGS,
    Candidate,
    CorpusStats,
    Domain,
    Filter,
    IndexFields,
    rarest,
)
from remem.store.sql import E_COLUMNS, ENTRY_COLUMNS, dumps, row_to_entry

_TERMS = 22  # index of e.terms after the entry columns


class PostgresStore:
    """A `Store` in a PostgreSQL database (pgvector required). Thread-safe: reads take
    any pooled connection; a write transaction keeps one for its thread."""

    def __init__(self, url: str, *, pool_size: int | None = None, connect_timeout: int = 10):
        self.url = url
        self.path = describe(url)
        self.notices: list[str] = []
        self._db = Connections(url, self.path, pool_size=pool_size, timeout=connect_timeout)
        self._q, self._x, self._conn = self._db.q, self._db.x, self._db.conn
        self._index_only = self._db.index_only

    @contextmanager
    def write(self) -> Iterator[None]:
        with self._db.transaction():
            yield

    # -- writes ----------------------------------------------------------------------------
    def _audit(self, entry_id: str, action: str, detail: dict[str, Any]) -> None:
        self._x(
            "INSERT INTO audit(entry_id, action, at, detail) VALUES (%s, %s, %s, %s)",
            (entry_id, action, utcnow(), dumps(detail)),
        )

    # Index rows are written for a whole batch of entries at once (one statement each,
    # positions joined by id), so a restore of 1,000 entries costs a handful of
    # statements, not thousands; a single save is a batch of one.
    def _write_keys(self, batch: Sequence[tuple[str, IndexFields]]) -> None:
        ids = [eid for eid, _ in batch]
        self._x(
            "DELETE FROM entry_keys WHERE entry_pos IN "
            "(SELECT pos FROM entries WHERE id = ANY(%s))",
            (ids,),
        )
        rows = [(eid, k, v) for eid, index in batch for k, v in index.keys.items()]
        if rows:
            self._x(
                "INSERT INTO entry_keys(entry_pos, key, value) SELECT e.pos, t.k, t.v "
                "FROM unnest(%s::text[], %s::text[], %s::text[]) AS t(id, k, v) "
                "JOIN entries e ON e.id = t.id",
                [list(col) for col in zip(*rows, strict=True)],
            )

    def _write_postings(self, batch: Sequence[tuple[str, list[str]]]) -> None:
        ids = [eid for eid, _ in batch]
        self._x(
            "DELETE FROM postings WHERE entry_pos IN (SELECT pos FROM entries WHERE id = ANY(%s))",
            (ids,),
        )
        rows = [(eid, t, len(terms)) for eid, terms in batch for t in terms]
        if rows:
            self._x(
                "INSERT INTO postings(term, entry_pos, tf, dl) SELECT t.term, e.pos, count(*), "
                "max(t.dl) FROM unnest(%s::text[], %s::text[], %s::int[]) AS t(id, term, dl) "
                "JOIN entries e ON e.id = t.id GROUP BY t.term, e.pos",
                [list(col) for col in zip(*rows, strict=True)],
            )

    def _count_terms(self, term_lists: Sequence[Sequence[str]], step: int) -> None:
        counts = Counter(t for terms in term_lists for t in set(terms))
        if not counts:
            return
        terms = sorted(counts)  # one lock order for every writer
        if step > 0:
            self._x(
                "INSERT INTO term_df(term, df) SELECT * FROM unnest(%s::text[], %s::int[]) "
                "ON CONFLICT (term) DO UPDATE SET df = term_df.df + excluded.df",
                (terms, [counts[t] for t in terms]),
            )
        else:
            self._x(
                "UPDATE term_df d SET df = d.df - c.n FROM unnest(%s::text[], %s::int[]) "
                "AS c(term, n) WHERE d.term = c.term",
                (terms, [counts[t] for t in terms]),
            )
            self._x("DELETE FROM term_df WHERE term = ANY(%s) AND df <= 0", (terms,))

    def _insert_rows(self, batch: Sequence[tuple[Entry, IndexFields]]) -> None:
        if not batch:
            return
        rows = [entry_params(entry, index) for entry, index in batch]
        names = ", ".join(rows[0])
        marks = ", ".join(f"%({n})s" for n in rows[0])
        with self._conn() as conn:
            conn.cursor().executemany(f"INSERT INTO entries({names}) VALUES ({marks})", rows)
        self._write_keys([(entry.id, index) for entry, index in batch])
        self._write_postings([(r["id"], r["terms"]) for r in rows])
        self._count_terms([r["terms"] for r in rows], +1)
        self._x(
            "UPDATE corpus SET docs = docs + %s, terms = terms + %s WHERE id = 1",
            (len(rows), sum(r["term_count"] for r in rows)),
        )

    def insert(
        self, entry: Entry, index: IndexFields, *, action: str, detail: dict[str, Any]
    ) -> None:
        with self.write():
            self._insert_rows([(entry, index)])
            self._audit(entry.id, action, detail)

    def update(
        self, entry: Entry, index: IndexFields, *, action: str, detail: dict[str, Any]
    ) -> None:
        params = entry_params(entry, index)
        sets = ", ".join(f"{n} = %({n})s" for n in params if n != "id")
        with self.write():
            row = self._q("SELECT terms FROM entries WHERE id = %s FOR UPDATE", (entry.id,))
            if not row:
                raise StoreError(f"no entry {entry.id} to update")
            old_terms = row[0][0]
            self._x(f"UPDATE entries SET {sets} WHERE id = %(id)s", params)
            self._write_keys([(entry.id, index)])
            if old_terms != params["terms"]:
                self._write_postings([(entry.id, params["terms"])])
                self._count_terms([old_terms], -1)
                self._count_terms([params["terms"]], +1)
                self._x(
                    "UPDATE corpus SET terms = terms - %s + %s WHERE id = 1",
                    (len(old_terms), params["term_count"]),
                )
            self._audit(entry.id, action, detail)

    def remove(self, entry_id: str, *, action: str, detail: dict[str, Any]) -> bool:
        with self.write():
            row = self._q("DELETE FROM entries WHERE id = %s RETURNING terms", (entry_id,))
            if not row:
                return False
            terms = row[0][0]
            self._count_terms([terms], -1)
            self._x(
                "UPDATE corpus SET docs = docs - 1, terms = terms - %s WHERE id = 1", (len(terms),)
            )
            self._x("DELETE FROM usage WHERE entry_id = %s", (entry_id,))
            self._audit(entry_id, action, detail)
            return True

    def add_audit(self, record: AuditRecord) -> None:
        with self.write():
            self._add_audit([record])

    def _add_audit(self, records: Sequence[AuditRecord]) -> None:
        if records:
            self._x(
                "INSERT INTO audit(entry_id, action, at, detail) SELECT * FROM "
                "unnest(%s::text[], %s::text[], %s::timestamptz[], %s::text[])",
                (
                    [r.entry_id for r in records],
                    [r.action for r in records],
                    [r.at for r in records],
                    [dumps(r.detail) for r in records],
                ),
            )

    def restore(
        self, entries: Sequence[tuple[Entry, IndexFields]], audit: Sequence[AuditRecord]
    ) -> int:
        with self.write():
            ids = [e.id for e, _ in entries]
            present = {r[0] for r in self._q("SELECT id FROM entries WHERE id = ANY(%s)", (ids,))}
            orphans = sorted({r.entry_id for r in audit} - set(ids))
            present |= {
                r[0]
                for r in self._q(
                    "SELECT DISTINCT entry_id FROM audit WHERE entry_id = ANY(%s)", (orphans,)
                )
            }
            fresh = [(e, index) for e, index in entries if e.id not in present]
            self._insert_rows(fresh)
            self._add_audit([r for r in audit if r.entry_id not in present])
            return len(fresh)

    def index_version(self) -> int | None:
        rows = self._q("SELECT value FROM meta WHERE key = 'index_version'")
        return int(rows[0][0]) if rows else None

    def reindex(self, entries: Sequence[tuple[Entry, IndexFields]], version: int) -> None:
        with self.write():
            ids = [e.id for e, _ in entries]
            old = dict(self._q("SELECT id, terms FROM entries WHERE id = ANY(%s)", (ids,)))
            rows = [entry_params(e, i) for e, i in entries if e.id in old]
            if rows:
                with self._conn() as conn:
                    conn.cursor().executemany(
                        "UPDATE entries SET canon = %(canon)s, skeleton = %(skeleton)s, "
                        "terms = %(terms)s, term_count = %(term_count)s WHERE id = %(id)s",
                        rows,
                    )
                self._write_keys([(e.id, i) for e, i in entries if e.id in old])
                self._write_postings([(r["id"], r["terms"]) for r in rows])
                self._count_terms([old[r["id"]] for r in rows], -1)
                self._count_terms([r["terms"] for r in rows], +1)
                delta = sum(r["term_count"] for r in rows) - sum(len(old[r["id"]]) for r in rows)
                self._x("UPDATE corpus SET terms = terms + %s WHERE id = 1", (delta,))
            self._x(
                "INSERT INTO meta(key, value) VALUES ('index_version', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(version),),
            )

    def mark_used(self, ids: Sequence[str], at: datetime) -> None:
        if not ids:
            return
        # One statement is atomic on its own, and use records touch nothing a save's
        # checks read: no writers' lock, no generation bump, no wait behind saves.
        self._x(
            "INSERT INTO usage(entry_id, used_at, uses) SELECT unnest(%s::text[]), %s, 1 "
            "ON CONFLICT (entry_id) DO UPDATE SET "
            "used_at = greatest(usage.used_at, excluded.used_at), uses = usage.uses + 1",
            (sorted(set(ids)), at),
        )

    def last_used(self, ids: Sequence[str]) -> dict[str, datetime]:
        if not ids:
            return {}
        rows = self._q("SELECT entry_id, used_at FROM usage WHERE entry_id = ANY(%s)", (list(ids),))
        return {eid: to_utc(at) for eid, at in rows}

    # -- reads -----------------------------------------------------------------------------
    def get(self, entry_id: str) -> Entry | None:
        rows = self._q(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id = %s", (entry_id,))
        return row_to_entry(rows[0]) if rows else None

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        rows = self._q(
            "SELECT id FROM entries WHERE id >= %s AND id < %s ORDER BY id LIMIT %s",
            (prefix, prefix + "\uffff", limit),
        )
        return [r[0] for r in rows]

    def find(
        self, flt: Filter, *, limit: int | None = None, contains: str | None = None
    ) -> list[Entry]:
        where, params = where_clause(flt, utcnow())
        if contains is not None:
            where += " AND strpos(lower(e.content), lower(%(contains)s)) > 0"
            params["contains"] = contains
        params["limit"] = limit
        rows = self._q(
            f"SELECT {E_COLUMNS} FROM entries e WHERE {where} "
            "ORDER BY e.created_at DESC, e.pos DESC LIMIT %(limit)s",
            params,
        )
        return [row_to_entry(r) for r in rows]

    def _corpus(self, terms: Sequence[str]) -> CorpusStats:
        rows = self._q(
            "SELECT c.docs, c.terms, t.term, t.df FROM corpus c LEFT JOIN term_df t "
            "ON t.term = ANY(%s) WHERE c.id = 1",
            (indexable(terms),),
        )
        docs, total = rows[0][0], rows[0][1]
        doc_freq = {t: d for _, _, t, d in rows if t is not None}
        return CorpusStats(docs, (total / docs) if docs else 0.0, doc_freq)

    def keyword(
        self, terms: Sequence[str], flt: Filter, *, limit: int, postings: int = MAX_POSTINGS
    ) -> tuple[list[Candidate], CorpusStats]:
        stats = self._corpus(terms)
        chosen = rarest(stats, terms, budget=postings)
        if not chosen:
            return [], stats
        where, params = where_clause(flt, utcnow())
        params.update(bm25_params(stats, chosen), limit=limit)
        sql = (
            f"WITH scored AS ({BM25_POSTINGS}), top AS (SELECT s.pos, s.score FROM scored s "
            f"JOIN entries e ON e.pos = s.pos WHERE {where} "
            "ORDER BY s.score DESC, s.pos LIMIT %(limit)s) "
            f"SELECT {E_COLUMNS}, e.terms FROM top t JOIN entries e ON e.pos = t.pos "
            "ORDER BY t.score DESC, t.pos"
        )
        rows = self._index_only(sql, params)
        return [Candidate(row_to_entry(r), list(r[_TERMS])) for r in rows], stats

    def same_domain(self, domain: Domain, index: IndexFields, *, limit: int = 20) -> list[Entry]:
        dom = (
            "e.type = %(type)s AND e.scope = %(scope)s "
            "AND e.project IS NOT DISTINCT FROM %(project)s "
            "AND e.session_id IS NOT DISTINCT FROM %(session_id)s "
            "AND e.user_id IS NOT DISTINCT FROM %(user_id)s "
            "AND e.agent_id IS NOT DISTINCT FROM %(agent_id)s AND e.superseded_by IS NULL "
            "AND (e.expires_at IS NULL OR e.expires_at > %(now)s)"
        )
        params: dict[str, Any] = {
            "type": domain.type, "scope": domain.scope, "project": domain.project,
            "session_id": domain.session_id, "user_id": domain.user_id,
            "agent_id": domain.agent_id, "now": utcnow(), "canon": index.canon,
            "skeleton": index.skeleton, "limit": limit,
            "keys": list(index.keys), "values": list(index.keys.values()),
        }  # fmt: skip
        found = self._q(
            f"SELECT {E_COLUMNS} FROM entries e WHERE e.canon = %(canon)s AND {dom} "
            "LIMIT %(limit)s",
            params,
        )
        if index.skeleton:
            found += self._q(
                f"SELECT {E_COLUMNS} FROM entries e WHERE e.skeleton = %(skeleton)s "
                f"AND e.skeleton != '' AND {dom} LIMIT %(limit)s",
                params,
            )
        if index.keys:
            # Only a different value for the same named thing can conflict.
            found += self._q(
                f"SELECT {E_COLUMNS} FROM entries e WHERE {dom} AND e.pos IN ("
                "SELECT k.entry_pos FROM entry_keys k JOIN unnest(%(keys)s::text[], "
                "%(values)s::text[]) AS q(key, value) ON k.key = q.key AND k.value != q.value"
                ") LIMIT %(limit)s",
                params,
            )
        stats = self._corpus(index.terms)
        rare = rarest(stats, index.terms, most=2)
        if rare:
            # Near-identical wording shares the rarest known terms (see SQLiteStore).
            score, score_params = bm25(stats, rare)
            params.update(score_params, rare=rare, near=min(limit, 8))
            found += self._q(
                f"SELECT {E_COLUMNS} FROM entries e WHERE e.terms @> %(rare)s::text[] "
                f"AND {dom} ORDER BY {score} DESC, e.pos LIMIT %(near)s",
                params,
            )
        unique = {row[0]: row for row in found}
        return [row_to_entry(r) for r in unique.values()]

    def candidates(self, ids: Sequence[str], flt: Filter) -> list[Candidate]:
        if not ids:
            return []
        where, params = where_clause(flt, utcnow())
        params["ids"] = list(ids)
        rows = self._q(
            f"SELECT {E_COLUMNS}, e.terms FROM entries e WHERE e.id = ANY(%(ids)s) AND {where}",
            params,
        )
        return [Candidate(row_to_entry(r), list(r[_TERMS])) for r in rows]

    # -- vectors ---------------------------------------------------------------------------
    def put_vectors(self, model: str, dim: int, vectors: Sequence[tuple[str, bytes]]) -> None:
        if not vectors:
            return
        with self.write():
            self._x(hnsw_index_sql(model, dim))
            self._x(
                "INSERT INTO vectors(entry_pos, model, dim, vec) "
                "SELECT e.pos, %s, %s, v.vec FROM unnest(%s::text[], %s::vector[]) AS v(id, vec) "
                "JOIN entries e ON e.id = v.id "
                "ON CONFLICT (entry_pos) DO UPDATE SET model = excluded.model, "
                "dim = excluded.dim, vec = excluded.vec",
                (model, dim, [eid for eid, _ in vectors], [_vector(b) for _, b in vectors]),
            )

    def vector_models(self) -> list[tuple[str, int]]:
        return [(m, d) for m, d in self._q("SELECT DISTINCT model, dim FROM vectors ORDER BY 1")]

    def vectors(self, model: str) -> tuple[list[str], list[bytes]]:
        rows = self.vector_rows(model)
        return [r[1] for r in rows], [r[2] for r in rows]

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

    def nearest(
        self, model: str, vector: bytes, n: int, flt: Filter | None = None
    ) -> list[tuple[str, float]] | None:
        """From the model's HNSW index (approximate, like any ANN). The index finds
        the nearest rows before `flt` applies, so when it leaves fewer than `n` (one
        small project of a team store) the rows passing `flt` are scanned exactly."""
        dim = len(vector) // 4
        literal = model.replace("'", "''")
        where, params = where_clause(flt, utcnow()) if flt is not None else ("TRUE", {})
        params.update(q=_vector(vector), n=n)
        distance = f"(v.vec::vector({dim})) <=> %(q)s::vector({dim})"
        sql = (
            f"SELECT e.id, 1 - ({distance}) FROM vectors v JOIN entries e "
            f"ON e.pos = v.entry_pos WHERE v.model = '{literal}' AND v.dim = {dim} "
            f"AND {where} ORDER BY {distance} LIMIT %(n)s"
        )
        with self._conn() as conn, conn.transaction():
            # The index returns at most ef_search rows; a wide n needs a wider search.
            conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, min(n * 4, 1000))}")
            rows = conn.execute(sql, params).fetchall()
            if flt is not None and len(rows) < n:
                conn.execute("SET LOCAL enable_indexscan = off")
                rows = conn.execute(sql, params).fetchall()
        return [(eid, float(sim)) for eid, sim in rows]

    def unembedded(self, model: str, *, limit: int, after: int = 0) -> list[tuple[int, Entry]]:
        rows = self._q(
            f"SELECT {E_COLUMNS}, e.pos FROM entries e LEFT JOIN vectors v "
            "ON v.entry_pos = e.pos AND v.model = %s "
            "WHERE e.pos > %s AND v.entry_pos IS NULL ORDER BY e.pos LIMIT %s",
            (model, after, limit),
        )
        return [(int(r[22]), row_to_entry(r)) for r in rows]

    # -- the rest --------------------------------------------------------------------------
    def generation(self) -> tuple[int, int]:
        return int(self._q("SELECT gen FROM corpus WHERE id = 1")[0][0]), self._db.commits

    def superseded(self, entry_id: str) -> list[Entry]:
        rows = self._q(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE superseded_by = %s "
            "ORDER BY created_at, pos",
            (entry_id,),
        )
        return [row_to_entry(r) for r in rows]

    def audit(self, entry_id: str | None = None) -> list[AuditRecord]:
        sql = "SELECT seq, entry_id, action, at, detail FROM audit"
        rows = (
            self._q(sql + " WHERE entry_id = %s ORDER BY seq", (entry_id,))
            if entry_id
            else self._q(sql + " ORDER BY seq")
        )
        return [
            AuditRecord(eid, action, to_utc(at), json.loads(d), int(seq))
            for seq, eid, action, at, d in rows
        ]

    def iter_all(self) -> Iterator[Entry]:
        rows = self._q(f"SELECT {ENTRY_COLUMNS} FROM entries ORDER BY created_at, pos")
        for row in rows:
            yield row_to_entry(row)

    def counts(self) -> dict[str, Any]:
        current = "FROM entries WHERE superseded_by IS NULL"
        by_type = dict(self._q(f"SELECT type, count(*) {current} GROUP BY type"))
        by_scope = dict(self._q(f"SELECT scope, count(*) {current} GROUP BY scope"))
        total, history = self._q("SELECT count(*), count(superseded_by) FROM entries")[0]
        audit = self._q("SELECT count(*) FROM audit")[0][0]
        size = self._q(
            "SELECT sum(pg_total_relation_size(c)) FROM unnest(ARRAY['entries', 'entry_keys', "
            "'term_df', 'audit', 'vectors', 'usage', 'corpus']::regclass[]) AS c"
        )[0][0]
        return {
            "entries": total - history, "history": history, "audit_records": audit,
            "by_type": by_type, "by_scope": by_scope, "bytes": int(size or 0),
        }  # fmt: skip

    def close(self) -> None:
        self._db.close()


def _vector(blob: bytes) -> Any:
    import numpy as np

    return np.frombuffer(blob, dtype=np.float32)


def _blob(vec: Any) -> bytes:
    """pgvector's Vector (big-endian on the wire) as our native float32 bytes."""
    import numpy as np

    return bytes(vec.to_numpy().astype(np.float32).tobytes())
