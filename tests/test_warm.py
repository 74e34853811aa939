"""The warm vector service: one-shot commands share one loaded model and one matrix of
a store's vectors in a background process, get the same answers as in-process, and
never depend on it (real processes, a real unix socket)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from remem import text
from remem.cli.common import one_shot_embedder
from remem.retrieval.embedding import FakeEmbedder
from remem.retrieval.warm import (
    PROTOCOL,
    WarmClient,
    WarmEmbedder,
    one_shot_cutter,
    service_env,
)
from remem.retrieval.warm_service import Service
from remem.settings import Settings

pytestmark = pytest.mark.slow  # starts and stops the warm service's processes

NOW = {"protocol": PROTOCOL}  # what this remem's client sends with every request
FACTS = ["测试数据库用 SQLite", "通勤方式是地铁", "The billing service listens on port 9090"]


def remem(home: Path, *args: str, warm: bool = True, idle: float = 60) -> Any:
    env = {
        **os.environ, "REMEM_HOME": str(home), "REMEM_EMBEDDER": "fake",
        "REMEM_WARM": "1" if warm else "0", "REMEM_WARM_IDLE": str(idle),
    }  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-m", "remem", "--project", "p", *args, "--json"],
        env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def home(tmp_path: Path) -> Any:
    home = tmp_path / "home"
    yield home
    WarmClient(home).stop()


def test_commands_share_one_model_and_answer_as_in_process(home: Path, tmp_path: Path) -> None:
    for fact in FACTS:
        remem(home, "save", fact)
    status = remem(home, "warm")
    assert status["running"] and status["loads"] == 1  # three processes, one model
    warm = [h["entry"]["id"] for h in remem(home, "search", "测试数据库")]
    local = [h["entry"]["id"] for h in remem(home, "search", "测试数据库", warm=False)]
    assert warm == local and warm
    assert remem(home, "warm")["requests"] > status["requests"]
    run = home / "run"
    assert stat.S_IMODE(run.stat().st_mode) == 0o700
    assert stat.S_ISSOCK((run / "vectors.sock").stat().st_mode)
    assert remem(home, "warm", "stop") == {"stopped": True}
    assert gone(status["pid"]) and not (run / "vectors.sock").exists()
    assert remem(home, "warm")["running"] is False


def test_the_service_exits_when_idle(home: Path) -> None:
    # Idle long enough that the status call below finds it on a loaded machine.
    remem(home, "save", FACTS[0], idle=8)
    pid = remem(home, "warm")["pid"]
    assert gone(pid, timeout=40)
    assert remem(home, "warm")["running"] is False


def test_a_removed_socket_ends_the_service_and_the_next_command_starts_one(home: Path) -> None:
    remem(home, "save", FACTS[0])
    pid = remem(home, "warm")["pid"]
    (home / "run" / "vectors.sock").unlink()
    assert gone(pid)
    remem(home, "save", FACTS[1])  # a save embeds its memory: through a new service
    assert remem(home, "warm")["pid"] != pid


def test_without_the_service_commands_work_in_process(home: Path) -> None:
    home.mkdir()
    (home / "run").write_text("not a folder")  # the service cannot start here
    remem(home, "save", FACTS[1])
    assert [h["entry"]["content"] for h in remem(home, "search", "地铁")] == [FACTS[1]]
    assert remem(home, "warm")["running"] is False


def test_a_bad_request_is_answered_and_the_service_goes_on(tmp_path: Path) -> None:
    service = Service()
    assert "error" in _answer(service, {"op": "nearest", "store": "relative.db", "model": "x"})
    assert "error" in _answer(service, {"op": "delete everything"})
    store = tmp_path / "m.db"
    assert "error" in _answer(service, {"op": "nearest", "store": str(store), "n": 3})
    assert service.handle({"op": "embed", "model": FakeEmbedder.name, "texts": ["a"]})["stale"]
    ok = service.handle({"op": "embed", "model": FakeEmbedder.name, "texts": ["a b"], **NOW})
    assert "vectors" in ok and service.loads == 1


def test_the_service_gives_a_query_s_cosines_with_given_entries(tmp_path: Path) -> None:
    from remem import Memory

    with Memory(tmp_path / "m.db", project="p", embedder=FakeEmbedder()) as mem:
        ids = [mem.save(fact).entry.id for fact in FACTS]
        mem.reindex()
        assert mem.vectors is not None
        local = mem.vectors.cosines(mem.vectors.embed_query("地铁 SQLite"), [ids[2], ids[0]])
    message = {"op": "cosines", "model": FakeEmbedder.name, "store": str(tmp_path / "m.db")}
    asked = {**message, "text": "地铁 SQLite", "ids": [ids[2], ids[0], "gone"], **NOW}
    warm = Service().handle(asked)
    assert set(warm["cosines"]) == {ids[0], ids[2]} == set(local)
    assert all(abs(warm["cosines"][i] - local[i]) < 1e-6 for i in local)


def test_the_service_cuts_chinese_as_jieba_does_here(home: Path) -> None:
    runs = ["测试数据库用", "部署脚本改到了"]
    asked = {"op": "cut", "runs": runs, "protocol": PROTOCOL}
    assert Service().handle(asked) == {"cuts": text.cut_for_search(runs)}
    client = WarmClient(home)
    assert client.cut(runs) is None  # none running: never started for a cut
    remem(home, "save", FACTS[0])  # starts the service
    assert client.cut(runs) == text.cut_for_search(runs)


def test_keyword_only_commands_cut_through_a_running_service(home: Path) -> None:
    remem(home, "save", FACTS[0])  # starts the service (the fake embedder's)
    code = (
        "import sys, contextlib, io\nfrom remem.cli import main\nout = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "    main(['--project', 'p', 'search', '测试数据库', '--json'])\n"
        "print('rjieba' in sys.modules, '测试数据库用 SQLite' in out.getvalue())"
    )
    env = {**os.environ, "REMEM_HOME": str(home), "REMEM_EMBEDDER": "none"}
    for warm, loaded in (("1", "False"), ("0", "True")):  # jieba here only without it
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**env, "REMEM_WARM": warm}, timeout=60)  # fmt: skip
        assert run.stdout.split() == [loaded, "True"], run.stderr


def test_a_keyword_only_command_asks_only_a_running_service(
    tmp_path: Path, monkeypatch: Any
) -> None:
    settings = Settings.resolve(db=tmp_path / "m.db", env={"REMEM_HOME": str(tmp_path)})
    monkeypatch.setenv("REMEM_WARM", "1")
    client = one_shot_cutter(settings, None)
    assert isinstance(client, WarmClient) and client.cut(["测试"]) is None  # none started
    assert not (tmp_path / "run").exists()
    warm = WarmEmbedder(FakeEmbedder(), WarmClient(tmp_path))
    assert one_shot_cutter(settings, warm) is warm.client
    assert one_shot_cutter(settings, FakeEmbedder()) is None  # in-process: jieba here
    monkeypatch.setenv("REMEM_WARM", "0")
    assert one_shot_cutter(settings, None) is None


def test_the_service_runs_blas_on_one_thread_unless_the_user_chose(monkeypatch: Any) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    env = service_env()
    assert env["OPENBLAS_NUM_THREADS"] == "1" and env["OMP_NUM_THREADS"] == "2"
    assert "OPENBLAS_NUM_THREADS" not in os.environ  # only the service's own


def _answer(service: Service, message: dict[str, Any]) -> dict[str, Any]:
    from remem.retrieval.warm_service import _answer as answer

    return answer(service, {**message, **NOW})


def test_a_service_of_an_older_remem_is_replaced(home: Path) -> None:
    """One started before an upgrade knows no protocol and not every request: the
    client stops it and starts its own (an upgrade never leaves stale answers)."""
    import socket
    import threading

    from remem.retrieval.warm import receive, send

    run = home / "run"
    run.mkdir(parents=True)
    old = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old.bind(str(run / "vectors.sock"))
    old.listen(4)
    asked: list[str] = []

    def serve_old() -> None:
        while True:
            conn, _ = old.accept()
            with conn:
                op = str(receive(conn).get("op"))
                asked.append(op)
                if op == "stop":
                    send(conn, {"ok": True})
                    (run / "vectors.sock").unlink()
                    return
                send(conn, {"ok": True} if op == "ping" else {"error": f"unknown request {op!r}"})

    thread = threading.Thread(target=serve_old, daemon=True)
    thread.start()
    client = WarmClient(home, idle=30)
    vectors = WarmEmbedder(FakeEmbedder(), client).embed(["测试数据库"])
    thread.join(10)
    old.close()
    assert vectors.shape[0] == 1 and asked[-1] == "stop"
    status = client.status()
    assert status is not None and status["protocol"] == PROTOCOL


def test_only_local_models_of_file_stores_go_warm(tmp_path: Path, monkeypatch: Any) -> None:
    settings = Settings.resolve(db=tmp_path / "m.db", env={"REMEM_HOME": str(tmp_path)})
    monkeypatch.setenv("REMEM_EMBEDDER", "fake")
    monkeypatch.setenv("REMEM_WARM", "1")
    assert isinstance(one_shot_embedder(settings), WarmEmbedder)
    server = Settings.resolve(db="postgresql://u@h/db", env={"REMEM_HOME": str(tmp_path)})
    assert isinstance(one_shot_embedder(server), FakeEmbedder)  # HNSW in the server
    monkeypatch.setenv("REMEM_WARM", "0")
    assert isinstance(one_shot_embedder(settings), FakeEmbedder)
    monkeypatch.setenv("REMEM_EMBEDDER", "none")
    assert one_shot_embedder(settings) is None


def test_the_service_embeds_a_query_with_the_names_it_carries(tmp_path: Path) -> None:
    from remem import Memory

    with Memory(tmp_path / "m.db", project="p", embedder=FakeEmbedder()) as mem:
        ids = [mem.save(fact).entry.id for fact in FACTS]
        mem.reindex()
        assert mem.vectors is not None
        query = "Where does Alice keep SQLite"
        named = mem.vectors.cosines(mem.vectors.embed_query(query, ["Alice"]), ids)
        plain = mem.vectors.cosines(mem.vectors.embed_query(query), ids)
    assert any(abs(named[i] - plain[i]) > 1e-3 for i in ids)  # the names change the vector
    message = {"op": "cosines", "model": FakeEmbedder.name, "store": str(tmp_path / "m.db")}
    asked = {**message, "text": query, "names": ["Alice"], "ids": ids, **NOW}
    warm = Service().handle(asked)["cosines"]
    assert all(abs(warm[i] - named[i]) < 1e-6 for i in ids)
    near = {**asked, "op": "nearest", "n": len(ids)}
    hits = dict(Service().handle(near)["hits"])  # from the matrix (float16): to 1e-3
    assert hits.keys() == named.keys() and all(abs(hits[i] - named[i]) < 1e-3 for i in ids)
