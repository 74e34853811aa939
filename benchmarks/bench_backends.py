"""Save and search latency on PostgreSQL vs SQLite, side by side, at 10k and 100k entries.

    .venv/bin/python benchmarks/bench_backends.py                       # 10k and 100k
    .venv/bin/python benchmarks/bench_backends.py --sizes 10000 --ops 100
    .venv/bin/python benchmarks/bench_backends.py --pg postgresql://me@db.internal/remem_bench

Both stores hold the same synthetic corpus as `bench_store.py` (seeded, Chinese and
English). The SQLite store is filled by `Memory.import_` in a worker process; the
PostgreSQL store gets an exact copy through `remem.store.migrate.migrate` (what `remem migrate`
uses) and a VACUUM ANALYZE (what autovacuum does shortly after a bulk load), so both
rank the same entries. Then the same fresh saves (dedup and conflict
checks included), searches and `context_for` calls run against each through the
public `Memory` API. Without `--pg`, a local PostgreSQL 16 + pgvector from the
`pgserver` wheel is started on 127.0.0.1 with its durable defaults (fsync on, like
SQLite's synchronous=FULL here), and removed afterwards; with `--pg`, each size
gets a new database on that server (dropped afterwards).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import bench_store  # noqa: E402
import pg  # noqa: E402  (tests/pg.py: the throwaway server the tests use)
from remem.store.backends import open_store  # noqa: E402
from remem.store.migrate import migrate  # noqa: E402

BATCH = 1000


@contextmanager
def server(url: str | None) -> Iterator[str]:
    """An admin URL: the one given, or a durable local server started for this run."""
    if url:
        yield url
        return
    for name in ("fsync", "synchronous_commit", "full_page_writes"):
        pg.SETTINGS.pop(name, None)  # PostgreSQL's defaults: every commit flushed
    started = time.perf_counter()
    srv = pg.start()
    print(f"  local PostgreSQL up in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    try:
        yield srv.url
    finally:
        srv.stop()


def copy_store(source: str, target: str) -> dict[str, float]:
    """Copy everything from `source` to `target` as `remem migrate` does."""
    src, dst = open_store(source, upgrade=False), open_store(target)
    try:
        result = migrate(src, dst, batch=BATCH)
    finally:
        src.close()
        dst.close()
    seconds = result.seconds
    return {"seconds": seconds, "entries_per_s": result.copied / seconds if seconds else 0.0}


def measure(location: str, n: int, ops: int) -> dict[str, Any]:
    return bench_store.measure_store(location, n, ops, profile=False)


def row(name: str, n: int, r: dict[str, Any]) -> str:
    def pair(key: str) -> str:
        return f"{r[key]['p50']:.2f} / {r[key]['p95']:.2f}"

    return (
        f"| {name} | {n:,} | {pair('save')} | {pair('search')} | {pair('context_for')} "
        f"| {r['search']['avg_hits']:.1f} |"
    )


def bench_size(n: int, ops: int, admin: str, workdir: Path, reuse: bool) -> dict[str, Any]:
    print(f"\n== {n:,} entries", file=sys.stderr, flush=True)
    filled, fill = bench_store.filled_store(workdir, n, "import", reuse)
    sqlite_db = bench_store.working_copy(filled, workdir, n)
    out: dict[str, Any] = {"n": n, "fill_sqlite": fill}
    with pg.fresh_database(admin, prefix=f"remem_bench_{n}") as url:
        out["copy_to_postgres"] = copy_store(str(filled), url)
        with pg.connect(url) as conn:  # what autovacuum does within a minute of a bulk load
            conn.execute("VACUUM ANALYZE")
        print(
            f"  copied to PostgreSQL: {out['copy_to_postgres']['entries_per_s']:.0f} entries/s",
            file=sys.stderr,
        )
        out["postgres"] = measure(url, n, ops)
    out["sqlite"] = measure(sqlite_db, n, ops)
    return out


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--sizes", default="10000,100000", help="store sizes (comma separated)")
    p.add_argument("--ops", type=int, default=200, help="timed saves/searches per size")
    p.add_argument("--pg", metavar="URL", help="an existing server (admin URL) to use")
    p.add_argument("--workdir", help="keep the SQLite stores here (default: a temp dir)")
    p.add_argument("--reuse", action="store_true", help="reuse filled SQLite stores in workdir")
    p.add_argument("--json", metavar="OUT", help="write every number to this JSON file")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    results = []
    with tempfile.TemporaryDirectory(prefix="remem-bench-") as tmp, server(args.pg) as admin:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for n in sizes:
            results.append(bench_size(n, args.ops, admin, workdir, args.reuse))
    print("\nLatency in ms, p50 / p95 (same corpus, same operations, one run):\n")
    print("| backend | entries | save | search | context_for | hits/search |")
    print("|---|---|---|---|---|---|")
    for r in results:
        print(row("SQLite", r["n"], r["sqlite"]))
        print(row("PostgreSQL", r["n"], r["postgres"]))
    for r in results:
        c = r["copy_to_postgres"]
        print(f"\ncopy {r['n']:,} entries to PostgreSQL by migrate: {c['seconds']:.1f} s "
              f"({c['entries_per_s']:.0f} entries/s)")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
