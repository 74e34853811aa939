"""Issue 29, partitions and files: no command writes over a store, its log or a file
that is not a store; a command that only reads creates and renames nothing; special
files are refused at once; a damaged store is kept aside whole before any write and
never acknowledged into; stores are private; export stays in the caller's partition.
Real processes (`python -m remem`) on real files."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli.app import cli as remem_cli
from remem.errors import InvalidInput
from remem.store.sqlite.damage import rescue_line
from test_processes import PROJECT, Cli, corrupt_siblings, show

WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
    "november oscar papa quebec romeo sierra tango uniform victor whiskey xray"
).split()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "memory.db"


@pytest.fixture
def cli(tmp_path: Path, store_path: Path) -> Cli:
    return Cli(db=store_path, home=tmp_path / "home")


def sentences(n: int, seed: int = 1) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(n):
        yield " ".join(rng.choice(WORDS) for _ in range(12))


def crashed_store(db: Path, saved: int = 200, unflushed: int = 50) -> None:
    """`db` and its write-ahead log as a process killed mid-work leaves them: `saved`
    memories in the file, `unflushed` more only in the log."""
    live = db.with_name("live.db")
    db.parent.mkdir(parents=True, exist_ok=True)
    mem = Memory(live, project=PROJECT, embedder=None)
    conn = mem.store._conn  # type: ignore[attr-defined]
    conn.execute("PRAGMA wal_autocheckpoint=0")
    texts = sentences(saved + unflushed)
    for _ in range(saved):
        mem.save(next(texts), force=True)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for _ in range(unflushed):
        mem.save(next(texts), force=True)
    shutil.copy(live, db)
    shutil.copy(live.with_name("live.db-wal"), db.with_name(db.name + "-wal"))
    mem.close()
    live.unlink()


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# -- no command writes over a store, its log, or a file it did not make ----------------------
@pytest.mark.slow
def test_export_never_writes_over_a_store_its_log_or_a_foreign_file(
    cli: Cli, store_path: Path, tmp_path: Path
) -> None:
    assert cli("save", "The kestrel cluster runs Postgres 16").returncode == 0
    notes = tmp_path / "notes.md"
    notes.write_text("# my own notes\n", encoding="utf-8")
    before = store_path.read_bytes()
    side = store_path.with_name
    fifo = tmp_path / "a-fifo"  # never a real device: a regression run as root replaces it
    os.mkfifo(fifo)
    targets = [store_path, side("memory.db-wal"), side("memory.db-shm"),
               side("memory.db-state"), notes, fifo, tmp_path]  # fmt: skip
    for target in targets:
        proc = cli("export", str(target))
        assert proc.returncode in (1, 2), show(proc)  # 2: click's own "is a directory"
        lines = [line for line in proc.stderr.splitlines() if line.startswith("Error")]
        assert len(lines) == 1, show(proc)
        assert "nothing was written" in lines[0] or "directory" in lines[0], show(proc)
    assert store_path.read_bytes() == before and notes.read_text() == "# my own notes\n"
    assert fifo.is_fifo()
    assert not store_path.with_name("memory.db-wal").exists()
    listed = cli("list", "--json")
    assert [e["content"] for e in json.loads(listed.stdout)] == [
        "The kestrel cluster runs Postgres 16"
    ]
    # A new file, and an earlier export, are written.
    backup = tmp_path / "backup.json"
    assert cli("export", str(backup)).returncode == 0
    assert cli("export", str(backup)).returncode == 0
    assert json.loads(backup.read_text())["format"] == "remem-export"
    full = cli("export", "-", input=None)
    assert full.returncode == 0
    if not stat.S_ISCHR(os.stat("/dev/full").st_mode):
        return  # (a redirection would create a file there)
    with open("/dev/full", "w") as full_disk:  # stdout on a full disk: a failure, not "Exported"
        to_full = subprocess.run(
            [cli.python, "-m", "remem", "--db", str(store_path), "--project", PROJECT,
             "export", "-"],
            stdout=full_disk, stderr=subprocess.PIPE, text=True, env=_env(cli), timeout=60,
        )  # fmt: skip
    assert to_full.returncode == 1 and "disk is full" in to_full.stderr, to_full.stderr


def test_export_writes_over_an_earlier_export_not_a_file_quoting_its_header(
    tmp_path: Path,
) -> None:
    db = tmp_path / "memory.db"
    with Memory(db, project=PROJECT, embedder=None) as mem:
        mem.save("The heron service deploys from branch main", force=True)
    runner = CliRunner()

    def export(target: Path) -> tuple[int, str]:
        result = runner.invoke(remem_cli, ["--db", str(db), "--project", PROJECT, "export",
                                           str(target)])  # fmt: skip
        return result.exit_code, result.output

    earlier = tmp_path / "earlier.json"
    assert export(earlier)[0] == 0
    header = earlier.read_text().split("\n", 3)
    quoting = {
        "notes.md": '# My notes\n\n {\n "format": "remem-export",\n\nmy own writing\n',
        "tail.json": earlier.read_text() + "MY PRECIOUS NOTES\n",
        "above.json": "a line of my notes\n" + earlier.read_text(),
        "head.json": "\n".join(header[:3]) + "\n",
        "list.json": '[{"format": "remem-export"}]',
    }
    for name, text in quoting.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        code, output = export(tmp_path / name)
        assert code == 1 and "not a file remem made" in output, (name, output)
        assert (tmp_path / name).read_text(encoding="utf-8") == text
    compact = tmp_path / "compact.json"  # an earlier export in any spacing is one
    compact.write_text(json.dumps(json.loads(earlier.read_text()), separators=(",", ":")))
    for target in (earlier, compact):
        assert export(target)[0] == 0
        assert json.loads(target.read_text())["format"] == "remem-export"


def _env(cli: Cli) -> dict[str, str]:
    from test_processes import child_env

    return child_env(cli.home)


@pytest.mark.parametrize("command", [["search", "x"], ["list"], ["stats"], ["context", "x"],
                                     ["show", "abcd1234"], ["export", "out.json"],
                                     ["token", "list"], ["review"]])  # fmt: skip
def test_a_read_only_command_creates_and_renames_nothing(
    cli: Cli, tmp_path: Path, command: list[str]
) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    notes = folder / "notes.txt"
    notes.write_text("my notes, not a store\n", encoding="utf-8")
    proc = cli(*command, db=notes)
    assert proc.returncode == 1, show(proc)
    assert proc.stderr.count("\n") == 1 and "not a remem store" in proc.stderr, show(proc)
    assert files_in(folder) == {"notes.txt": b"my notes, not a store\n"}
    # No store at all: answers as empty, creates neither the file nor its folder.
    missing = tmp_path / "nowhere" / "memory.db"
    proc = cli(*command, db=missing)
    assert "Traceback" not in proc.stderr, show(proc)
    if command[0] != "export":
        assert not missing.parent.exists(), show(proc)


SAVE_KIWI = ["save", "The kiwi service listens on port 7040"]


@pytest.mark.parametrize("command", [["search", "kiwi"], ["list"], ["stats"], ["export", "-"],
                                     SAVE_KIWI])  # fmt: skip
def test_another_programs_sqlite_database_is_refused_untouched(
    cli: Cli, tmp_path: Path, command: list[str]
) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    app = folder / "app.sqlite"
    conn = sqlite3.connect(app)
    conn.execute("CREATE TABLE customers (name TEXT)")
    conn.execute("INSERT INTO customers VALUES ('acme')")
    conn.commit()
    conn.close()
    before = files_in(folder)
    proc = cli(*command, db=app)
    assert proc.returncode == 1, show(proc)
    assert proc.stderr.count("\n") == 1 and "not a remem store" in proc.stderr, show(proc)
    assert files_in(folder) == before


def test_an_empty_sqlite_database_or_file_opens_as_a_new_store(tmp_path: Path) -> None:
    empty_file, empty_db = tmp_path / "empty.db", tmp_path / "fresh.db"
    empty_file.write_bytes(b"")
    sqlite3.connect(empty_db).execute("PRAGMA user_version = 0").connection.close()
    for path in (empty_file, empty_db):
        with Memory(path, project=PROJECT, embedder=None) as mem:
            mem.save("The kiwi service listens on port 7040", force=True)
        with Memory(path, project=PROJECT, embedder=None) as mem:
            assert len(mem.list()) == 1


def test_sessions_show_reads_only_this_projects_ledgers(cli: Cli, tmp_path: Path) -> None:
    cli.home.mkdir(parents=True, exist_ok=True)
    ledger_like = tmp_path / "elsewhere.jsonl"
    ledger_like.write_text('{"v": 1, "type": "session_start"}\n', encoding="utf-8")
    for target in ("/etc/passwd", str(ledger_like), "../../../etc/passwd.jsonl"):
        proc = cli("sessions", "show", target)
        assert proc.returncode == 2, show(proc)
        assert "not a session ledger of this project" in proc.stderr
        assert "root:" not in proc.stdout + proc.stderr


# -- special files ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["import", "{f}"],
        ["add-messages", "{f}"],
        ["extract", "--file", "{f}"],
        ["compact", "{f}", "--window", "2000"],
        ["--db", "{f}", "list"],
        ["--db", "{f}", "save", "x"],
        ["sessions", "show", "{f}"],
    ],  # fmt: skip
    ids=["import", "add-messages", "extract", "compact", "db-list", "db-save", "sessions"],
)
def test_special_files_are_refused_at_once(cli: Cli, tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for special in (str(fifo), "/dev/zero", "/dev/urandom", str(tmp_path)):
        proc = cli(*[a.replace("{f}", special) for a in args], timeout=20)  # a hang fails
        assert proc.returncode in (1, 2), show(proc)
        errors = [line for line in proc.stderr.splitlines() if line.startswith("Error")]
        assert "Traceback" not in proc.stderr and len(errors) == 1, show(proc)


def test_a_nul_byte_in_the_store_location_is_a_clean_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="NUL"):
        Memory(str(tmp_path / "a\x00b.db"))
    result = CliRunner().invoke(remem_cli, ["--db", "a\x00b.db", "list"])
    assert result.exit_code == 2 and "NUL" in result.output and result.exception is not None
    assert isinstance(result.exception, SystemExit)


# -- private files ------------------------------------------------------------------------------
def test_a_new_store_is_0600_in_a_0700_folder_whatever_the_umask(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "private" / "deep" / "memory.db"
    old = os.umask(0)
    try:
        proc = cli("save", "Only I may read this", db=db)
    finally:
        os.umask(old)
    assert proc.returncode == 0, show(proc)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(db.parent.parent.stat().st_mode) == 0o700
    # An existing store keeps its mode, and its log follows it.
    shared = tmp_path / "shared.db"
    Memory(shared, embedder=None).close()
    shared.chmod(0o640)
    with Memory(shared, embedder=None) as mem:
        mem.save("A team note")
        assert stat.S_IMODE(shared.stat().st_mode) == 0o640
        assert stat.S_IMODE(shared.with_name("shared.db-wal").stat().st_mode) == 0o640


# -- damaged stores -----------------------------------------------------------------------------
CUTS = {"empty": 0, "mid-page": 150_123, "page-20": 20 * 4096}


@pytest.mark.parametrize("cut", list(CUTS), ids=list(CUTS))
@pytest.mark.slow
def test_a_store_truncated_beside_its_log_is_kept_aside_before_any_write(
    cli: Cli, store_path: Path, cut: str
) -> None:
    crashed_store(store_path)
    os.truncate(store_path, CUTS[cut])
    damaged = files_in(store_path.parent)
    # A command that only reads says so and changes nothing (never "0 memories").
    listed = cli("list", "--json")
    assert listed.returncode == 1 and "damaged" in listed.stdout, show(listed)
    assert files_in(store_path.parent) == damaged | _shm(store_path.parent)
    # A save keeps the damaged file and its log aside, whole, says so, then saves anew.
    saved = cli("save", "A memory after the crash")
    assert saved.returncode == 0, show(saved)
    kept = corrupt_siblings(store_path)
    assert len(kept) == 1, show(saved)
    notice = saved.stderr.strip().splitlines()
    assert len(notice) == 1 and str(kept[0]) in notice[0], show(saved)
    assert kept[0].read_bytes() == damaged["memory.db"]
    assert kept[0].with_name(kept[0].name + "-wal").read_bytes() == damaged["memory.db-wal"]
    con = sqlite3.connect(store_path)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert [r[0] for r in con.execute("SELECT content FROM entries")] == [
        "A memory after the crash"
    ]
    con.close()


# A process that keeps the store open, a row in its log not yet in the file, until killed.
HOLDER = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA wal_autocheckpoint=0")
con.execute("INSERT INTO meta VALUES ('held', 'yes')")
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.slow  # real processes
def test_a_damaged_store_another_process_has_open_is_not_moved_from_under_it(
    cli: Cli, store_path: Path
) -> None:
    # Sizes read while another process writes can look damaged; and a store really damaged
    # while in use would be torn from under its user: either way it is left where it is.
    assert cli("save", "The heron service listens on port 7000").returncode == 0
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(store_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        os.truncate(store_path, 0)  # certain damage: an empty file beside a log
        before = files_in(store_path.parent)
        saved = cli("save", "The otter service listens on port 7001")
        assert saved.returncode == 1 and "open in another process" in saved.stderr, show(saved)
        assert saved.stderr.count("\n") == 1
        assert corrupt_siblings(store_path) == []
        assert files_in(store_path.parent).keys() == before.keys()
    finally:
        holder.kill()
        holder.communicate()  # (closes its pipes)
    saved = cli("save", "The otter service listens on port 7001")  # no one else: set aside
    assert saved.returncode == 0 and len(corrupt_siblings(store_path)) == 1, show(saved)


def test_a_store_cut_short_by_a_byte_is_damaged_not_a_traceback(cli: Cli, store_path: Path) -> None:
    store_path.parent.mkdir(parents=True)
    with Memory(store_path, project=PROJECT, embedder=None) as mem:
        for n, name in enumerate(["heron", "otter", "bison", "falcon", "walrus", "zebra"]):
            mem.save(f"The {name} service listens on port {7000 + n}", force=True)
    assert not store_path.with_name("memory.db-wal").exists()
    os.truncate(store_path, store_path.stat().st_size - 1)  # SQLite's quick check passes
    damaged = store_path.read_bytes()
    listed = cli("list")
    assert listed.returncode == 1 and "Traceback" not in listed.stderr, show(listed)
    assert listed.stderr.count("\n") == 1 and "whole number of pages" in listed.stderr
    saved = cli("save", "The quokka service listens on port 9999")
    assert saved.returncode == 0 and "Traceback" not in saved.stderr, show(saved)
    kept = corrupt_siblings(store_path)
    assert len(kept) == 1 and kept[0].read_bytes() == damaged, show(saved)
    assert str(kept[0]) in saved.stderr


def test_a_stored_row_that_does_not_parse_is_a_one_line_error(cli: Cli, store_path: Path) -> None:
    store_path.parent.mkdir(parents=True)
    with Memory(store_path, project=PROJECT, embedder=None) as mem:
        mem.save("The heron service listens on port 7000", metadata={"team": "blue"})
    conn = sqlite3.connect(store_path)  # whole pages, SQLite's checks pass: the text changed
    conn.execute("""UPDATE entries SET metadata = '{"team" "blue"}'""")
    conn.commit()
    conn.close()
    for args in (["list"], ["save", "The heron service listens on port 7001"]):
        proc = cli(*args)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, show(proc)
        assert proc.stderr.count("\n") == 1 and "damaged" in proc.stderr, show(proc)


def _shm(folder: Path) -> dict[str, bytes]:
    # A read-only look may leave SQLite's shared-memory index beside the log (never data).
    return {p.name: p.read_bytes() for p in folder.glob("*-shm")}


@pytest.mark.slow
def test_an_unclean_but_whole_store_is_checked_and_kept(cli: Cli, store_path: Path) -> None:
    crashed_store(store_path)
    proc = cli("save", "Still here after the crash")
    assert proc.returncode == 0 and proc.stderr == "", show(proc)
    assert corrupt_siblings(store_path) == []
    with Memory(store_path, project=PROJECT, embedder=None) as mem:
        assert len(mem.list(limit=None)) == 251


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 command")
@pytest.mark.parametrize("damage", ["intact", "a-bad-page"])
def test_the_printed_rescue_line_recovers_rows(tmp_path: Path, damage: str) -> None:
    db = tmp_path / "memory.db"
    with Memory(db, project=PROJECT, embedder=None) as mem:
        for text in sentences(300):
            mem.save(text, force=True)
    if damage == "a-bad-page":
        with db.open("r+b") as fh:
            fh.seek(60 * 4096)
            fh.write(b"\xff" * 4096)
    line = rescue_line(db)
    subprocess.run(line, shell=True, capture_output=True, timeout=120, check=False)
    rescued = tmp_path / "memory.db.rescued.db"
    count = sqlite3.connect(rescued).execute("SELECT count(*) FROM entries").fetchone()[0]
    assert count == 300 if damage == "intact" else 250 <= count < 300
    with Memory(rescued, project=PROJECT, embedder=None) as mem:  # a store remem opens
        assert len(mem.list(limit=None)) == count


# -- partitions ---------------------------------------------------------------------------------
def test_export_stays_in_the_callers_partition(tmp_path: Path) -> None:
    db = tmp_path / "team.db"
    for user in ("alice", "bob", None):
        with Memory(db, project="p", user_id=user, embedder=None) as mem:
            mem.save(f"{user or 'shared'} keeps the runbook in the {user or 'team'} wiki")
    runner = CliRunner()

    def exported(*args: str) -> set[str | None]:
        out = tmp_path / "out.json"
        out.unlink(missing_ok=True)
        result = runner.invoke(remem_cli, ["--db", str(db), "--project", "p", *args, str(out)])
        assert result.exit_code == 0, result.output
        return {e["user_id"] for e in json.loads(out.read_text())["entries"]}

    assert exported("--user", "bob", "export", "--all") == {"bob", None}
    assert exported("export", "--all") == {None}
    assert exported("export", "--all-users") == {"alice", "bob", None}


def test_memory_colon_memory_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sqlite3's name for a store in memory would have made a file of that name here
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidInput, match="keeps memories in a file"):
        Memory(":memory:", embedder=None)
    assert list(tmp_path.iterdir()) == []
