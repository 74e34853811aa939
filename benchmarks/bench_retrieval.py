"""Retrieval quality and hybrid latency.

    .venv/bin/python benchmarks/bench_retrieval.py locomo [FILES...] [--k 5,10,20]
    .venv/bin/python benchmarks/bench_retrieval.py latency [--n 100000] [--queries 200]

`locomo`: evidence recall@k, tokens injected per query and latency of remem (hybrid)
against plain BM25 and plain vector search, all in the same run, on LoCoMo-format
conversations (default: the shared sample), categories 1-4.

`latency`: a synthetic store of n memories (bench_store's corpus), every one
embedded with the configured embedder (REMEM_EMBEDDER, default the shipped USE
model; `--random-vectors` stores random ones instead, to skip the minutes of embedding),
then `Memory.search` p50/p95 including the query's embedding. Target: p95
<= 20 ms at 100k.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_store import (  # noqa: E402
    SEED,
    Corpus,
    created_times,
    fill_by_import,
    summarize,
)
from remem import Memory  # noqa: E402
from remem.bench import datasets, harness  # noqa: E402
from remem.retrieval.embedding import embedder_from_env  # noqa: E402

SHARED = next(
    (p / "shared" / "data" for p in Path(__file__).resolve().parents if (p / "shared").is_dir()),
    Path("shared/data"),
)


def bench_locomo(files: list[str], ks: tuple[int, ...]) -> dict[str, object]:
    paths = files or sorted(str(p) for p in (SHARED / "locomo").glob("*.json"))
    systems = harness.run(datasets.corpora(paths), ks, embedder_from_env())
    rows = [s.to_dict() for s in systems]
    for r in rows:
        cells = "  ".join(f"R@{k} {r['recall'][k]:.3f} ({r['tokens'][k]:.0f} tok)" for k in ks)
        print(f"{r['system']:<32} {cells}  query {r['query_ms']}  ingest {r['ingest_ms']}")
    return {"files": paths, "systems": rows}


def random_vectors(mem: Memory, model: str, dim: int) -> int:
    """Unit random vectors for every entry: search costs the same, filling takes seconds."""
    import numpy as np

    ids = [e.id for e in mem.store.iter_all()]
    vecs = np.random.default_rng(SEED).standard_normal((len(ids), dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    mem.store.put_vectors(model, dim, [(eid, vecs[i].tobytes()) for i, eid in enumerate(ids)])
    return len(ids)


def bench_latency(n: int, queries: int, fake_vectors: bool) -> dict[str, object]:
    embedder = embedder_from_env()
    if embedder is None:
        raise SystemExit("no embedder: set REMEM_EMBEDDER or install remem[embed]")
    docs = Corpus().sentences(n)
    when = created_times(n, random.Random(SEED + 1))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        with Memory(db, project="bench", embedder=None) as mem:
            fill_by_import(mem, docs, when, Path(tmp) / "export.json")
            if fake_vectors:
                random_vectors(mem, embedder.name, embedder.embed(["x"]).shape[1])
        with Memory(db, project="bench", embedder=embedder) as mem:
            start = time.perf_counter()
            embedded = mem.reindex()
            embed_s = time.perf_counter() - start
            print(f"embedded {embedded:,} in {embed_s:.0f} s", file=sys.stderr)
            corpus = Corpus(seed=SEED + 99)
            asked = [corpus.query()[1] for _ in range(queries)]
            mem.search(asked[0])  # load the matrix once, as a long-lived process would
            ms = []
            for q in asked:
                t = time.perf_counter()
                mem.search(q)
                ms.append((time.perf_counter() - t) * 1000)
    out = {"n": n, "model": embedder.name, "embed_s": round(embed_s, 1), "search": summarize(ms)}
    print(json.dumps(out, indent=2))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    lo = sub.add_parser("locomo")
    lo.add_argument("files", nargs="*")
    lo.add_argument("--k", default="5,10,20")
    la = sub.add_parser("latency")
    la.add_argument("--n", type=int, default=100_000)
    la.add_argument("--queries", type=int, default=200)
    la.add_argument("--random-vectors", action="store_true",
                    help="store random unit vectors instead of embedding every entry "
                    "(the query is still embedded; search costs the same)")  # fmt: skip
    args = parser.parse_args()
    if args.what == "locomo":
        bench_locomo(args.files, tuple(int(k) for k in args.k.split(",")))
    else:
        bench_latency(args.n, args.queries, args.random_vectors)


if __name__ == "__main__":
    main()
