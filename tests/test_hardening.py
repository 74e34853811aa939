"""Issue 14 items 7, 11-14: secrets kept out of session files, a full disk named, long
imports that let saves through, a newer store left alone, and no tracebacks or hangs on
odd input - with real processes, files and file-size limits, on both backends."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from remem import Memory
from remem.context.ledger import SessionLedger, read_events
from remem.context.offload import Offloader
from remem.errors import StoreError
from remem.store.sqlite.store import SQLiteStore
from test_processes import child_env

SECRET = "数据库密码是 Hunter2!xyz"


def remem(
    home: Path, *args: str, stdin: bytes | None = None, fsize: int | None = None,
    cwd: Path | None = None, timeout: float = 60,
) -> subprocess.CompletedProcess[bytes]:  # fmt: skip
    """`remem ARGS` in a real process; `fsize` caps the bytes it may write to any file."""

    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "remem", *args], input=stdin, capture_output=True,
        env=child_env(home), preexec_fn=limit, timeout=timeout, cwd=cwd,
    )  # fmt: skip


def one_line_error(done: subprocess.CompletedProcess[bytes]) -> str:
    err = done.stderr.decode("utf-8", "replace").strip()
    assert done.returncode in (1, 2), done
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


# -- 7: session ledgers and offloaded outputs ---------------------------------------------
def test_ledger_and_offloaded_outputs_hold_no_secrets_and_are_private(tmp_path: Path) -> None:
    os.umask(0o022)
    with SessionLedger(tmp_path) as ledger:
        ledger.message({"role": "user", "content": f"连一下库，{SECRET}"})
        ledger.checkpoint([{"role": "user", "content": f"连一下库，{SECRET}"}])
        ledger.event("note", detail={"token": "ghp_16C7e42F292c6912E7710c838347Ae178B4a"})
    raw = ledger.path.read_text(encoding="utf-8")
    assert "Hunter2" not in raw and "ghp_16C7" not in raw and "[REDACTED:password]" in raw
    assert [e["type"] for e in read_events(ledger.path)][-1] == "session_end"
    off = Offloader(tmp_path, ledger.id).process("execute_command", f"{SECRET}\n" + "x" * 9000)
    assert off.path is not None and "Hunter2" not in off.path.read_text(encoding="utf-8")
    for path in (ledger.path, off.path):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for folder in (tmp_path / ".remem", ledger.path.parent, off.path.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


# -- 11: a full disk ------------------------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 64 KB file system (tmpfs), mounted for this test."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                             capture_output=True)  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> None:
    with contextlib.suppress(OSError), open(disk / "filler", "wb") as f:
        while True:
            f.write(b"x" * 4096)
            f.flush()


@pytest.mark.slow
def test_a_full_disk_is_named_and_leaves_nothing_behind(tmp_path: Path, small_disk: Path) -> None:
    home, db = tmp_path / "home", tmp_path / "m.db"
    with Memory(db, project="p") as mem:
        for i in range(60):
            mem.save(f"第 {i} 条项目约定：模块 m{i} 用 Rust 写 " + "说明" * 60, force=True)
    err = one_line_error(remem(home, "--db", str(small_disk / "new.db"), "save", "用 JDK 17"))
    assert "disk is full" in err and "cannot rollback" not in err, err
    (small_disk / "new.db").unlink(missing_ok=True)
    for side in small_disk.glob("new.db*"):
        side.unlink()
    out = small_disk / "out.json"
    old = '{"format": "remem-export", "entries": []}'  # an earlier export: may be replaced
    out.write_text(old, encoding="utf-8")
    done = remem(home, "--db", str(db), "--project", "p", "export", str(out))
    err = one_line_error(done)
    assert "disk is full" in err and "nothing was exported" in err, err
    assert out.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in small_disk.iterdir()) == ["out.json"]  # no temp file
    # The same with a file-size limit (ulimit -f) instead of a full disk.
    done = remem(home, "--db", str(db), "--project", "p", "export", str(tmp_path / "o.json"),
                 fsize=4096)  # fmt: skip
    assert "size limit" in one_line_error(done)
    done = remem(home, "--db", str(tmp_path / "n.db"), "save", "用 JDK 17", fsize=8192)
    assert "size limit" in one_line_error(done)


@pytest.mark.slow
def test_chat_on_a_full_disk_is_one_line(tmp_path: Path, small_disk: Path) -> None:
    project = small_disk / "proj"
    (project / ".git").mkdir(parents=True)
    fill(small_disk)
    done = remem(tmp_path / "home", "chat", "-m", "/memory list", cwd=project)
    err = one_line_error(done)
    assert "disk is full" in err, err


# -- 12: long imports commit in batches ----------------------------------------------------
@pytest.mark.slow
def test_a_long_import_lets_a_concurrent_save_through(tmp_path: Path) -> None:
    db, big = tmp_path / "m.db", tmp_path / "big.json"
    rows = [{"content": f"模块 {i:05d} 的负责人是 团队{i % 97} 号"} for i in range(1200)]
    big.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    Memory(db, project="p").close()
    importer = subprocess.Popen(
        [sys.executable, "-m", "remem", "--db", str(db), "--project", "p", "import", "--force",
         str(big)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(tmp_path / "home"),
    )  # fmt: skip
    saved, errors = [], []
    deadline = time.monotonic() + 60
    while importer.poll() is None and time.monotonic() < deadline:
        # A saver far less patient than the CLI's 30 s, and than the whole import: it
        # waits for one batch at most.
        store = SQLiteStore(db, busy_timeout=4.0)
        try:
            with Memory(project="p", store=store, embedder=None) as mem:
                saved.append(
                    mem.save(f"并发保存的服务 S{len(saved):03d} 的负责人是 小王", force=True).status
                )
        except StoreError as exc:
            errors.append(str(exc))
        time.sleep(0.05)
    out, err = importer.communicate(timeout=60)
    assert importer.returncode == 0, err
    assert errors == [] and len(saved) >= 3, (errors, len(saved))
    with Memory(db, project="p") as mem:
        assert mem.stats().entries == 1200 + len(saved)


@pytest.mark.slow
def test_an_interrupted_import_says_so_and_a_rerun_finishes_it(tmp_path: Path) -> None:
    db, big = tmp_path / "m.db", tmp_path / "big.json"
    rows = [{"content": f"服务 {i:04d} 部署在 机房{i % 7}"} for i in range(450)]
    big.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    Memory(db, project="p").close()
    other = sqlite3.connect(db, isolation_level=None)

    def another_writer_arrives(n: int) -> None:  # after the first batch is committed
        if not other.in_transaction:
            other.execute("BEGIN IMMEDIATE")

    with Memory(project="p", store=SQLiteStore(db, busy_timeout=0.5), embedder=None) as mem:
        with pytest.raises(StoreError) as err:
            mem.import_(big, force=True, progress=another_writer_arrives)
    other.execute("ROLLBACK")
    other.close()
    assert "import stopped after 50 of 450" in str(err.value), err.value
    assert "again" in str(err.value) and "\n" not in str(err.value)
    with Memory(db, project="p") as again:
        result = again.import_(big, force=True)
        assert len(result.duplicates) == 50 and len(result.added) == 400
        assert again.stats().entries == 450


# -- 13: a store made by a newer remem -----------------------------------------------------
def test_a_newer_store_is_read_but_never_written(location: str) -> None:  # noqa: F811
    with Memory(location, project="p") as mem:
        kept = mem.save("项目使用 JDK 17").entry
    _bump_schema(location)
    with Memory(location, project="p") as mem:
        assert [h.entry.id for h in mem.search("JDK")] == [kept.id]  # reads work
        with pytest.raises(StoreError, match="newer remem") as err:
            mem.save("项目使用 Gradle")
        assert "\n" not in str(err.value)
        with pytest.raises(StoreError, match="newer remem"):
            mem.delete(kept.id)
        assert [e.id for e in mem.list()] == [kept.id]


def _bump_schema(where: str) -> None:
    sql = "INSERT INTO schema_migrations VALUES (999, 'from the future', {})"
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            conn.execute(sql.format("now()"))
    else:
        with sqlite3.connect(where) as conn:
            conn.execute(sql.format("'2099-01-01T00:00:00Z'"))


# -- 14: no tracebacks, no hangs -----------------------------------------------------------
@pytest.mark.slow
def test_odd_input_is_one_line_never_a_traceback_or_a_hang(tmp_path: Path) -> None:
    home, db = tmp_path / "home", str(tmp_path / "m.db")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    nested = tmp_path / "nested.json"
    meta: object = "x"
    for _ in range(200):
        meta = {"k": meta}
    nested.write_text(json.dumps([{"content": "ok", "metadata": meta}]), encoding="utf-8")
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    cases = [
        ["--db", db, "import", str(deep)],
        ["--db", db, "import", str(nested)],
        ["--db", db, "forget", os.fsdecode(b"\xff\xfe")],
        ["--db", db, "--project", os.fsdecode(b"\xff"), "list"],
        ["--db", str(fifo), "list"],
        ["--db", str(tmp_path), "list"],
        ["--db", "", "list"],
        ["--db", db, "show", "../../etc/passwd"],
        ["--db", db, "delete", "\x1b[2J" + "a" * 10],
        ["--db", db, "history", "x" * 5000],
    ]
    for args in cases:
        done = remem(home, *args, timeout=30)
        one_line_error(done)
    done = remem(home, "--db", db, "save", "-", stdin=b"\xff\xfe not utf-8")
    assert "not valid UTF-8" in one_line_error(done)
    assert not (home / "memory.db").exists()  # --db "" did not fall back to the default
