"""`remem chat` in real child processes against the local OpenAI-protocol server:
memory shared between processes, a remembered JDK version replaced by a conflicting
/save and seen so by the next session, the external-content guard (SE2), a long
session with compaction, and /resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem import Memory
from remem.context.ledger import read_events
from remem.context.sessions import list_sessions

pytestmark = pytest.mark.slow  # `remem chat` in real child processes

TIMEOUT = 60


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root


def chat(
    root: Path, server: OpenAIServer | None, *args: str, stdin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("REMEM_LLM", "OPENAI_"))}
    environ["PYTHONIOENCODING"] = "utf-8"
    if server is not None:
        environ.update(REMEM_LLM_BASE_URL=server.base_url, REMEM_LLM_MODEL="test-model")
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "remem", "chat", *args],
        cwd=root, env=environ, input=stdin, capture_output=True, text=True,
        encoding="utf-8", timeout=TIMEOUT, check=False,
    )  # fmt: skip


def system_of(request: dict[str, Any]) -> str:
    assert request["messages"][0]["role"] == "system"
    return str(request["messages"][0]["content"])


def memories(root: Path, home: Path) -> list[str]:
    with Memory(home / "memory.db", project=root) as mem:
        return [e.content for e in mem.list()]


def test_processes_share_long_term_memory(
    project: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    openai_server.script([
        {"tool_calls": [{"name": "save_memory",
                         "arguments": {"content": "部署脚本在 scripts/deploy.sh"}}]},
        "好的，记住了。",
        "部署脚本在 scripts/deploy.sh。",
    ])  # fmt: skip
    first = chat(project, openai_server, "--message", "记住：部署脚本在 scripts/deploy.sh")
    assert first.returncode == 0, first.stderr
    assert "好的，记住了。" in first.stdout and "save_memory" in first.stdout
    second = chat(project, openai_server, "--json", "-m", "部署脚本在哪？")
    assert second.returncode == 0, second.stderr
    data = json.loads(second.stdout)
    assert data["answer"] == "部署脚本在 scripts/deploy.sh。" and data["outcome"] == "ok"
    asked = openai_server.requests[2]
    assert "scripts/deploy.sh" in system_of(asked).split("## Project Context")[1]
    assert asked["messages"][-1] == {"role": "user", "content": "部署脚本在哪？"}
    assert asked["stream"] is True and {t["function"]["name"] for t in asked["tools"]} >= {
        "read_file", "write_file", "list_dir", "grep", "execute_command", "save_memory",
        "search_memory"}  # fmt: skip


def test_remembered_fact_survives_clear_and_a_conflicting_save_replaces_it(
    project: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    pom = "<project><artifactId>myapp</artifactId><java.version>17</java.version></project>"
    openai_server.script([
        {"tool_calls": [{"name": "write_file",
                         "arguments": {"path": "myapp/pom.xml", "content": pom}}]},
        "已创建 myapp（Maven，JDK 17）。",
        {"tool_calls": [{"name": "save_memory", "arguments": {"content": "项目使用 JDK 17"}}]},
        "好的，已记住：JDK 17。",
        "好的，新项目也用 JDK 17。",
    ])  # fmt: skip
    lines = [
        "帮我创建一个 Java 项目叫 myapp", "JDK 可以保持 17，你记一下", "/clear",
        "帮我再创建一个项目", "/save 项目使用 JDK 21", "/memory replace", "/memory list",
    ]  # fmt: skip
    # piped input approves no write: the user allow-lists the new project's folder
    run = chat(project, openai_server, "--allow-write", "myapp/**", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert (project / "myapp" / "pom.xml").read_text(encoding="utf-8") == pom
    assert "saved (id" in openai_server.requests[3]["messages"][-1]["content"]
    after_clear = openai_server.requests[4]
    assert [m["role"] for m in after_clear["messages"]] == ["system", "user"]
    assert "项目使用 JDK 17" in system_of(after_clear).split("## Project Context")[1]
    assert after_clear["messages"][1]["content"] == "帮我再创建一个项目"
    assert "Conflict: nothing was saved" in out and "项目使用 JDK 17" in out
    assert "Replaced" in out
    current = memories(project, _isolated_home)
    assert "项目使用 JDK 21" in current and "项目使用 JDK 17" not in current
    openai_server.script(["用 JDK 21。"])
    later = chat(project, openai_server, "-m", "新项目用哪个 JDK？")
    assert later.returncode == 0, later.stderr
    context = system_of(openai_server.requests[5]).split("## Project Context")[1]
    assert "项目使用 JDK 21" in context and "JDK 17" not in context


def test_external_content_blocks_saving(
    project: Path, openai_server: OpenAIServer, _isolated_home: Path
) -> None:
    openai_server.script([
        {"tool_calls": [{"name": "execute_command", "arguments": {"command": "curl --version"}}]},
        {"tool_calls": [{"name": "save_memory",
                         "arguments": {"content": "我们项目统一用 GBK 编码"}}]},
        "不能自动保存；要我记住吗？",
    ])  # fmt: skip
    run = chat(project, openai_server, "--yes", "-m", "我们项目统一用 GBK 编码。看看 curl 版本")
    assert run.returncode == 0, run.stderr
    refusal = openai_server.requests[2]["messages"][-1]["content"]
    assert "refused:" in refusal and "external content" in refusal
    assert memories(project, _isolated_home) == []  # nothing saved, nothing extracted


def test_no_endpoint_explains_and_memory_commands_still_work(project: Path) -> None:
    run = chat(project, None, "-m", "你好")
    assert run.returncode == 1 and "REMEM_LLM_MODEL" in run.stdout and "DeepSeek" in run.stdout
    saved = chat(project, None, "-m", "/save 项目使用 Maven")
    assert saved.returncode == 0 and "Saved" in saved.stdout


def test_long_session_compacts_in_order_and_resumes(
    project: Path, openai_server: OpenAIServer
) -> None:
    (project / "big").mkdir()
    (project / "big" / "huge.log").write_text("huge log line\n" * 3000, encoding="utf-8")
    for n in range(12):
        (project / "big" / f"f{n}.txt").write_text(f"file {n} line\n" * 120, encoding="utf-8")
    replies: list[Any] = []
    lines: list[str] = []
    for n in range(12):
        path = "big/huge.log" if n == 0 else f"big/f{n}.txt"
        lines.append(f"第 {n} 步：读 {path}，记住 JDK 17 和端口 {8000 + n}")
        replies.append({"tool_calls": [{"name": "read_file", "arguments": {"path": path}}]})
        replies.append(f"读完 f{n}.txt，一切正常。" + " checked line ok" * 100)
    openai_server.script(replies)
    env = {"REMEM_CONTEXT_WINDOW": "12000"}
    run = chat(project, openai_server, "--summarizer", "offline",
               stdin="\n".join([*lines, "/context"]) + "\n", **env)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "读完 f11.txt" in run.stdout and "fired:     clear" in run.stdout
    assert "summarise" in run.stdout.split("fired:")[1]
    session = list_sessions(project)[0]
    events = read_events(session.path)
    levels = [lv for e in events if e.get("kind") == "compaction" for lv in e["levels"]]
    assert levels and levels[0] == "clear" and "summarise" in levels
    assert levels.index("clear") < levels.index("summarise")
    sizes = [r["messages"] for r in openai_server.requests]
    assert all(len(json.dumps(m, ensure_ascii=False)) < 12000 * 4 for m in sizes)
    assert list((project / ".remem" / "tool-outputs").glob("*/001-read_file.txt"))
    openai_server.script(["继续：下一步是 f8。"])
    resumed = chat(project, openai_server, "--resume", "last", "-m", "继续", **env)
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resumed session {session.id}" in resumed.stdout
    sent = openai_server.requests[-1]["messages"]
    assert any("[Summary of earlier conversation]" in str(m.get("content")) for m in sent)
    assert "读完 f11.txt" in json.dumps(sent, ensure_ascii=False)
    assert sent[-1] == {"role": "user", "content": "继续"}


def test_project_option_isolates_memories(project: Path) -> None:
    assert chat(project, None, "--project", "alpha", "-m", "/save 项目使用 Gradle").returncode == 0
    alpha = chat(project, None, "--project", "alpha", "-m", "/memory list")
    beta = chat(project, None, "--project", "beta", "-m", "/memory list")
    assert "项目使用 Gradle" in alpha.stdout and "project alpha" in alpha.stdout
    assert "0 memories (project beta)" in beta.stdout
    assert chat(project, None, "--json").returncode == 2  # --json needs --message
