"""The LangGraph store over remem: LangGraph's own store tests (langgraph_store_contract,
on SQLite and PostgreSQL), a real compiled graph using it, and what remem adds: items
filed under remem's users, found by remem's search, secrets refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

from langgraph_store_contract import *  # noqa: F403  (LangGraph's tests, run on `store`)
from remem import Memory
from remem.errors import InvalidInput, SecretRefused
from remem.integrations.langgraph import RememStore

TOKEN = "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.fixture
def store(location: str) -> Iterator[BaseStore]:
    """What LangGraph's own tests run on: a RememStore over SQLite, then PostgreSQL."""
    with RememStore(location, project="lg") as s:
        yield s


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_items_are_remem_memories_of_the_user_the_namespace_names(db: Path) -> None:
    with RememStore(db, project="app", layout=("memories", "{user_id}")) as store:
        store.put(("memories", "alice"), "editor", {"text": "Alice 用 Helix 写代码"})
        store.put(("memories", "bob"), "editor", {"text": "Bob uses Emacs"})
        item = store.get(("memories", "alice"), "editor")
        assert item is not None and item.value == {"text": "Alice 用 Helix 写代码"}
        assert {ns for ns in store.list_namespaces()} == {
            ("memories", "alice"),
            ("memories", "bob"),
        }
    with Memory(db, project="app", user_id="alice") as alice:
        assert [h.entry.content for h in alice.search("Helix")] == ["Alice 用 Helix 写代码"]
        assert alice.search("Emacs") == []
    with Memory(db, project="app") as shared:  # no user: neither user's memory
        assert shared.list() == []


def test_search_by_query_uses_remem_ranking_and_filters(db: Path) -> None:
    with RememStore(db, project="app") as store:
        ns = ("notes",)
        store.put(ns, "db", {"text": "测试数据库用 SQLite", "kind": "fact"})
        store.put(ns, "ci", {"text": "CI runs on GitHub Actions", "kind": "fact"})
        store.put(ns, "lunch", {"text": "午饭吃面条", "kind": "chat"})
        hits = store.search(ns, query="测试用什么数据库")
        assert hits[0].key == "db" and hits[0].score is not None and hits[0].score > 0
        assert [h.key for h in store.search(ns, query="数据库", filter={"kind": "chat"})] == []
        assert {h.key for h in store.search(ns, filter={"kind": "fact"})} == {"db", "ci"}
        store.put(ns, "hidden", {"text": "SQLite secrets of the trade"}, index=False)
        assert "hidden" not in {h.key for h in store.search(ns, query="SQLite")}
        assert store.get(ns, "hidden") is not None


def test_a_put_updates_in_place_and_a_delete_removes_the_memory(db: Path) -> None:
    with RememStore(db, project="app") as store:
        store.put(("prefs",), "lang", {"text": "回答用中文"})
        first = store.get(("prefs",), "lang")
        store.put(("prefs",), "lang", {"text": "Answer in English"})
        second = store.get(("prefs",), "lang")
        assert first is not None and second is not None
        assert second.value == {"text": "Answer in English"}
        assert second.created_at == first.created_at and second.updated_at >= first.updated_at
        with Memory(db, project="app") as mem:
            assert [e.content for e in mem.list()] == ["Answer in English"]
        store.delete(("prefs",), "lang")
        assert store.get(("prefs",), "lang") is None
        with Memory(db, project="app") as mem:
            assert mem.list() == []


def test_secrets_are_refused_unless_allowed(db: Path) -> None:
    with RememStore(db, project="app") as store:
        with pytest.raises(SecretRefused, match="allow_secrets"):
            store.put(("k",), "key", {"text": TOKEN})
        assert store.get(("k",), "key") is None
    with RememStore(db, project="app", allow_secrets=True) as store:
        store.put(("k",), "key", {"text": TOKEN})
        assert store.get(("k",), "key") is not None


def test_an_overwrite_with_a_secret_is_refused_and_keeps_the_old_value(db: Path) -> None:
    with RememStore(db, project="app") as store:
        store.put(("k",), "door", {"text": "the side door sticks in winter"})
        for said in (TOKEN, "the side door opens with 4-7-1-9"):
            with pytest.raises(SecretRefused):
                store.put(("k",), "door", {"text": said})
        item = store.get(("k",), "door")
        assert item is not None and item.value == {"text": "the side door sticks in winter"}


def test_bad_layout_and_values_are_clear_errors(db: Path) -> None:
    with pytest.raises(InvalidInput, match="layout slot"):
        RememStore(db, layout=("{user}",))
    with RememStore(db, project="app") as store:
        with pytest.raises(InvalidInput, match="plain JSON"):
            store.put(("k",), "x", {"when": object()})
        with pytest.raises(NotImplementedError, match="TTL"):
            store.put(("k",), "x", {"a": 1}, ttl=5)


@pytest.mark.anyio
async def test_the_async_api_runs_off_the_event_loop(db: Path) -> None:
    with RememStore(db, project="app", layout=("{user_id}",)) as store:
        await store.aput(("carol", "facts"), "city", {"text": "Carol lives in Hangzhou"})
        item = await store.aget(("carol", "facts"), "city")
        assert item is not None and item.value["text"] == "Carol lives in Hangzhou"
        hits = await store.asearch(("carol",), query="where does Carol live")
        assert [h.key for h in hits] == ["city"]
        assert await store.alist_namespaces(prefix=("carol",)) == [("carol", "facts")]
        await store.adelete(("carol", "facts"), "city")
        assert await store.aget(("carol", "facts"), "city") is None


class State(TypedDict):
    user: str
    message: str
    recalled: list[str]


def test_a_compiled_graph_remembers_across_runs(db: Path) -> None:
    """LangGraph's documented pattern: nodes read and write the store the graph was
    compiled with (here through `get_store()`), keyed by the user."""
    from langgraph.config import get_store

    def remember(state: State) -> dict[str, Any]:
        store = get_store()
        ns = ("memories", state["user"])
        if state["message"].lower().startswith("remember "):
            store.put(ns, f"m{len(store.search(ns)) + 1}", {"text": state["message"][9:]})
        hits = store.search(ns, query=state["message"])
        return {"recalled": [h.value["text"] for h in hits]}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    with RememStore(db, project="app", layout=("memories", "{user_id}")) as store:
        graph = builder.compile(store=store)
        graph.invoke({"user": "dana", "message": "remember the deploy script is tools/deploy.py"})
        out = graph.invoke({"user": "dana", "message": "where is the deploy script?"})
        assert out["recalled"] == ["the deploy script is tools/deploy.py"]
        other = graph.invoke({"user": "erin", "message": "where is the deploy script?"})
        assert other["recalled"] == []
    with Memory(db, project="app", user_id="dana") as dana:
        assert dana.search("deploy script")[0].entry.content == (
            "the deploy script is tools/deploy.py"
        )
