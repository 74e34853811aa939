from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from remem import Memory


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test may touch the real ~/.remem."""
    home = tmp_path / "remem-home"
    monkeypatch.setenv("REMEM_HOME", str(home))
    monkeypatch.delenv("REMEM_DB", raising=False)
    monkeypatch.setenv("REMEM_EMBEDDER", "none")  # hybrid tests pass their embedder
    return home


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store" / "memory.db"


@pytest.fixture
def mem(db: Path) -> Iterator[Memory]:
    with Memory(db, project="proj") as m:
        yield m
