"""Plan mode against the local OpenAI-protocol server: every task in its own context
(only its own work plus its dependencies' results), memories retrieved per task, node
states checkpointed, one extraction after the plan, review (change, cancel), failures
(retry, skip, stop), and a process killed during task 2 that resumes at task 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem import Memory, TokenAccount
from remem.agent.io import BufferIO
from remem.agent.loop import Agent
from remem.agent.manager import MemoryManager
from remem.agent.plan import PlanState, find_unfinished, parse_plan
from remem.agent.repl import Repl
from remem.agent.tools import Toolbox
from remem.context.ledger import read_events, view_of
from remem.context.sessions import list_sessions
from remem.llm import LLMSettings, OpenAIChatModel

GOAL = "我们项目统一用 UTF-8 编码。帮我检查服务配置和数据库，然后写部署说明"
TASKS = [
    {"id": 1, "title": "读取服务配置", "description": "读取 a.txt，报告端口", "depends_on": []},
    {"id": 2, "title": "检查数据库版本", "description": "读取 b.txt，报告数据库版本",
     "depends_on": []},
    {"id": 3, "title": "写部署说明",
     "description": "根据任务 1 的端口，写 deploy.md，说明部署脚本怎么用", "depends_on": [1]},
]  # fmt: skip
PLAN = json.dumps({"tasks": TASKS}, ensure_ascii=False)


def read(path: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "read_file", "arguments": {"path": path}}]}


def write(path: str, text: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "write_file", "arguments": {"path": path, "content": text}}]}


# task 1 reads a.txt, task 2 b.txt, task 3 (after 1) writes deploy.md
WORK = [read("a.txt"), "端口是 8080。", read("b.txt"), "数据库是 PostgreSQL 16。",
        write("deploy.md", "端口 8080"), "已写 deploy.md。"]  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "a.txt").write_text("CONFIG_MARKER_A port=8080\n", encoding="utf-8")
    (root / "b.txt").write_text("DB_MARKER_B postgres 16\n", encoding="utf-8")
    return root


@pytest.fixture
def mm(project: Path, _isolated_home: Path) -> Iterator[MemoryManager]:
    memory = Memory(_isolated_home / "memory.db", project=project)
    manager = MemoryManager.open(project, memory=memory, account=TokenAccount())
    yield manager
    manager.close()


def repl_for(
    mm: MemoryManager, server: OpenAIServer, inputs: list[str], *, auto: bool = False
) -> Repl:
    settings = LLMSettings(base_url=server.base_url, model="test-model", max_retries=0)
    model = OpenAIChatModel(settings, account=mm.account)
    repl = Repl(
        mm,
        BufferIO(inputs),
        Agent(mm, model, Toolbox(mm.root, manager=mm, write_allow=("deploy.md",))),
    )
    repl.units.auto = auto
    return repl


def wire(request: dict[str, Any]) -> str:
    """Every message's text of one request."""
    return "\n".join(str(m.get("content") or "") for m in request["messages"])


def system(request: dict[str, Any]) -> str:
    return str(request["messages"][0]["content"])


def stored(mm: MemoryManager) -> list[str]:
    """What the store holds (the REPL closes the manager's own connection on exit)."""
    mm.wait()
    with Memory(mm.memory.settings.db, project=mm.root) as mem:
        return [e.content for e in mem.list()]


def checkpoints(mm: MemoryManager) -> list[dict[str, Any]]:
    events = read_events(mm.ledger.path)  # type: ignore[union-attr]
    return [e for e in events if e.get("kind") == "plan_checkpoint"]


def test_each_task_has_its_own_context_memories_and_one_extraction(
    mm: MemoryManager, openai_server: OpenAIServer
) -> None:
    mm.save("数据库连接池上限为 50")
    mm.save("部署脚本在 scripts/deploy.sh")
    openai_server.script([PLAN, *WORK])
    repl = repl_for(mm, openai_server, [f"/plan {GOAL}", "y", "/context"])
    repl.run()
    out = repl.io.output  # type: ignore[attr-defined]
    reqs = openai_server.requests
    assert len(reqs) == 7, out
    planner, t1, t2, t3 = reqs[0], reqs[1:3], reqs[3:5], reqs[5:7]
    assert "## Planning" in system(planner) and GOAL in wire(planner)
    for req in [*t1, *t2, *t3]:
        assert "## Plan Task" in system(req) and GOAL in wire(req)
        assert req["messages"][1]["role"] == "user" and len(req["messages"]) <= 4
        assert '"tasks"' not in wire(req)  # the planner's context is not a task's
    # task 2 sees nothing of task 1; task 3 sees task 1's result only, not its tool output
    assert not any("CONFIG_MARKER_A" in wire(r) or "8080" in wire(r) for r in t2)
    for req in t3:
        assert '<task_result task="1" title="读取服务配置">\n端口是 8080。' in wire(req)
        assert "CONFIG_MARKER_A" not in wire(req) and "DB_MARKER_B" not in wire(req)
        assert "PostgreSQL 16" not in wire(req)  # task 2 is not a dependency
    assert "DB_MARKER_B" in wire(t2[1]) and "CONFIG_MARKER_A" in wire(t1[1])
    # memories retrieved for each task, in its own system prompt
    assert "连接池上限为 50" in system(t2[0]) and "deploy.sh" not in system(t2[0])
    assert "deploy.sh" in system(t3[0]) and "连接池" not in system(t3[0])
    # node states checkpointed; read-only recorded as the tasks ran
    final = checkpoints(mm)[-1]
    assert final["status"] == "done" and [n["state"] for n in final["nodes"]] == ["done"] * 3
    assert [n["read_only"] for n in final["nodes"]] == [True, True, False]
    assert final["nodes"][2]["effects"] == ["write_file deploy.md"]
    assert (mm.root / "deploy.md").read_text(encoding="utf-8") == "端口 8080"
    # one extraction after the plan, over the user's own words only
    mm.wait()
    events = read_events(mm.ledger.path)  # type: ignore[union-attr]
    assert [e["saved"] for e in events if e.get("kind") == "extraction"] == [
        ["我们项目统一用 UTF-8 编码"]
    ]
    # the conversation holds the goal and the report, none of the tasks' tool output
    main = view_of(events)
    assert [m["role"] for m in main] == ["system", "user", "assistant"]
    assert main[1]["content"] == GOAL and "Plan p1 done: 3 of 3" in main[2]["content"]
    assert all("MARKER" not in json.dumps(m, ensure_ascii=False) for m in main)
    tasks_view = view_of(events, unit="p1/t1")
    assert any("CONFIG_MARKER_A" in str(m.get("content")) for m in tasks_view)
    # /context: each unit's token use
    for unit in ("main", "p1/plan", "p1/t1", "p1/t2", "p1/t3"):
        assert f"  {unit} " in out
    assert "p1/t1      done       2 calls" in out


def test_change_then_cancel_extracts_nothing(
    mm: MemoryManager, openai_server: OpenAIServer
) -> None:
    fewer = json.dumps({"tasks": TASKS[:2]}, ensure_ascii=False)
    openai_server.script([PLAN, fewer])
    repl = repl_for(mm, openai_server, [f"/plan {GOAL}", "去掉写部署说明那一步", "n"])
    repl.run()
    out = repl.io.output  # type: ignore[attr-defined]
    assert "Plan cancelled" in out and "3. 写部署说明" in out
    revise = openai_server.requests[1]
    assert "去掉写部署说明那一步" in wire(revise) and PLAN in wire(revise)  # it revises its plan
    assert len(openai_server.requests) == 2  # no task ran
    assert stored(mm) == []
    events = read_events(mm.ledger.path)  # type: ignore[union-attr]
    assert checkpoints(mm)[-1]["status"] == "cancelled"
    assert checkpoints(mm)[-1]["notes"] == ["去掉写部署说明那一步"]
    assert not any(e.get("kind") == "extraction" for e in events)
    assert view_of(events) == []  # the conversation got nothing
    assert find_unfinished(events) is None


def test_a_bad_plan_gets_one_repair(mm: MemoryManager, openai_server: OpenAIServer) -> None:
    bad = json.dumps({"tasks": [{"id": 1, "title": "读取", "depends_on": [2]}], "why": "x"})
    openai_server.script([bad, "```json\n" + PLAN + "\n```"])
    repl = repl_for(mm, openai_server, ["n"])
    repl.run_one(f"/plan {GOAL}")
    repair = openai_server.requests[1]
    prompt = system(repair)
    assert "unknown top-level key 'why'" in prompt and "tasks[0].depends_on" in prompt
    assert repair["messages"][1]["content"] == bad and "tools" not in repair
    assert "3. 写部署说明" in repl.io.output  # type: ignore[attr-defined]
    openai_server.script(["not json", "still not json"])
    repl = repl_for(mm, openai_server, [])
    assert repl.run_one(f"/plan {GOAL}") == "error"
    assert "error: the planner's plan is not valid: not valid JSON" in repl.io.output  # type: ignore[attr-defined]


def test_validation_is_strict() -> None:
    ok, problems = parse_plan(PLAN)
    assert ok is not None and [t.depends_on for t in ok] == [(), (), (1,)] and not problems
    cases = {
        '{"tasks": []}': '"tasks" must be a non-empty list',
        '{"tasks": [{"id": 2, "title": "x"}]}': "tasks[0].id must be 1",
        '{"tasks": [{"id": 1, "title": "x", "depends_on": [1]}]}': "earlier task ids",
        '{"tasks": [{"id": 1, "title": "x", "extra": 1}]}': "unknown key 'extra'",
        '{"tasks": [{"id": 1, "title": "a\\nb"}]}': "one non-empty line",
        '{"tasks": [{"id": true, "title": "x"}]}': "tasks[0].id must be 1",
        '{"tasks": [{"id": 1, "title": "x"}], "tasks": []}': "appears twice",
        '[{"id": 1}]': "must be a JSON object",
        '{"tasks": [{"id": 1, "title": "x"}, {"id": 2, "title": "y", "depends_on": [1, 1]}]}':
            "lists an id twice",
    }  # fmt: skip
    for text, wanted in cases.items():
        tasks, problems = parse_plan(text)
        assert tasks is None and any(wanted in p for p in problems), (text, problems)
    team, problems = parse_plan(PLAN, team=True)
    assert team is None and "agent must be" in problems[0]
    many = json.dumps({"tasks": [{"id": i, "title": f"t{i}"} for i in range(1, 14)]})
    assert "13 tasks: at most 12" in parse_plan(many)[1]


def test_failed_tasks_retry_skip_and_stop(mm: MemoryManager, openai_server: OpenAIServer) -> None:
    openai_server.script([PLAN, "TASK FAILED: a.txt 不可读", read("a.txt"), "端口是 8080。"])
    openai_server.script(["数据库是 PostgreSQL 16。", "部署说明写不了"])
    repl = repl_for(mm, openai_server, ["y", "r"])
    repl.run_one(f"/plan {GOAL}")  # task 1 fails and is retried in a fresh unit
    reqs = openai_server.requests
    retry = reqs[2]
    assert "不可读" not in wire(retry) and len(retry["messages"]) == 2  # a fresh context
    nodes = checkpoints(mm)[-1]["nodes"]
    assert [n["state"] for n in nodes] == ["done", "done", "done"]
    assert nodes[0]["unit"] == "p1/t1.2" and nodes[0]["attempts"] == 2
    # a failed task skipped: the plan goes on, its dependents are told
    openai_server.script([PLAN, "TASK FAILED: 1", "ok 2", "ok 3"])
    repl = repl_for(mm, openai_server, ["y", "s"])
    repl.run_one(f"/plan {GOAL}")
    last = checkpoints(mm)[-1]
    assert last["plan"] == "p2" and [n["state"] for n in last["nodes"]] == [
        "skipped", "done", "done"]  # fmt: skip
    assert "(task 1 was skipped)" in wire(openai_server.requests[-1])
    # with no one to ask, a failure stops the plan; /plan continue retries that task
    openai_server.script([PLAN, "ok 1", "TASK FAILED: 2"])
    repl = repl_for(mm, openai_server, [], auto=True)
    assert repl.run_one(f"/plan {GOAL}") == "error"  # exit 1 for `remem chat --plan`
    assert "error: plan p3 stopped at task 2; /plan continue" in repl.io.output  # type: ignore[attr-defined]
    assert checkpoints(mm)[-1]["status"] == "stopped"
    mm.wait()
    extractions = [e for e in read_events(mm.ledger.path) if e.get("kind") == "extraction"]  # type: ignore[union-attr]
    assert len(extractions) == 1  # the first plan's; the skipped-task plan's was a duplicate
    openai_server.script(["ok 2", "ok 3"])
    repl = repl_for(mm, openai_server, ["/plan", "/plan continue"], auto=True)
    repl.run()
    out = repl.io.output  # type: ignore[attr-defined]
    assert "Plan p3 (stopped)" in out and "going on at task 2" in out
    last = checkpoints(mm)[-1]
    assert last["status"] == "done" and last["nodes"][1]["unit"] == "p3/t2.2"


def start_chat(root: Path, server: OpenAIServer, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REMEM_LLM", "OPENAI_"))}
    env.update(REMEM_LLM_BASE_URL=server.base_url, REMEM_LLM_MODEL="test-model",
               PYTHONIOENCODING="utf-8")  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "-m", "remem", "chat", *args], cwd=root, env=env,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, encoding="utf-8",
    )  # fmt: skip


@pytest.mark.slow
def test_killed_during_task_2_resumes_at_task_2(
    project: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    openai_server.script([PLAN, read("a.txt"), "端口是 8080。", read("b.txt")])
    openai_server.delay(0, times=4)
    openai_server.delay(60)  # task 2's second call hangs: the process is killed there
    proc = start_chat(project, openai_server, "--plan", GOAL, "--yes")
    deadline = time.monotonic() + 30
    while len(openai_server.requests) < 5 and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    session = list_sessions(project)[0]
    state = find_unfinished(read_events(session.path))
    assert isinstance(state, PlanState) and state.status == "running"
    assert [n.state for n in state.nodes] == ["done", "running", "pending"]
    assert state.nodes[1].read_only and state.nodes[0].result == "端口是 8080。"

    before = len(openai_server.requests)
    openai_server.script([read("b.txt"), "数据库是 PostgreSQL 16。", *WORK[4:]])
    done = start_chat(project, openai_server, "--resume", session.id, "--yes")
    out, err = done.communicate(timeout=60)
    assert done.returncode == 0, err
    assert "going on at task 2" in out and "Plan p1 done: 3 of 3" in out
    resumed = openai_server.requests[before:]
    assert len(resumed) == 4  # task 2 again (it had only read), then task 3; not task 1
    assert "Your task (2)" in wire(resumed[0]) and len(resumed[0]["messages"]) == 2
    assert all("CONFIG_MARKER_A" not in wire(r) for r in resumed)
    assert "Your task (3)" in wire(resumed[2]) and "端口是 8080。" in wire(resumed[2])
    events = read_events(session.path)
    last = [e for e in events if e.get("kind") == "plan_checkpoint"][-1]
    assert last["status"] == "done" and last["nodes"][1]["unit"] == "p1/t2.2"
    assert [e["saved"] for e in events if e.get("kind") == "extraction"] == [
        ["我们项目统一用 UTF-8 编码"]
    ]


def test_a_task_compacts_its_own_context(
    project: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    from remem.context.compaction import CompactionConfig

    for i in range(4):
        (project / f"big{i}.txt").write_text(f"BIG{i} " + "数据 log line\n" * 300, "utf-8")
    memory = Memory(_isolated_home / "memory.db", project=project)
    small = CompactionConfig(window=12_000)  # clearing starts at ~4,000 tokens
    mm = MemoryManager.open(project, memory=memory, account=TokenAccount(), config=small)
    two = json.dumps({"tasks": TASKS[:2]}, ensure_ascii=False)
    openai_server.script([two, *[read(f"big{i}.txt") for i in range(4)], "读完了", "第二个"])
    repl = repl_for(mm, openai_server, [], auto=True)
    assert repl.run_one(f"/plan {GOAL}") == "ok"
    mm.close()
    events = read_events(mm.ledger.path)  # type: ignore[union-attr]
    compactions = [e for e in events if e.get("kind") == "compaction"]
    assert compactions and all(e.get("unit") == "p1/t1" for e in compactions)
    assert any(e["levels"] == ["clear"] for e in compactions)
    last_of_t1 = openai_server.requests[5]
    assert "[old tool result cleared]" in wire(last_of_t1) and "BIG3" in wire(last_of_t1)
    t2 = openai_server.requests[6]
    assert "BIG" not in wire(t2) and len(t2["messages"]) == 2  # a fresh context


def test_plan_options_on_the_command_line() -> None:
    from click.testing import CliRunner

    from remem.cli.app import cli

    result = CliRunner().invoke(cli, ["chat", "--plan", "x", "-m", "y"])
    assert result.exit_code == 2 and "--message and --plan cannot be used together" in result.output
    result = CliRunner().invoke(cli, ["chat", "--help"])
    assert "--plan GOAL" in result.output and "--team GOAL" in result.output


def test_ctrl_c_in_a_task_interrupts_the_plan_which_goes_on_later(mm: MemoryManager) -> None:
    from remem import ScriptedChatModel

    model = ScriptedChatModel([PLAN, read("a.txt"), KeyboardInterrupt()], account=mm.account)
    repl = Repl(mm, BufferIO(), Agent(mm, model, Toolbox(mm.root, manager=mm)))
    repl.units.auto = True
    assert repl.run_one(f"/plan {GOAL}") == "cancelled"
    assert "[plan p1 interrupted: /plan continue goes on]" in repl.io.output  # type: ignore[attr-defined]
    last = checkpoints(mm)[-1]
    assert last["status"] == "interrupted" and last["nodes"][0]["state"] == "running"
    assert stored(mm) == []  # an interrupted plan extracts nothing
    model.add("端口是 8080。", "数据库是 PostgreSQL 16。", "已写。")
    assert repl.run_one("/plan continue") == "ok"
    assert checkpoints(mm)[-1]["status"] == "done"
    assert "Your task (1)" in str(model.requests[3].messages[1]["content"])  # task 1 again
    assert stored(mm) == ["我们项目统一用 UTF-8 编码"]
