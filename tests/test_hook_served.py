"""An agent's hooks answered by the running warm service (`remem.hooks.served`): the
same bytes, the same session state and the same store as the hook computing them in its
own process (a prompt, a session's start, the captures), a hook process that imports
no `remem.memory`, click or jieba, and the in-process answer when the service fails or
cannot have the store's write lock in time (real `remem hook` processes, a real
service on a unix socket)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import homes
from remem.hooks import state
from remem.retrieval.warm import SOCKET, WarmClient, receive, send

pytestmark = pytest.mark.slow  # starts and stops the warm service's processes

KNOWN = "The project uses JDK 17 and Maven"
FACTS = [KNOWN, "测试数据库用 SQLite", "Answer in English and keep replies short"]
PROMPTS = ["Which JDK does the project use? 测试数据库用什么？", "Which JDK, again?"]
EVENT = {"claude-code": "UserPromptSubmit", "codex": "UserPromptSubmit", "gemini": "BeforeAgent"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True)
    return folder


def filled(tmp_path: Path, project: Path, embedder: str, *names: str) -> list[Path]:
    return homes.filled(tmp_path, project, embedder, FACTS, *names)


def hook(home: Path, client: str, payload: dict[str, Any], cwd: Path, action: str = "prompt",
         **env: str) -> str:  # fmt: skip
    done = run_hook(home, client, payload, cwd, [], action, **env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def run_hook(home: Path, client: str, payload: dict[str, Any], cwd: Path, flags: list[str],
             action: str = "prompt", **env: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    env = {**os.environ, "REMEM_HOME": str(home), "REMEM_WARM_IDLE": "30", **env}
    return subprocess.run(
        [sys.executable, *flags, "-m", "remem", "hook", action, "--client", client],
        input=json.dumps(payload), cwd=cwd, capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip


def session_file(home: Path, client: str, session: str) -> str:
    return state.path_of(home, client, session).read_text(encoding="utf-8")


def hooks_answered(home: Path) -> int:
    status = WarmClient(home).status()
    assert status is not None, "the service is not running"
    return int(status["hooks"])


@pytest.fixture
def services() -> Iterator[list[Path]]:
    """Homes whose services the test started (stopped after it)."""
    homes: list[Path] = []
    yield homes
    for home in homes:
        WarmClient(home).stop()


@pytest.mark.parametrize("embedder", ["none", "fake"])
@pytest.mark.parametrize("client", sorted(EVENT))
def test_the_service_answers_as_the_hook_does_in_its_own_process(
    client: str, embedder: str, project: Path, tmp_path: Path, services: list[Path]
) -> None:
    served, here = filled(tmp_path, project, embedder, "served", "here")
    WarmClient(served).request({"op": "ping"})
    services.append(served)
    for n, prompt in enumerate(PROMPTS):
        payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": EVENT[client],
                   "prompt": prompt, "transcript_path": None}  # fmt: skip
        fast = hook(served, client, payload, project, REMEM_EMBEDDER=embedder, REMEM_WARM="1")
        assert hooks_answered(served) == n + 1  # the service answered it
        slow = hook(here, client, payload, project, REMEM_EMBEDDER=embedder, REMEM_WARM="0")
        assert fast == slow
        assert session_file(served, client, "s1") == session_file(here, client, "s1")
        if n == 0:
            assert KNOWN in json.loads(fast)["hookSpecificOutput"]["additionalContext"]
    assert KNOWN not in fast  # given once a session, both ways
    assert json.loads(session_file(served, client, "s1"))["loaded"] >= 2


def test_a_served_hook_imports_no_memory_click_or_jieba(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    (home,) = filled(tmp_path, project, "none", "home")
    WarmClient(home).request({"op": "ping"})
    services.append(home)
    payload = {"session_id": "s1", "cwd": str(project), "prompt": PROMPTS[0]}
    done = run_hook(home, "claude-code", payload, project, ["-X", "importtime"], REMEM_WARM="1",
                    REMEM_EMBEDDER="none")  # fmt: skip
    assert done.returncode == 0 and KNOWN in done.stdout, done.stderr
    assert hooks_answered(home) == 1
    lines = [line.split("|")[-1] for line in done.stderr.splitlines() if "|" in line]
    imported = {line.strip() for line in lines}
    assert "remem.hooks.served" in imported
    assert not imported & {"remem.memory", "remem.store", "click", "jieba", "rjieba", "numpy"}


def test_a_store_named_relative_to_the_hooks_folder_is_read_by_the_hook(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    """REMEM_DB=memory.db is the hook's folder's, not the service's: in-process."""
    (home,) = filled(tmp_path, project, "none", "home")
    shutil.copy(home / "memory.db", project / "memory.db")
    (home / "memory.db").unlink()
    WarmClient(home).request({"op": "ping"})
    services.append(home)
    payload = {"session_id": "s1", "cwd": str(project), "prompt": PROMPTS[0]}
    out = hook(home, "gemini", payload, project, REMEM_WARM="1", REMEM_EMBEDDER="none",
               REMEM_DB="memory.db")  # fmt: skip
    assert KNOWN in out and hooks_answered(home) == 0


def test_a_store_locked_by_a_save_does_not_hold_the_service(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    """A save holding the store's write lock may be asking the service: the hook's
    answer there does not wait for the lock (its record of the use is skipped)."""
    (home,) = filled(tmp_path, project, "none", "home")
    WarmClient(home).request({"op": "ping"})
    services.append(home)
    payload = {"session_id": "s1", "cwd": str(project), "prompt": PROMPTS[0]}
    with sqlite3.connect(home / "memory.db", isolation_level=None) as writer:
        writer.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        out = hook(home, "claude-code", payload, project, REMEM_WARM="1", REMEM_EMBEDDER="none")
        took = time.monotonic() - started
        writer.execute("ROLLBACK")
    assert KNOWN in out and hooks_answered(home) == 1 and took < 10, took


def test_a_failing_service_leaves_the_hook_to_answer_itself(project: Path, tmp_path: Path) -> None:
    """A service that answers every request with an error (as one of an older remem
    answers a request it does not know): the hook's answer is the in-process one."""
    broken, here = filled(tmp_path, project, "none", "broken", "here")
    run = broken / "run"
    run.mkdir(mode=0o700)
    asked: list[str] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(run / SOCKET))
        server.listen(8)
        threading.Thread(target=_refuse, args=(server, asked), daemon=True).start()
        payload = {"session_id": "s1", "cwd": str(project), "prompt": PROMPTS[0]}
        got = hook(broken, "codex", payload, project, REMEM_WARM="1", REMEM_EMBEDDER="none")
    want = hook(here, "codex", payload, project, REMEM_WARM="0", REMEM_EMBEDDER="none")
    assert "hook" in asked and got == want and KNOWN in got
    assert session_file(broken, "codex", "s1") == session_file(here, "codex", "s1")


def _refuse(server: socket.socket, asked: list[str]) -> None:
    while True:
        try:
            conn, _ = server.accept()
        except OSError:
            return  # the test closed the socket
        with conn:
            asked.append(str(receive(conn).get("op")))
            send(conn, {"error": "unknown request"})


# -- a session's start and the captures -------------------------------------------------------

REMEMBER = "Also remember that we deploy with scripts/deploy.sh"
SAID = f"Which JDK does the project use? {REMEMBER}"
# client: its start, prompt, end of turn, compaction and end events
EVENTS = {
    "claude-code": ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"),
    "codex": ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"),
    "gemini": ("SessionStart", "BeforeAgent", "AfterAgent", "PreCompress", "SessionEnd"),
}


def remembered(home: Path) -> list[tuple[Any, ...]]:
    """The store's entries, as a capture decides them (not their ids or times)."""
    with sqlite3.connect(home / "memory.db") as db:
        rows = db.execute(
            "SELECT content, type, scope, project, source, confidence, facts, entity,"
            " superseded_by IS NULL FROM entries ORDER BY content"
        ).fetchall()
    return [tuple(row) for row in rows]


def session_of(home: Path, client: str, session: str) -> dict[str, Any]:
    """The session's state, its captured memories by content (ids are new each save)."""
    doc: dict[str, Any] = json.loads(session_file(home, client, session))
    with sqlite3.connect(home / "memory.db") as db:
        doc["captured"] = [
            db.execute("SELECT content FROM entries WHERE id = ?", (i,)).fetchone()[0]
            for i in doc["captured"]
        ]
    return doc


def session_calls(client: str, project: Path, session: str) -> list[tuple[str, dict[str, Any]]]:
    start, prompt, stop, compact, end = EVENTS[client]
    base = {"session_id": session, "cwd": str(project), "transcript_path": None}
    return [
        ("start", base | {"hook_event_name": start, "source": "startup"}),
        ("prompt", base | {"hook_event_name": prompt, "prompt": SAID}),
        ("stop", base | {"hook_event_name": stop, "last_assistant_message": REMEMBER}),
        ("prompt", base | {"hook_event_name": prompt, "prompt": "我们项目统一用 UTF-8 编码。"}),
        ("compact", base | {"hook_event_name": compact, "trigger": "auto"}),
        ("prompt", base | {"hook_event_name": prompt, "prompt": "Remember that CI uses Buildkite"}),
        ("end", base | {"hook_event_name": end, "reason": "exit"}),
    ]


@pytest.mark.parametrize("embedder", ["none", "fake"])
@pytest.mark.parametrize("client", sorted(EVENT))
def test_a_session_start_and_its_captures_are_answered_as_in_process(
    client: str, embedder: str, project: Path, tmp_path: Path, services: list[Path]
) -> None:
    served, here = filled(tmp_path, project, embedder, "served", "here")
    WarmClient(served).request({"op": "ping"})  # a running service: a resumed session's
    services.append(served)
    env = {"REMEM_EMBEDDER": embedder}
    for n, (action, payload) in enumerate(session_calls(client, project, "s1")):
        fast = hook(served, client, payload, project, action, REMEM_WARM="1", **env)
        assert hooks_answered(served) == n + 1, action  # the service answered it
        slow = hook(here, client, payload, project, action, REMEM_WARM="0", **env)
        assert fast == slow, action
        assert session_of(served, client, "s1") == session_of(here, client, "s1"), action
        assert remembered(served) == remembered(here), action
    captured = session_of(served, client, "s1")["captured"]
    assert "we deploy with scripts/deploy.sh" in captured and len(captured) >= 2


def test_a_served_start_and_capture_import_no_memory(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    (home,) = filled(tmp_path, project, "none", "home")
    WarmClient(home).request({"op": "ping"})
    services.append(home)
    for n, (action, payload) in enumerate(session_calls("claude-code", project, "s1")[:3]):
        done = run_hook(home, "claude-code", payload, project, ["-X", "importtime"], action,
                        REMEM_WARM="1", REMEM_EMBEDDER="none")  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert hooks_answered(home) == n + 1
        lines = [line.split("|")[-1] for line in done.stderr.splitlines() if "|" in line]
        imported = {line.strip() for line in lines}
        assert not imported & {"remem.memory", "remem.store", "remem.extract", "click", "jieba"}
    assert "1 captured" in done.stdout


def test_with_no_service_running_the_start_hook_starts_one(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    (home,) = filled(tmp_path, project, "none", "home")
    services.append(home)
    start = session_calls("codex", project, "s1")[0][1]
    assert WarmClient(home).status() is None
    hook(home, "codex", start, project, "start", REMEM_WARM="1", REMEM_EMBEDDER="none")
    assert hooks_answered(home) == 0  # started for the session's prompts, not asked
    assert json.loads(session_file(home, "codex", "s1"))["project"]


def test_a_capture_with_a_remote_embedder_stays_in_the_hook(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    """A new memory's vector from a remote model is the hook's to ask, not the service's."""
    (home,) = filled(tmp_path, project, "none", "home")
    WarmClient(home).request({"op": "ping"})
    services.append(home)
    calls = session_calls("claude-code", project, "s1")
    hook(home, "claude-code", calls[1][1], project, "prompt", REMEM_WARM="1", REMEM_EMBEDDER="none")
    remote = {"REMEM_EMBEDDER": "openai", "REMEM_EMBED_MODEL": "m",
              "REMEM_EMBED_BASE_URL": "http://127.0.0.1:9/v1",
              "REMEM_EMBED_API_KEY": "k"}  # fmt: skip
    done = run_hook(home, "claude-code", calls[2][1], project, [], "stop", REMEM_WARM="1", **remote)
    assert hooks_answered(home) == 1  # the prompt only
    # the hook asked the (here unreachable) endpoint itself: one line, the prompt through
    assert done.returncode == 1 and "the embeddings endpoint failed" in done.stderr


def test_a_capture_while_another_process_holds_the_store_saves_in_the_hook(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    """The service does not wait for a busy store's write lock: it answers at once that
    the hook must save, which the hook does once the lock is free; nothing is lost."""
    (home,) = filled(tmp_path, project, "none", "home")
    WarmClient(home).request({"op": "ping"})
    services.append(home)
    calls = session_calls("claude-code", project, "s1")
    for _, said in (calls[1], calls[3]):  # two prompts: one capture, saved whole or not at all
        hook(home, "claude-code", said, project, "prompt", REMEM_WARM="1", REMEM_EMBEDDER="none")
    before = hooks_answered(home)
    env = {**os.environ, "REMEM_HOME": str(home), "REMEM_WARM": "1", "REMEM_EMBEDDER": "none"}
    (tmp_path / "stop.json").write_text(json.dumps(calls[2][1]), encoding="utf-8")
    with (
        sqlite3.connect(home / "memory.db", isolation_level=None) as writer,
        (tmp_path / "stop.json").open("rb") as payload,
    ):
        writer.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        stop = subprocess.Popen(
            [sys.executable, "-m", "remem", "hook", "stop", "--client", "claude-code"],
            stdin=payload, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=project, env=env,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while hooks_answered(home) <= before and time.monotonic() < deadline:
            time.sleep(0.05)
        asked = time.monotonic() - started
        time.sleep(0.5)
        pinged = time.monotonic()
        assert WarmClient(home).status() is not None and time.monotonic() - pinged < 1.0
        assert stop.poll() is None  # the hook itself waits for the lock now
        writer.execute("ROLLBACK")
    out, err = stop.communicate(timeout=60)
    assert stop.returncode == 0, err
    assert hooks_answered(home) == before + 1 and asked < 10, (
        asked
    )  # the service was asked, not held
    assert "2 captured" in out
    captured = session_of(home, "claude-code", "s1")["captured"]
    assert captured[0] == "we deploy with scripts/deploy.sh" and "UTF-8" in captured[1]
    assert {(text,) for text in captured} <= {row[:1] for row in remembered(home)}
