"""The ReAct loop with the scripted model: tool calls and results, the loop guard,
cancellation that leaves a valid list, and extraction only for finished turns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from remem import Memory, ScriptedChatModel
from remem.agent.loop import CANCELLED, Agent, LoopGuard
from remem.agent.manager import MemoryManager
from remem.agent.tools import Toolbox
from remem.messages import GUARD_PREFIX, structure_problems


@pytest.fixture
def mm(tmp_path: Path) -> Iterator[MemoryManager]:
    root = tmp_path / "proj"
    root.mkdir()
    manager = MemoryManager.open(root, memory=Memory(tmp_path / "m.db", project="proj"))
    yield manager
    manager.close()


def agent_for(mm: MemoryManager, model: ScriptedChatModel, **kw: object) -> Agent:
    return Agent(mm, model, Toolbox(mm.root, manager=mm), **kw)  # type: ignore[arg-type]


def test_tool_loop_saves_memory(mm: MemoryManager) -> None:
    model = ScriptedChatModel([
        {"tool_calls": [{"name": "save_memory", "arguments": {"content": "项目使用 JDK 17"}}]},
        "好的，记住了：JDK 17。",
    ])  # fmt: skip
    streamed: list[str] = []
    result = agent_for(mm, model, on_text=streamed.append).run_turn("JDK 可以保持 17，你记一下")
    assert result.answer == "好的，记住了：JDK 17。" and result.tool_calls == ["save_memory"]
    assert "".join(streamed) == result.answer
    assert [e.content for e in mm.memory.list()][0] == "项目使用 JDK 17"
    second = model.requests[1].messages
    assert second[-1]["role"] == "tool" and "saved (id" in second[-1]["content"]
    assert "<tool_result" in second[-1]["content"]
    assert model.requests[0].tools and {t["function"]["name"] for t in model.requests[0].tools} >= {
        "read_file", "save_memory", "search_memory", "execute_command"}  # fmt: skip


def test_loop_guard_stops_repeats(mm: MemoryManager) -> None:
    same = {"tool_calls": [{"name": "list_dir", "arguments": {"path": "."}}]}
    model = ScriptedChatModel([same] * 5 + ["done"])
    result = agent_for(mm, model, guard=LoopGuard(max_repeats=2)).run_turn("list it")
    assert result.answer == "done"
    tools = [m["content"] for m in mm.messages if m["role"] == "tool"]
    assert sum(GUARD_PREFIX in t for t in tools) == 3
    steps = ScriptedChatModel([same] * 10)
    capped = agent_for(mm, steps, guard=LoopGuard(max_steps=4)).run_turn("again")
    assert capped.stopped and len(steps.requests) == 4
    assert structure_problems(mm.messages) == []


def test_cancel_leaves_a_valid_list_and_no_extraction(mm: MemoryManager) -> None:
    model = ScriptedChatModel([
        {"tool_calls": [{"name": "list_dir", "arguments": {}}, {"name": "grep",
                                                                "arguments": {"pattern": "x"}}]},
    ])  # fmt: skip
    agent = agent_for(mm, model)

    def interrupt(name: str, args: str) -> None:
        if name == "grep":
            raise KeyboardInterrupt

    agent.on_tool = interrupt
    with pytest.raises(KeyboardInterrupt):
        agent.run_turn("记住：我们项目统一用 UTF-8 编码")
    mm.wait()
    assert structure_problems(mm.messages) == []
    assert mm.messages[-1] == {"role": "assistant", "content": CANCELLED}
    assert mm.memory.list() == []
