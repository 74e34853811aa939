"""A writer process for tests/test_processes.py: saves memories into one store.

    python writer.py DB --worker W --count N [--style numbered|words] [--force]
                     [--go FILE] [--print-ids]

--count 0 saves forever (until killed). With --go, the process opens the store,
prints "ready" and waits until FILE exists, so that many writers start together.
With --print-ids, each entry id is printed (and flushed) only after `save` returned.
At the end it prints one JSON line: {"worker": W, "statuses": {status: count}}.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from remem import Memory

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def numbered(worker: int, i: int, rng: random.Random) -> str:
    # Every named thing is distinct, but the statements share one skeleton: only
    # force=True keeps them from being reported as conflicts of each other.
    return f"worker {worker} memory {i}: 使用 tool{worker}_{i} 版本 {i}"


def words(worker: int, i: int, rng: random.Random) -> str:
    # Six random 7-letter words: no digits (no skeleton, no named values), no shared
    # terms, bigram Dice ~0.05. Nothing to deduplicate and nothing to conflict with.
    return " ".join("".join(rng.choice(LETTERS) for _ in range(7)) for _ in range(6))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--worker", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--style", choices=("numbered", "words"), default="words")
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--go")
    parser.add_argument("--print-ids", action="store_true")
    args = parser.parse_args()

    make = numbered if args.style == "numbered" else words
    rng = random.Random(f"remem-writer-{args.worker}")
    statuses: Counter[str] = Counter()
    mem = Memory(args.db, project="p")
    if args.go:
        print("ready", flush=True)
        go = Path(args.go)
        while not go.exists():
            time.sleep(0.002)
    counter = range(args.count) if args.count else itertools.count()
    for i in counter:
        result = mem.save(make(args.worker, i, rng), force=args.force)
        statuses[result.status] += 1
        if args.print_ids:
            sys.stdout.write(result.entry.id + "\n")
            sys.stdout.flush()
    mem.close()
    print(json.dumps({"worker": args.worker, "statuses": dict(statuses)}), flush=True)


if __name__ == "__main__":
    main()
