"""The in-process candidate index of a long-lived store (`remem.store.inproc.near_index`) gives
exactly the candidates of the SQL path (`NearRows.same_domain`), in the same order:
after saves, edits, supersedes, deletes, rolled back writes, re-keying, and writes by
other store objects and other processes."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import test_store_contract as contract
from remem import Memory
from remem.entry import Entry, utcnow
from remem.store.backends import open_store
from remem.store.inproc.near_index import NearIndex
from remem.store.protocol import Domain, Near, Store
from remem.store.sql import SQLStore
from remem.truth import index
from test_store_contract import make

NEVER = sys.maxsize


def sql_only(where: str) -> SQLStore:
    s = open_store(where)
    assert isinstance(s, SQLStore)
    s.keep_near_after = NEVER
    return s


def kept(where: str) -> SQLStore:
    """A store that keeps its candidate index from its first lookup."""
    s = open_store(where)
    assert isinstance(s, SQLStore)
    s._near = NearIndex()  # built by its first refresh
    return s


def answer(s: Store, probe: Entry, limit: int, broader: bool) -> list[tuple[object, ...]]:
    found: list[Near] = s.same_domain(
        Domain.of(probe), index.fields(probe), limit=limit, broader=broader
    )
    return [(n.entry.id, n.entry, n.subject_key, n.canon, n.value_terms) for n in found]


PROBES = [
    "项目使用 JDK 17 和 Maven", "项目使用 JDK 21", "The billing service runs on port 8080",
    "The billing service port changed to 9090", "Budget changed to 80k", "预算调整为 8 万",
    "测试数据库改用 MySQL", "缓存用 Redis 7", "alice prefers vim for debugging",
    "The API budget is 50k per month", "部署到 staging 需要先运行 make-build",
]  # fmt: skip


def same_answers(a: SQLStore, b: SQLStore, limit: int = 20) -> None:
    for content in PROBES:
        for project, type_ in (("p", "fact"), ("q", "fact"), ("p", "decision")):
            probe = make(content, 500, project=project, type=type_)
            probe.subject, probe.value = _claim(content)
            for broader in (False, True):
                want, got = answer(b, probe, limit, broader), answer(a, probe, limit, broader)
                if b.dialect.lists:  # PostgreSQL: its statements give rows in no set order
                    want, got = sorted(want, key=str), sorted(got, key=str)
                assert got == want, (content, project, broader)


def _claim(content: str) -> tuple[str | None, str | None]:
    from remem.truth.subject import read

    claim = read(content)
    return (claim.subject, claim.value) if claim is not None else (None, None)


def put(s: Store, content: str, minute: float, **fields: object) -> Entry:
    entry = make(content, minute, **fields)
    entry.subject, entry.value = _claim(content)
    s.insert(entry, index.fields(entry), action="add", detail={})
    return entry


@pytest.fixture
def pair(location: str) -> Iterator[tuple[SQLStore, SQLStore]]:
    a, b = kept(location), sql_only(location)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def test_same_candidates_after_writes_of_both_store_objects(
    pair: tuple[SQLStore, SQLStore],
) -> None:
    a, b = pair
    olds = [put(a if i % 2 else b, PROBES[i % len(PROBES)], i, project="pq"[i % 3 % 2])
            for i in range(40)]  # fmt: skip
    same_answers(a, b)
    assert a._near is not None and len(a._near.docs) == 40
    edited = Entry("缓存用 Memcached", project="p", id=olds[3].id, created_at=olds[3].created_at)
    a.update(edited, index.fields(edited), action="update", detail={})
    b.remove(olds[5].id, action="delete", detail={})  # another store object
    old = b.get(olds[8].id)
    assert old is not None
    old.superseded_by = "x"  # history: no longer a candidate
    b.update(old, index.fields(old), action="supersede", detail={})
    put(b, "The billing service runs on port 7070", 60)
    a.remove(olds[9].id, action="delete", detail={})
    soon = utcnow() + timedelta(seconds=600)
    expiring = put(b, "The billing service runs on port 6060", 61, expires_at=soon)
    if not a.dialect.lists:  # past a limit PostgreSQL picks any of the rows
        same_answers(a, b, limit=3)
    same_answers(a, b)
    assert olds[5].id not in a._near.rows and expiring.id in a._near.rows


def test_a_kept_candidate_row_edited_elsewhere_is_read_again(
    pair: tuple[SQLStore, SQLStore],
) -> None:
    a, b = pair
    olds = [put(a, PROBES[i], i) for i in range(6)]
    same_answers(a, b)  # a keeps the candidates' rows
    assert a._near is not None and a._near.cached
    edited = b.get(olds[2].id)
    assert edited is not None
    edited.confidence, edited.last_verified_at = "unverified", utcnow()  # same words
    b.update(edited, index.fields(edited), action="verify", detail={})
    same_answers(a, b)  # the whole entry compared: the new row, not the kept one


def test_a_rolled_back_write_is_not_seen(pair: tuple[SQLStore, SQLStore]) -> None:
    a, b = pair
    for i in range(5):
        put(a, PROBES[i], i)
    same_answers(a, b)
    with pytest.raises(RuntimeError), a.write():
        put(a, "The billing service runs on port 5050", 10)
        # its own uncommitted write: SQL answers, and sees it
        assert any("5050" in str(n[1]) for n in answer(a, make(PROBES[2]), 20, False))
        raise RuntimeError("rolled back")
    same_answers(a, b)
    assert all("5050" not in str(n[1]) for n in answer(a, make(PROBES[2]), 20, False))


def test_kept_candidates_are_handed_out_as_entries_of_their_own(
    pair: tuple[SQLStore, SQLStore],
) -> None:
    """Each lookup gets entries of its own: a caller changing one (a refresh sets
    last_verified_at, a supersede superseded_by) changes nothing the next lookup gets."""
    a, b = pair
    meta = {"by": {"tool": "x"}, "tags": ["a"]}
    put(a, PROBES[2], 1, metadata=meta, facts={"port": "8080"}, linked_paths=["/x"])
    probe = make(PROBES[2])
    got = answer(a, probe, 20, False)[0][1]
    assert a._near is not None and a._near.cached  # its row kept
    assert isinstance(got, Entry) and got.metadata == meta
    got.content, got.superseded_by = "changed", "y"
    got.metadata["by"]["tool"], got.facts["port"], got.linked_paths[0] = "z", "1", "/z"
    again = answer(a, probe, 20, False)
    assert again == answer(b, probe, 20, False) and again[0][1] is not got
    assert again[0][1].metadata == meta and again[0][1].facts == {"port": "8080"}


def test_term_counts_are_read_again_after_a_write_in_the_same_transaction(
    tmp_path: Path,
) -> None:
    """A write transaction reuses the term counts its lookups read until it writes."""
    s = open_store(str(tmp_path / "m.db"))
    try:
        assert isinstance(s, SQLStore)
        put(s, "alpha beta", 1)
        with s.write():
            before = s._corpus(["alpha", "gamma"])
            assert before.doc_freq == {"alpha": 1} and s._corpus(["alpha"]) == before
            put(s, "alpha gamma", 2)
            after = s._corpus(["alpha", "gamma"])
            assert after.doc_freq == {"alpha": 2, "gamma": 1} and after.docs == before.docs + 1
        assert s._corpus(["gamma"]).doc_freq == {"gamma": 1}
        other = open_store(str(tmp_path / "m.db"))  # another writer, between two of s's
        put(other, "gamma delta", 3)
        other.close()
        with s.write():
            assert s._corpus(["gamma", "delta"]).doc_freq == {"gamma": 2, "delta": 1}
    finally:
        s.close()


def test_a_lookup_by_one_term_gives_the_sql_answer(pair: tuple[SQLStore, SQLStore]) -> None:
    """One known term (a change's words looked up one by one): the index takes its first
    docs in rank order, those holding the term twice scored too."""
    a, b = pair
    for i in range(24):
        words = "flibbers and flibber" if i % 5 == 0 else "flibbers"
        put(a if i % 2 else b, f"worker {i} keeps its queue in {words} {'x' * (i % 4)}", i)
    for limit in (3, 8, 20):
        probe = make("qqzzy flibber")  # one term the store knows
        want, got = answer(b, probe, limit, False), answer(a, probe, limit, False)
        if b.dialect.lists:  # PostgreSQL: its statements give rows in no set order
            want, got = sorted(want, key=str), sorted(got, key=str)
        assert got == want and got, limit
        assert a._near is not None and a._near.ranked


def test_an_entry_restored_without_records_at_a_reused_position(
    pair: tuple[SQLStore, SQLStore],
) -> None:
    """SQLite gives a new row the position of a deleted last one: a restore that brings
    no audit record is seen by the count of entries."""
    a, b = pair
    put(a, PROBES[0], 1)
    last = put(a, PROBES[1], 2)
    same_answers(a, b)
    b.remove(last.id, action="delete", detail={})
    back = make("项目使用 JDK 11", 3)
    assert b.restore([(back, index.fields(back))], []) == 1
    same_answers(a, b)


def test_a_process_that_saves_a_few_times_keeps_no_index(location: str) -> None:
    s = open_store(location)
    try:
        assert isinstance(s, SQLStore)
        for i in range(3):
            put(s, PROBES[i], i)
            answer(s, make(PROBES[i]), 20, False)
        assert s._near is None  # a small store: SQL stays
        s.keep_near_from = 0
        for _ in range(s.keep_near_after - s._near_lookups):
            answer(s, make(PROBES[0]), 20, False)
        s.keep_near()
        assert s._near is None  # the first lookups of a process: SQL
        answer(s, make(PROBES[0]), 20, False)
        assert s._near is None  # never built inside a lookup (a write transaction)
        frozen = gc.get_freeze_count()
        s.keep_near()
        assert s._near is not None and len(s._near.docs) == 3
        # the cyclic collector's full passes skip the index from now on
        assert gc.get_freeze_count() > frozen
    finally:
        s.close()


def test_an_index_built_a_step_at_a_time_sees_the_writes_between_its_steps(
    pair: tuple[SQLStore, SQLStore],
) -> None:
    a, b = pair
    a._near = None  # built by keep_near, a few entries a save
    a.keep_near_after, a.keep_near_from, a.keep_near_step = 0, 0, 3
    olds = [put(b, PROBES[i % len(PROBES)], i, project="pq"[i % 3 % 2]) for i in range(12)]
    answer(a, make(PROBES[0]), 20, False)  # wanted from now on
    a.keep_near()
    assert a._near is None and a._building is not None  # SQL answers meanwhile
    steps = 1
    while a._near is None:
        i = 20 + steps
        put(a if steps % 2 else b, PROBES[i % len(PROBES)], i, project="p")  # new rows
        stale = olds[steps % len(olds)]  # a row read already, changed elsewhere
        edited = Entry("缓存用 Memcached", project="p", id=stale.id, created_at=stale.created_at)
        b.update(edited, index.fields(edited), action="update", detail={})
        a.remove(olds[-steps].id, action="delete", detail={})
        a.keep_near()
        steps += 1
    assert 4 <= steps <= 12 and a._building is None
    same_answers(a, b)  # its first refresh reads what changed during the build


NEAR_CHECKS: list[Callable[[Store], None]] = [
    contract.test_same_domain,
    contract.test_same_domain_by_subject_key,
    contract.test_unkeyed_entries_get_their_subjects,
    contract.test_same_domain_gives_each_stored_subject_key,
    contract.test_newer_subject_rules_read_the_no_subject_keys_again,
    contract.test_narrower_subjects_and_named_values_in_entry_order,
]


@pytest.mark.parametrize("check", NEAR_CHECKS, ids=lambda c: c.__name__)
def test_the_candidate_contract_holds_with_the_kept_index(
    store: Store, check: Callable[[Store], None]
) -> None:
    assert isinstance(store, SQLStore)
    store._near = index = NearIndex()
    check(store)
    assert index.rows  # read, and answered from


# -- any sequence of writes, by this store object and another (SQLite) ------------------------
contents = st.sampled_from(PROBES + ["项目使用 JDK 11 和 Gradle", "缓存用 Redis 6", "预算是 5 万"])
steps = st.lists(
    st.tuples(
        st.sampled_from(["add", "add", "edit", "remove", "supersede"]),
        st.booleans(),  # by the other store object
        contents,
        st.integers(0, 50),
        st.sampled_from(["p", "q"]),
    ),
    min_size=1,
    max_size=20,
)


@pytest.mark.slow
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=steps, limit=st.integers(1, 8))
def test_kept_candidates_match_sql_after_any_writes(
    tmp_path_factory: pytest.TempPathFactory,
    steps: list[tuple[str, bool, str, int, str]],
    limit: int,
) -> None:
    path = str(tmp_path_factory.mktemp("near") / "memory.db")
    a, b = kept(path), sql_only(path)
    live: list[Entry] = []
    try:
        for n, (kind, other, content, pick, project) in enumerate(steps):
            writer = b if other else a
            if kind == "add" or not live:
                live.append(put(writer, content, n, project=project))
            elif kind == "edit":
                old = live[pick % len(live)]
                new = Entry(content, project=project, id=old.id, created_at=old.created_at)
                new.subject, new.value = _claim(content)
                writer.update(new, index.fields(new), action="update", detail={})
            else:
                old = live.pop(pick % len(live))
                if kind == "remove":
                    writer.remove(old.id, action="delete", detail={})
                else:
                    old.superseded_by = "gone"
                    writer.update(old, index.fields(old), action="supersede", detail={})
            same_answers(a, b, limit)
    finally:
        a.close()
        b.close()


# -- a long-lived Memory and another process ----------------------------------------------
OTHER = """
import sys
from remem import Memory
with Memory(sys.argv[1], project="p", embedder=None) as mem:
    if sys.argv[2] == "save":
        print(mem.save(sys.argv[3]).entry.id)
    else:
        mem.forget(sys.argv[3])
"""


def other_process(db: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", OTHER, str(db), *args],
        check=True, capture_output=True, text=True, timeout=contract.TIMEOUT,
    )  # fmt: skip
    return done.stdout.strip()


@pytest.mark.slow
def test_another_process_save_is_seen_by_the_next_save_decision(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, project="p", embedder=None) as mem:
        assert isinstance(mem.store, SQLStore)
        mem.store.keep_near_after = mem.store.keep_near_from = 0
        for content in ("The billing service runs on port 8080", "缓存用 Redis 7", "预算是 5 万"):
            assert mem.save(content).status == "added"
        assert mem.store._near is not None  # refreshed at the next lookup
        theirs = other_process(db, "save", "The auth service runs on port 9090")
        result = mem.save("The auth service runs on port 7070")
        assert result.status == "conflict" and [e.id for e in result.conflicts] == [theirs]
        other_process(db, "forget", "port 9090")
        assert mem.save("The auth service runs on port 7070").status == "added"
