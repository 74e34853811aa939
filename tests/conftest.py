from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from remem import Memory
from remem.store.backends import open_store
from remem.store.protocol import Store

if TYPE_CHECKING:
    from remem.retrieval.embedding import USEEmbedder


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test may touch the real ~/.remem."""
    home = tmp_path / "remem-home"
    monkeypatch.setenv("REMEM_HOME", str(home))
    monkeypatch.delenv("REMEM_DB", raising=False)
    monkeypatch.setenv("REMEM_EMBEDDER", "none")  # hybrid tests pass their embedder
    monkeypatch.setenv("REMEM_WARM", "0")  # no background service per test (test_warm's own)
    return home


@pytest.fixture(scope="session")
def use_embedder() -> USEEmbedder:
    """The shipped model (USE), loaded once a session by the first test that embeds: a
    load is ~2-3 s, and test_hybrid and test_truth_judge made five. Shared read-only:
    it is deterministic, and its query cache holds the vectors the model gives."""
    from remem.retrieval.embedding import USEEmbedder

    return USEEmbedder()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store" / "memory.db"


@pytest.fixture
def mem(db: Path) -> Iterator[Memory]:
    with Memory(db, project="proj") as m:
        yield m


@pytest.fixture(scope="session")
def pg_admin_url() -> Iterator[str]:
    """A PostgreSQL server for the whole session (superuser URL), started only when a
    selected test needs one: pgserver's bundled PostgreSQL 16 + pgvector on 127.0.0.1
    (tests/pg.py), or the server of REMEM_TEST_PG=postgresql://…. Unavailable means the
    PostgreSQL tests fail; REMEM_TEST_PG=skip skips them on purpose."""
    import pg

    given = os.environ.get("REMEM_TEST_PG", "").strip()
    if given == "skip":
        pytest.skip("REMEM_TEST_PG=skip: PostgreSQL tests skipped on request")
    if given:
        if not given.startswith(("postgresql://", "postgres://")):
            pytest.fail(f"REMEM_TEST_PG must be a postgresql:// URL or 'skip', not {given!r}")
        try:
            pg.connect(given).close()
        except pg.ServerUnavailable as exc:
            pytest.fail(f"REMEM_TEST_PG: {exc}", pytrace=False)
        yield given
        return
    try:
        server = pg.start()
    except pg.ServerUnavailable as exc:
        pytest.fail(
            f"cannot start the test PostgreSQL ({exc}); set REMEM_TEST_PG to a server's "
            "postgresql:// URL, or REMEM_TEST_PG=skip to skip these tests",
            pytrace=False,
        )
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_admin_url: str) -> Iterator[str]:
    """A fresh, empty database for this test (its URL), dropped afterwards."""
    import pg

    with pg.fresh_database(pg_admin_url) as url:
        yield url


# A fresh PostgreSQL database costs ~0.8 s a test (created, migrated, dropped): over a
# hundred of them are most of `make test-fast`'s time, so the loop runs the contract on
# SQLite and `make test` on both (a few PostgreSQL tests of their own stay in the loop).
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.slow)]


@pytest.fixture(params=BACKENDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives: a SQLite file path, or the URL of a fresh PostgreSQL database
    (the store contract and the kept postings run on both)."""
    if request.param == "sqlite":
        return str(tmp_path / "store" / "memory.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def store(location: str) -> Iterator[Store]:
    s = open_store(location)
    try:
        yield s
    finally:
        s.close()
