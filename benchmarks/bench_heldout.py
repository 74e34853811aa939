"""Does memory stay true on text nobody tuned on? The held-out sets of
benchmarks/data/truth_heldout/ (written by people who never read the code, frozen
before anyone looked), through `Memory.save` and `Memory.search`.

    .venv/bin/python benchmarks/bench_heldout.py                      # every set, both modes
    .venv/bin/python benchmarks/bench_heldout.py --modes keyword FILE # one set, keyword-only
    .venv/bin/python benchmarks/bench_heldout.py --verbose            # and what was missed
    .venv/bin/python benchmarks/bench_heldout.py --referee oracle     # a perfect model's bound
    .venv/bin/python benchmarks/bench_heldout.py --judge DIR FILE     # judges trained apart
    .venv/bin/python benchmarks/bench_heldout.py --unforced FILE      # one store, no force

`--referee oracle` stands in for a model with REMEM_SUBJECTS=llm: a referee that knows the
set's answers and rules rightly whenever the memory a text changes (or repeats) is among
those sent to it. No model is measured by it: it bounds what the referee path can reach
(how often the right memory is found and sent), the model's own errors aside.

A set: {"chains": [{"lang", "steps": [{"text", "kind"}], "query", "current"}],
"look_alikes": [{"a", "b", "query_a", "query_b"}], "repeats": [{"a", "b"}],
"fillers": [...]}. Every store holds the set's fillers (unrelated facts) first.
- a change (each later step of a chain) is handled when it supersedes the step before
  (silent) or is reported as a conflict naming it (asked: the caller replaces it); a
  supersede of anything else is damage;
- a chain is answered current-first when `search(query)` ranks its last step first;
  clean when, besides, no older step shows in the top 5 unmarked (an older one the
  read-time safety net marks as possibly replaced is shown, flagged);
- `as_of` at the middle of each older step's validity finds that step (top 5) and no
  other step of its chain;
- a look-alike b saved after a is touched when a, current once saved, is no longer
  current after b; refused when b is reported as a conflict; a not kept when a itself was
  not current once saved (asked about a filler, or stated as ending before now); its
  queries are answered when `search(query_a)` ranks a first
  and `search(query_b)` ranks b first (what the read-time safety net must not break);
- a repeat is caught when reported as a duplicate.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent / "src"))

from remem import Entry, Memory, SaveResult  # noqa: E402
from remem.errors import RememError  # noqa: E402
from remem.truth.dedup import Match  # noqa: E402

SETS = ROOT / "data" / "truth_heldout"
START = datetime(2026, 1, 5, 9, tzinfo=UTC)
STEP = timedelta(days=20)
# Two memories stated as of one instant are never ordered by the judge's guess; a real
# save's clock never repeats
_TICK = itertools.count(1)


class Oracle:
    """A referee that knows the answers: `gold` maps a text to what it is ("change" or
    "repeat") of which earlier text; anything else is ruled different."""

    def __init__(self, gold: dict[str, tuple[str, str]]) -> None:
        self.gold, self.asked = gold, 0

    def __call__(self, incoming: Entry, candidates: Any) -> list[Match]:
        self.asked += 1
        relation, old = self.gold.get(incoming.content, ("different", ""))
        for c in candidates:
            if relation != "different" and c.content == old:
                kind = "supersede" if relation == "change" else "duplicate"
                return [Match(c, kind, "the oracle")]  # type: ignore[arg-type]
        return []


def gold_of(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    gold = {}
    for chain in data["chains"]:
        steps = [s["text"] for s in chain["steps"]]
        gold.update({new: ("change", old) for old, new in zip(steps, steps[1:], strict=False)})
    gold.update({p["b"]: ("repeat", p["a"]) for p in data["repeats"]})
    return gold


REFEREE: Any = None  # set by --referee
PG: str | None = None  # --pg: a PostgreSQL server's URL instead of a SQLite file


def _store(db: Path, name: str, embedder: Any, fillers: list[str]) -> Memory:
    where: Any = db if PG is None else PG
    if PG is not None:  # one database for every run: each store a project of its own
        name = f"{db.parent.name}-{name}"
    mem = Memory(where, project=name, embedder=embedder, referee=REFEREE)
    for i, fact in enumerate(fillers):
        mem.save(fact, created_at=START - timedelta(days=40 - i), force=True)
    return mem


def _save(mem: Memory, content: str, at: datetime, **kw: Any) -> SaveResult:
    """A save as a caller makes it; an error (a refused secret, a bad date) is what the
    caller sees too: counted as an outcome, not a crash."""
    try:  # a millisecond apart from every other save (chains share their steps' days)
        return mem.save(content, created_at=at + timedelta(milliseconds=next(_TICK)), **kw)
    except RememError as exc:
        return SaveResult("refused", Entry(content=content), reasons=[type(exc).__name__])


def run_chain(mem: Memory, chain: dict[str, Any], tally: Counter[str], misses: list[Any]) -> None:
    saved, lang = [], chain.get("lang", "?")
    for i, step in enumerate(chain["steps"]):
        at = START + i * STEP
        result = _save(mem, step["text"], at)
        if i == 0:
            saved.append(result.entry)
            continue
        kind, prev = step["kind"], saved[-1]
        tally[f"n:{kind}"] += 1
        tally[f"n@{lang}"] += 1
        tally["n"] += 1
        if result.status == "superseded" and result.replaced and result.replaced.id == prev.id:
            tally[f"ok:{kind}"] += 1
            tally[f"ok@{lang}"] += 1
            tally["silent"] += 1
            saved.append(result.entry)
        elif result.status == "conflict" and prev.id in {e.id for e in result.conflicts}:
            tally[f"ok:{kind}"] += 1
            tally[f"ok@{lang}"] += 1
            tally["asked"] += 1
            saved.append(_save(mem, step["text"], at, replace_id=prev.id).entry)
        else:
            if result.status == "superseded":
                tally["damage"] += 1
            misses.append((kind, prev.content, step["text"], result.status, result.reasons))
            saved.append(result.entry)
    ids = [e.id for e in saved]
    found = mem.search(chain["query"], limit=5)
    hits = [h.entry.id for h in found]
    unmarked = {h.entry.id for h in found if not getattr(h, "replaced_by", None)}
    tally["chains"] += 1
    tally[f"chains@{lang}"] += 1
    if hits[:1] == ids[-1:]:
        tally["current_first"] += 1
        tally[f"first@{lang}"] += 1
        if not set(ids[:-1]) & unmarked:
            tally["current_clean"] += 1
    else:
        shown = [
            (ids.index(h.entry.id) if h.entry.id in ids else "-", h.entry.content) for h in found
        ]
        misses.append(("current-first", chain["query"], len(ids) - 1, shown[:3]))
    for i in range(len(saved) - 1):
        mid = START + i * STEP + STEP / 2
        found = [h.entry.id for h in mem.search(chain["query"], limit=5, as_of=mid)]
        tally["asof_n"] += 1
        if ids[i] in found and not (set(ids) - {ids[i]}) & set(found):
            tally["asof_ok"] += 1


def run_set(path: Path, embedder: Any, verbose: bool) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    fillers = data.get("fillers", [])
    tally: Counter[str] = Counter()
    misses: list[Any] = []
    touched, refused, repeats, lost = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "heldout.db"
        for i, chain in enumerate(data["chains"]):
            with _store(db, f"c{i}", embedder, fillers) as mem:
                run_chain(mem, chain, tally, misses)
        for i, pair in enumerate(data["look_alikes"]):
            with _store(db, f"l{i}", embedder, fillers) as mem:
                a = _save(mem, pair["a"], START).entry
                kept = a.id in {e.id for e in mem.list(limit=1000)}
                r = _save(mem, pair["b"], START + STEP)
                for query, want in ((pair["query_a"], a.id), (pair["query_b"], r.entry.id)):
                    top = [h.entry.id for h in mem.search(query, limit=1)]
                    tally["la_queries"] += 1
                    tally["la_answered"] += top == [want]
                current = {e.id for e in mem.list(limit=1000)}
                if not kept:
                    lost.append((pair["a"], pair["b"]))
                elif a.id not in current:
                    touched.append((pair["a"], pair["b"], r.status))
                if kept and a.id in current and r.status == "conflict":
                    refused.append((pair["a"], pair["b"]))
        for i, pair in enumerate(data["repeats"]):
            with _store(db, f"r{i}", embedder, fillers) as mem:
                _save(mem, pair["a"], START)
                r = _save(mem, pair["b"], START + STEP)
                if r.status != "duplicate":
                    repeats.append((pair["a"], pair["b"], r.status))
    kinds = sorted(k[2:] for k in tally if k.startswith("n:"))
    langs = sorted(k.split("@")[1] for k in tally if k.startswith("chains@"))
    n_la, n_rep = len(data["look_alikes"]), len(data["repeats"])
    out = {
        "changes": tally["n"],
        "handled": tally["silent"] + tally["asked"],
        "silent": tally["silent"],
        "asked": tally["asked"],
        "damage": tally["damage"],
        "by_kind": {k: f"{tally['ok:' + k]}/{tally['n:' + k]}" for k in kinds},
        "by_lang": {
            k: f"handled {tally['ok@' + k]}/{tally['n@' + k]}, current-first "
            f"{tally['first@' + k]}/{tally['chains@' + k]}"
            for k in langs
        },
        "chains": tally["chains"],
        "current_first": tally["current_first"],
        "current_clean": tally["current_clean"],
        "as_of": f"{tally['asof_ok']}/{tally['asof_n']}",
        "look_alikes": n_la,
        "touched": len(touched),
        "first_not_kept": len(lost),
        "look_alike_queries": f"{tally['la_answered']}/{tally['la_queries']}",
        "refused": len(refused),
        "repeats": n_rep,
        "repeats_caught": n_rep - len(repeats),
    }
    if verbose:
        out["misses"] = misses
        out["touched_pairs"] = touched
        out["not_kept_pairs"] = lost
        out["refused_pairs"] = refused
        out["repeats_missed"] = repeats
    return out


def run_mixed(path: Path, embedder: Any) -> dict[str, Any]:
    """Every chain, look-alike pair and repeat of a set in ONE store (as a real store
    holds many facts that share words), each later step saved after every earlier one:
    are the chains' queries answered current-first, and the look-alikes' by the right
    one, when all the other memories compete?"""
    data = json.loads(path.read_text(encoding="utf-8"))
    tally: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        with _store(Path(tmp) / "mixed.db", "mixed", embedder, data.get("fillers", [])) as mem:
            pairs = [(p["a"], p["b"]) for p in (*data["look_alikes"], *data["repeats"])]
            first = {a: _save(mem, a, START, force=True).entry.id for a, _ in pairs}
            second = {b: _save(mem, b, START + STEP, force=True).entry.id for _, b in pairs}
            lasts = []
            for k in range(max(len(c["steps"]) for c in data["chains"])):
                for chain in data["chains"]:
                    if k < len(chain["steps"]):
                        step = chain["steps"][k]["text"]
                        at = START + (k + 2) * STEP
                        r = _save(mem, step, at, force=True)
                        if r.status == "conflict":  # asked: the caller replaces
                            r = _save(mem, step, at, replace_id=r.conflicts[0].id)
                        if k == len(chain["steps"]) - 1:
                            lasts.append((chain["query"], r.entry.id))
            for query, want in lasts:
                tally["chains"] += 1
                tally["current_first"] += [h.entry.id for h in mem.search(query, limit=1)] == [want]
            for p in data["look_alikes"]:
                for query, want in ((p["query_a"], first[p["a"]]), (p["query_b"], second[p["b"]])):
                    tally["la_queries"] += 1
                    tally["la_answered"] += [h.entry.id for h in mem.search(query, limit=1)] == [
                        want
                    ]
    return {
        "current_first": f"{tally['current_first']}/{tally['chains']}",
        "look_alike_queries": f"{tally['la_answered']}/{tally['la_queries']}",
    }


def run_unforced(path: Path, embedder: Any) -> dict[str, Any]:
    """The whole set in ONE store saved as a caller saves, without `force` (a caller
    asked about a conflict replaces the memory named when it is the step before, and
    keeps both otherwise): what the per-pair stores hide, a decision taken against the
    wrong one of many memories sharing words. Counts each later step's outcome (right:
    the step before superseded or asked about; wrong: another memory superseded or asked
    about), first steps and look-alikes that touched or asked about a memory, and
    repeats caught."""
    data = json.loads(path.read_text(encoding="utf-8"))
    tally: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        with _store(Path(tmp) / "one.db", "one", embedder, data.get("fillers", [])) as mem:
            for p in (*data["look_alikes"], *data["repeats"]):
                _save(mem, p["a"], START)
            for p in data["look_alikes"]:
                r = _save(mem, p["b"], START + STEP)
                tally["look-alike touched"] += r.status == "superseded"
                tally["look-alike asked"] += r.status == "conflict"
                if r.status == "conflict":
                    _save(mem, p["b"], START + STEP, force=True)
            for p in data["repeats"]:
                tally["repeat caught"] += _save(mem, p["b"], START + STEP).status == "duplicate"
            last: dict[int, Entry] = {}
            for k in range(max(len(c["steps"]) for c in data["chains"])):
                for i, chain in enumerate(data["chains"]):
                    if k < len(chain["steps"]):
                        at = START + (k + 2) * STEP
                        last[i] = _unforced_step(mem, chain["steps"][k]["text"], at,
                                                 last.get(i), tally)  # fmt: skip
    return dict(tally)


def _unforced_step(
    mem: Memory, text: str, at: datetime, prev: Entry | None, tally: Counter[str]
) -> Entry:
    r = _save(mem, text, at)
    named = [e.id for e in r.conflicts] if r.status == "conflict" else []
    replaced = r.replaced.id if r.status == "superseded" and r.replaced else None
    if prev is None:  # a first step: any decision is about an unrelated memory
        tally["first touched"] += replaced is not None
        tally["first asked"] += bool(named)
    else:
        tally["changes"] += 1
        tally["superseded right"] += replaced == prev.id
        tally["superseded wrong"] += replaced is not None and replaced != prev.id
        tally["asked right"] += prev.id in named
        tally["asked wrong"] += bool(named) and prev.id not in named
        if prev.id in named:
            return _save(mem, text, at, replace_id=prev.id).entry
    if named:
        return _save(mem, text, at, force=True).entry
    return r.entry


def line(name: str, mode: str, r: dict[str, Any]) -> str:
    n = max(r["changes"], 1)
    return (
        f"{name} [{mode}] changes handled {r['handled']}/{r['changes']} "
        f"({r['handled'] / n:.0%}: {r['silent']} silent, {r['asked']} asked, "
        f"{r['damage']} wrong target) | current-first {r['current_first']}/{r['chains']} "
        f"(no older unmarked: {r['current_clean']}) | "
        f"as_of {r['as_of']} | look-alikes touched {r['touched']}, refused {r['refused']} "
        f"of {r['look_alikes']}, a not kept {r['first_not_kept']} "
        f"(their queries answered first {r['look_alike_queries']}) | "
        f"repeats {r['repeats_caught']}/{r['repeats']} | by kind "
        + ", ".join(f"{k} {v}" for k, v in r["by_kind"].items())
        + " | by language "
        + "; ".join(f"{k}: {v}" for k, v in r["by_lang"].items())
        + (f" | referee asked {r['referee_asked']} times" if "referee_asked" in r else "")
        + (f" | one store: {r['mixed']}" if "mixed" in r else "")
        + (f" | one store unforced: {r['unforced']}" if "unforced" in r else "")
    )


def use_judge(folder: Path) -> None:
    """The judges written to `folder` by train_judge.py --out instead of the shipped."""
    from remem.truth import judge

    found = {p.stem.removeprefix("judge-"): p for p in folder.glob("judge-*.json")}
    judges = {k: judge.Judge(json.loads(p.read_text("utf-8"))) for k, p in found.items()}
    judge.load = judges.get  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--modes", default="keyword,embedder")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--referee", choices=["oracle"], help="a referee standing in for a model")
    parser.add_argument("--mixed", action="store_true", help="also: the whole set in one store")
    parser.add_argument("--unforced", action="store_true", help="also: one store, no force")
    parser.add_argument("--pg", help="a PostgreSQL URL to run on instead of SQLite files")
    parser.add_argument("--judge", type=Path, help="a folder of judges to use instead")
    args = parser.parse_args()
    if args.judge:  # weights trained without the set measured (train_judge.py --exclude)
        use_judge(args.judge)
    global REFEREE, PG
    PG = args.pg
    files = args.files or sorted(SETS.glob("*.json"))
    results: dict[str, Any] = {}
    for mode in args.modes.split(","):
        embedder = None
        if mode == "embedder":
            from remem.retrieval.embedding import USEEmbedder

            embedder = USEEmbedder()
        for path in files:
            if args.referee:
                REFEREE = Oracle(gold_of(json.loads(path.read_text(encoding="utf-8"))))
            r = run_set(path, embedder, args.verbose)
            if args.referee:
                r["referee_asked"] = REFEREE.asked
            if args.mixed:
                r["mixed"] = run_mixed(path, embedder)
            if args.unforced:
                r["unforced"] = run_unforced(path, embedder)
            results[f"{path.stem}:{mode}"] = r
            print(line(path.stem, mode, r), flush=True)
            if args.verbose:
                print(json.dumps({k: r[k] for k in r if k.endswith(("misses", "pairs",
                      "missed"))}, ensure_ascii=False, indent=1))  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
