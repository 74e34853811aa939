"""The golden readings: what the grammar (`remem.truth.subject.read`) reads of every text
of the truth probe sets, kept in tests/data/readings.json. A rule change that moves a
reading fails here and prints which readings moved, old and new side by side, so a
change is reviewed by what it does to real sentences and not only by a benchmark's
total. After a deliberate change:

    .venv/bin/python tests/test_readings.py --update
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROBES = ROOT / "benchmarks" / "data" / "truth_probes.json"
GOLDEN = ROOT / "tests" / "data" / "readings.json"
SHOWN = 40  # moved readings printed at most


def _texts(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from _texts(item)
    elif isinstance(node, dict):
        for key, item in node.items():
            if key not in ("about", "note", "why"):
                yield from _texts(item)


def texts() -> list[str]:
    sets = json.loads(PROBES.read_text(encoding="utf-8"))["sets"]
    return sorted(set(_texts(sets)))


def readings(corpus: list[str]) -> dict[str, list[Any] | None]:
    from remem.truth.subject import read

    out: dict[str, list[Any] | None] = {}
    for text in corpus:
        claim = read(text)
        out[text] = (
            None
            if claim is None
            else [claim.subject, claim.value, claim.key, claim.change, claim.dropped, claim.whole]
        )
    return out


def test_the_grammar_reads_the_probe_texts_as_the_golden_file_says() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = readings(texts())
    assert set(now) == set(golden), "the probe texts changed: run this file with --update"
    moved = [(t, golden[t], now[t]) for t in sorted(now) if golden[t] != now[t]]
    shown = "\n".join(f"{t}\n    was {old}\n    now {new}" for t, old, new in moved[:SHOWN])
    assert not moved, (
        f"{len(moved)} of {len(now)} readings moved (first {SHOWN}; [subject, value, key, "
        f"change, dropped, whole]); if meant, run tests/test_readings.py --update:\n{shown}"
    )


def test_most_probe_texts_are_read() -> None:
    """The file holds real readings, not a file of nulls that passes by matching."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    read = sum(v is not None for v in golden.values())
    assert len(golden) > 1000 and read / len(golden) > 0.5


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: tests/test_readings.py --update")
    sys.path.insert(0, str(ROOT / "src"))
    found = readings(texts())
    lines = [
        f"{json.dumps(t, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
        for t, v in found.items()
    ]
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")  # a line per text
    print(f"{GOLDEN}: {len(found)} texts, {sum(v is not None for v in found.values())} read")
