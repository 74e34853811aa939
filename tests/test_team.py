"""Sub-agents and Team mode against the local OpenAI-protocol server: a delegated task
runs in its own context with its own budget, its transcript goes to the ledger and
only its short answer to the caller; depth is limited; a sub-agent writes memories
only when the user's own message asks; /team hands tasks to role sub-agents and the
lead answers from their results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem import Memory, TokenAccount
from remem.agent.io import BufferIO
from remem.agent.loop import Agent
from remem.agent.manager import MemoryManager
from remem.agent.repl import Repl
from remem.agent.tools import Toolbox
from remem.agent.units import Units
from remem.context.ledger import read_events, view_of
from remem.llm import LLMSettings, OpenAIChatModel
from remem.messages import structure_problems


@pytest.fixture
def mm(tmp_path: Path, _isolated_home: Path) -> Iterator[MemoryManager]:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "a.txt").write_text("CONFIG_MARKER_A port=8080\n", encoding="utf-8")
    memory = Memory(_isolated_home / "memory.db", project=root)
    manager = MemoryManager.open(root, memory=memory, account=TokenAccount())
    yield manager
    manager.close()


def repl_for(mm: MemoryManager, server: OpenAIServer, **units: Any) -> Repl:
    settings = LLMSettings(base_url=server.base_url, model="test-model", max_retries=0)
    agent = Agent(mm, OpenAIChatModel(settings, account=mm.account), Toolbox(mm.root, manager=mm))
    return Repl(mm, BufferIO(), agent, Units(mm, agent, **units))


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": args}]}


def text(request: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content") or "") for m in request["messages"])


def tools(request: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in request.get("tools") or []}


def test_a_delegated_task_stays_out_of_the_callers_context(
    mm: MemoryManager, openai_server: OpenAIServer
) -> None:
    openai_server.script([
        call("delegate", task="读取 a.txt，报告服务端口", role="researcher"),
        call("read_file", path="a.txt"),                 # the sub-agent's work ...
        "端口是 8080。",                                   # ... and its short answer
        "服务端口是 8080。",                               # the caller's answer
    ])  # fmt: skip
    repl = repl_for(mm, openai_server, max_depth=1)
    assert repl.run_one("帮我查一下服务端口") == "ok"
    repl.run_one("/context")
    first, sub1, sub2, last = openai_server.requests
    assert "delegate" in tools(first) and "delegate" not in tools(sub1)  # depth 1: no deeper
    assert "## Sub-agent" in text(sub1) and "Your role: researcher" in text(sub1)
    assert sub1["messages"][1] == {"role": "user", "content": "读取 a.txt，报告服务端口"}
    assert "帮我查一下服务端口" not in text(sub1)  # it does not see the conversation
    assert "CONFIG_MARKER_A" in text(sub2)
    result = last["messages"][-1]
    assert result["role"] == "tool"
    assert "[sub-agent sub1 · done · 2 model calls" in result["content"]
    assert "端口是 8080。" in result["content"]
    assert all("CONFIG_MARKER_A" not in text(r) for r in (first, last))
    events = read_events(mm.ledger.path)  # type: ignore[union-attr]
    sub_view = view_of(events, unit="sub1")
    assert any("CONFIG_MARKER_A" in str(m.get("content")) for m in sub_view)
    assert structure_problems(sub_view) == []
    main = view_of(events)
    assert all("CONFIG_MARKER_A" not in json.dumps(m, ensure_ascii=False) for m in main)
    end = next(e for e in events if e.get("kind") == "unit_end" and e["unit"] == "sub1")
    assert end["calls"] == 2 and end["state"] == "done" and end["prompt_tokens"] > 0
    out = repl.io.output  # type: ignore[attr-defined]
    assert "↳ sub1: 读取 a.txt" in out and "  sub1       done" in out


def test_depth_is_limited_and_the_budget_stops_a_sub_agent(
    mm: MemoryManager, openai_server: OpenAIServer
) -> None:
    openai_server.script([
        call("delegate", task="找端口"),
        call("delegate", task="读 a.txt"),   # sub1 delegates once more: sub2, depth 2
        call("delegate", task="再深一层"),     # sub2 has no delegate tool: refused
        "sub2 做不到",
        "sub1: 不知道",
        "不知道端口。",
    ])  # fmt: skip
    repl = repl_for(mm, openai_server, max_depth=2)
    repl.run_one("端口是多少")
    reqs = openai_server.requests
    assert "delegate" in tools(reqs[1]) and "delegate" not in tools(reqs[2])
    refused = reqs[3]["messages"][-1]["content"]
    assert "unknown tool 'delegate'" in refused
    units = repl.units
    assert [(r.id, r.parent, r.depth) for r in units.records[1:]] == [
        ("sub1", "main", 1), ("sub2", "sub1", 2)]  # fmt: skip
    # a budget of 1 token: the sub-agent stops after its first call
    openai_server.script([call("delegate", task="找端口"), call("read_file", path="a.txt"),
                          "没查到"])  # fmt: skip
    units.budget = 1
    repl.run_one("再查一次端口")
    result = openai_server.requests[-1]["messages"][-1]["content"]
    assert "· stopped · 1 model calls" in result and "token budget of 1 tokens" in result


def test_sub_agents_save_only_when_the_user_asked(
    mm: MemoryManager, openai_server: OpenAIServer
) -> None:
    save = call("save_memory", content="服务端口是 8080")
    openai_server.script([call("delegate", task="记住：端口是 8080，请保存"), save, "已处理", "好"])
    repl = repl_for(mm, openai_server)
    repl.run_one("帮我看看端口")  # the task's text says 记住; the user's words do not
    refused = openai_server.requests[2]["messages"][-1]["content"]
    assert "refused:" in refused and "cannot ask for a memory write" in refused
    assert [e.content for e in mm.memory.list()] == []
    openai_server.script([call("delegate", task="保存端口"), save, "已保存", "好"])
    repl.run_one("记住：服务端口是 8080")
    assert [e.content for e in mm.memory.list()] == ["服务端口是 8080"]
    assert "remembered: 服务端口是 8080" in repl.io.output  # type: ignore[attr-defined]


def test_team_hands_tasks_to_role_sub_agents_and_the_lead_answers(
    mm: MemoryManager, openai_server: OpenAIServer
) -> None:
    plan = {"tasks": [
        {"id": 1, "title": "查端口", "description": "读取 a.txt", "depends_on": [],
         "agent": "researcher"},
        {"id": 2, "title": "审查配置", "description": "看端口是否合理", "depends_on": [1],
         "agent": "reviewer"},
    ]}  # fmt: skip
    openai_server.script([json.dumps(plan, ensure_ascii=False), call("read_file", path="a.txt"),
                          "端口 8080", "8080 合理", "团队结论：端口 8080，合理。"])  # fmt: skip
    repl = repl_for(mm, openai_server)
    repl.units.auto = True
    assert repl.run_one("/team 检查服务端口配置") == "ok"
    planner, r1, r2, reviewer, lead = openai_server.requests
    assert '"agent"' in text(planner) and "researcher" in text(r1)
    assert "Your role: reviewer" in text(reviewer) and "端口 8080" in text(reviewer)
    assert "CONFIG_MARKER_A" not in text(reviewer) and "CONFIG_MARKER_A" not in text(lead)
    assert '<task_result task="2" agent="reviewer" state="done">\n8080 合理' in text(lead)
    assert lead["messages"][1] == {"role": "user", "content": "检查服务端口配置"}
    assert "团队结论：端口 8080，合理。" in repl.io.output  # type: ignore[attr-defined]
    main = mm.messages
    assert main[-1] == {"role": "assistant", "content": "团队结论：端口 8080，合理。"}
    assert main[-2]["remem_internal"] == "team"
    kinds = {r.id: r.kind for r in repl.units.records}
    assert kinds["p1/t1"] == kinds["p1/t2"] == "subagent" and kinds["p1/plan"] == "planner"
