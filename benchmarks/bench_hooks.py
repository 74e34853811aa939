"""Warm latency of the hook the terminal agents run (`remem hook ...`), as they run it: a
new `remem` process per call, the payload on stdin, a store of 1k / 10k memories.

    .venv/bin/python benchmarks/bench_hooks.py                  # 1k and 10k, 20 calls each
    .venv/bin/python benchmarks/bench_hooks.py --sizes 1000 --runs 10 --json out.json

Warm means what a user has after the first call: Python's bytecode cached, the store's
file in the page cache, the warm vector service running (with the local model it embeds
the query; keyword-only, REMEM_EMBEDDER=none, the session's start hook starts it), which
answers a session's start, a prompt's and an end of turn's hook whole
(`remem.hooks.served`): its CPU meanwhile is a column of its own (from /proc). The row
`start0` is a session's start with no service running (it works in-process, and
keyword-only starts the service, which the next row's calls stop again). Printed
beside the machine reference (benchmarks/machine.py) so loaded runs can be told apart.
Target: a prompt's hook within 150 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import machine
from bench_store import Corpus, export_doc
from remem import Memory
from remem.retrieval.warm import WarmClient

TARGET_MS = 150.0
REMEM = str(Path(sys.executable).with_name("remem"))


def fill(project: Path, n: int) -> None:
    """`n` memories of bench_store's synthetic corpus in `project`, by import."""
    docs = Corpus().sentences(n)
    when = [datetime(2025, 1, 1, tzinfo=UTC) - timedelta(minutes=i) for i in range(n)]
    export = project.parent / "fill.json"
    with Memory(project=project) as mem:
        for lo in range(0, n, 2000):
            doc = json.loads(
                export_doc(docs[lo : lo + 2000], when[lo : lo + 2000], random.Random(lo))
            )
            for entry in doc["entries"]:
                entry["project"] = mem.project
            export.write_text(json.dumps(doc), encoding="utf-8")
            mem.import_(export, force=True)
    export.unlink()


def call(action: str, payload: dict[str, Any], env: dict[str, str], cwd: Path
         ) -> tuple[float, float, float]:  # fmt: skip
    """One hook process: wall and CPU (user + system) milliseconds, and the CPU the warm
    service spent meanwhile (a prompt's hook is answered there when it runs). CPU is what
    the call costs on an idle machine; wall grows with the load. A failure stops it."""
    service = service_pid(Path(env["REMEM_HOME"]))
    spent = service_cpu(service)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [REMEM, "hook", action, "--client", "claude-code"], input=json.dumps(payload),
        capture_output=True, text=True, env=env, cwd=cwd,
    )  # fmt: skip
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if done.returncode != 0:
        raise SystemExit(f"hook {action} failed: {done.stderr.strip()}")
    return wall, cpu, service_cpu(service) - spent


def service_pid(home: Path) -> int | None:
    status = WarmClient(home).status()
    return int(status["pid"]) if status else None


def service_cpu(pid: int | None) -> float:
    """The warm service's CPU so far (ms; Linux's /proc), 0 with none running."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def stats(calls: Sequence[tuple[float, float, float]]) -> dict[str, float]:
    wall = sorted(w for w, _, _ in calls)
    p95 = wall[min(len(wall) - 1, round(0.95 * (len(wall) - 1)))]
    return {"p50_ms": round(statistics.median(wall), 1), "p95_ms": round(p95, 1),
            "cpu_p50_ms": round(statistics.median(c for _, c, _ in calls), 1),
            "service_cpu_p50_ms": round(statistics.median(s for _, _, s in calls), 1)}  # fmt: skip


def measure(n: int, runs: int, work: Path, embedder: str) -> dict[str, Any]:
    project = work / f"proj-{n}-{embedder}"
    (project / ".git").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    home = str(work / f"home-{n}-{embedder}")
    env |= {"REMEM_HOME": home, "REMEM_EMBEDDER": embedder, "REMEM_WARM": "1"}
    os.environ |= {"REMEM_HOME": home, "REMEM_EMBEDDER": "none"}
    fill(project, n)
    if embedder != "none":  # vectors for the store; the hooks then ask the warm service
        subprocess.run([REMEM, "reindex"], cwd=project, env=env, check=True, capture_output=True)
    queries = [q for _, q in (Corpus(seed=n).query() for _ in range(runs + 2))]
    base = {"cwd": str(project), "transcript_path": None}
    # The first calls compile bytecode, read the store and start the service: not warm.
    call("start", base | {"session_id": "warmup"}, env, project)
    for q in queries[:2]:
        call("prompt", base | {"session_id": "warmup", "prompt": q}, env, project)
    out: dict[str, list[tuple[float, float, float]]] = {"start": [], "prompt": [], "stop": []}
    for i, q in enumerate(queries[2:]):
        session = {"session_id": f"s{i}", "hook_event_name": "SessionStart"}
        out["start"].append(call("start", base | session, env, project))
        asked = base | session | {"hook_event_name": "UserPromptSubmit", "prompt": q}
        out["prompt"].append(call("prompt", asked, env, project))
        out["stop"].append(call("stop", base | session | {"hook_event_name": "Stop"}, env, project))
    stop = [REMEM, "warm", "stop"]
    subprocess.run(stop, cwd=project, env=env, capture_output=True)
    out["start0"] = []
    for i in range(runs):
        session = {"session_id": f"c{i}", "hook_event_name": "SessionStart"}
        out["start0"].append(call("start", base | session, env, project))
        subprocess.run(stop, cwd=project, env=env, capture_output=True)
    return {"entries": n, "embedder": embedder, "runs": runs,
            **{k: stats(v) for k, v in out.items()}}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument(
        "--embedders",
        nargs="+",
        default=["none", "use"],
        help="none: keywords only; use: hybrid through the warm vector service",
    )
    ap.add_argument("--json", metavar="PATH", help="also write the results here")
    args = ap.parse_args(argv)
    results: dict[str, Any] = {"machine": machine.reference(), "sizes": []}
    with tempfile.TemporaryDirectory(prefix="bench-hooks-") as tmp:
        for n in args.sizes:
            for embedder in args.embedders:
                results["sizes"].append(measure(n, args.runs, Path(tmp), embedder))
    head = f"{'entries':>8}  {'search':<8} {'hook':<7} {'wall p50':>9} {'wall p95':>9}"
    print(f"{head} {'CPU p50':>8} {'service CPU p50':>16}  (ms)")
    for size in results["sizes"]:
        for action in ("start", "prompt", "stop", "start0"):
            st = size[action]
            print(f"{size['entries']:>8,}  {size['embedder']:<8} {action:<7} {st['p50_ms']:>9} "
                  f"{st['p95_ms']:>9} {st['cpu_p50_ms']:>8} "
                  f"{st['service_cpu_p50_ms']:>16}")  # fmt: skip
    print(machine.line(results["machine"]))
    worst = max(s["prompt"]["cpu_p50_ms"] for s in results["sizes"])
    both = max(s["prompt"]["cpu_p50_ms"] + s["prompt"]["service_cpu_p50_ms"]
               for s in results["sizes"])  # fmt: skip
    print(f"prompt hook CPU p50 {worst} ms, with the service's {both:.1f} ms "
          f"(target {TARGET_MS:.0f} ms warm on an idle machine)")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
