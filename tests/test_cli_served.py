"""One-shot commands run whole by the running warm service (`remem.cli.served`): the
same output, exit code and store as the command run in its own process, a client that
imports neither click, `remem.memory`, numpy nor jieba, and the command run in-process
when the service may not run it (no service, REMEM_WARM=0, a store named relative to
the folder, standard input, a store another process keeps locked). Real `remem`
processes and a real service on a unix socket."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import homes as shared
from remem.retrieval.warm import WarmClient

pytestmark = pytest.mark.slow  # starts and stops the warm service's processes

FACTS = ["The project uses JDK 17 and Maven", "测试数据库用 SQLite", "Standup is at 9:30"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.fixture
def services() -> Iterator[list[Path]]:
    homes: list[Path] = []
    yield homes
    for home in homes:
        WarmClient(home).stop()


def homes(tmp_path: Path, project: Path, embedder: str, *names: str) -> list[Path]:
    return shared.filled(tmp_path, project, embedder, FACTS, *names)


def remem(home: Path, cwd: Path, *args: str, flags: tuple[str, ...] = (), stdin: str = "",
          **env: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    env = {**os.environ, "REMEM_HOME": str(home), "REMEM_WARM_IDLE": "30", "REMEM_WARM": "1", **env}
    return subprocess.run(
        [sys.executable, *flags, "-m", "remem", *args], input=stdin, cwd=cwd,
        capture_output=True, text=True, timeout=90, env=env,
    )  # fmt: skip


def commands_run(home: Path) -> int:
    status = WarmClient(home).status()
    assert status is not None, "the service is not running"
    return int(status["commands"])


def started(home: Path, services: list[Path]) -> Path:
    WarmClient(home).request({"op": "ping"})
    services.append(home)
    return home


def rows(home: Path) -> list[tuple[str, bool]]:
    """Each memory's text and whether it is current (a new memory's id is its own)."""
    with sqlite3.connect(home / "memory.db") as conn:
        query = "SELECT content, superseded_by IS NULL FROM entries"
        return sorted(conn.execute(query).fetchall())


def same(done: subprocess.CompletedProcess[str], home: Path) -> tuple[int, str, str]:
    """What a run printed, with the ids of new memories, the times and the home named
    alike (two stores, two runs)."""

    def plain(text: str) -> str:
        text = text.replace(str(home), "HOME")
        text = re.sub(r"\b[0-9a-f]{12,32}\b", "ID", text)
        return re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(?:[+-]\d\d:\d\d|Z)?", "TIME", text)

    return done.returncode, plain(done.stdout), plain(done.stderr)


RUNS = [
    ("save", "Standup moved to 10:15"),
    ("save", "The project uses JDK 21 and Maven"),  # a conflict: exit 1, its message
    ("save", "--force", "The project uses JDK 21 and Maven"),
    ("save", "测试数据库改用 PostgreSQL 16"),
    ("search", "which JDK"),
    ("search", "测试数据库用什么", "--json"),
    ("context", "when is standup"),
    ("list", "--json"),
    ("show", "nothing-like-an-id"),  # an error: exit 2 (or 1), one line
    ("save", "--json", "The project uses JDK 23 and Maven"),
]


@pytest.mark.parametrize("embedder", ["none", "fake"])
def test_the_service_runs_a_command_as_its_own_process_does(
    embedder: str, project: Path, tmp_path: Path, services: list[Path]
) -> None:
    served, here = homes(tmp_path, project, embedder, "served", "here")
    started(served, services)
    for n, args in enumerate(RUNS):
        fast = remem(served, project, *args, REMEM_EMBEDDER=embedder, REMEM_WARM="1")
        assert commands_run(served) == n + 1, args  # the service ran it
        slow = remem(here, project, *args, REMEM_EMBEDDER=embedder, REMEM_WARM="0")
        assert same(fast, served) == same(slow, here), args
    assert rows(served) == rows(here)


def test_a_served_command_imports_no_click_memory_numpy_or_jieba(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    (home,) = homes(tmp_path, project, "none", "home")
    started(home, services)
    done = remem(home, project, "save", "测试数据库改用 PostgreSQL 16", flags=("-X", "importtime"),
                 REMEM_EMBEDDER="none")  # fmt: skip
    assert done.returncode == 0 and "Updated" in done.stdout, done.stderr
    assert commands_run(home) == 1
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "remem.cli.served" in imported
    assert not imported & {"click", "remem.memory", "remem.store", "numpy", "rjieba", "jieba"}


def test_what_the_service_may_not_run_runs_here(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    (home,) = homes(tmp_path, project, "none", "home")
    started(home, services)
    # standard input, REMEM_WARM=0, a store named relative to the folder: in-process
    piped = remem(home, project, "save", "-", stdin="Lunch is at noon", REMEM_EMBEDDER="none")
    off = remem(home, project, "save", "Dinner is at 7", REMEM_EMBEDDER="none", REMEM_WARM="0")
    shutil.copy(home / "memory.db", project / "local.db")
    relative = remem(home, project, "--db", "local.db", "list", REMEM_EMBEDDER="none")
    for done in (piped, off, relative):
        assert done.returncode == 0, done.stderr
    assert "The project uses JDK 17" in relative.stdout
    assert commands_run(home) == 0
    # REMEM_WARM=0 and no service: in-process, and none is started
    WarmClient(home).stop()
    services.clear()
    off = remem(home, project, "search", "lunch", REMEM_EMBEDDER="none", REMEM_WARM="0")
    assert off.returncode == 0 and "Lunch is at noon" in off.stdout, off.stderr
    time.sleep(1.0)
    assert WarmClient(home).status() is None


def test_a_command_with_no_service_runs_here_and_starts_one_for_the_next(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    """Keyword-only, nothing else starts the service: the command runs in-process and
    does not wait for the one it starts behind it; the next command is run there."""
    (home,) = homes(tmp_path, project, "none", "home")
    services.append(home)
    began = time.monotonic()
    here = remem(home, project, "search", "which JDK", REMEM_EMBEDDER="none")
    took = time.monotonic() - began
    assert here.returncode == 0 and "JDK 17" in here.stdout, here.stderr
    deadline = time.monotonic() + 30
    while WarmClient(home).status() is None:
        assert time.monotonic() < deadline, "no service was started"
        time.sleep(0.1)
    assert took < 10  # the command did not wait for the service it started
    there = remem(home, project, "search", "which JDK", REMEM_EMBEDDER="none")
    assert commands_run(home) == 1
    assert same(there, home) == same(here, home)


def test_a_store_another_process_keeps_locked_is_saved_to_here(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    """The service waits for the write lock only briefly (its holder may be waiting on
    the service); the client then saves in its own process, once, waiting as it must."""
    (home,) = homes(tmp_path, project, "none", "home")
    started(home, services)
    holder = sqlite3.connect(home / "memory.db", isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(1.5, lambda: holder.execute("COMMIT"))
    release.start()
    began = time.monotonic()
    try:
        done = remem(home, project, "save", "--json", "Retro is on Fridays", REMEM_EMBEDDER="none")
    finally:
        release.join()
        holder.close()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "added"
    assert time.monotonic() - began >= 1.5  # it waited for the lock, in-process
    assert commands_run(home) == 1  # after the service had given up on it
    assert [text for text, _ in rows(home)].count("Retro is on Fridays") == 1


def test_a_service_that_was_killed_is_started_again_behind_a_command(
    project: Path, tmp_path: Path, services: list[Path]
) -> None:
    """SIGKILL leaves the socket file: keyword-only, nothing else would start another."""
    (home,) = homes(tmp_path, project, "none", "home")
    started(home, services)
    status = WarmClient(home).status()
    assert status is not None
    os.kill(int(status["pid"]), signal.SIGKILL)
    deadline = time.monotonic() + 10
    while WarmClient(home).status() is not None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert (home / "run" / "vectors.sock").exists()
    here = remem(home, project, "search", "which JDK", REMEM_EMBEDDER="none")
    assert here.returncode == 0 and "JDK 17" in here.stdout, here.stderr
    deadline = time.monotonic() + 30
    while (again := WarmClient(home).status()) is None:
        assert time.monotonic() < deadline, "no service was started again"
        time.sleep(0.1)
    assert again["pid"] != status["pid"]
    remem(home, project, "search", "which JDK", REMEM_EMBEDDER="none")
    assert commands_run(home) == 1
