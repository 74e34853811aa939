"""SPEC ST2: how far the offline estimate (CJK/1.5 + other/4) is from exact counts.

Run: .venv/bin/python benchmarks/bench_tokens.py [FILES...]
Texts: the LoCoMo turns and the extraction golden set under ../shared/data
(English chat, Chinese and mixed preferences), grouped by script.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from remem.tokens import count_tokens, estimate_tokens

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def locomo_texts(path: Path) -> list[str]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    turns = [v for k, v in doc.items() if k.startswith("session_") and isinstance(v, list)]
    return [t["text"] for session in turns for t in session]


def golden_texts(path: Path) -> list[str]:
    return [json.loads(line)["input"] for line in path.read_text(encoding="utf-8").splitlines()]


def report(name: str, texts: list[str]) -> None:
    if not texts:
        return
    errors = []
    for text in texts:
        exact = count_tokens(text, "o200k_base")
        if exact:
            errors.append((estimate_tokens(text) - exact) / exact)
    exact_total = sum(count_tokens(t, "o200k_base") for t in texts)
    est_total = sum(estimate_tokens(t) for t in texts)
    abs_err = sorted(abs(e) for e in errors)
    print(
        f"{name:<22} n={len(texts):>5}  total exact={exact_total:>7} est={est_total:>7} "
        f"({(est_total - exact_total) / exact_total:+.1%})  per-text |err| "
        f"p50={statistics.median(abs_err):.1%} p95={abs_err[int(0.95 * (len(abs_err) - 1))]:.1%} "
        f"bias={statistics.mean(errors):+.1%}"
    )


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or [*sorted((DATA / "locomo").glob("*.json"))]
    english = [t for p in paths if p.suffix == ".json" for t in locomo_texts(p)]
    golden = golden_texts(DATA / "extraction" / "dev.jsonl") if not argv else []
    chinese = [t for t in golden if sum("\u4e00" <= c <= "\u9fff" for c in t) > len(t) / 3]
    mixed = [t for t in golden if t not in chinese]
    print("estimate vs exact o200k_base token counts")
    report("English chat (LoCoMo)", english)
    report("Chinese (golden set)", chinese)
    report("English/mixed (golden)", mixed)


if __name__ == "__main__":
    main(sys.argv[1:])
