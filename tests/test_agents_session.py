"""The Agents SDK session over remem's ledger: the SDK's own session tests
(agents_session_contract), a Runner talking to a local OpenAI-style server through it,
compaction of a long history, and resuming a session from its ledger."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled
from openai import AsyncOpenAI

from agents_session_contract import *  # noqa: F403  (the SDK's tests, run on RememSession)
from openai_server import OpenAIServer
from remem.context.compaction import SUMMARY_PREFIX, CompactionConfig
from remem.context.ledger import read_events
from remem.integrations.agents import RememSession


@pytest.fixture(autouse=True)
def _no_tracing() -> Iterator[None]:
    set_tracing_disabled(True)  # the SDK would export traces to OpenAI's servers
    yield
    set_tracing_disabled(False)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as srv:
        yield srv


@pytest.fixture
async def model(server: OpenAIServer) -> AsyncIterator[OpenAIChatCompletionsModel]:
    """The SDK's own Chat Completions model, talking to the local server."""
    client = AsyncOpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
    yield OpenAIChatCompletionsModel(model="test-model", openai_client=client)
    await client.close()


def agent_on(model: OpenAIChatCompletionsModel, **kw: Any) -> Agent[Any]:
    return Agent(name="assistant", instructions="Be brief.", model=model, **kw)


@pytest.mark.anyio
async def test_a_runner_sends_the_history_to_the_model(
    tmp_path: Path, server: OpenAIServer, model: OpenAIChatCompletionsModel
) -> None:
    session = RememSession("chat-1", root=tmp_path)
    agent = agent_on(model)
    server.script(["Hello Ann!", "Your name is Ann."])
    await Runner.run(agent, "Hi, I'm Ann", session=session)
    result = await Runner.run(agent, "What's my name?", session=session)
    assert result.final_output == "Your name is Ann."
    sent = [(m["role"], m.get("content")) for m in server.requests[-1]["messages"]]
    assert sent == [
        ("system", "Be brief."),
        ("user", "Hi, I'm Ann"),
        ("assistant", "Hello Ann!"),
        ("user", "What's my name?"),
    ]
    session.close()
    # the ledger holds the session: opened again, the same history
    again = RememSession("chat-1", root=tmp_path)
    assert [i.get("content") for i in await again.get_items()][::2] == [
        "Hi, I'm Ann",
        "What's my name?",
    ]
    again.close()


@pytest.mark.anyio
async def test_tool_calls_round_trip_exactly(
    tmp_path: Path, server: OpenAIServer, model: OpenAIChatCompletionsModel
) -> None:
    @function_tool
    def weather(city: str) -> str:
        """The weather in a city."""
        return f"{city}: 21°C, sunny"

    session = RememSession("tools", root=tmp_path)
    agent = agent_on(model, tools=[weather])
    server.script(
        [{"tool_calls": [{"name": "weather", "arguments": {"city": "杭州"}}]}, "杭州 21°C，晴。"]
    )
    await Runner.run(agent, "杭州天气？", session=session)
    items = await session.get_items()
    kinds = [i.get("type") or i.get("role") for i in items]
    assert kinds == ["user", "function_call", "function_call_output", "message"]
    assert items[2]["output"] == "杭州: 21°C, sunny"  # type: ignore[typeddict-item]
    server.script(["明天也晴。"])
    await Runner.run(agent, "明天呢？", session=session)
    sent = server.requests[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert sent[3]["tool_call_id"] == sent[2]["tool_calls"][0]["id"]
    session.close()


@pytest.mark.anyio
async def test_a_long_history_is_compacted_before_it_reaches_the_model(
    tmp_path: Path, server: OpenAIServer, model: OpenAIChatCompletionsModel
) -> None:
    config = CompactionConfig(window=6_000, reserve_response=500, keep_turns=2)
    session = RememSession("long", root=tmp_path, config=config)
    agent = agent_on(model)
    filler = "The deploy log shows step {n} finished in {n}.5 seconds without errors. " * 25
    for n in range(12):
        server.script([f"Noted step {n}."])
        await Runner.run(agent, f"Step {n}: " + filler.format(n=n), session=session)
    items = await session.get_items()
    first = items[0]
    assert isinstance(first.get("content"), str)
    assert str(first.get("content")).startswith(SUMMARY_PREFIX)
    assert items[-1]["content"][0]["text"] == "Noted step 11."  # type: ignore[index,typeddict-item]
    assert "Step 11: " in str(items[-2].get("content"))
    sent = server.requests[-1]["messages"]
    assert sent[1]["role"] == "user" and sent[1]["content"].startswith(SUMMARY_PREFIX)
    assert sum(len(str(m.get("content") or "")) for m in sent) < 6_000 * 4
    events = read_events(session.path)
    assert any(e.get("kind") == "compaction" and e.get("levels") for e in events)
    session.close()
    again = RememSession("long", root=tmp_path, config=config)
    assert await again.get_items() == items
    again.close()


@pytest.mark.anyio
async def test_pop_and_clear_are_recorded_and_survive_a_reopen(tmp_path: Path) -> None:
    session = RememSession("edits", root=tmp_path)
    await session.add_items(
        [{"role": "user", "content": "one"}, {"role": "user", "content": "two"}]
    )
    assert await session.pop_item() == {"role": "user", "content": "two"}
    session.close()
    session = RememSession("edits", root=tmp_path)
    assert await session.get_items() == [{"role": "user", "content": "one"}]
    await session.clear_session()
    session.close()
    session = RememSession("edits", root=tmp_path)
    assert await session.get_items() == []
    lines = [json.loads(line) for line in session.path.read_text().splitlines()]
    assert [e.get("source") for e in lines if e["type"] == "view_checkpoint"] == ["pop", "clear"]
    session.close()
    with pytest.raises(RuntimeError, match="closed"):
        await session.add_items([])
