"""The read-time net (`remem.retrieval.newer`) replayed on recorded searches: record once
what every search of a held set's run found before the net, then replay the net as the
code stands now in seconds, without saving anything again.

    .venv/bin/python benchmarks/replay_net.py record h20 h21 --modes keyword,embedder
    .venv/bin/python benchmarks/replay_net.py replay h20 h21      # edit newer.py, run again

A recording holds, per set and mode, the chains' queries (the answer wanted: the last
step) and the look-alikes' (each pair's a and b), in two shapes: a store a chain or pair
(`bench_heldout.run_set`) and the whole set in one store (`bench_heldout.run_mixed`).
`replay` prints, per shape, chains answered current-first and look-alike questions
answered first, with the net as it is and without it. What the saves left depends on the
save-time code: record again after changing it.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

import bench_heldout as bh
from remem.retrieval import newer
from remem.retrieval.ranking import Hit

_SEEN: list[dict[str, Any]] = []
_NET = newer.newer_first


def _recording(query: str, hits: list[Hit], vectors: Any = None) -> list[Hit]:
    held = None
    if vectors is not None:
        read, model = vectors
        held = (read([h.entry.id for h in hits[: newer.TOP]]), model)
    _SEEN.append({"query": query, "hits": [h.entry for h in hits], "vectors": held})
    return _NET(query, hits, vectors)


def _asked(mem: Any, query: str, want: str, kind: str, limit: int) -> dict[str, Any]:
    _SEEN.clear()
    mem.search(query, limit=limit)
    return {"kind": kind, "want": want, "seen": _SEEN[-1] if _SEEN else None}


def _apart(data: dict[str, Any], embedder: Any, db: Path) -> list[dict[str, Any]]:
    out = []
    for i, chain in enumerate(data["chains"]):
        with bh._store(db, f"c{i}", embedder, data["fillers"]) as mem:
            last = None
            for k, step in enumerate(chain["steps"]):
                at = bh.START + k * bh.STEP
                r = bh._save(mem, step["text"], at)
                if k and r.status == "conflict" and last in {e.id for e in r.conflicts}:
                    r = bh._save(mem, step["text"], at, replace_id=last)
                last = r.entry.id
            out.append(_asked(mem, chain["query"], last, "chain", 5))
    for i, pair in enumerate(data["look_alikes"]):
        with bh._store(db, f"l{i}", embedder, data["fillers"]) as mem:
            a = bh._save(mem, pair["a"], bh.START).entry.id
            b = bh._save(mem, pair["b"], bh.START + bh.STEP).entry.id
            out += [_asked(mem, pair["query_a"], a, "look-alike", 1)]
            out += [_asked(mem, pair["query_b"], b, "look-alike", 1)]
    return out


def _together(data: dict[str, Any], embedder: Any, db: Path) -> list[dict[str, Any]]:
    """As `bench_heldout.run_mixed` saves them: look-alikes and repeats, then the chains
    step by step, a conflict replacing the memory it names."""
    with bh._store(db, "mixed", embedder, data["fillers"]) as mem:
        pairs = [(p["a"], p["b"]) for p in (*data["look_alikes"], *data["repeats"])]
        first = {a: bh._save(mem, a, bh.START, force=True).entry.id for a, _ in pairs}
        second = {b: bh._save(mem, b, bh.START + bh.STEP, force=True).entry.id for _, b in pairs}
        lasts = []
        for k in range(max(len(c["steps"]) for c in data["chains"])):
            for chain in data["chains"]:
                if k < len(chain["steps"]):
                    at, step = bh.START + (k + 2) * bh.STEP, chain["steps"][k]["text"]
                    r = bh._save(mem, step, at, force=True)
                    if r.status == "conflict":
                        r = bh._save(mem, step, at, replace_id=r.conflicts[0].id)
                    if k == len(chain["steps"]) - 1:
                        lasts.append((chain["query"], r.entry.id))
        out = [_asked(mem, q, want, "chain", 1) for q, want in lasts]
        for p in data["look_alikes"]:
            out.append(_asked(mem, p["query_a"], first[p["a"]], "look-alike", 1))
            out.append(_asked(mem, p["query_b"], second[p["b"]], "look-alike", 1))
    return out


def record(sets: list[str], modes: list[str], folder: Path) -> None:
    newer.newer_first = _recording
    folder.mkdir(parents=True, exist_ok=True)
    for mode in modes:
        embedder = _embedder(mode)
        for name in sets:
            data = json.loads((bh.SETS / f"truth_{name}.json").read_text(encoding="utf-8"))
            with tempfile.TemporaryDirectory() as tmp:
                shapes = {
                    "apart": _apart(data, embedder, Path(tmp) / "a.db"),
                    "together": _together(data, embedder, Path(tmp) / "t.db"),
                }
            (folder / f"{name}-{mode}.pickle").write_bytes(pickle.dumps(shapes))
            print(f"recorded {name} {mode}", file=sys.stderr, flush=True)


def _embedder(mode: str) -> Any:
    if mode == "keyword":
        return None
    from remem.retrieval.embedding import USEEmbedder

    return USEEmbedder()


def _top(seen: dict[str, Any], net: bool) -> str | None:
    hits = [Hit(e, 1.0, 1.0, 1.0, False) for e in seen["hits"]]
    vectors = None
    if seen["vectors"] is not None:
        held, model = seen["vectors"]
        vectors = ((lambda ids: held), model)
    if net:
        hits = newer.newer_first(seen["query"], hits, vectors)
    return hits[0].entry.id if hits else None


def replay(sets: list[str], modes: list[str], folder: Path) -> None:
    for mode in modes:
        for shape in ("apart", "together"):
            tally = {k: [0, 0, 0] for k in ("chain", "look-alike")}  # net, no net, of
            for name in sets:
                path = folder / f"{name}-{mode}.pickle"
                if not path.exists():
                    continue
                for asked in pickle.loads(path.read_bytes())[shape]:
                    if asked["seen"] is None:
                        continue
                    t = tally[asked["kind"]]
                    t[0] += _top(asked["seen"], True) == asked["want"]
                    t[1] += _top(asked["seen"], False) == asked["want"]
                    t[2] += 1
            (c, cn, cof), (a, an, aof) = tally["chain"], tally["look-alike"]
            print(
                f"{mode:9s} {shape:9s} chains current-first {c}/{cof} (no net {cn}), "
                f"look-alike questions {a}/{aof} (no net {an})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("record", "replay"))
    parser.add_argument("sets", nargs="+", help="held sets by name: h20 h21 ...")
    parser.add_argument("--modes", default="keyword,embedder")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "remem-net")
    args = parser.parse_args()
    run = record if args.action == "record" else replay
    run(args.sets, args.modes.split(","), args.dir)


if __name__ == "__main__":
    main()
