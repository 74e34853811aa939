"""Which harness reads a file: MADial-Bench's `…-dialogue.json` (with its `…-memory.json`
beside it), else a LoCoMo conversation."""

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
            out.append(locomo.corpus(locomo.load(path)))
    return out
