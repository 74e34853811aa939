"""Which harness reads a file: MADial-Bench's `…-dialogue.json` (with its `…-memory.json`
beside it), else LoCoMo conversations (one, or the ten of the published `locomo10.json`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from remem.bench import locomo, madial
from remem.bench.harness import Corpus


def corpora(paths: Sequence[str | Path]) -> list[Corpus]:
    out: list[Corpus] = []
    for path in paths:
        if Path(path).name.endswith("-dialogue.json"):
            out += madial.load(path)
        else:
            out += [locomo.corpus(c) for c in locomo.load_all(path)]
    return out
