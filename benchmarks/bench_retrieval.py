"""Retrieval quality and hybrid latency.

    .venv/bin/python benchmarks/bench_retrieval.py quality [FILES...] [--k 5,10,20]
    .venv/bin/python benchmarks/bench_retrieval.py latency [--n 100000] [--queries 200]

`quality`: for each data set (default: the shared LoCoMo sample, MADial-Bench zh, MADial-Bench
en, the Chinese paraphrase set of tests/data), side by side in one run: remem's default
(hybrid when an embedder is installed), keyword-only remem, plain vector search and plain
BM25 — recall@k, tokens injected per query, query p50/p95, ingest ms per turn and a
bootstrap 95% interval of R@10 (`harness.interval`), with a machine reference line.
LoCoMo goes in through `Memory.add_messages`, MADial and the paraphrase set through
`Memory.save` (`remem bench retrieval` prints the same table for one data set).

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

import machine  # noqa: E402
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


ZH_SET = Path(__file__).resolve().parents[1] / "tests" / "data" / "zh_hybrid.json"


def data_sets(files: list[str]) -> dict[str, list[str]]:
    if files:
        return {Path(f).name: [f] for f in files}
    madial = SHARED / "madial"
    return {
        "LoCoMo (2 conversations)": sorted(str(p) for p in (SHARED / "locomo").glob("*.json")),
        "MADial zh": [str(madial / "MADial-Bench-zh-dialogue.json")],
        "MADial en": [str(madial / "MADial-Bench-en-dialogue.json")],
        "zh paraphrase set": [str(ZH_SET)],
    }


def zh_set(path: str | Path) -> harness.Corpus:
    """The Chinese paraphrase set (tests/data/zh_hybrid.json): memories saved one by one,
    each query answered by one of them."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))

    def ingest(mem: Memory) -> int:
        for i, content in enumerate(data["memories"]):
            mem.save(content, metadata={"key": str(i)})
        return len(data["memories"])

    texts = {str(i): c for i, c in enumerate(data["memories"])}
    queries = [harness.Query(q["q"], frozenset({str(q["expect"])})) for q in data["queries"]]
    return harness.Corpus("zh_hybrid", ingest, texts, queries, key="key")


def corpora(paths: list[str]) -> list[harness.Corpus]:
    if [Path(p).name for p in paths] == [ZH_SET.name]:
        return [zh_set(paths[0])]
    return datasets.corpora(paths)


def bench_quality(files: list[str], ks: tuple[int, ...]) -> dict[str, object]:
    out: dict[str, object] = {"machine": machine.reference()}
    embedder = embedder_from_env()
    for name, paths in data_sets(files).items():
        systems = harness.run(corpora(paths), ks, embedder)
        rows = [s.to_dict() for s in systems]
        print(f"\n{name}")
        head = " ".join(f"{'R@' + str(k):>6}" for k in ks)
        mid = ks[1] if len(ks) > 1 else ks[0]
        print(f"  {'system':<30} {head} {'tok@' + str(mid):>7} {'query p50/p95 ms':>17}"
              f" {'ingest ms/turn':>15} {'R@' + str(mid) + ' 95%':>15}")  # fmt: skip
        for r in rows:
            cells = " ".join(f"{r['recall'][k]:>6.3f}" for k in ks)
            low, high = r["interval"][mid]
            q, i = r["query_ms"], r["ingest_ms"]
            print(f"  {r['system']:<30} {cells} {r['tokens'][mid]:>7.0f}"
                  f" {q['p50']:>8.2f}/{q['p95']:<8.2f} {i['p50']:>15.2f}"
                  f"   [{low:.3f}, {high:.3f}]")  # fmt: skip
        out[name] = {"files": paths, "systems": rows}
    print("\n" + machine.line(out["machine"]))  # type: ignore[arg-type]
    return out


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
    out = {
        "n": n, "model": embedder.name, "embed_s": round(embed_s, 1), "search": summarize(ms),
        "machine": machine.reference(),
    }  # fmt: skip
    print(json.dumps(out, indent=2))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    lo = sub.add_parser("quality")
    lo.add_argument("files", nargs="*")
    lo.add_argument("--k", default="5,10,20")
    la = sub.add_parser("latency")
    la.add_argument("--n", type=int, default=100_000)
    la.add_argument("--queries", type=int, default=200)
    la.add_argument("--random-vectors", action="store_true",
                    help="store random unit vectors instead of embedding every entry "
                    "(the query is still embedded; search costs the same)")  # fmt: skip
    args = parser.parse_args()
    if args.what == "quality":
        bench_quality(args.files, tuple(int(k) for k in args.k.split(",")))
    else:
        bench_latency(args.n, args.queries, args.random_vectors)


if __name__ == "__main__":
    main()
