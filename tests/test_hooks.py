"""remem's hooks for Claude Code, Codex CLI and Gemini CLI without the clients: the
settings files they merge into, the hook command fed each client's documented payloads
(real `remem hook` processes), and `remem review`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli import cli
from remem.hooks.clients import CLIENTS

KNOWN = "The project uses JDK 17 and Maven"
REMEMBER = "Also remember that we deploy with scripts/deploy.sh"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True)
    with Memory(project=folder) as mem:
        mem.save(KNOWN)
        mem.save("Answer in English and keep replies short", type="preference")
    return folder


def remem(*args: str, cwd: Path, stdin: str = "", env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "remem", *args], input=stdin, cwd=cwd, capture_output=True,
        text=True, timeout=60, env={**os.environ, **(env or {})},
    )  # fmt: skip


def hook(action: str, client: str, payload: dict[str, Any], cwd: Path) -> dict[str, Any]:
    done = remem("hook", action, "--client", client, cwd=cwd, stdin=json.dumps(payload))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else {}


def context(answer: dict[str, Any]) -> str:
    return str(answer.get("hookSpecificOutput", {}).get("additionalContext", ""))


# -- install / uninstall / status ----------------------------------------------------------


def invoke(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Any:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner(env=env).invoke(cli, list(args))
    finally:
        os.chdir(old)


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_install_merges_shows_the_diff_is_idempotent_and_uninstalls(
    client: str, project: Path
) -> None:
    tool = CLIENTS[client]
    path = project / tool.folder / tool.file
    path.parent.mkdir()
    first_event = next(iter(tool.events))
    theirs = {"type": "command", "command": "echo theirs"}
    original = {"model": "x", "hooks": {first_event: [{"matcher": "", "hooks": [theirs]}]}}
    path.write_text(json.dumps(original, indent=4))
    done = invoke("hooks", "install", client, "--command", "remem", cwd=project)
    assert done.exit_code == 0, done.output
    assert "+" in done.output and f"hook prompt --client {client}" in done.output  # the diff
    doc = json.loads(path.read_text())
    assert doc["model"] == "x" and doc["hooks"][first_event][0]["hooks"] == [theirs]
    assert set(doc["hooks"]) == set(tool.events)
    again = invoke("hooks", "install", client, "--command", "remem", "--json", cwd=project)
    assert json.loads(again.output)["changed"] is False
    assert json.loads(path.read_text()) == doc
    status = json.loads(invoke("hooks", "status", "--json", cwd=project).output)
    row = next(r for r in status["installed"] if (r["client"], r["scope"]) == (client, "project"))
    assert row["events"] == list(tool.events)
    gone = invoke("hooks", "uninstall", client, "--json", cwd=project)
    assert json.loads(gone.output)["changed"] is True
    assert json.loads(path.read_text()) == original


def test_install_uses_each_tools_user_folder(project: Path, tmp_path: Path) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cc"), "CODEX_HOME": str(tmp_path / "cx"),
           "GEMINI_CLI_HOME": str(tmp_path / "gh")}  # fmt: skip
    for client in CLIENTS:
        done = invoke("hooks", "install", client, "--user", "--json", cwd=project, env=env)
        assert done.exit_code == 0, done.output
    assert (tmp_path / "cc" / "settings.json").exists()
    assert (tmp_path / "cx" / "hooks.json").exists()
    gemini = json.loads((tmp_path / "gh" / ".gemini" / "settings.json").read_text())
    assert gemini["hooks"]["BeforeAgent"][0]["hooks"][0]["timeout"] == 10_000  # milliseconds
    assert not (project / ".claude").exists()
    for client in CLIENTS:
        done = invoke("hooks", "uninstall", client, "--user", "--json", cwd=project, env=env)
        assert json.loads(done.output)["changed"] is True
    assert json.loads((tmp_path / "cx" / "hooks.json").read_text()) == {}


def test_install_refuses_a_broken_settings_file_and_leaves_it(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{ not json")
    done = invoke("hooks", "install", "claude-code", cwd=project)
    assert done.exit_code != 0 and "not valid JSON" in done.output
    assert path.read_text() == "{ not json"


# -- the hook with each client's payloads ----------------------------------------------------


def base(client: str, event: str, project: Path, **more: Any) -> dict[str, Any]:
    payload = {"session_id": f"{client}-1", "cwd": str(project), "hook_event_name": event,
               "transcript_path": None}  # fmt: skip
    return payload | more


@pytest.mark.parametrize(
    ("client", "start", "prompt", "stop"),
    [
        ("claude-code", "SessionStart", "UserPromptSubmit", "Stop"),
        ("codex", "SessionStart", "UserPromptSubmit", "Stop"),
        ("gemini", "SessionStart", "BeforeAgent", "AfterAgent"),
    ],
)
def test_a_session_gets_its_memories_once_and_its_words_are_captured(
    client: str, start: str, prompt: str, stop: str, project: Path
) -> None:
    opened = hook("start", client, base(client, start, project, source="startup"), project)
    assert opened["hookSpecificOutput"]["hookEventName"] == start
    assert "Answer in English" in context(opened) and KNOWN not in context(opened)
    ask = f"Which JDK does the project use? {REMEMBER}"
    first = hook("prompt", client, base(client, prompt, project, prompt=ask), project)
    assert KNOWN in context(first) and "never an instruction" in context(first)
    assert "Answer in English" not in context(first)  # given at the start already
    again = hook("prompt", client, base(client, prompt, project, prompt="Which JDK again?"),
                 project)  # fmt: skip
    assert KNOWN not in context(again)  # this session has it
    answer = "Sure. Remember that the build uses Gradle now."  # the model's words
    ended = hook("stop", client, base(client, stop, project, prompt=ask, prompt_response=answer,
                                      last_assistant_message=answer), project)  # fmt: skip
    assert ended["systemMessage"].startswith("remem: 2 loaded · 1 captured")
    with Memory(project=project) as mem:
        auto = [e for e in mem.list() if e.source == "auto_extracted"]
    assert [(e.content, e.confidence) for e in auto] == [
        ("we deploy with scripts/deploy.sh", "unverified")
    ]
    assert hook("stop", client, base(client, stop, project), project) == {}  # read once


def test_after_external_content_only_an_explicit_request_is_captured(
    project: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "t.jsonl"
    call = {"type": "tool_use", "name": "WebFetch", "input": {"url": "https://x.example"}}
    transcript.write_text(json.dumps({"message": {"content": [call]}}) + "\n")
    said = ["我们项目统一用 UTF-8 编码。", REMEMBER]
    for text in said:
        payload = base("claude-code", "UserPromptSubmit", project, prompt=text)
        hook("prompt", "claude-code", payload, project)
    payload = base("claude-code", "Stop", project, transcript_path=str(transcript))
    hook("stop", "claude-code", payload, project)
    with Memory(project=project) as mem:
        auto = [e.content for e in mem.list() if e.source == "auto_extracted"]
    assert auto == ["we deploy with scripts/deploy.sh"]


def test_a_failing_hook_prints_one_line_and_lets_the_prompt_through(project: Path) -> None:
    for args, stdin in ((["hook", "prompt"], "{not json"), (["hook", "nonsense"], "{}")):
        done = remem(*args, cwd=project, stdin=stdin)
        assert done.returncode == 1  # never 2: the agents read 2 as "block the prompt"
        assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
        assert done.stderr.startswith("remem:")
    broken = remem("hook", "prompt", cwd=project, stdin=json.dumps({"prompt": "x", "cwd": "."}),
                   env={"REMEM_DB": "mysql://nope"})  # fmt: skip
    assert broken.returncode == 1 and "mysql" in broken.stderr


def test_the_prompt_block_keeps_to_its_budget(project: Path) -> None:
    from remem.tokens import estimate_tokens

    names = ("billing", "auth", "search", "gateway", "mailer", "reports", "uploads")
    with Memory(project=project) as mem:
        for n, name in enumerate(names):
            mem.save(f"The {name} service is built with JDK 17 and Maven, deployed from the "
                     f"{name}-deploy pipeline on host {name}{n}.internal")  # fmt: skip
    ask = {"prompt": "Which JDK do the services build with?", "cwd": str(project)}
    blocks = {}
    for budget in ("1000", "150"):
        done = remem("hook", "prompt", cwd=project, env={"REMEM_HOOK_TOKENS": budget},
                     stdin=json.dumps(ask | {"session_id": f"budget-{budget}"}))  # fmt: skip
        assert done.returncode == 0, done.stderr
        blocks[budget] = context(json.loads(done.stdout))
    assert estimate_tokens(blocks["150"]) <= 150 < estimate_tokens(blocks["1000"])
    assert "memory_context" in blocks["150"] and "JDK 17" in blocks["150"]
    for bad in ("lots", "0"):
        wrong = remem("hook", "prompt", cwd=project, env={"REMEM_HOOK_TOKENS": bad},
                      stdin=json.dumps(ask))  # fmt: skip
        assert wrong.returncode == 1 and wrong.stdout == ""
        assert wrong.stderr.strip() == (
            f"remem: prompt hook failed: REMEM_HOOK_TOKENS={bad!r} is not a positive whole number"
        )


def test_the_project_is_the_folder_the_agent_names(project: Path, tmp_path: Path) -> None:
    """The payload's cwd (a subfolder of the project), not where the hook process runs."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / "src").mkdir()
    payload = {"session_id": "cwd-1", "cwd": str(project / "src"), "prompt": "Which JDK?"}
    done = remem("hook", "prompt", cwd=elsewhere, stdin=json.dumps(payload))
    assert done.returncode == 0 and KNOWN in context(json.loads(done.stdout))
    payload |= {"prompt": REMEMBER}
    remem("hook", "prompt", cwd=elsewhere, stdin=json.dumps(payload))
    remem("hook", "stop", cwd=elsewhere, stdin=json.dumps(payload))
    with Memory(project=project) as mem:
        assert any("scripts/deploy.sh" in e.content for e in mem.list())
    with Memory(project=elsewhere) as mem:
        assert mem.list() == []


def test_session_state_is_private_and_removed_once_long_unused(project: Path) -> None:
    from remem.hooks import state
    from remem.settings import home_dir

    old = state.SessionState("claude-code", "last-month", given=["x"])
    state.save(home_dir(), old)
    path = state.path_of(home_dir(), "claude-code", "last-month")
    month = 31 * 86400
    os.utime(path, (path.stat().st_atime - month, path.stat().st_mtime - month))
    recent = state.SessionState("codex", "yesterday")
    state.save(home_dir(), recent)
    hook("start", "claude-code", base("claude-code", "SessionStart", project), project)
    assert not path.exists()
    assert state.path_of(home_dir(), "codex", "yesterday").exists()
    kept = state.path_of(home_dir(), "claude-code", "claude-code-1")
    assert kept.exists() and kept.stat().st_mode & 0o777 == 0o600  # the user's prompts
    assert kept.parent.stat().st_mode & 0o777 == 0o700


# -- remem review ------------------------------------------------------------------------------


def test_review_accept_edit_reject(project: Path) -> None:
    with Memory(project=project) as mem:
        ids = [mem.save(text, source="auto_extracted").entry.id
               for text in ("we deploy on Fridays", "CI runs on GitHub Actions",
                            "the staging host is called blue")]  # fmt: skip
        confirmed = mem.list()[-1].id
    listed = json.loads(invoke("review", "--json", cwd=project).output)
    assert sorted(e["id"] for e in listed["pending"]) == sorted(ids)
    done = invoke("review", "--accept", ids[0], "--edit", ids[1], "CI runs on Buildkite",
                  "--reject", ids[2], "--json", cwd=project)  # fmt: skip
    assert done.exit_code == 0, done.output
    assert [d["action"] for d in json.loads(done.output)["done"]] == [
        "accepted", "edited", "rejected"]  # fmt: skip
    assert json.loads(done.output)["pending"] == 0
    with Memory(project=project) as mem:
        current = {e.content: e for e in mem.list()}
    assert current["we deploy on Fridays"].confidence == "confirmed"
    assert current["CI runs on Buildkite"].confidence == "confirmed"
    assert "the staging host is called blue" not in current
    wrong = invoke("review", "--accept", confirmed, cwd=project)
    assert wrong.exit_code != 0 and "not waiting for review" in wrong.output
    assert "Nothing to review." in invoke("review", cwd=project).output


def test_the_hooks_names_match_the_clients_table() -> None:
    from remem.hooks import ACTIONS, CLIENT_NAMES

    assert CLIENT_NAMES == tuple(CLIENTS)
    assert all(set(c.events.values()) <= set(ACTIONS) for c in CLIENTS.values())


def test_the_web_page_reviews_the_same_queue(tmp_path: Path) -> None:
    import re

    import httpx2 as httpx

    from remem.servers.auth import issue_token
    from remem.servers.backend import Backend
    from remem.servers.http import build_app, running
    from remem.settings import Settings

    db = tmp_path / "memory.db"
    with Memory(db, project="shop", user_id="alice") as mem:  # the signed-in user's
        ids = [
            mem.save(t, source="auto_extracted").entry.id
            for t in ("we deploy on Fridays", "CI runs on GitHub Actions", "staging is blue")
        ]
    backend = Backend(Settings.resolve(db=db, project="shop"))
    token = issue_token(backend.store, "alice")[0]
    try:
        with running(build_app(backend)) as url, httpx.Client(base_url=url) as web:
            form = re.search(r'name="login_csrf" value="([^"]+)"', web.get("/login").text)
            assert form is not None
            login = {"token": token, "login_csrf": form.group(1)}
            assert web.post("/login", data=login).status_code in (200, 303)
            page = web.get("/review", params={"project": "shop"})
            assert page.status_code == 200 and all(f"r-{i}" in page.text for i in ids)
            csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert csrf is not None
            form = {"csrf": csrf[1], "project": "shop", "back": "review"}
            for action, i, extra in (
                ("verify", ids[0], {}),
                ("delete", ids[2], {}),
                ("edit", ids[1], {"content": "CI runs on Buildkite"}),
            ):
                done = web.post(f"/m/{i}/{action}", data=form | extra)
                assert done.status_code == 303, done.text
                assert "/review" in done.headers["location"]
            after = web.get("/review", params={"project": "shop"}).text
            assert "Nothing to review." in after
    finally:
        backend.close()
    with Memory(db, project="shop", user_id="alice") as mem:
        current = {e.content: e.confidence for e in mem.list()}
    assert current == {"we deploy on Fridays": "confirmed", "CI runs on Buildkite": "confirmed"}


def test_the_status_line_of_a_session(project: Path) -> None:
    payload = base(
        "claude-code",
        "UserPromptSubmit",
        project,
        prompt=f"Which JDK does the project use? {REMEMBER}",
    )
    hook("prompt", "claude-code", payload, project)
    hook("stop", "claude-code", base("claude-code", "Stop", project), project)
    line = remem("hook", "status", cwd=project, stdin=json.dumps({"session_id": "claude-code-1"}))
    assert line.returncode == 0 and line.stdout.strip() == "remem: 1 loaded · 1 captured"
    fresh = remem("hook", "status", cwd=project, stdin=json.dumps({"session_id": "other"}))
    assert fresh.stdout.strip() == "remem: 0 loaded · 0 captured"


def test_tool_calls_are_read_from_each_clients_transcript(tmp_path: Path) -> None:
    from remem.hooks.run import _guard, tool_calls

    claude = {"type": "assistant", "message": {"content": [
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]}}  # fmt: skip
    codex = {"type": "response_item", "payload": {
        "type": "function_call", "name": "shell",
        "arguments": json.dumps({"command": ["curl", "-s", "https://example.com"]})}}  # fmt: skip
    gemini = {"messages": [{"type": "gemini", "toolCalls": [
        {"id": "c1", "name": "mcp_docs_search", "args": {"q": "x"}}]}]}  # fmt: skip
    lines = tmp_path / "rollout.jsonl"
    lines.write_text(json.dumps(claude) + "\n" + json.dumps(codex) + "\nnot json\n")
    assert sorted(name for name, _ in tool_calls(lines)) == ["Bash", "shell"]
    document = tmp_path / "chat.json"
    document.write_text(json.dumps(gemini))
    assert [name for name, _ in tool_calls(document)] == ["mcp_docs_search"]
    assert not _guard({"transcript_path": str(lines)}, "codex").allows_extraction()  # curl
    assert not _guard({"transcript_path": str(document)}, "gemini").allows_extraction()  # MCP
    only_ls = tmp_path / "ls.jsonl"
    only_ls.write_text(json.dumps(claude) + "\n")
    assert _guard({"transcript_path": str(only_ls)}, "claude-code").allows_extraction()
    assert _guard({"transcript_path": str(tmp_path / "missing")}, "codex").allows_extraction()


@pytest.mark.slow
def test_review_one_at_a_time_on_a_terminal(project: Path) -> None:
    from terminal import Terminal

    with Memory(project=project) as mem:
        for text in ("we deploy on Fridays", "CI runs on GitHub Actions", "staging is blue"):
            mem.save(text, source="auto_extracted")
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
    term = Terminal([sys.executable, "-m", "remem", "review"], cwd=project, env=env, cols=100)
    for answer in ("a", "e", "r"):
        term.wait_for("(q)uit")
        term.send(answer + "\r")
        if answer == "e":
            term.wait_for("new text")
            term.send("\x15CI runs on Buildkite\r")  # ^U clears the offered text
    assert term.exit_code() == 0
    term.wait_for("Rejected:")
    with Memory(project=project) as mem:
        current = {e.content: e.confidence for e in mem.list()}
    assert current == {
        "we deploy on Fridays": "confirmed", "CI runs on Buildkite": "confirmed",
        KNOWN: "confirmed", "Answer in English and keep replies short": "confirmed",
    }  # fmt: skip


def test_after_a_compaction_memories_may_be_given_again(project: Path) -> None:
    ask = base("claude-code", "UserPromptSubmit", project, prompt="Which JDK does the project use?")
    assert KNOWN in context(hook("prompt", "claude-code", ask, project))
    assert KNOWN not in context(hook("prompt", "claude-code", ask, project))
    hook("compact", "claude-code", base("claude-code", "PreCompact", project, trigger="auto"),
         project)  # fmt: skip
    assert KNOWN in context(hook("prompt", "claude-code", ask, project))
    line = remem("hook", "status", cwd=project, stdin=json.dumps({"session_id": "claude-code-1"}))
    assert line.stdout.strip() == "remem: 2 loaded · 0 captured"  # the whole session's count


@pytest.mark.slow  # starts the warm vector service
@pytest.mark.parametrize("embedder", ["fake", "none"])
def test_with_the_warm_service_the_hook_never_loads_jieba(
    embedder: str, project: Path, tmp_path: Path
) -> None:
    """jieba's dictionary costs a process ~150-200 ms of CPU: a hook has the warm service
    cut and tag Chinese, also for the read-time check of newer lines. Hybrid, the first
    save starts the service; keyword-only, the session's start hook does."""
    env = {"REMEM_HOME": str(tmp_path / "home"), "REMEM_EMBEDDER": embedder, "REMEM_WARM": "1",
           "REMEM_WARM_IDLE": "30"}  # fmt: skip
    for fact in ("测试数据库用 SQLite", "测试数据库用 PostgreSQL"):  # both current: --force
        done = remem("save", "--force", fact, cwd=project, env=env)
        assert done.returncode == 0, done.stderr
    session = {"session_id": "zh", "cwd": str(project)}
    try:
        started = remem("hook", "start", cwd=project, env=env, stdin=json.dumps(session))
        assert started.returncode == 0, started.stderr
        assert (tmp_path / "home" / "run" / "vectors.sock").exists()
        payload = json.dumps(session | {"prompt": "测试数据库用什么？"})
        code = (
            "import contextlib, io, sys\nfrom remem.cli.hook_entry import run_hook\n"
            f"sys.stdin = io.StringIO({payload!r})\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
            "    run_hook('prompt', 'claude-code')\n"
            "print('rjieba' in sys.modules, 'PostgreSQL' in out.getvalue())"
        )
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             cwd=project, env={**os.environ, **env}, timeout=60)  # fmt: skip
        assert run.stdout.split() == ["False", "True"], run.stderr
    finally:
        remem("warm", "stop", cwd=project, env=env)
