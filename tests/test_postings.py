"""The in-process keyword postings (`remem.store.inproc.postings`) of a long-lived store give
exactly the candidates of the SQL path (FTS5 / PostgreSQL's postings): after saves,
edits, deletes, re-indexing and writes by other store objects and other processes."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import test_store_contract as contract
from remem import Memory
from remem.entry import Entry
from remem.store.backends import open_store
from remem.store.protocol import Filter, IndexFields, Store, Visibility
from remem.store.sql import SQLStore
from test_processes import random_sentence
from test_store_contract import add, flt, make

NEVER = sys.maxsize  # keyword searches before the postings are kept: always SQL


def sql_only(where: str) -> SQLStore:
    s = open_store(where)
    assert isinstance(s, SQLStore)
    s.keep_index_after = NEVER
    return s


def kept(where: str) -> SQLStore:
    """A store that keeps its postings in memory from its first keyword search."""
    s = open_store(where)
    assert isinstance(s, SQLStore)
    s.keep_index_after = s.keep_index_from = 0
    return s


def answers(s: Store, terms: list[str], vis: Visibility, limit: int) -> list[tuple[str, list[str]]]:
    found, _ = s.keyword(terms, Filter(vis), limit=limit)
    return [(c.entry.id, c.terms) for c in found]


def same_answers(a: Store, b: Store, queries: list[list[str]], limit: int = 5) -> None:
    for vis in (contract.EVERYONE, Visibility(project="q")):
        for terms in queries:
            assert answers(a, terms, vis, limit) == answers(b, terms, vis, limit), (terms, vis)


WORDS = ["jdk", "maven", "react", "vite", "部署", "阿里云", "项目", "使用", "17", "2024-05-01"]
QUERIES = [[w] for w in WORDS] + [["jdk", "maven"], ["使用", "vite", "17"], WORDS]


@pytest.fixture
def pair(location: str) -> Iterator[tuple[SQLStore, SQLStore]]:
    a, b = kept(location), sql_only(location)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def test_same_candidates_after_saves_edits_and_deletes(pair: tuple[SQLStore, SQLStore]) -> None:
    a, b = pair
    entries = [
        add(a, " ".join(WORDS[i % 7 : i % 7 + 1 + i % 4]), i, project="pq"[i % 2])
        for i in range(30)
    ]
    same_answers(a, b, QUERIES)
    assert a._kept is not None and len(a._kept) == 30
    edited = Entry("jdk jdk vite 部署", project="p", id=entries[3].id)
    a.update(edited, IndexFields.of(edited), action="update", detail={})
    a.remove(entries[5].id, action="delete", detail={})
    b.remove(entries[7].id, action="delete", detail={})  # another store object
    edited = Entry("maven 阿里云", project="q", id=entries[8].id)
    b.update(edited, IndexFields.of(edited), action="update", detail={})
    add(b, "jdk 17 maven", 40)
    same_answers(a, b, QUERIES)
    assert len(a._kept) == 29


def test_a_process_that_searches_once_keeps_no_postings(location: str) -> None:
    s = open_store(location)
    try:
        assert isinstance(s, SQLStore)
        add(s, "jdk 17")
        for _ in range(3):  # a small store: FTS5 / SQL stay, numpy is never needed
            assert len(s.keyword(["jdk"], flt(), limit=5)[0]) == 1
        assert s._kept is None
        s.keep_index_from, s._keyword_searches = 0, 0  # as if it were large
        assert len(s.keyword(["jdk"], flt(), limit=5)[0]) == 1
        assert s._kept is None
        s.keyword(["jdk"], flt(), limit=5)
        assert s._kept is not None  # a second search: kept from now on
    finally:
        s.close()


@pytest.mark.slow
def test_writes_of_another_process_are_seen(location: str, pair: tuple[SQLStore, SQLStore]) -> None:
    a, b = pair
    for i in range(5):
        add(a, f"jdk {WORDS[i]}", i)
    same_answers(a, b, QUERIES)
    script = (
        "import sys\n"
        "from remem.entry import Entry\n"
        "from remem.store.backends import open_store\n"
        "from remem.store.protocol import IndexFields\n"
        "s = open_store(sys.argv[1])\n"
        "old = next(iter(s.iter_all()))\n"
        "s.remove(old.id, action='delete', detail={})\n"
        "for c in ('jdk maven maven', '项目使用 vite'):\n"
        "    e = Entry(c, project='p')\n"
        "    s.insert(e, IndexFields.of(e), action='add', detail={})\n"
        "s.close()\n"
    )
    subprocess.run([sys.executable, "-c", script, location], check=True, timeout=contract.TIMEOUT)
    same_answers(a, b, QUERIES)
    assert a._kept is not None and len(a._kept) == 6


@pytest.mark.slow
def test_a_filter_few_entries_pass_gives_the_sql_answer(pair: tuple[SQLStore, SQLStore]) -> None:
    a, b = pair
    for i in range(300):
        add(a, f"jdk maven {WORDS[i % 10]}", i, project="other")
    mine = [add(a, f"jdk {WORDS[i]}", 400 + i) for i in range(3)]
    same_answers(a, b, QUERIES, limit=20)
    found = answers(a, ["jdk"], contract.EVERYONE, 20)
    assert {eid for eid, _ in found} == {e.id for e in mine}


def test_reindexed_terms_are_seen(pair: tuple[SQLStore, SQLStore]) -> None:
    a, b = pair
    olds = [add(a, f"jdk {w}", i) for i, w in enumerate(WORDS)]
    same_answers(a, b, QUERIES)
    # new index rules that give every entry other terms (as a newer INDEX_VERSION may)
    renamed = [(e, IndexFields.of(make(e.content.replace("jdk", "maven")))) for e in olds]
    b.reindex(renamed, 99)  # another store object
    same_answers(a, b, QUERIES)
    a.reindex([(e, IndexFields.of(e)) for e in olds], 99)  # this one, same version
    same_answers(a, b, QUERIES)


def test_an_entry_restored_without_records_at_a_reused_position(
    pair: tuple[SQLStore, SQLStore],
) -> None:
    """SQLite gives a new row the position of a deleted last one: a restore that brings no
    audit record is seen by the count of entries."""
    a, b = pair
    first, last = add(a, "jdk maven", 1), add(a, "jdk vite", 2)
    same_answers(a, b, QUERIES)
    b.remove(last.id, action="delete", detail={})
    back = make("jdk 部署 项目", 3)
    assert b.restore([(back, IndexFields.of(back))], []) == 1
    same_answers(a, b, QUERIES)
    assert {eid for eid, _ in answers(a, ["jdk"], contract.EVERYONE, 5)} == {first.id, back.id}


KEYWORD_CHECKS: list[Callable[[Store], None]] = [
    contract.test_keyword_bm25_candidates_and_corpus_stats,
    contract.test_keyword_finds_chinese_by_segment,
    contract.test_keyword_ranks_by_bm25,
    contract.test_keyword_breaks_bm25_ties_by_insertion,
    contract.test_keyword_with_query_syntax_characters,
    contract.test_corpus_stats_follow_updates_and_removes,
]


@pytest.mark.parametrize("check", KEYWORD_CHECKS, ids=lambda c: c.__name__)
def test_the_keyword_contract_holds_with_kept_postings(
    store: Store,
    check: Callable[[Store], None],
) -> None:
    assert isinstance(store, SQLStore)
    store.keep_index_after = store.keep_index_from = 0
    check(store)
    assert store._kept is not None


# -- any sequence of writes, by this store object and another (SQLite) ------------------------
VOCAB = ["alpha", "beta", "gamma", "jdk", "17", "部署", "使用", "v1.2", "c++"]
contents = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=6).map(" ".join)
steps = st.lists(
    st.tuples(
        st.sampled_from(["add", "edit", "remove"]),
        st.booleans(),  # by the other store object
        contents,
        st.integers(0, 50),
        st.sampled_from(["p", "q"]),
    ),
    min_size=1,
    max_size=25,
)


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=steps, limit=st.integers(1, 8))
def test_kept_postings_match_sql_after_any_writes(
    tmp_path_factory: pytest.TempPathFactory,
    steps: list[tuple[str, bool, str, int, str]],
    limit: int,
) -> None:
    path = str(tmp_path_factory.mktemp("postings") / "memory.db")
    a, b = kept(path), sql_only(path)
    queries = [[w] for w in VOCAB] + [VOCAB[:3], VOCAB[3:], VOCAB]
    live: list[Entry] = []
    try:
        for n, (kind, other, content, pick, project) in enumerate(steps):
            writer = b if other else a
            if kind == "add" or not live:
                live.append(add(writer, content, n, project=project))
            elif kind == "edit":
                old = live[pick % len(live)]
                new = Entry(content, project=project, id=old.id, created_at=old.created_at)
                writer.update(new, IndexFields.of(new), action="update", detail={})
            else:
                old = live.pop(pick % len(live))
                writer.remove(old.id, action="delete", detail={})
            same_answers(a, b, queries, limit)
    finally:
        a.close()
        b.close()


def test_memory_search_is_the_same_with_kept_postings(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, project="p", embedder=None) as mem:
        assert isinstance(mem.store, SQLStore)
        mem.store.keep_index_from = 0
        rng = random.Random(7)
        for i in range(40):  # unrelated sentences: no duplicates, no conflicts
            mem.save(f"{random_sentence(rng)} {WORDS[i % 10]} {WORDS[i % 7]}")
        plain = Memory(db, project="p", embedder=None)
        try:
            assert isinstance(plain.store, SQLStore)
            plain.store.keep_index_after = NEVER
            for q in ("which jdk", "maven 部署", "jdk 项目 maven", "使用 vite 17"):
                for _ in range(2):  # the second search of `mem` reads its kept postings
                    got = [(h.entry.id, h.relevance) for h in mem.search(q)]
                    assert got == [(h.entry.id, h.relevance) for h in plain.search(q)], q
            assert mem.store._kept is not None and len(mem.store._kept) == 40
        finally:
            plain.close()
