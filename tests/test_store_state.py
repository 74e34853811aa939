"""Issue 29, what remem last left (`remem.store.sqlite.state`): a store file changed by
something other than remem — bytes over a page, cut short, emptied — is checked and kept
aside before any write; commits lost with the write-ahead log are said; and neither
concurrent writers nor a store made before the record existed raise a false alarm.
Real SQLite files, real child processes where a crash is the point."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from remem import Memory
from remem.errors import StoreError
from remem.files import check_output
from remem.store.sqlite import state
from remem.store.sqlite.store import SQLiteStore
from test_processes import PROJECT, Cli, child_env, corrupt_siblings, show

PAGE = 4096
FACTS = 60


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "memory.db"


@pytest.fixture
def cli(tmp_path: Path, store_path: Path) -> Cli:
    return Cli(db=store_path, home=tmp_path / "home", env_extra={"REMEM_EMBEDDER": "none"})


def fact(i: int) -> str:
    return f"Fact {i}: the service s{i} on host h{i} listens on port {9000 + i} " + "x" * 300


def fill(db: Path, n: int = FACTS) -> None:
    """A store of `n` memories, closed: checkpointed, no -wal left."""
    with Memory(db, project=PROJECT, embedder=None) as mem:
        for i in range(n):
            mem.save(fact(i), force=True)
    assert not db.with_name("memory.db-wal").exists()


_KILLED = """
import os, sys
from remem import Memory
mem = Memory(sys.argv[1], project=sys.argv[2], embedder=None)
for i in range(int(sys.argv[3]), int(sys.argv[4])):
    mem.save(f"Fact {i}: the service s{i} on host h{i} listens on port {9000 + i} " + "x" * 300,
             force=True)
os._exit(0)  # killed: no close, so no checkpoint; the last commits live in the -wal only
"""


def killed_writer(db: Path, start: int, stop: int) -> None:
    subprocess.run(
        [sys.executable, "-c", _KILLED, str(db), PROJECT, str(start), str(stop)],
        check=True,
        env=child_env(db.parent),
    )
    assert db.with_name("memory.db-wal").stat().st_size > 0


def opened(db: Path, *, create: bool = True) -> tuple[list[str], int]:
    """The notices of opening the store, and how many memories it holds."""
    store = SQLiteStore(db, create=create)
    try:
        return store.notices, int(store._q("SELECT count(*) FROM entries")[0][0])
    finally:
        store.close()


def files(folder: Path) -> dict[str, bytes]:
    """The files in `folder` but SQLite's shared-memory index and an empty log, which a
    read-only connection may make (as it always did)."""
    return {
        p.name: p.read_bytes()
        for p in sorted(folder.iterdir())
        if p.is_file()
        and not p.name.endswith("-shm")
        and not (p.name.endswith("-wal") and p.stat().st_size == 0)
    }


def assert_kept_aside_before_any_write(cli: Cli, db: Path, why: str) -> None:
    """A command that only reads says the store is damaged, exits non-zero and changes
    nothing; a save keeps the file whole aside, says so, and saves into a new store."""
    before = files(db.parent)
    listed = cli("list")
    assert listed.returncode == 1 and "damaged" in listed.stderr and why in listed.stderr, show(
        listed
    )
    assert files(db.parent) == before
    saved = cli("save", "--force", "The quokka service listens on port 9999")
    assert saved.returncode == 0 and "kept as" in saved.stderr and why in saved.stderr, show(saved)
    kept = corrupt_siblings(db)
    assert len(kept) == 1 and kept[0].read_bytes() == before["memory.db"]
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("SELECT content FROM entries").fetchall() == [
            ("The quokka service listens on port 9999",)
        ]
    finally:
        con.close()


# -- F3-1: a page written over, the file cut short ------------------------------------------
@pytest.mark.slow  # real processes
def test_random_bytes_over_a_page_of_a_closed_store_are_found_before_any_write(
    cli: Cli, store_path: Path
) -> None:
    fill(store_path)
    pages = store_path.stat().st_size // PAGE
    rng = random.Random(24)
    with store_path.open("r+b") as fh:  # an inner page, the file's size and header unchanged
        fh.seek(pages // 2 * PAGE)
        fh.write(bytes(rng.getrandbits(8) for _ in range(PAGE)))
    con = sqlite3.connect(f"file:{store_path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.DatabaseError):  # (the premise: SQLite would find it)
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    con.close()
    assert_kept_aside_before_any_write(cli, store_path, "changed since remem last wrote it")


@pytest.mark.slow  # real processes
@pytest.mark.parametrize(
    ("killed", "cut"), [(False, 100), (False, PAGE), (True, 100), (True, 5 * PAGE + 100)]
)
def test_a_store_cut_short_is_kept_aside(
    cli: Cli, store_path: Path, killed: bool, cut: int
) -> None:
    # Beside a killed writer's log, a cut to whole pages may lose only pages the log
    # holds again (SQLite reads them from it: no damage); a part page is a cut for certain.
    fill(store_path, 20)
    if killed:
        killed_writer(store_path, 20, 40)
    os.truncate(store_path, store_path.stat().st_size - cut)
    assert_kept_aside_before_any_write(cli, store_path, "")


def test_a_vacuumed_store_is_checked_and_kept(store_path: Path) -> None:
    # Someone's own VACUUM makes the file smaller in whole pages: checked, found sound.
    fill(store_path, 5)
    con = sqlite3.connect(store_path)
    con.execute("CREATE TABLE scratch (b BLOB)")
    con.executemany("INSERT INTO scratch VALUES (?)", [(os.urandom(PAGE),)] * 50)
    con.commit()
    con.close()
    assert opened(store_path) == ([], 5)  # (changed by another program: checked, sound)
    size = store_path.stat().st_size
    con = sqlite3.connect(store_path)
    con.execute("DROP TABLE scratch")
    con.execute("VACUUM")
    con.close()
    assert store_path.stat().st_size < size
    assert opened(store_path) == ([], 5)
    assert corrupt_siblings(store_path) == []


# -- F3-2: emptied ----------------------------------------------------------------------------
@pytest.mark.slow  # real processes
@pytest.mark.parametrize("with_log", [False, True])
def test_an_emptied_store_is_never_taken_for_a_new_one(
    cli: Cli, store_path: Path, with_log: bool
) -> None:
    fill(store_path, 20)
    if with_log:
        killed_writer(store_path, 20, 30)
    os.truncate(store_path, 0)
    assert_kept_aside_before_any_write(cli, store_path, "empty")
    if not with_log:
        listed = cli("list")  # (the new store's record says nothing was lost)
        assert listed.returncode == 0 and listed.stderr == "", show(listed)


def test_an_emptied_store_without_its_log_says_nothing_can_be_rescued(store_path: Path) -> None:
    fill(store_path, 5)
    os.truncate(store_path, 0)
    with pytest.raises(StoreError, match="holds nothing to rescue: restore a backup"):
        SQLiteStore(store_path, create=False)
    notices, held = opened(store_path)
    assert held == 0 and "kept as" in notices[0] and "restore a backup" in notices[0]


def test_a_deleted_store_starts_anew_without_a_word(store_path: Path) -> None:
    # Deleting the store is the user's own act; its record is no guide to the next one.
    fill(store_path, 5)
    store_path.unlink()
    assert state.record_of(store_path).exists()
    assert opened(store_path) == ([], 0)
    assert opened(store_path) == ([], 0)


# -- F3-4: commits lost with the write-ahead log -----------------------------------------------
@pytest.mark.slow  # real processes
@pytest.mark.parametrize("how", ["deleted", "truncated"])
def test_writes_lost_with_the_log_are_said_once(store_path: Path, how: str) -> None:
    fill(store_path, 20)
    killed_writer(store_path, 20, 30)
    wal = store_path.with_name("memory.db-wal")
    if how == "deleted":
        wal.unlink()
        store_path.with_name("memory.db-shm").unlink()
    else:  # cut inside its last frames: SQLite drops the commits they held
        con = sqlite3.connect(f"file:{store_path}?mode=ro", uri=True)
        page = con.execute("PRAGMA page_size").fetchone()[0]
        con.close()
        os.truncate(wal, wal.stat().st_size - 3 * (page + 24))
    notices, held = opened(store_path, create=False)  # a command that only reads says it too
    assert held < 30
    assert len(notices) == 1 and "lacks the last" in notices[0], notices
    assert "write-ahead log was deleted or cut short" in notices[0]
    assert opened(store_path) == ([], held)  # said once; the store goes on
    assert corrupt_siblings(store_path) == []


@pytest.mark.slow  # real processes
def test_a_killed_writer_loses_nothing_and_raises_no_alarm(store_path: Path) -> None:
    fill(store_path, 20)
    killed_writer(store_path, 20, 30)
    assert opened(store_path, create=False) == ([], 30)
    assert opened(store_path) == ([], 30)


# -- no false alarm ---------------------------------------------------------------------------
_ROUNDS = """
import json, random, sys
from remem import Memory
said, rng = [], random.Random(sys.argv[2])
for r in range(int(sys.argv[3])):
    with Memory(sys.argv[1], project="p", embedder=None) as mem:
        said += mem.notices
        for i in range(int(sys.argv[4])):  # six random words: nothing to judge a repeat
            words = ("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7))
                     for _ in range(6))
            assert mem.save(" ".join(words), force=True).status == "added"
print(json.dumps(said))
"""


@pytest.mark.slow  # real processes
def test_concurrent_writers_that_open_and_close_raise_no_alarm(store_path: Path) -> None:
    """Four processes open, save and close in turn on one store while a fifth keeps it
    open (as a server does) and writes too: each commit or close may checkpoint, and
    every record written is a little stale. No notice, nothing kept aside, nothing lost."""
    fill(store_path, 5)
    workers, rounds, each = 4, 6, 8
    server = Memory(store_path, project=PROJECT, embedder=None)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _ROUNDS, str(store_path), str(w), str(rounds), str(each)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(store_path.parent),
        )
        for w in range(workers)
    ]
    try:
        rng = random.Random(0)
        for _ in range(40):
            words = (
                "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7))
                for _ in range(6)
            )
            assert server.save(" ".join(words), force=True).status == "added"
        outs = [proc.communicate(timeout=300) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        server.close()
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err
        assert json.loads(out) == [], out
    assert server.notices == []
    assert opened(store_path) == ([], 5 + 40 + workers * rounds * each)
    assert corrupt_siblings(store_path) == []


def test_two_stores_on_one_file_in_one_process_raise_no_alarm(store_path: Path) -> None:
    fill(store_path, 5)
    one = Memory(store_path, project=PROJECT, embedder=None)
    two = Memory(store_path, project=PROJECT, embedder=None)
    rng = random.Random(1)
    for i in range(30):
        words = (
            "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(6)
        )
        assert (one if i % 2 else two).save(" ".join(words), force=True).status == "added"
    one.close()
    assert opened(store_path) == ([], 35)
    two.close()
    assert opened(store_path) == ([], 35)
    assert one.notices == two.notices == []


# -- stores without a record, records that do not parse --------------------------------------
def test_a_store_made_before_the_record_opens_as_it_always_did(store_path: Path) -> None:
    fill(store_path, 5)
    state.record_of(store_path).unlink()  # as an older remem left it: no record, no
    con = sqlite3.connect(store_path)  # store id or generation
    con.execute("DELETE FROM meta WHERE key IN ('store_id', 'generation')")
    con.execute("DELETE FROM schema_migrations WHERE version >= 10")
    con.commit()
    con.close()
    notices, count = opened(store_path, create=False)  # read from an upgraded copy
    assert count == 5 and len(notices) == 1 and "made by an older remem" in notices[0]
    assert not state.record_of(store_path).exists()  # a command that only reads made none
    assert opened(store_path) == ([], 5)
    left = state.read(store_path)  # the first writable open begins one
    assert left is not None and left.generation == 0
    with Memory(store_path, project=PROJECT, embedder=None) as mem:
        mem.save("one more memory: uno", force=True)
    after = state.read(store_path)
    assert after is not None and after.generation > 0 and after.store_id == left.store_id


@pytest.mark.parametrize("junk", [b"", b"remem-state 1 torn", os.urandom(128)])
def test_a_record_that_does_not_parse_is_no_record(store_path: Path, junk: bytes) -> None:
    fill(store_path, 5)
    state.record_of(store_path).write_bytes(junk)
    assert opened(store_path) == ([], 5)
    assert state.read(store_path) is not None


@pytest.mark.slow  # real processes
def test_the_record_is_private_and_moves_aside_with_its_store(cli: Cli, store_path: Path) -> None:
    fill(store_path, 5)
    record = state.record_of(store_path)
    assert record.stat().st_mode & 0o777 == 0o600
    os.truncate(store_path, 0)
    saved = cli("save", "--force", "The quokka service listens on port 9999")
    assert saved.returncode == 0, show(saved)
    kept = corrupt_siblings(store_path)
    assert state.read(kept[0]) is not None  # the record of the damaged store, beside it
    left = state.read(store_path)
    assert left is not None and left.file == state.file_stat(store_path)


def test_the_note_is_never_written_over_but_another_state_file_is_anyones(
    store_path: Path, tmp_path: Path
) -> None:
    fill(store_path, 1)
    note = state.record_of(store_path)
    with pytest.raises(StoreError, match="belongs to the store"):
        check_output(note)
    mine = tmp_path / "project-state"  # someone's own file that merely ends so
    mine.write_text("my notes", encoding="utf-8")
    check_output(mine)
    stray = tmp_path / "gone.db-state"  # a note whose store is gone is still remem's
    stray.write_bytes(note.read_bytes())
    with pytest.raises(StoreError, match="belongs to the store"):
        check_output(stray)
