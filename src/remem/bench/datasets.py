"""Which harness reads a file: MADial-Bench's `…-dialogue.json` (with its `…-memory.json`
beside it), else LoCoMo conversations (one, or the ten of the published `locomo10.json`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from remem.bench import locomo, madial
from remem.bench.harness import Corpus
from remem.errors import InvalidInput


def corpora(paths: Sequence[str | Path]) -> list[Corpus]:
    out: list[Corpus] = []
    for path in paths:
        if Path(path).name.endswith("-dialogue.json"):
            found = madial.load(path)
        else:
            found = [locomo.corpus(c) for c in locomo.load_all(path)]
        if not any(c.queries for c in found):  # another file: nothing to measure
            raise InvalidInput(
                f"{path}: no questions in it: give LoCoMo's data/locomo10.json or a "
                "MADial-Bench …-dialogue.json (see remem bench retrieval --help)"
            )
        out += found
    return out
