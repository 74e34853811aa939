"""The secret detector on every held-out set at once, before and after a change to it.

    .venv/bin/python benchmarks/bench_secrets_held.py                 # found / flagged per set
    .venv/bin/python benchmarks/bench_secrets_held.py --show h35      # and h35's misses, flags
    .venv/bin/python benchmarks/bench_secrets_held.py --upto 35 --truth

Each `data/secrets_heldout/secrets_hN.txt` / `benign_hN.txt` pair, through
`find_secrets(text, contacts=False)` (what a user's save refuses): secrets found, ordinary
notes flagged, per set and in all. `--upto N` leaves out the sets after hN (the newest,
frozen for a first run, is read by nobody before it). `--truth` also counts the ordinary
texts of the truth sets (held-out sets up to N, training sets, probes) the detector
flags: a rule that finds more secrets must not flag more of these (`-v` lists them).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # this tree's remem, not the installed one

from remem.secrets import find_secrets  # noqa: E402

HELD = HERE / "data" / "secrets_heldout"
TRUTH = HERE / "data"


def lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [s.strip() for s in text.splitlines() if s.strip() and not s.startswith("#")]


def held_sets(upto: int | None) -> list[int]:
    found = (re.fullmatch(r"secrets_h(\d+)\.txt", p.name) for p in HELD.glob("secrets_h*.txt"))
    numbers = sorted(int(m[1]) for m in found if m)
    return [n for n in numbers if upto is None or n <= upto]


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def truth_texts(upto: int | None) -> list[str]:
    files = [*sorted((TRUTH / "truth_train").glob("*.json")), TRUTH / "truth_probes.json"]
    for path in (TRUTH / "truth_heldout").glob("truth_h*.json"):
        number = int(path.stem.removeprefix("truth_h"))
        if upto is None or number <= upto:
            files.append(path)
    texts = (s for f in files for s in strings(json.loads(f.read_text(encoding="utf-8"))))
    return list(dict.fromkeys(t for t in texts if len(t) > 8))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upto", type=int, help="only the sets up to hN")
    parser.add_argument("--show", action="append", default=[], help="list a set's misses (hN)")
    parser.add_argument("--truth", action="store_true", help="the truth sets' texts flagged")
    parser.add_argument("-v", action="store_true", help="list the truth texts flagged")
    args = parser.parse_args()
    found = total = flagged = ordinary = 0
    for n in held_sets(args.upto):
        secrets, benign = lines(HELD / f"secrets_h{n}.txt"), lines(HELD / f"benign_h{n}.txt")
        missed = [s for s in secrets if not find_secrets(s, contacts=False)]
        flags = [b for b in benign if find_secrets(b, contacts=False)]
        found, total = found + len(secrets) - len(missed), total + len(secrets)
        flagged, ordinary = flagged + len(flags), ordinary + len(benign)
        print(f"h{n}: {len(secrets) - len(missed)}/{len(secrets)} found, {len(flags)} flagged")
        if f"h{n}" in args.show:
            print("".join(f"  MISS {s}\n" for s in missed), end="")
            print("".join(f"  FLAG {b}\n" for b in flags), end="")
    print(f"all: {found}/{total} found, {flagged}/{ordinary} flagged")
    if args.truth:
        texts = truth_texts(args.upto)
        hits = [t for t in texts if find_secrets(t, contacts=False)]
        print(f"truth sets: {len(hits)} of {len(texts)} ordinary texts flagged")
        if args.v:
            print("".join(f"  {t}\n" for t in hits), end="")


if __name__ == "__main__":
    main()
