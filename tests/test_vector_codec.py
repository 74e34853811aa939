"""Vectors on disk in SQLite (`remem.store.sqlite.codec`): int8 and a scale, read back as
float32 within a stated bound, older float32 rows read as they are, and a store holding
both kinds searched as one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from remem import Memory
from remem.retrieval.embedding import FakeEmbedder
from remem.store.sqlite import codec
from remem.store.sqlite.store import SQLiteStore

# |cosine read back - cosine of the float32 originals| for 512-d unit vectors (USE's
# shape): the rounding error is 1/254 of the largest component at most, spread over all.
COSINE_BOUND_512 = 4e-3
# ... and for a vector whose largest component dwarfs the rest, which rounding all but
# wipes out (not what a sentence embedding looks like; measured 6.9e-3 on the one here)
PEAKED_BOUND_512 = 1e-2


def _unit(rows: int, dim: int, seed: int = 5) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((rows, dim)).astype(np.float32)
    out: np.ndarray = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def _floats(blobs: list[bytes], dim: int) -> np.ndarray:
    return np.frombuffer(b"".join(blobs), dtype="<f4").reshape(-1, dim)


def test_round_trip_is_small_and_keeps_cosines_within_the_bound() -> None:
    x = _unit(600, 512)
    # a peaked vector too: one large component, the rest small (the worst case for a
    # scale set by the largest component)
    x[0] = 0.01
    x[0, 7] = 1.0
    x[0] /= np.linalg.norm(x[0])
    packed = codec.encode([r.tobytes() for r in x], 512)
    assert {len(b) for b in packed} == {codec.packed_size(512)} == {516}
    y = _floats(codec.decode(packed, [512] * len(packed)), 512)
    exact, read = x[:300] @ x[300:].T, y[:300] @ y[300:].T
    assert np.abs(exact - read)[1:].max() < COSINE_BOUND_512
    assert np.abs(exact - read)[0].max() < PEAKED_BOUND_512
    # a float32 query against stored rows (what a search computes)
    assert np.abs(exact - x[:300] @ y[300:].T).max() < COSINE_BOUND_512
    assert np.abs((y * y).sum(axis=1) - 1)[1:].max() < 2e-4  # the peaked one: 2e-3
    step = np.abs(x).max(axis=1, keepdims=True) / codec.LEVELS
    assert (np.abs(x - y) <= step)[1:].all()  # no component off by a whole int8 step


def test_reading_back_and_writing_again_is_exact() -> None:
    """A vector read back and stored again (`remem migrate` into another SQLite store)
    is stored as it was, not rounded a second time."""
    x = _unit(400, 512, seed=9)
    once = codec.decode(codec.encode([r.tobytes() for r in x], 512), [512] * 400)
    twice = codec.decode(codec.encode(once, 512), [512] * 400)
    assert twice == once
    zero = bytes(4 * 512)
    assert codec.decode(codec.encode([zero], 512), [512]) == [zero]


def test_pure_python_decoding_matches_numpy() -> None:
    packed = codec.encode([r.tobytes() for r in _unit(5, 48)], 48)
    assert [codec._decode_one(b) for b in packed] == codec.decode(packed, [48] * 5)


def test_other_lengths_pass_through() -> None:
    odd = [b"\x00" * 12, b"\x01" * 7]  # three floats of a 3-d model; a foreign blob
    assert codec.encode(odd, 5) == odd
    assert codec.decode(odd, [3, 9]) == odd


def _old_rows(db: Path, model: str, rows: list[tuple[str, bytes]]) -> None:
    """Vectors as an older remem wrote them: float32 blobs, straight into the table."""
    conn = sqlite3.connect(db)
    with conn:
        for eid, blob in rows:
            conn.execute(
                "INSERT OR REPLACE INTO vectors(entry_rowid, model, dim, vec) "
                "SELECT rowid, ?, ?, ? FROM entries WHERE id = ?",
                (model, len(blob) // 4, blob, eid),
            )
    conn.close()


def test_a_store_with_old_and_new_rows_reads_and_searches_both(tmp_path: Path) -> None:
    db, fake = tmp_path / "mixed.db", FakeEmbedder()
    texts = [f"服务 svc{i} 部署在 zone{i % 7} 使用 tool{i % 3}" for i in range(40)]
    with Memory(db, project="p", embedder=fake) as mem:
        ids = [mem.save(t, force=True).entry.id for t in texts]
    old = {eid: fake.embed([texts[i]])[0].tobytes() for i, eid in enumerate(ids) if i % 2}
    _old_rows(db, fake.name, list(old.items()))
    conn = sqlite3.connect(db)
    lengths = {n for (n,) in conn.execute("SELECT DISTINCT length(vec) FROM vectors")}
    conn.close()
    assert lengths == {4 * fake.dim, codec.packed_size(fake.dim)}  # both kinds on disk
    store = SQLiteStore(db)
    try:
        got = store.vectors_of(fake.name, ids)
        rows = {eid: blob for _, eid, blob in store.vector_rows(fake.name)}
    finally:
        store.close()
    assert got == rows and set(got) == set(ids)
    for eid, blob in old.items():
        assert got[eid] == blob  # an old row: exactly its float32 bytes
    want = fake.embed(texts)
    read = _floats([got[eid] for eid in ids], fake.dim)
    assert np.abs((want * read).sum(axis=1) - 1).max() < 2e-2  # small dims round coarser
    with Memory(db, project="p", embedder=fake) as mem:
        for i in (3, 4, 17, 30):  # old and new rows alike
            hits = mem.search(f"svc{i} zone{i % 7}")
            assert hits and hits[0].entry.id == ids[i]
            assert mem.vectors is not None
            near = mem.vectors.nearest(fake.embed([texts[i]])[0], 1)
            assert near[0][0] == ids[i] and near[0][1] == pytest.approx(1.0, abs=2e-2)
