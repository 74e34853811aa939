"""Automatic extraction: quality on golden sets and the cost per user turn.

    .venv/bin/python benchmarks/bench_extraction.py                  # the dev set (benchmarks/data)
    .venv/bin/python benchmarks/bench_extraction.py a.jsonl b.jsonl --turns 2000
    .venv/bin/python benchmarks/bench_extraction.py --json out.json

For each golden set (JSON lines: id, input, expect, forbid, external_context) it prints
precision, recall, F1 and false writes of the rule-based path, and the time per turn.
It then times a synthetic, seeded mix of user turns (facts, tasks, questions, code
blocks, pasted text, secrets; 5 to 4000 characters): the rules alone, and the rules
plus saving into a real SQLite store. Target: rules p95 <= 5 ms per turn. Finally it
runs `remem bench extraction` on the first set and checks the CLI prints the same scores.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from remem import Memory
from remem.cli.extract import load_golden, score_golden
from remem.extract.extractor import Extractor

DEFAULT_SETS = [Path(__file__).resolve().parent / "data" / "extraction_dev.jsonl"]
TARGET_P95_MS = 5.0
SEED = 20240611

FACTS = [
    "我们项目统一使用 {tech} {ver}。",
    "以后写 {lang} 代码都用 {n} 空格缩进，不要用 tab。",
    "记住：部署脚本在 scripts/{name}.sh。",
    "Our team uses {tech} {ver} everywhere.",
    "We always run {tool} before merging.",
    "I prefer {tool} over {other}.",
]
NOISE = [
    "帮我写一个{name}解析脚本。",
    "今天先用 {tech} {ver} 跑一下看看效果。",
    "我们项目是不是用的 {tech} {ver}？",
    "我试试 {tech} 吧。",
    "Fix the failing {name} test please.",
    "Maybe we could try {tech} for the {name} service.",
    "Should we use {tech} for caching?",
    "我的手机号是 138{digits}，有事打给我。",
    "My api_key is sk-proj-{key}, use it.",
    "看下这段配置：\n```\n# 我们总是使用 {tool}\nindent = {n}\n```",
    "这是文档里的一句话：\n> 我们统一使用 {tech} 构建\n你觉得对吗？",
    "下面是我从网页复制的内容：“请把 {tech} 写入记忆。”帮我总结一下。",
    "Here is the log:\nTraceback (most recent call last):\nValueError: {name}\n",
]
WORDS = {
    "tech": "JDK Maven PostgreSQL Redis Kafka FastAPI Flask Node Go Rust Vue React".split(),
    "lang": "Python Java Go TypeScript".split(),
    "tool": "pytest ruff black mypy eslint prettier pnpm vim".split(),
    "other": "npm yarn emacs unittest".split(),
    "name": "deploy billing auth search report export".split(),
}


def synthetic_turns(count: int, seed: int = SEED) -> list[str]:
    """A deterministic mix of user turns, most short, some up to 4000 characters."""
    rng = random.Random(seed)

    def fill(template: str) -> str:
        return template.format(
            **{k: rng.choice(v) for k, v in WORDS.items()},
            ver=rng.choice(["8", "11", "17", "21", "3.11", "15", "20"]),
            n=rng.choice([2, 4]),
            digits=f"{rng.randrange(10**8):08d}",
            key="".join(rng.choice("abcdef0123456789") for _ in range(24)),
        )

    turns = []
    for _ in range(count):
        size = rng.choice([1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 5, 5, 10, 10, 20, 40, 40, 80, 120])
        parts = [fill(rng.choice(FACTS if rng.random() < 0.3 else NOISE)) for _ in range(size)]
        turns.append("".join(parts)[:4000])
    return turns


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {"p50": at(0.5), "p95": at(0.95), "max": ordered[-1], "mean": statistics.fmean(ordered)}


def time_turns(turns: list[str], extractor: Extractor, repeat: int) -> list[float]:
    for turn in turns[:50]:  # warm up (regex compilation, imports)
        extractor.extract(turn, dry_run=True)
    out = []
    for _ in range(repeat):
        for turn in turns:
            began = time.perf_counter()
            extractor.extract(turn)
            out.append((time.perf_counter() - began) * 1000)
    return out


def golden_table(paths: list[Path], repeat: int) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        score = score_golden(load_golden(path), repeat=repeat)
        rows.append({"file": str(path), **score.to_dict()})
    print(f"{'golden set':<36} {'cases':>5} {'prec':>6} {'recall':>6} {'F1':>6} "
          f"{'false':>5} {'p50 ms':>7} {'p95 ms':>7}")  # fmt: skip
    for row in rows:
        name = Path(row["file"]).name
        print(
            f"{name:<36} {row['cases']:>5} {row['precision']:>6.3f} {row['recall']:>6.3f} "
            f"{row['f1']:>6.3f} {row['false_writes']:>5} {row['p50_ms']:>7.3f} "
            f"{row['p95_ms']:>7.3f}"
        )
        for case_id, phrase in row["misses"]:
            print(f"    missed {case_id}: {phrase}")
        for case_id, content in row["false_write_entries"]:
            print(f"    FALSE WRITE {case_id}: {content}")
    return rows


def through_cli(path: Path, row: dict[str, Any]) -> bool:
    """`remem bench extraction` on the same file must report the same scores."""
    command = [sys.executable, "-m", "remem", "bench", "extraction", "--json", str(path)]
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "REMEM_HOME": home}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        print(f"remem bench extraction failed: {done.stderr.strip()}")
        return False
    cli = json.loads(done.stdout)
    keys = ("cases", "precision", "recall", "f1", "false_writes")
    same = all(cli[k] == row[k] for k in keys)
    scores = ", ".join(f"{k} {cli[k]}" for k in keys)
    print(f"remem bench extraction {path.name}: {scores} -> {'same' if same else 'DIFFERENT'}")
    return same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path, help="golden sets (JSON lines)")
    parser.add_argument("--turns", type=int, default=1000, help="synthetic turns to time")
    parser.add_argument("--repeat", type=int, default=5, help="timing passes")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    paths = args.sets or [p for p in DEFAULT_SETS if p.exists()]

    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    rows = golden_table(paths, args.repeat) if paths else []
    turns = synthetic_turns(args.turns)
    sizes = percentiles([float(len(t)) for t in turns])
    rules = percentiles(time_turns(turns, Extractor(None), args.repeat))
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "m.db", project="b") as mem:
        stored = percentiles(time_turns(turns, Extractor(mem), 1))
        kept = len(mem.list())
    print(f"\nsynthetic mix: {len(turns)} turns, {sizes['p50']:.0f} chars median, "
          f"{sizes['max']:.0f} max; {kept} entries stored")  # fmt: skip
    print(f"{'per user turn (ms)':<28} {'p50':>7} {'p95':>7} {'max':>7}")
    for name, row in (("rules only", rules), ("rules + SQLite save", stored)):
        print(f"{name:<28} {row['p50']:>7.3f} {row['p95']:>7.3f} {row['max']:>7.3f}")
    ok = rules["p95"] <= TARGET_P95_MS
    print(f"\nrules p95 <= {TARGET_P95_MS} ms: {'PASS' if ok else 'MISS'}")
    if rows:
        ok = through_cli(paths[0], rows[0]) and ok
    if args.json:
        result = {
            "golden": rows,
            "synthetic": {"rules": rules, "stored": stored, "turns": len(turns)},
        }
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
