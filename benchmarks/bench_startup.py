"""Wall time of the moments a person waits for (issue 32): one-shot `remem save`,
`search`, `list` and `context` (median of 5 fresh processes), `remem serve` from start to
its first 200, `remem chat` from start to its prompt on a terminal, and `remem mcp` from
start to its answer to `initialize`.

    .venv/bin/python benchmarks/bench_startup.py                  # both embedder settings
    .venv/bin/python benchmarks/bench_startup.py --runs 9 --embedder none
    .venv/bin/python benchmarks/bench_startup.py --only save,search
    .venv/bin/python benchmarks/bench_startup.py --src /tmp/before/src   # another tree

Every command runs as a user runs it (`python -m remem ...`) against a store of
`--memories` mixed Chinese/English memories in a `REMEM_HOME` of its own; with the
default embedder the warm vector service is started first (by a search) and stopped at
the end, so the figures are those of a user whose service is running (keyword-only, the
untimed first run starts it). The one-shot commands run whole there
(`remem.cli.served`); the `here` rows are the same commands with `REMEM_WARM=0`, in
their own process (what a user's first command of the day costs, keyword-only). Target: each
one-shot command <= 0.3 s, `serve` first 200 <= 2 s, chat prompt <= 1 s, MCP initialize
<= 1 s (answered from its cache after the first start: `remem.servers.mcp_start`). The
machine reference (`machine.py`) is printed beside the table: read ratios
on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402

TOPICS = ["部署流程", "数据库迁移", "缓存策略", "支付回调", "登录限流", "日志采样", "监控告警",
          "deploy window", "database pool", "cache eviction", "billing retries", "login rate",
          "log sampling", "alert routing"]  # fmt: skip
ONE_SHOT = ("save", "search", "list", "context")


def seed(home: Path, n: int) -> None:
    """`n` varied memories, saved keyword-only (vectors are the warm service's business)."""
    texts = []
    for i in range(n):
        topic = TOPICS[i % len(TOPICS)]
        if i % 2:
            texts.append(f"{topic} 第{i}条：使用方案 {i % 37} 和版本 {i % 11}.{i % 7}")
        else:
            texts.append(f"The {topic} of service s{i} uses option {i % 37} since v{i % 11}")
    script = (
        "import json, sys\nfrom remem import Memory\n"
        "with Memory(sys.argv[1], project='bench', embedder=None) as m:\n"
        "    for t in json.load(sys.stdin): m.save(t, force=True)\n"
    )
    db = str(home / "memory.db")
    subprocess.run([sys.executable, "-c", script, db], input=json.dumps(texts).encode(),
                   check=True, env=env_of(home, "none"), cwd=home)  # fmt: skip


SRC: list[str] = []  # --src: run this source tree's remem instead of the installed one


def env_of(home: Path, embedder: str) -> dict[str, str]:
    """`embedder`: default, none, or none/here (keyword-only, REMEM_WARM=0)."""
    env = {**os.environ, "REMEM_HOME": str(home), "REMEM_DB": str(home / "memory.db")}
    if SRC:
        env["PYTHONPATH"] = os.pathsep.join([*SRC, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("REMEM_EMBEDDER", None)
    # An installed remem has its bytecode written (pip compiles it); compiling every
    # module on every start (~170 ms) would measure the environment, not remem.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if embedder.startswith("none"):
        env["REMEM_EMBEDDER"] = "none"
    if embedder.endswith("/here"):
        env["REMEM_WARM"] = "0"
    return env


CPU: list[float] = []  # CPU seconds (user + system) of each command `run` ran


def run(home: Path, embedder: str, *args: str) -> float:
    """Run one command; its wall time (its CPU time goes to `CPU`)."""
    cmd = [sys.executable, "-m", "remem", "--project", "bench", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env_of(home, embedder), cwd=home)
    took = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return took


WORDS = (
    "amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon "
    "marble nectar orchid pepper quartz raven saffron tundra umber violet willow"
).split()


def fresh() -> str:
    """A memory no other saved one repeats or contradicts (no numbers, random words)."""
    rng = random.Random(time.time_ns())
    return f"The {' '.join(rng.sample(WORDS, 4))} notes live in the {rng.choice(WORDS)} wiki"


def one_shot(home: Path, embedder: str, command: str, runs: int) -> tuple[float, float]:
    """Median wall and CPU time of `runs` runs, after one untimed (what a user's first
    command of the day caches: the tokenizer's table). The CPU time is the command's own
    (not the warm service's): on a busy machine it says more than the wall time."""
    times, cpu = [], []
    for i in range(-1, runs):
        args = {
            "save": ["save", fresh()],
            "search": ["search", "数据库迁移 用什么方案" if i % 2 else "which cache eviction"],
            "list": ["list"],
            "context": ["context", "how do we deploy" if i % 2 else "支付回调 的版本"],
        }[command]
        took = run(home, embedder, *args)
        if i >= 0:
            times.append(took)
            cpu.append(CPU[-1])
    return statistics.median(times), statistics.median(cpu)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_first_200(home: Path, embedder: str) -> float:
    port = free_port()
    cmd = [sys.executable, "-m", "remem", "--project", "bench", "serve", "--host",
           "127.0.0.1", "--port", str(port)]  # fmt: skip
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env_of(home, embedder), cwd=home,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        while time.perf_counter() - t < 60:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                    return time.perf_counter() - t
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("remem serve exited") from None
                time.sleep(0.01)
        raise RuntimeError("remem serve did not answer in 60 s")
    finally:
        proc.terminate()
        proc.wait(10)


def chat_prompt(home: Path, embedder: str) -> float:
    """From `remem chat` starting on a terminal (a model configured, never called) to
    its prompt on the screen."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    from terminal import Terminal  # tests/terminal.py: a pty and what its screen shows

    env = {**env_of(home, embedder), "REMEM_LLM_MODEL": "bench",
           "REMEM_LLM_BASE_URL": "http://127.0.0.1:9/v1", "TERM": "xterm"}  # fmt: skip
    t = time.perf_counter()
    term = Terminal([sys.executable, "-m", "remem", "--project", "bench", "chat"],
                    cwd=home, env=env)  # fmt: skip
    try:
        term.wait_until(lambda: any(line.startswith("›") for line in term.lines()), 60, "›")
        return time.perf_counter() - t
    finally:
        term.child.kill(9)
        term.child.close()


def mcp_initialize(home: Path, embedder: str) -> float:
    cmd = [sys.executable, "-m", "remem", "--project", "bench", "mcp"]
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}  # fmt: skip
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env_of(home, embedder), cwd=home, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps(hello) + "\n").encode())
        proc.stdin.flush()
        line = proc.stdout.readline()
        took = time.perf_counter() - t
        if b'"result"' not in line:
            raise RuntimeError(f"remem mcp answered {line[:200]!r}")
        return took
    finally:
        proc.kill()
        proc.wait(10)


MOMENTS = {"serve": serve_first_200, "chat": chat_prompt, "mcp": mcp_initialize}
LABELS = {"serve": "serve first 200", "chat": "chat prompt", "mcp": "mcp initialize"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument(
        "--embedder", choices=["default", "none", "none/here", "both"], default="both"
    )
    parser.add_argument("--only", default="save,search,list,context,serve,chat,mcp")
    parser.add_argument("--src", help="a remem source tree (its src/) to measure instead")
    args = parser.parse_args()
    if args.src:
        SRC.append(str(Path(args.src).resolve()))
    only = args.only.split(",")
    settings = ["default", "none", "none/here"] if args.embedder == "both" else [args.embedder]
    print(machine.line())
    with tempfile.TemporaryDirectory(prefix="remem-startup-") as tmp:
        home = Path(tmp)
        seed(home, args.memories)
        rows: list[tuple[str, str, float, float | None]] = []
        try:
            for embedder in settings:
                if embedder == "default":
                    run(home, embedder, "search", "warm up the service")
                for command in [c for c in ONE_SHOT if c in only]:
                    rows.append((command, embedder, *one_shot(home, embedder, command, args.runs)))
                for name, moment in MOMENTS.items():
                    if name in only and not embedder.endswith("/here"):
                        took = [moment(home, embedder) for _ in range(args.runs)]
                        rows.append((LABELS[name], embedder, statistics.median(took), None))
        finally:
            subprocess.run([sys.executable, "-m", "remem", "warm", "stop"],
                           env=env_of(home, "default"), capture_output=True)  # fmt: skip
    print(f"{'moment':<18} {'embedder':<9} median of {args.runs}: wall s, CPU s")
    for name, embedder, took, cpu in rows:
        print(f"{name:<18} {embedder:<9} {took:.3f}" + (f"  {cpu:.3f}" if cpu is not None else ""))
    print(machine.line())


if __name__ == "__main__":
    main()
