"""Load on `remem serve`: N concurrent clients saving and searching through the REST API
for a bounded time, on 127.0.0.1 only; then every acknowledged save is looked up again.

    .venv/bin/python benchmarks/bench_serve.py                      # SQLite and PostgreSQL
    .venv/bin/python benchmarks/bench_serve.py --backend sqlite --clients 16 --seconds 30
    .venv/bin/python benchmarks/bench_serve.py --pg postgresql://me@localhost/remem_bench

The server is a separate `remem serve` process (as deployed), on a fresh store: a SQLite
file with its durable default (synchronous=FULL), or a new database on a local
PostgreSQL 16 (pgserver's, started with its durable defaults: fsync on) or the `--pg`
server. Each client is a thread with its own HTTP connection and its own token's user
(clients share users two by two, so partitions are exercised); a client saves
(unique text in Chinese and English, half of them global) and searches, one after the
other, until the time is up. Printed: requests per second, p50 / p95 latency of saves
and of searches, errors, and how many acknowledged saves are missing afterwards
(target: 0), checked through the API by id and by its owner's listing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx2 as httpx

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import pg  # noqa: E402  (tests/pg.py: the throwaway server the tests use)

WORDS = ["部署", "数据库", "缓存", "支付", "登录", "日志", "监控", "队列", "前端", "测试",
         "deploy", "database", "cache", "billing", "login", "logs", "metrics", "queue"]  # fmt: skip


@dataclass
class Client:
    """One client's results."""

    saves: list[float] = field(default_factory=list)
    searches: list[float] = field(default_factory=list)
    acked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def remem(db: str, *args: str) -> str:
    env = {**os.environ, "REMEM_EMBEDDER": "none"}
    cmd = [sys.executable, "-m", "remem", "--db", db, "--project", "bench", *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout


@contextmanager
def server(db: str, log: Path) -> Iterator[str]:
    port = pg.free_port()
    env = {**os.environ, "REMEM_EMBEDDER": "none"}
    cmd = [sys.executable, "-m", "remem", "--db", db, "--project", "bench", "serve",
           "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    out = log.open("w")
    proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(url + "/api/health", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("remem serve did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        out.close()


def work(url: str, token: str, n: int, until: float, out: Client) -> None:
    rng = random.Random(n)
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
        k = 0
        while time.monotonic() < until:
            k += 1
            a, b = rng.sample(WORDS, 2)
            body = {
                "content": f"客户端 {n} 第 {k} 条：{a} 和 {b} 的约定 note-{n}-{k}",
                "scope": "global" if k % 2 else "project", "keep_both": True,
            }  # fmt: skip
            start = time.perf_counter()
            try:
                r = c.post("/api/memories", json=body)
                out.saves.append(time.perf_counter() - start)
                if r.status_code == 201:
                    out.acked.append(r.json()["entry"]["id"])
                else:
                    out.errors.append(f"save {r.status_code} {r.text[:80]}")
                start = time.perf_counter()
                r = c.get("/api/search", params={"q": f"{rng.choice(WORDS)} 约定", "limit": 10})
                out.searches.append(time.perf_counter() - start)
                if r.status_code != 200:
                    out.errors.append(f"search {r.status_code}")
            except httpx.HTTPError as exc:
                left = until - time.monotonic()
                out.errors.append(f"{type(exc).__name__} ({left:.1f} s before the end): {exc}")


def missing(url: str, tokens: dict[int, str], results: dict[int, Client]) -> int:
    """Acknowledged saves that the server no longer has (by id, and in the listing)."""
    lost = 0
    for user, token in tokens.items():
        ids = {i for n, r in results.items() if n // 2 == user for i in r.acked}
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=url, headers=headers, timeout=60) as c:
            listed: set[str] = set()
            for scope in ("project", "global"):
                offset = 0
                while page := c.get("/api/memories", params={
                    "scope": scope, "limit": 1000, "offset": offset, "project": "bench",
                }).json():  # fmt: skip
                    listed |= {m["entry"]["id"] for m in page}
                    offset += len(page)
            for eid in ids:
                if eid not in listed or c.get(f"/api/memories/{eid}").status_code != 200:
                    lost += 1
    return lost


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def run(label: str, db: str, clients: int, seconds: float) -> dict[str, object]:
    users = (clients + 1) // 2
    tokens = {
        u: json.loads(remem(db, "token", "create", "--user", f"user{u}", "--json"))["token"]
        for u in range(users)
    }
    log = Path(tempfile.gettempdir()) / f"remem-bench-serve-{label}.log"
    with server(db, log) as url:
        results = {n: Client() for n in range(clients)}
        until = time.monotonic() + seconds
        started = time.perf_counter()
        threads = [
            threading.Thread(target=work, args=(url, tokens[n // 2], n, until, results[n]))
            for n in range(clients)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        lost = missing(url, tokens, results)
    saves = [x for r in results.values() for x in r.saves]
    searches = [x for r in results.values() for x in r.searches]
    row = {
        "backend": label, "clients": clients, "seconds": round(elapsed, 1),
        "requests_per_s": round((len(saves) + len(searches)) / elapsed, 1),
        "saves": len(saves), "save_p50_ms": round(pct(saves, 0.5), 1),
        "save_p95_ms": round(pct(saves, 0.95), 1), "searches": len(searches),
        "search_p50_ms": round(pct(searches, 0.5), 1),
        "search_p95_ms": round(pct(searches, 0.95), 1),
        "acknowledged": sum(len(r.acked) for r in results.values()),
        "errors": sum(len(r.errors) for r in results.values()), "lost": lost,
    }  # fmt: skip
    for r in results.values():
        for error in r.errors[:3]:
            print(f"  {label}: {error}", file=sys.stderr)
    if row["errors"]:
        print(f"  {label}: the server's log is {log}", file=sys.stderr)
    return row


@contextmanager
def postgres(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    for name in ("fsync", "synchronous_commit", "full_page_writes"):
        pg.SETTINGS.pop(name, None)  # PostgreSQL's defaults: every commit flushed
    srv = pg.start()
    try:
        with pg.fresh_database(srv.url, "remem_bench") as db:
            yield db
    finally:
        srv.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pg", help="a postgresql:// URL to use instead of a local server")
    args = parser.parse_args()
    rows = []
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory(prefix="remem-bench-serve-") as tmp:
            rows.append(run("sqlite", str(Path(tmp) / "memory.db"), args.clients, args.seconds))
    if args.backend in ("postgres", "both"):
        with postgres(args.pg) as url:
            rows.append(run("postgres", url, args.clients, args.seconds))
    columns = list(rows[0])
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row[c]) for c in columns))
    if any(row["lost"] for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
