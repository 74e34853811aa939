"""The bulk paths (issue 32) decide exactly what one save, or one import, at a time
decides: `Memory.save_many` against `Memory.save` in order, a whole import file against
the same entries imported one file each; on SQLite and PostgreSQL; and a rerun of either
lands nothing twice."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from remem import Memory

PROBES = Path(__file__).parent.parent / "benchmarks" / "data" / "truth_probes.json"
SETS = ("probes-a", "probes-k", "probes-c1", "probes-s2")


def _sample() -> list[str]:
    """zh+en texts in an order a user could save them: every chain's first version and
    the look-alikes, the repeats, then the later versions, each set twice over in part
    (exact repeats), so repeats, changes and conflicts fall within one batch and across."""
    sets = json.loads(PROBES.read_text(encoding="utf-8"))["sets"]
    out: list[str] = []
    for name in SETS:
        probe = sets[name]
        firsts = [chain[0] for chain in probe["updates"]]
        out += firsts + [t for pair in probe["look_alikes"] for t in pair]
        out += [pair[1] for pair in probe["repeats"]] + firsts[::3]
        out += [t for chain in probe["updates"] for t in chain[1:]]
        # "conflicts": the same subject, another value, no change stated
        out += [f"{chain[0]}，不是 {i}" if i % 2 else chain[0] + " too"
                for i, chain in enumerate(probe["updates"][:6])]  # fmt: skip
    return out


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def two_stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two fresh stores of one backend."""
    if request.param == "sqlite":
        yield str(tmp_path / "one.db"), str(tmp_path / "bulk.db")
        return
    import pg

    admin = request.getfixturevalue("pg_admin_url")
    with contextlib.ExitStack() as stack:
        yield (stack.enter_context(pg.fresh_database(admin)),
               stack.enter_context(pg.fresh_database(admin)))  # fmt: skip


def _state(mem: Memory) -> dict[str, Any]:
    """What the store holds, by content: each current memory with its older versions."""
    everything = mem.list(include_history=True)
    by_id = {e.id: e for e in everything}
    chains = []
    for e in everything:
        if e.is_current:
            chain, old = [e.content], e.supersedes
            while old in by_id:
                chain.append(by_id[old].content)
                old = by_id[old].supersedes
            chains.append(tuple(chain))
    return {"chains": sorted(chains), "count": len(everything)}


def _import_report(res: Any, *, refused: bool = False) -> list[tuple[str, ...]]:
    """What an import did, entry by entry (with each refusal's reason, if asked)."""
    out: list[tuple[str, ...]] = []
    if refused:
        out += [("refused", r.entry.content, r.reason) for r in res.refused]
    out += [("added", e.content) for e in res.added]
    out += [("duplicate", e.content) for e in res.duplicates]
    return out + [("conflict", c.entry.content) for c in res.conflicts]


def _outcome(results: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (r.status, r.entry.content, sorted(c.content for c in r.conflicts),
         r.replaced.content if r.replaced else None, r.reasons)
        for r in results
    ]  # fmt: skip


@pytest.mark.parametrize("hybrid", [False, True], ids=["keyword", "hybrid"])
@pytest.mark.slow
def test_save_many_decides_as_one_save_each(
    two_stores: tuple[str, str], hybrid: bool, request: pytest.FixtureRequest
) -> None:
    """With an embedder (a deterministic one: texts sharing words are near), semantic
    duplicates within the batch are found too, and the vectors come a batch a call."""
    if hybrid and two_stores[0].startswith("postgresql"):
        # The judges also read the memories nearest in meaning, which PostgreSQL finds
        # by its approximate (HNSW) index, built differently in two databases: since
        # the judges decide more saves, the two stores part on a few (not traced yet)
        request.applymarker(pytest.mark.xfail(strict=False, reason="HNSW neighbours differ"))
    from remem.retrieval.embedding import FakeEmbedder

    texts = _sample()
    known, rest = texts[:40], texts[40:]  # the store knows some before the bulk arrives
    at = datetime(2025, 3, 1, tzinfo=UTC)
    items = [{"content": t, "created_at": at + timedelta(seconds=i)} for i, t in enumerate(rest)]
    outcomes, states, calls = [], [], []
    for location, bulk in zip(two_stores, (False, True), strict=True):
        embedder = FakeEmbedder() if hybrid else None
        with Memory(location, project="p", embedder=embedder) as mem:
            for t in known:
                mem.save(t, created_at=at - timedelta(days=1))
            if bulk:
                done: list[int] = []
                got = mem.save_many(items, progress=done.append)
                assert sum(done) == len(items) and len(done) > 1  # several transactions
            else:
                got = [mem.save(i["content"], created_at=i["created_at"]) for i in items]
            outcomes.append(_outcome(got))
            states.append(_state(mem))
            calls.append(embedder.calls if embedder else 0)
    assert outcomes[0] == outcomes[1]
    assert states[0] == states[1]
    statuses = {o[0] for o in outcomes[0]}
    assert {"added", "duplicate", "superseded", "conflict"} <= statuses  # the sample is varied
    if hybrid:
        assert calls[1] < calls[0] / 3  # a batch a call, not one a save


def test_save_many_rerun_lands_nothing_twice(tmp_path: Path) -> None:
    texts = list(dict.fromkeys(_sample()))[:120]
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        first = mem.save_many(texts[:70])  # "interrupted" after 70
        before = _state(mem)
        again = mem.save_many(texts)
        assert [r.status for r in again[:70]].count("added") == 0
        assert _state(mem)["count"] >= before["count"]
        stored = {e.content for e in mem.list(include_history=True)}
        assert len(stored) == len(mem.list(include_history=True))  # no content twice
        assert sum(r.status == "added" for r in first) > 0


def test_save_many_checks_every_item_first(tmp_path: Path) -> None:
    from remem.errors import InvalidInput

    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        with pytest.raises(InvalidInput, match="item 2"):
            mem.save_many(["one fact", "another fact", {"content": ""}])
        with pytest.raises(InvalidInput, match="unknown field 'colour'"):
            mem.save_many([{"content": "x", "colour": "red"}])
        assert mem.list() == []  # nothing saved
        got = mem.save_many(["The deploy key is ghp_" + "a1B2" * 9, "Deploys run at 9"])
        assert [r.status for r in got] == ["refused", "added"]


def _export(path: Path, texts: list[str], at: datetime, first: int = 0) -> None:
    entries = [
        {"id": f"{i:012x}", "content": t, "type": "fact", "scope": "project",
         "created_at": (at + timedelta(seconds=i)).isoformat()}
        for i, t in enumerate(texts, first)
    ]  # fmt: skip
    path.write_text(json.dumps({"format": "remem-export", "version": 1, "entries": entries}))


def test_import_in_bulk_decides_as_one_entry_at_a_time(
    two_stores: tuple[str, str], tmp_path: Path
) -> None:
    texts = _sample()
    at = datetime(2025, 3, 1, tzinfo=UTC)
    reports, states = [], []
    for location, bulk in zip(two_stores, (False, True), strict=True):
        with Memory(location, project="p", embedder=None) as mem:
            mem.save_many(texts[:40])
            report: list[tuple[str, ...]] = []
            files = [texts[40:]] if bulk else [[t] for t in texts[40:]]
            for n, part in enumerate(files):
                path = tmp_path / f"part-{bulk}-{n}.json"
                _export(path, part, at, first=n if not bulk else 0)
                report += _import_report(mem.import_(path))
            reports.append(sorted(report))
            states.append(_state(mem))
    assert reports[0] == reports[1]
    assert states[0] == states[1]


def test_import_rerun_resumes(tmp_path: Path) -> None:
    texts = list(dict.fromkeys(_sample()))
    at = datetime(2025, 3, 1, tzinfo=UTC)
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        _export(tmp_path / "half.json", texts[:100], at)
        first = mem.import_(tmp_path / "half.json", force=True)  # an import cut short
        _export(tmp_path / "all.json", texts, at)
        count = len(mem.list(include_history=True))
        rest = mem.import_(tmp_path / "all.json", force=True)
        assert len(rest.duplicates) >= len(first.added)
        assert {e.content for e in first.added}.isdisjoint(e.content for e in rest.added)
        assert len(mem.list(include_history=True)) == count + len(rest.added)


def _chains_file(
    path: Path, chains: list[list[tuple[str, str]]], at: datetime, first: int = 0
) -> None:
    """An export of version chains, each [(content, scope), ...] oldest first, written
    in the file newest first for every other chain (a chain's refusal is that of its
    first entry in the file)."""
    entries: list[dict[str, Any]] = []
    for c, chain in enumerate(chains, first):
        ids = [f"{c:06x}{v:06x}" for v in range(len(chain))]
        rows = [
            {"id": ids[v], "content": text, "type": "fact", "scope": scope,
             "created_at": (at + timedelta(minutes=c, seconds=v)).isoformat(),
             "supersedes": ids[v - 1] if v else None,
             "superseded_by": ids[v + 1] if v + 1 < len(chain) else None}
            for v, (text, scope) in enumerate(chain)
        ]  # fmt: skip
        entries += rows if c % 2 else rows[::-1]
    path.write_text(json.dumps({"format": "remem-export", "version": 1, "entries": entries}))


def test_import_refuses_chain_by_chain_as_one_chain_a_file(
    two_stores: tuple[str, str], tmp_path: Path
) -> None:
    """Refusals are checked a batch at a time (issue 32): whole chains refused, each for
    the reason of its first entry in the file, across several batches, as importing each
    chain alone decides; what is imported past them is decided as before."""
    secrets = ["The deploy key is ghp_" + "a1B2" * 9, "AWS key AKIAIOSFODNN7EXAMPLQ"]
    texts = list(dict.fromkeys(_sample()))
    chains: list[list[tuple[str, str]]] = []
    for c in range(120):
        old, new = (texts[2 * c], "project"), (texts[2 * c + 1], "project")
        if c % 5 in (0, 1):  # a secret in the older version
            old = (f"{old[0]} {secrets[c // 5 % 2]}", "project")
        if c % 5 in (0, 2):  # refused too: this import runs in no session
            new = (new[0], "session")
        chains.append([old, new])
    at = datetime(2025, 3, 1, tzinfo=UTC)
    reports, states = [], []
    for location, bulk in zip(two_stores, (False, True), strict=True):
        with Memory(location, project="p", embedder=None, session_id=None) as mem:
            parts = [chains] if bulk else [[c] for c in chains]
            report: list[tuple[str, ...]] = []
            for n, part in enumerate(parts):
                path = tmp_path / f"chains-{bulk}-{n}.json"
                _chains_file(path, part, at, first=0 if bulk else n)
                report += _import_report(mem.import_(path), refused=True)
            reports.append(sorted(report))
            states.append(_state(mem))
    assert reports[0] == reports[1]
    assert states[0] == states[1]
    reasons = [r[2] for r in reports[1] if r[0] == "refused"]
    assert {"a GitHub token", "an AWS access key", "a session"} <= {
        kind for r in reasons for kind in ("a GitHub token", "an AWS access key", "a session")
        if kind in r
    }  # fmt: skip
    assert any("session" in r for r in reasons)
    assert not any(s in t for c in states[1]["chains"] for t in c for s in secrets)
    why = {r[1]: r[2] for r in reports[1] if r[0] == "refused"}
    for c in range(0, 120, 5):  # both reasons: the one first in the file (odd: oldest first)
        said = why[texts[2 * c + 1]]
        assert ("session" in said) == (c % 2 == 0), (c, said)


def test_the_dice_bound_never_skips_a_match() -> None:
    """`dedup` skips counting bigrams where the lengths cannot reach the threshold: the
    bound is never below the Dice itself."""
    import random

    from remem import text
    from remem.truth.dedup import _dice_at_most

    rng = random.Random(32)
    forms = [text.canonicalize(t) for t in _sample()[:200]]
    for _ in range(3000):
        a, b = rng.choice(forms), rng.choice(forms)
        a = a[: rng.randint(0, len(a))]
        assert _dice_at_most(a, b) >= text.dice(a, b)
