"""Connections of the PostgreSQL store: a pool for reads, one connection held by a
thread for the length of a write transaction, and psycopg errors as one-line
`StoreError`s. Every write transaction takes the writers' advisory lock first."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from remem.errors import StoreError
from remem.settings import pg_pool_size
from remem.store.postgres.schema import LOCK_ID, has_store, migrate, refuse_older


class NoStoreYet(StoreError):
    """A command that only reads met a database without a store: it reads as empty and
    creates nothing (`store.backends`)."""


class Connections:
    """A migrated database behind a pool (`REMEM_PG_POOL` connections, default 4)."""

    def __init__(
        self, url: str, name: str, *, pool_size: int | None, timeout: int, upgrade: bool = True
    ) -> None:
        """`upgrade` off (a command that only reads): an older remem's schema is refused
        in one line, not migrated."""
        import psycopg

        self.name = name
        self.commits = 0  # write transactions committed by this process
        self._local = threading.local()
        try:  # fail fast and in one line on a wrong URL, before a pool retries forever
            with psycopg.connect(url, autocommit=True, connect_timeout=timeout) as conn:
                if not upgrade:
                    if not has_store(conn):
                        raise NoStoreYet(f"store {name}: no memories yet")
                    refuse_older(conn, name)
                migrate(conn)
        except psycopg.Error as exc:
            raise self.error(exc) from exc
        from psycopg_pool import ConnectionPool

        size = pool_size or pg_pool_size()
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, size),
            kwargs={"autocommit": True},
            configure=_configure,
            open=True,
            timeout=30,
            name="remem",
        )

    def error(self, exc: Exception) -> StoreError:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return StoreError(f"store {self.name}: {first}")

    @contextmanager
    def conn(self) -> Iterator[Any]:
        """This thread's write connection inside a transaction, else a pooled one."""
        import psycopg

        held = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            raise self.error(exc) from exc

    def q(self, sql: str, params: Any = None) -> list[Any]:
        with self.conn() as conn:
            return list(conn.execute(sql, params).fetchall())

    def x(self, sql: str, params: Any = None) -> None:
        with self.conn() as conn:
            conn.execute(sql, params)

    def index_only(self, sql: str, params: Any) -> list[Any]:
        """Run a query that must go through its indexes. Past a few thousand candidates
        the planner prefers scanning the whole table to thousands of index look-ups,
        which are still several times faster here (the rows are wide, the index
        covering). Pipelined: one round trip for BEGIN, SET LOCAL, the query, COMMIT."""
        with self.conn() as conn:
            with conn.pipeline(), conn.transaction():
                conn.execute("SET LOCAL enable_seqscan = off")
                cur = conn.execute(sql, params)
            return list(cur.fetchall())

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction under the writers' lock (nested calls join it)."""
        import psycopg

        if getattr(self._local, "conn", None) is not None:
            yield
            return
        try:
            # Pipeline mode: statements whose results nobody reads (the index and audit
            # writes) go out without waiting for the server; a read syncs.
            with self._pool.connection() as conn, conn.pipeline(), conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_ID,))
                conn.execute("UPDATE corpus SET gen = gen + 1 WHERE id = 1")
                self._local.conn = conn
                try:
                    yield
                finally:
                    self._local.conn = None
        except psycopg.Error as exc:
            raise self.error(exc) from exc
        self.commits += 1

    def close(self) -> None:
        self._pool.close()


def _configure(conn: Any) -> None:
    """Every pooled connection: UTC timestamps and pgvector's types."""
    from pgvector.psycopg import register_vector

    conn.execute("SET TIME ZONE 'UTC'")
    register_vector(conn)
