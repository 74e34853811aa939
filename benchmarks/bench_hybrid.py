"""What hybrid search costs with the shipped model: search and save latency, model
load time and peak memory, for each vector matrix (numpy float32, faiss float16).

    .venv/bin/python benchmarks/bench_hybrid.py [--sizes 10000,100000] [--queries 200]
        [--random-vectors] [--keep DIR]

Stores are bench_store's synthetic corpus filled by import; every entry is embedded
with USE unless `--random-vectors` (random unit vectors: a search costs the same,
the fill takes seconds instead of minutes). `--keep DIR` reuses stores built before.
Search times include the query's embedding (every query embedded and fused; the
default, which skips vectors when keywords settle a query, is shown beside); the matrix
is loaded before timing, as in a long-lived process. Load time and peak RSS are
measured in fresh processes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import machine  # noqa: E402
from bench_retrieval import random_vectors  # noqa: E402
from bench_store import (  # noqa: E402
    SEED,
    Corpus,
    created_times,
    fill_by_import,
    peak_rss_mb,
    summarize,
)
from remem import Memory  # noqa: E402
from remem.retrieval.embedding import USEEmbedder  # noqa: E402

KINDS = ("numpy", "faiss")


def build(db: Path, n: int, fake_vectors: bool) -> None:
    if db.exists():
        return
    docs = Corpus().sentences(n)
    when = created_times(n, random.Random(SEED + 1))
    embedder = USEEmbedder()
    with Memory(db, project="bench", embedder=None) as mem:
        fill_by_import(mem, docs, when, db.with_suffix(".json"))
        if fake_vectors:
            random_vectors(mem, embedder.name, embedder.dim)
    with Memory(db, project="bench", embedder=embedder) as mem:
        mem.reindex()


def open_memory(db: Path, kind: str) -> Memory:
    mem = Memory(db, project="bench", embedder=USEEmbedder())
    assert mem.vectors is not None
    mem.vectors.kind = kind
    return mem


def search_ms(db: Path, kind: str, queries: list[str], *, always: bool) -> dict[str, float]:
    """Search p50/p95; `always`: every query embedded and fused (the default skips the
    vectors when a keyword match settles the query, RankingConfig.keyword_confident)."""
    with open_memory(db, kind) as mem:
        if always:
            mem.recall.cfg = replace(mem.ranking, keyword_confident=math.inf)
        mem.search("warm up the model and the matrix")
        ms = []
        for q in queries:
            t = time.perf_counter()
            mem.search(q)
            ms.append((time.perf_counter() - t) * 1000)
    return summarize(ms)


def save_ms(db: Path, count: int) -> dict[str, float]:
    """`Memory.save` of new facts into a copy of the store (embedding + semantic dedup)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "copy.db"
        shutil.copy(db, copy)
        docs = Corpus(seed=SEED + 5).sentences(count + 1)
        with open_memory(copy, "auto") as mem:
            mem.search("warm up")
            ms = []
            for kind, content in docs[1:]:
                t = time.perf_counter()
                mem.save(content, type=kind)
                ms.append((time.perf_counter() - t) * 1000)
    return summarize(ms)


def child(args: list[str]) -> dict[str, float]:
    """Run this script's `_probe` in a fresh process; its JSON result."""
    cmd = [sys.executable, __file__, "_probe", *args]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def probe(db: str, kind: str) -> None:
    """Cold model load (import + first embedding), then peak RSS after searching `db`."""
    start = time.perf_counter()
    embedder = USEEmbedder()
    embedder.embed(["warm up"])
    load_s = time.perf_counter() - start
    out = {
        "load_s": load_s,
        "model_rss_mb": peak_rss_mb(),
    }
    if db:
        corpus = Corpus(seed=SEED + 99)
        with open_memory(Path(db), kind) as mem:
            for _ in range(20):
                mem.search(corpus.query()[1])
        out["rss_mb"] = peak_rss_mb()  # VmHWM: ru_maxrss would carry this parent's peak
    print(json.dumps(out))


def run(sizes: list[int], queries: int, fake_vectors: bool, keep: Path) -> dict[str, object]:
    corpus = Corpus(seed=SEED + 99)
    asked = [corpus.query()[1] for _ in range(queries)]
    result: dict[str, object] = {"load": child(["", "auto"]), "machine": machine.reference()}
    for n in sizes:
        db = keep / f"hybrid-{n}{'-random' if fake_vectors else ''}.db"
        build(db, n, fake_vectors)
        row: dict[str, object] = {k: search_ms(db, k, asked, always=True) for k in KINDS}
        row["default"] = search_ms(db, "auto", asked, always=False)
        row["rss"] = {k: child([str(db), k])["rss_mb"] for k in KINDS}
        if n == sizes[0]:
            row["save"] = save_ms(db, min(queries, 100))
        result[str(n)] = row
    return result


def table(result: dict[str, object], sizes: list[int]) -> None:
    load = result["load"]
    assert isinstance(load, dict)
    print(f"model load (cold, first embedding): {load['load_s']:.2f} s, "
          f"RSS with the model alone {load['model_rss_mb']:.0f} MB")  # fmt: skip
    print(f"{'n':>8} {'matrix':<6} {'search p50':>10} {'p95':>7} {'peak RSS':>9}")
    for n in sizes:
        row = result[str(n)]
        assert isinstance(row, dict)
        for k in KINDS:
            s = row[k]
            print(f"{n:>8} {k:<6} {s['p50']:>8.1f}ms {s['p95']:>5.1f}ms {row['rss'][k]:>6.0f} MB")
        d = row["default"]
        print(f"{n:>8} {'auto':<6} {d['p50']:>8.1f}ms {d['p95']:>5.1f}ms  (the default settings: "
              "the index the store picks, RankingConfig as shipped)")  # fmt: skip
        speed = row["numpy"]["p95"] / row["faiss"]["p95"]
        print(f"{n:>8} numpy/faiss p95 ratio {speed:.2f}")
        if "save" in row:
            print(f"{n:>8} save with embedding p50 {row['save']['p50']:.1f} ms "
                  f"p95 {row['save']['p95']:.1f} ms")  # fmt: skip


def main() -> None:
    if sys.argv[1:2] == ["_probe"]:
        probe(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--random-vectors", action="store_true")
    parser.add_argument("--keep", type=Path, help="build stores here and reuse them")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        result = run(sizes, args.queries, args.random_vectors, args.keep or Path(tmp))
    if args.json:
        print(json.dumps(result, indent=2))
    table(result, sizes)
    print(machine.line(result["machine"]))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
