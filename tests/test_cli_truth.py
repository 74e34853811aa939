"""The command line of issue 12: a stated change is reported as an update, `show` and
`--json` carry subject and value, `search --as-of` and `history` answer "what was true
then", `delete` of an older version keeps the current memory, `forget` asks first (on a
real terminal) and touches only this project unless told. Also the optional model
that reads subjects the rules cannot (`remem.extract.subjects`), through the local
OpenAI-protocol server."""

from __future__ import annotations

import json
import os
import pty
import select
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem import Memory
from remem.cli.app import cli
from remem.extract.subjects import LLMSubjects, check_reply
from remem.llm import LLMSettings, OpenAIChatModel, ScriptedChatModel


@pytest.fixture
def run(db: Path) -> Any:
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(cli, ["--db", str(db), "--project", "p", *args])

    return invoke


def saved(result: Result) -> dict[str, Any]:
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_update_show_as_of_history_and_delete(run: Any) -> None:
    first = saved(run("save", "--json", "部署脚本在 scripts/deploy.sh"))["entry"]
    assert (first["subject"], first["value"]) == ("部署脚本 location", "scripts/deploy.sh")
    moved = run("save", "部署脚本改到了 tools/deploy.py")
    assert moved.exit_code == 0 and moved.output.startswith(f"Updated {first['id']}")
    current = saved(run("list", "--json"))[0]
    shown = run("show", current["id"]).output
    assert "subject: 部署脚本 location" in shown and "value: tools/deploy.py" in shown
    then = saved(run("search", "--json", "--as-of", first["created_at"], "部署脚本"))
    assert [h["entry"]["id"] for h in then] == [first["id"]]
    assert saved(run("search", "--json", "--as-of", "2000-01-01", "部署脚本")) == []
    bad = run("search", "--as-of", "next tuesday", "部署脚本")
    assert bad.exit_code == 2 and "not a date" in bad.output
    history = run("history", current["id"]).output
    versions = history.split("Audit log:")[0]
    assert "-> now" in versions and versions.count("->") == 2
    assert run("delete", first["id"]).exit_code == 0  # only that older version
    assert [e["id"] for e in saved(run("list", "--json"))] == [current["id"]]
    assert saved(run("history", "--json", current["id"]))["versions"][0]["supersedes"] is None


def test_forget_scopes_and_yes(run: Any) -> None:
    run("save", "staging 用 SQLite")
    run("save", "--global", "staging 的全局约定")
    dry = saved(run("forget", "--json", "--dry-run", "staging"))
    assert [e["content"] for e in dry["deleted"]] == ["staging 用 SQLite"]
    assert len(saved(run("forget", "--json", "--dry-run", "--all", "staging"))["deleted"]) == 2
    refused = run("forget", "staging")
    assert refused.exit_code == 2 and "add --yes" in refused.output
    gone = saved(run("forget", "--json", "--yes", "--global", "staging"))["deleted"]
    assert [e["content"] for e in gone] == ["staging 的全局约定"]
    assert [e["content"] for e in saved(run("list", "--json"))] == ["staging 用 SQLite"]
    assert run("forget", "--yes", "nothing-like-this").output.startswith("Deleted 0")


def _on_a_terminal(args: list[str], env: dict[str, str], answer: str) -> tuple[int, str]:
    """Run `remem ARGS` on a pseudo-terminal, answer its question, return (exit, output)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.execve(sys.executable, [sys.executable, "-m", "remem", *args], env)
    seen, answered, deadline = "", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk.decode("utf-8", "replace")
        if not answered and "Delete them?" in seen:
            os.write(fd, answer.encode())
            answered = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), seen


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_forget_asks_on_a_terminal(db: Path) -> None:
    with Memory(db, project="p", embedder=None) as mem:
        mem.save("旧的部署地址 10.0.0.1")
    env = {**os.environ, "REMEM_EMBEDDER": "none"}
    base = ["--db", str(db), "--project", "p", "forget", "部署"]
    code, out = _on_a_terminal(base, env, "n\n")
    assert code == 1 and "旧的部署地址" in out and "nothing was deleted" in out
    code, out = _on_a_terminal(base, env, "y\n")
    assert code == 0 and "Deleted 1 memories" in out
    with Memory(db, project="p", embedder=None) as mem:
        assert mem.list() == []


# -- the model path ---------------------------------------------------------------------------
EVENT = "说到 Bart 的自行车，他挑了捷安特"  # the rules read no subject here


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ('{"subject": "Bart 的自行车", "value": "红色"}', "the value is not written"),
        ('{"subject": "Alice 的自行车", "value": "捷安特"}', "subject words not in"),
        ('{"subject": "Bart 的自行车", "value": "捷安特", "note": 1}', "not {subject"),
        ("Bart's bike", "not strict JSON"),
        ('{"subject": null}', "no subject"),
    ],
)
def test_model_replies_are_checked_by_code(reply: str, why: str) -> None:
    checked = check_reply(reply, EVENT)
    assert isinstance(checked, str) and why in checked


def test_the_model_reads_only_what_the_rules_cannot(db: Path) -> None:
    model = ScriptedChatModel(['```json\n{"subject": "Bart 的自行车", "value": "捷安特"}\n```'])
    reader = LLMSubjects(model)
    with Memory(db, project="p", embedder=None, subjects=reader) as mem:
        rules = mem.save("测试数据库用 SQLite").entry
        assert rules.subject == "测试数据库" and model.requests == []  # the rules read it
        event = mem.save(EVENT).entry
        assert (event.subject, event.value) == ("Bart 的自行车", "捷安特")
        assert len(model.requests) == 1


def test_through_the_real_openai_client(openai_server: OpenAIServer, db: Path) -> None:
    openai_server.script(['{"subject": "Bart 的自行车", "value": "红色"}', "not json"])
    settings = LLMSettings(base_url=openai_server.base_url, model="test-model", max_retries=0)
    with (
        OpenAIChatModel(settings) as model,
        Memory(db, project="p", embedder=None, subjects=LLMSubjects(model)) as mem,
    ):
        entry = mem.save(EVENT).entry
        assert entry.subject is None  # the model's value is nowhere in the memory: refused
        assert mem.save("Bart 周末骑车去了海边").entry.subject is None
        reader = mem.subjects
        assert isinstance(reader, LLMSubjects) and len(reader.refusals) == 2
    assert openai_server.requests[0]["messages"][1]["content"] == EVENT
