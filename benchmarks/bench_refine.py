"""Past `IVF_MIN` vectors the in-process matrix keeps only fast-scan codes, and a search
re-scores the codes' best `REFINE` x n rows from the store (issue 32). This measures what
that finds of the exact top 10 / 50 (n = 50, what a hybrid search asks), for codes of 4
and of 2 dimensions a code, per refine factor, the time of the codes' scan and of
reading the rows to re-score from the store, and the bytes a vector of each in memory.

    nice .venv/bin/python benchmarks/bench_refine.py --store /work/scale_vec/scale-100000.db
    nice .venv/bin/python benchmarks/bench_refine.py --rows rows.npy --queries q.npy

With `--store` the rows are the store's (read back as float32); queries are the
`--queries` file, else bench_scale's queries embedded by the shipped model.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np  # noqa: E402

from remem.retrieval.matrix import TRAIN_ROUNDS  # noqa: E402

WANT = 50  # what a hybrid search asks the vectors for (RankingConfig.candidates // 2)
FACTORS = (2, 5, 10, 20)


def store_rows(db: str) -> tuple[Any, list[int], str]:
    from remem.store.sqlite.store import SQLiteStore

    store = SQLiteStore(db, create=False)
    try:
        model, dim = store.vector_models()[0]
        rows = store.vector_rows(model)
    finally:
        store.close()
    x = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(-1, dim)
    return x, [r[0] for r in rows], model


def default_queries(count: int = 200) -> Any:
    import bench_scale
    from remem.retrieval.embedding import USEEmbedder

    corpus = bench_scale.Corpus(33)
    return USEEmbedder().embed([corpus.query() for _ in range(count)], query=True)


def codes(x: Any, per_code: int) -> Any:
    import faiss

    faiss.omp_set_num_threads(1)
    dim = x.shape[1]
    index = faiss.IndexPQFastScan(dim, dim // per_code, 4, faiss.METRIC_INNER_PRODUCT)
    index.pq.cp.niter = TRAIN_ROUNDS
    sample = np.random.default_rng(len(x)).choice(len(x), min(len(x), 30_000), replace=False)
    index.train(x[np.sort(sample)])
    index.add(x)
    return index


def recall(x: Any, queries: Any, index: Any, factor: int) -> dict[str, float]:
    r10, r50, scan = [], [], []
    for q in queries:
        exact = np.argsort(-(x @ q))[:WANT]
        t = time.perf_counter()
        _, offered = index.search(q.reshape(1, -1), WANT * factor)
        scan.append((time.perf_counter() - t) * 1000)
        offered = offered[0][offered[0] >= 0]
        got = offered[np.argsort(-(x[offered] @ q), kind="stable")][:WANT]
        r10.append(len(set(exact[:10].tolist()) & set(got[:10].tolist())) / 10)
        r50.append(len(set(exact.tolist()) & set(got.tolist())) / WANT)
    return {"r10": statistics.mean(r10), "r50": statistics.mean(r50),
            "scan_ms": statistics.median(scan)}  # fmt: skip


def reading(db: str, model: str, positions: list[int], factor: int) -> float:
    """Median ms to read `WANT * factor` random rows back from the store."""
    from remem.store.sqlite.store import SQLiteStore

    store, rng, ms = SQLiteStore(db, create=False), random.Random(factor), []
    try:
        for _ in range(30):
            pick = rng.sample(positions, min(len(positions), WANT * factor))
            t = time.perf_counter()
            store.vectors_at(model, pick)
            ms.append((time.perf_counter() - t) * 1000)
    finally:
        store.close()
    return statistics.median(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", help="a SQLite store with vectors (its first model)")
    parser.add_argument("--rows", type=Path, help="rows as a .npy file instead")
    parser.add_argument("--queries", type=Path, help="queries as a .npy file")
    args = parser.parse_args()
    positions: list[int] = []
    if args.store:
        x, positions, model = store_rows(args.store)
    else:
        x, model = np.load(args.rows).astype(np.float32), ""
    queries = np.load(args.queries) if args.queries else default_queries()
    print(f"{len(x):,} rows x {x.shape[1]}, {len(queries)} queries, n = {WANT}")
    for per_code in (4, 2):
        index = codes(x, per_code)
        size = x.shape[1] // per_code // 2
        for factor in FACTORS:
            r = recall(x, queries, index, factor)
            read = f", store read {reading(args.store, model, positions, factor):.1f} ms" if (
                args.store) else ""  # fmt: skip
            print(f"codes of {per_code} dims ({size} B a vector), refine x{factor:<2}: "
                  f"R@10 {r['r10']:.3f}, R@50 {r['r50']:.3f}, scan {r['scan_ms']:.1f} ms"
                  f"{read}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
