"""Property tests (Hypothesis) of version chains: any sequence of saves (plain, stated
changes, forced), replaces, deletes (current and older versions) and imports keeps
every chain linear with exactly one current version, validity intervals that never
overlap, and `as_of` before a chain's first version finds nothing of it."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from remem import Memory
from remem.entry import Entry, format_ts
from remem.store.protocol import Store

T0 = datetime(2026, 2, 1, tzinfo=UTC)
SUBJECTS = ["测试数据库", "缓存"]
VALUES = ["SQLite", "MySQL", "Redis", "tools/deploy.py", "scripts/deploy.sh"]
FORMS = ["{s}用 {v}", "{s}改用 {v}", "{s}换成了 {v}", "更正：{s}是 {v}", "{s}不再用 {v}"]

texts = st.builds(
    lambda f, s, v: f.format(s=s, v=v),
    st.sampled_from(FORMS), st.sampled_from(SUBJECTS), st.sampled_from(VALUES),
)  # fmt: skip
ops = st.lists(
    st.one_of(
        st.tuples(st.just("save"), texts, st.booleans()),
        st.tuples(st.just("replace"), texts, st.integers(0, 9)),
        st.tuples(st.just("delete"), st.integers(0, 9), st.booleans()),
        st.tuples(st.just("import"), st.lists(texts, min_size=1, max_size=3), st.booleans()),
    ),
    min_size=1,
    max_size=10,
)


def chains(store: Store) -> list[list[Entry]]:
    """Every chain, oldest version first, checking each link points back."""
    entries = {e.id: e for e in store.iter_all()}
    out = []
    for entry in entries.values():
        if entry.supersedes is not None:
            assert entries[entry.supersedes].superseded_by == entry.id
            continue
        chain = [entry]
        while chain[-1].superseded_by is not None:
            nxt = entries[chain[-1].superseded_by]
            assert nxt.supersedes == chain[-1].id
            chain.append(nxt)
        out.append(chain)
    assert sum(len(c) for c in out) == len(entries)  # every entry in exactly one chain
    return out


def export(path: Path, contents: list[str], chained: bool, day: int) -> None:
    """An export of one chain of `contents` (or of unrelated entries)."""
    items = [Entry(c, project="p", id=f"x{day}-{i}", created_at=T0 + timedelta(days=day, hours=i))
             for i, c in enumerate(contents)]  # fmt: skip
    if chained:
        for older, newer in zip(items, items[1:], strict=False):
            older.superseded_by, newer.supersedes = newer.id, older.id
    path.write_text(json.dumps([e.to_dict() for e in items], ensure_ascii=False), "utf-8")


def apply(mem: Memory, op: tuple[object, ...], day: int, tmp: Path) -> None:
    when = format_ts(T0 + timedelta(days=day))
    kind = op[0]
    if kind == "save":
        mem.save(str(op[1]), created_at=when, force=bool(op[2]))
    elif kind == "replace":
        current = mem.list()
        if current:
            target = current[int(str(op[2])) % len(current)]
            mem.save(str(op[1]), created_at=when, replace_id=target.id, force=True)
    elif kind == "delete":  # an older version (when there is one) or a current memory
        every = mem.list(include_history=True)
        older = [e for e in every if not e.is_current]
        pool = older if op[2] and older else every
        if pool:
            doomed = pool[int(str(op[1])) % len(pool)]
            event("a middle version deleted" if doomed.supersedes and doomed.superseded_by
                  else "an end of a chain deleted")  # fmt: skip
            mem.delete(doomed.id)
    else:
        path = tmp / f"import-{day}.json"
        export(path, list(op[1]), bool(op[2]), day)  # type: ignore[arg-type]
        mem.import_(path, force=True)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_chains_stay_linear_with_one_current_version(steps: list[tuple[object, ...]]) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory(Path(tmp) / "m.db", project="p", embedder=None) as mem,
    ):
        for day, op in enumerate(steps):
            apply(mem, op, day, Path(tmp))
        for chain in chains(mem.store):
            assert [v.is_current for v in chain].count(True) == 1 and chain[-1].is_current
            for older, newer in zip(chain, chain[1:], strict=False):
                assert older.valid_to is not None
                assert older.valid_to <= (newer.valid_from or newer.created_at)
            for version in chain:
                start = version.valid_from or version.created_at
                assert version.valid_to is None or start <= version.valid_to
            first = min(v.valid_from or v.created_at for v in chain)
            before = first - timedelta(seconds=1)
            found = {h.entry.id for h in mem.search(chain[0].content, as_of=before, limit=50)}
            assert not found & {v.id for v in chain}
