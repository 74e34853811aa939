"""Does memory stay true? Updates, look-alike facts, repeats and MADial events, through
`Memory.save`, `Memory.search(as_of=…)` and `Memory.import_`, keyword-only and with the
shipped embedder.

    .venv/bin/python benchmarks/bench_truth.py                    # both modes
    .venv/bin/python benchmarks/bench_truth.py --modes keyword    # keyword-only
    .venv/bin/python benchmarks/bench_truth.py --data other.json  # a held-out set
    .venv/bin/python benchmarks/bench_truth.py --probes-only      # the hand-written probes
    .venv/bin/python benchmarks/bench_truth.py --json out.json --import-facts 20000

Prints, per mode:
- updates detected: a change saved after the old value is reported as a supersede of
  it, or as a conflict naming it (the caller then replaces it, as `remem save --replace`);
  a duplicate or a side-by-side add is missed;
- current-only answers: the query finds the chain's current version in the top 5 and
  none of its older versions;
- older values found with as_of: at the middle of each older version's validity, the
  query finds that version (top 5) and no other version of its chain;
- false conflicts among distinct pairs (the second of two different facts reported as
  conflict or supersede), distinct memories reported as duplicates;
- duplicates caught among repeats in other words;
- MADial-Bench (dev half) events saved one by one: kept / total (force, as in the
  issue) and conflicts reported without force;
- an import of look-alike synthetic facts: conflicts and duplicates reported;
- save latency p50 / p95 (ms).
The dev set is built by benchmarks/make_truth_dev.py (seeded: the same every run; its
`main` writes it to benchmarks/data/truth_dev.json to read); `--data` takes another.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from remem import Memory, SaveResult
from remem.entry import Entry, to_utc
from remem.errors import RememError

HERE = Path(__file__).resolve().parent
MADIAL = next(  # ../shared/data beside the checkout, wherever it is run from
    (p / "shared" / "data" / "madial" for p in HERE.parents if (p / "shared").is_dir()),
    Path("shared/data/madial"),
)
TARGETS = {"updates_detected": 0.98, "current_only": 0.98, "false_conflicts": 0.005}


class Timer:
    def __init__(self) -> None:
        self.ms: list[float] = []

    @contextmanager
    def timed(self) -> Iterator[None]:
        t = time.perf_counter()
        yield
        self.ms.append((time.perf_counter() - t) * 1000)

    def quantiles(self) -> dict[str, float]:
        if not self.ms:
            return {"p50": 0.0, "p95": 0.0}
        q = statistics.quantiles(self.ms, n=20) if len(self.ms) > 1 else [self.ms[0]] * 19
        return {"p50": round(statistics.median(self.ms), 2), "p95": round(q[18], 2)}


def memory(db: Path, project: str, embedder: Any, user: str | None = None) -> Memory:
    return Memory(db, project=project, embedder=embedder, user_id=user)


_TICK = itertools.count(1)


def apart(at: str | datetime) -> datetime:
    """`at` and a millisecond more than the save before: the generated chains share
    instants, and two memories stated as of one instant are never ordered by the
    judge's guess (a real save's clock never repeats)."""
    return to_utc(at) + timedelta(milliseconds=next(_TICK))


def save_chain(mem: Memory, upd: dict[str, Any], timer: Timer, tally: Counter[str],
               missed: list[tuple[str, str, str]]) -> list[Entry]:  # fmt: skip
    """Save a chain's versions in order as a caller would: a reported conflict with the
    previous version is settled by replacing it. Returns the entry of each version."""
    saved: list[Entry] = []
    for i, version in enumerate(upd["versions"]):
        at = apart(version["at"])
        with timer.timed():
            result = mem.save(version["text"], created_at=at)
        if i == 0:
            saved.append(result.entry)
            continue
        style, prev = version["style"], saved[-1]
        tally[f"{style}_total"] += 1
        if result.status == "superseded" and result.replaced and result.replaced.id == prev.id:
            tally[style] += 1
            saved.append(result.entry)
        elif result.status == "conflict" and prev.id in {e.id for e in result.conflicts}:
            tally[style] += 1
            with timer.timed():
                fixed = mem.save(version["text"], created_at=at, replace_id=prev.id)
            saved.append(fixed.entry)
        else:
            missed.append((result.status, prev.content, version["text"]))
            saved.append(result.entry)
    return saved


def answers(mem: Memory, upd: dict[str, Any], saved: list[Entry], tally: Counter[str],
            wrong: list[Any]) -> None:  # fmt: skip
    """Current-only answer now, and each older version found with as_of."""
    ids, query = [e.id for e in saved], upd["query"]
    hits = [h.entry.id for h in mem.search(query, limit=10)]
    if ids[-1] in hits[:5] and not set(ids[:-1]) & set(hits):
        tally["current_ok"] += 1
    else:
        wrong.append((query, [e.content for e in saved], [mem.store.get(h).content  # type: ignore[union-attr]
                                                           for h in hits[:3]]))  # fmt: skip
    for i in range(len(saved) - 1):
        start = to_utc(upd["versions"][i]["at"])
        mid = start + (to_utc(upd["versions"][i + 1]["at"]) - start) / 2
        found = [h.entry.id for h in mem.search(query, limit=10, as_of=mid)]
        tally["asof_n"] += 1
        if ids[i] in found[:5] and not (set(ids) - {ids[i]}) & set(found):
            tally["asof_ok"] += 1


def run_updates(
    db: Path, data: list[dict[str, Any]], embedder: Any, timer: Timer
) -> dict[str, Any]:
    tally: Counter[str] = Counter()
    missed: list[tuple[str, str, str]] = []
    wrong: list[Any] = []
    by_user: dict[str | None, list[dict[str, Any]]] = {}
    for upd in data:
        by_user.setdefault(upd.get("user"), []).append(upd)
    for user, chains in by_user.items():
        with memory(db, "updates", embedder, user) as mem:
            saved = [save_chain(mem, upd, timer, tally, missed) for upd in chains]
            for upd, entries in zip(chains, saved, strict=True):
                answers(mem, upd, entries, tally, wrong)
    styles = sorted(k for k in tally if k.endswith("_total"))
    n = sum(tally[k] for k in styles)
    detected = sum(tally[k.removesuffix("_total")] for k in styles)
    return {
        "chains": len(data), "changes": n, "detected": round(detected / n, 4),
        "detected_by_style": {k.removesuffix("_total"): f"{tally[k.removesuffix('_total')]}/"
                              f"{tally[k]}" for k in styles},
        "current_only": round(tally["current_ok"] / len(data), 4),
        "as_of_found": round(tally["asof_ok"] / max(tally["asof_n"], 1), 4),
        "missed": missed[:15], "wrong_answers": wrong[:10],
    }  # fmt: skip


def run_pairs(db: Path, pairs: list[dict[str, Any]], embedder: Any, timer: Timer, *,
              repeats: bool) -> dict[str, Any]:  # fmt: skip
    outcome = Counter()
    examples: dict[str, list[tuple[str, str]]] = {}
    for i, pair in enumerate(pairs):
        with memory(db, f"{'r' if repeats else 'd'}{i}", embedder) as mem:
            with timer.timed():
                mem.save(pair["a"])
            with timer.timed():
                status = mem.save(pair["b"]).status
        outcome[status] += 1
        examples.setdefault(status, []).append((pair["a"], pair["b"]))
    n = len(pairs)
    if repeats:
        return {"pairs": n, "duplicates_caught": round(outcome["duplicate"] / n, 4),
                "outcomes": dict(outcome), "not_caught": examples.get("added", [])[:8]}  # fmt: skip
    false = outcome["conflict"] + outcome["superseded"]
    return {
        "pairs": n, "false_conflicts": round(false / n, 4), "duplicates": outcome["duplicate"],
        "outcomes": dict(outcome),
        "examples": {k: v[:6] for k, v in examples.items() if k != "added"},
    }  # fmt: skip


def run_madial(db: Path, embedder: Any, timer: Timer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for lang in ("zh", "en"):
        path = MADIAL / f"MADial-Bench-{lang}-memory.json"
        if not path.exists():
            out[lang] = "missing"
            continue
        items = sorted(json.loads(path.read_text(encoding="utf-8"))[0].items(),
                       key=lambda kv: int(kv[0]))  # fmt: skip
        for force in (True, False):
            kept = conflicts = 0
            dropped = []
            with memory(db, f"madial-{lang}-{force}", embedder) as mem:
                for _, item in items:
                    with timer.timed():
                        r = mem.save(item["event"], created_at=item["time"], force=force)
                    kept += r.status == "added"
                    conflicts += r.status == "conflict"
                    if r.status == "duplicate":
                        dropped.append((item["event"], r.entry.content))
            key = f"{lang}_force" if force else f"{lang}_no_force"
            out[key] = {"kept": kept, "total": len(items), "conflicts": conflicts,
                        "dropped": dropped[:5]}  # fmt: skip
    return out


def synthetic_facts(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """n look-alike facts: one template per attribute, a distinct subject each."""
    sys.path.insert(0, str(HERE))
    import make_truth_dev as dev

    r = random.Random(seed)
    regions = ["华东", "华北", "华南", "西南", "新加坡", "法兰克福", "美西", "美东", "东京", "孟买"]
    en_regions = ["us-east", "us-west", "eu-central", "ap-south", "sa-east", "ca-central",
                  "eu-west", "ap-northeast", "me-south", "af-south"]  # fmt: skip
    specs = [s for s in dev.SPECS if not s.personal]
    seen, facts = set(), []
    at = datetime(2025, 1, 1).isoformat() + "Z"
    while len(facts) < n:
        spec = r.choice(specs)
        if spec.lang == "zh":
            c = f"{r.choice(regions)}{r.choice(dev.ZH_ENVS)}的{r.choice(dev.ZH_COMPONENTS)}"
        else:
            c = f"{r.choice(en_regions)} {r.choice(dev.EN_ENVS)} {r.choice(dev.EN_COMPONENTS)}"
        template = spec.plain[0]
        if (c, spec.topic) in seen:
            continue  # one fact per subject: two would be a real conflict
        seen.add((c, spec.topic))
        text = dev._say(template, c, spec.value(r))
        facts.append({"content": text, "project": "imported", "created_at": at, "type": "fact"})
    return facts


def run_import(db: Path, n: int, embedder: Any) -> dict[str, Any]:
    facts = synthetic_facts(n)
    path = db.with_suffix(".import.json")
    path.write_text(json.dumps(facts, ensure_ascii=False), encoding="utf-8")
    t = time.perf_counter()
    with memory(db, "imported", embedder) as mem:
        result = mem.import_(path)
    return {"facts": n, "added": len(result.added), "conflicts": len(result.conflicts),
            "duplicates": len(result.duplicates), "seconds": round(time.perf_counter() - t, 1),
            "conflict_examples": [(c.entry.content, c.existing[0].content, c.reasons[0])
                                  for c in result.conflicts[:5]]}  # fmt: skip


def run_mode(mode: str, data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    embedder = None
    if mode == "embedder":
        from remem.retrieval.embedding import USEEmbedder

        embedder = USEEmbedder()
    timer = Timer()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "truth.db"
        distinct = data["distinct"][: args.pairs] if args.pairs else data["distinct"]
        report = {
            "updates": run_updates(db, data["updates"], embedder, timer),
            "distinct": run_pairs(db, distinct, embedder, timer, repeats=False),
            "repeats": run_pairs(db, data["repeats"], embedder, timer, repeats=True),
            "madial": run_madial(db, embedder, timer),
        }
        if args.import_facts:
            report["import"] = run_import(Path(tmp) / "import.db", args.import_facts, embedder)
    if args.probes:
        report["probes"] = run_probes(embedder)
    report["save_ms"] = timer.quantiles()
    return report


PROBES = HERE / "data" / "truth_probes.json"


def _save(mem: Memory, content: str, **kw: Any) -> SaveResult:
    """A probe's save; a refusal (the secret door) is an outcome, not a crash."""
    try:
        return mem.save(content, **kw)
    except RememError as exc:
        return SaveResult("refused", Entry(content=content), reasons=[type(exc).__name__])


def run_probes(embedder: Any, path: Path = PROBES) -> dict[str, dict[str, Any]]:
    """The hand-written probe sets (benchmarks/data/truth_probes.json): each later version
    of a chain must be caught (superseded, or a conflict for the caller to settle) and
    leave only itself current; look-alikes must both be added, and a look-alike must
    stay untouched by the changes of the fact it looks like (`crossed`); repeats should
    be duplicates."""
    sets = json.loads(path.read_text(encoding="utf-8"))["sets"]
    out: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "probes.db"
        for name, probe in sets.items():
            missed, refused, repeated, changes = [], [], [], 0
            for i, chain in enumerate(probe["updates"]):
                with memory(db, f"{name}-u{i}", embedder) as mem:
                    _save(mem, chain[0])
                    for later in chain[1:]:
                        changes += 1
                        r = _save(mem, later)
                        if r.status == "conflict":
                            _save(mem, later, replace_id=r.conflicts[0].id)
                        stale = [e.content for e in mem.list() if e.content != later]
                        if r.status not in ("superseded", "conflict") or stale:
                            missed.append((chain[0], later, r.status))
            for i, (a, b) in enumerate(probe["look_alikes"]):
                with memory(db, f"{name}-l{i}", embedder) as mem:
                    _save(mem, a)
                    if (status := _save(mem, b).status) != "added":
                        refused.append((a, b, status))
            crossed, crossings = cross_probes(db, name, probe, embedder)
            for i, (a, b) in enumerate(probe["repeats"]):
                with memory(db, f"{name}-r{i}", embedder) as mem:
                    _save(mem, a)
                    if _save(mem, b).status == "added":
                        repeated.append((a, b))
            out[name] = {
                "changes": changes, "missed": missed, "look_alikes": len(probe["look_alikes"]),
                "refused": refused, "repeats": len(probe["repeats"]), "not_caught": repeated,
                "crossings": crossings, "crossed": crossed,
            }  # fmt: skip
    return out


def cross_probes(
    db: Path, name: str, probe: dict[str, Any], embedder: Any
) -> tuple[list[tuple[str, str, str]], int]:
    """Each look-alike (a, b) whose a starts an update chain: b saved alone, then a's
    later versions ("We moved the billing service to port 9090" after "The auth service
    listens on port 8080"). b must stay current and never be offered as a conflict; the
    ones touched, and how many were tried."""
    touched, tried = [], 0
    for i, (a, b) in enumerate(probe["look_alikes"]):
        for chain in (c for c in probe["updates"] if c[0] == a):
            tried += 1
            with memory(db, f"{name}-x{i}-{tried}", embedder) as mem:
                kept = _save(mem, b).entry
                for later in chain[1:]:
                    r = _save(mem, later)
                    if kept.id in {c.id for c in r.conflicts} or kept.id not in {
                        e.id for e in mem.list()
                    }:
                        touched.append((b, later, r.status))
                        break
    return touched, tried


def probe_lines(probes: dict[str, dict[str, Any]]) -> list[str]:
    return [
        f"probes {name:<10}       updates caught {p['changes'] - len(p['missed'])}/{p['changes']}, "
        f"look-alikes refused {len(p['refused'])}/{p['look_alikes']}, repeats caught "
        f"{p['repeats'] - len(p['not_caught'])}/{p['repeats']}, look-alikes touched by "
        f"the other's change {len(p['crossed'])}/{p['crossings']}"
        for name, p in probes.items()
    ]


def probe_totals(probes: dict[str, dict[str, Any]]) -> list[str]:
    def total(key: str) -> int:
        return sum(len(p[key]) if isinstance(p[key], list) else p[key] for p in probes.values())

    caught, changes = total("changes") - total("missed"), total("changes")
    return [
        f"probes, all sets      updates caught {caught}/{changes} "
        f"({caught / max(changes, 1):.1%}), "
        f"look-alikes refused {total('refused')}/{total('look_alikes')}, repeats caught "
        f"{total('repeats') - total('not_caught')}/{total('repeats')}, look-alikes touched "
        f"{total('crossed')}/{total('crossings')}"
    ]


def summary(mode: str, r: dict[str, Any]) -> str:
    u, d, rep, m = r["updates"], r["distinct"], r["repeats"], r["madial"]
    lines = [
        f"== {mode}",
        f"updates detected        {u['detected']:.1%} of {u['changes']} changes in "
        f"{u['chains']} chains  {u['detected_by_style']}",
        f"current-only answers    {u['current_only']:.1%}",
        f"older values (as_of)    {u['as_of_found']:.1%}",
        f"false conflicts         {d['false_conflicts']:.2%} of {d['pairs']} distinct pairs; "
        f"distinct reported duplicate: {d['duplicates']}",
        f"duplicates caught       {rep['duplicates_caught']:.1%} of {rep['pairs']} repeats",
    ]
    for key, val in m.items():
        if not isinstance(val, dict):
            lines.append(f"MADial {key:<12}    {val} (looked in {MADIAL})")
        else:
            lines.append(f"MADial {key:<12}    kept {val['kept']}/{val['total']}, "
                         f"conflicts {val['conflicts']}")  # fmt: skip
    if "import" in r:
        i = r["import"]
        lines.append(f"import {i['facts']} facts  conflicts {i['conflicts']}, duplicates "
                     f"{i['duplicates']}, {i['seconds']} s")  # fmt: skip
    lines += [*probe_lines(r["probes"]), *probe_totals(r["probes"])] if "probes" in r else []
    lines.append(
        f"save latency            p50 {r['save_ms']['p50']} ms, p95 {r['save_ms']['p95']} ms"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, help="A set in the dev set's format (JSON).")
    parser.add_argument("--modes", default="keyword,embedder")
    parser.add_argument("--pairs", type=int, default=0, help="Only the first N distinct pairs.")
    parser.add_argument("--import-facts", type=int, default=20000)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--verbose", action="store_true", help="Print misses and examples.")
    parser.add_argument(
        "--probes", action=argparse.BooleanOptionalAction, default=True,
        help="Also run the hand-written probes (data/truth_probes.json).",
    )  # fmt: skip
    parser.add_argument("--probes-only", action="store_true", help="Only the probes.")
    parser.add_argument("--probe-file", type=Path, default=PROBES,
                        help="Probe sets to run (default: data/truth_probes.json).")  # fmt: skip
    args = parser.parse_args()
    if args.probes_only:
        for mode in args.modes.split(","):
            embedder = None
            if mode == "embedder":
                from remem.retrieval.embedding import USEEmbedder

                embedder = USEEmbedder()
            probes = run_probes(embedder, args.probe_file)
            print(f"== {mode}", *probe_lines(probes), *probe_totals(probes), sep="\n", flush=True)
            if args.verbose:
                print(json.dumps(probes, ensure_ascii=False, indent=1))
        return
    if args.data is not None:
        data = json.loads(args.data.read_text(encoding="utf-8"))
    else:
        sys.path.insert(0, str(HERE))
        import make_truth_dev

        data = make_truth_dev.build()
    results = {}
    for mode in args.modes.split(","):
        results[mode] = run_mode(mode, data, args)
        print(summary(mode, results[mode]), flush=True)
        if args.verbose:
            r = results[mode]
            u = r["updates"]
            print(json.dumps({"missed": u["missed"], "wrong": u["wrong_answers"],
                              "distinct": r["distinct"]["examples"],
                              "not_caught": r["repeats"]["not_caught"],
                              "madial": r["madial"]}, ensure_ascii=False, indent=1))  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
