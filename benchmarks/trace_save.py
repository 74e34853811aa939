"""Which pass of a save decides it: the passes of `remem.truth.writes` one by one, for a
new text saved after older ones, before changing a rule.

    .venv/bin/python benchmarks/trace_save.py "鼓手是阿强。" "鼓手：阿辉"
    .venv/bin/python benchmarks/trace_save.py OLD [OLD ...] NEW --use --fillers truth_h34
    .venv/bin/python benchmarks/trace_save.py --pairs FILE      # lines "old|new"

The older texts are saved first (forced, a day apart), then the new one; each pass that
finds anything prints its matches (a pass that re-reads the text, `when`, prints the
passes inside it too), then the save's status. `--fillers` saves a held-out set's fillers
first, as `bench_heldout.py` does; `--use` loads the shipped embedder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # this tree's remem, not the installed one

from remem import Memory  # noqa: E402
from remem.truth import writes  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=UTC)


def traced(shown: list[bool]) -> None:
    """Wrap each pass so that, once `shown[0]` is set, what it finds is printed."""

    def wrap(name: str, look: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
        def run(draft: Any) -> list[Any]:
            found = look(draft)
            if shown[0] and found:
                for m in found:
                    print(f"  {name:<12} {m.relation:<9} {m.entry.content[:50]!r}: {m.reason}")
            return found

        return run

    writes.PASSES = tuple((name, wrap(name, look)) for name, look in writes.PASSES)


def trace(olds: list[str], new: str, embedder: Any, fillers: list[str]) -> str:
    shown = [False]
    saved = writes.PASSES
    traced(shown)
    try:
        with (
            tempfile.TemporaryDirectory() as tmp,
            Memory(Path(tmp) / "trace.db", project="trace", embedder=embedder) as mem,
        ):
            for i, text in enumerate(fillers):
                mem.save(text, created_at=START - timedelta(days=40 - i), force=True)
            for i, text in enumerate(olds):
                mem.save(text, created_at=START + timedelta(days=i), force=True)
            shown[0] = True
            result = mem.save(new, created_at=START + timedelta(days=len(olds)))
            return f"{result.status} {result.reasons}"
    finally:
        writes.PASSES = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("texts", nargs="*", help="older texts, then the new one")
    parser.add_argument("--pairs", type=Path, help='a file of "old|new" lines')
    parser.add_argument("--use", action="store_true", help="with the shipped embedder")
    parser.add_argument("--fillers", help="a held-out set's name: its fillers saved first")
    args = parser.parse_args()
    cases = [(args.texts[:-1], args.texts[-1])] if len(args.texts) >= 2 else []
    if args.pairs:
        for line in args.pairs.read_text(encoding="utf-8").splitlines():
            if "|" in line:
                old, new = line.split("|", 1)
                cases.append(([old], new))
    if not cases:
        parser.error("give an older text and a new one, or --pairs FILE")
    embedder = None
    if args.use:
        from remem.retrieval.embedding import USEEmbedder

        embedder = USEEmbedder()
    fillers: list[str] = []
    if args.fillers:
        path = HERE / "data" / "truth_heldout" / f"{args.fillers}.json"
        fillers = json.loads(path.read_text(encoding="utf-8"))["fillers"]
    for olds, new in cases:
        print(f"{new!r}")
        print(f"  => {trace(olds, new, embedder, fillers)}")


if __name__ == "__main__":
    main()
