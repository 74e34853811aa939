"""Issue 29: a command that only reads never changes a store, not even to upgrade an older
remem's: it reads an upgraded copy in memory and says so in one line, and the file, its
folder and every byte in them stay as they were. A command that writes upgrades it.

The older stores are made by the real older schemas: the migrations as released, applied
up to a version, with entries written in that version's columns."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli.app import cli as remem_cli
from remem.errors import StoreError
from remem.retrieval.embedding import FakeEmbedder
from remem.store.sqlite import reading
from remem.store.sqlite.schema import LATEST, MIGRATIONS
from remem.store.sqlite.store import SQLiteStore
from test_processes import PROJECT, Cli, Unprivileged, show
from test_processes import nobody as nobody  # noqa: F401 (a fixture)

AT = "2026-01-0{}T09:00:00.000000Z"
CONTENTS = (
    "The kiwi service listens on port 7040",
    "测试数据库用 PostgreSQL 16",
    "Deployments go out on Tuesdays",
)
READS = (["search", "kiwi port"], ["search", "测试数据库"], ["list"], ["stats"],
         ["context", "which port does the kiwi service listen on"], ["show", "old0"],
         ["history", "old1"], ["export", "-"], ["token", "list"], ["review", "--json"])  # fmt: skip


def older_store(path: Path, version: int) -> Path:
    """A store as a remem of schema `version` left it: WAL, migrations 1..version (the
    entries written after the first, so that the later ones find them, as they did)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT "
                 "NULL, applied_at TEXT NOT NULL)")  # fmt: skip
    for number, name, run in MIGRATIONS[:version]:
        run(conn)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (number, name, AT.format(1)))
        if number == 1:
            for i, content in enumerate(CONTENTS):
                at = AT.format(i + 1)
                conn.execute(
                    "INSERT INTO entries(id, content, type, scope, project, created_at, "
                    "updated_at, last_verified_at, token_count, source, confidence, metadata, "
                    "facts, linked_paths, canon, skeleton, terms, term_count) VALUES (?, ?, "
                    "'fact', 'project', ?, ?, ?, ?, 9, 'user_explicit', 'confirmed', '{}', "
                    "'{}', '[]', ?, '', ?, ?)",
                    (f"old{i}", content, PROJECT, at, at, at, content.lower(),
                     content.lower(), len(content.split())),
                )  # fmt: skip
    conn.close()
    return path


def folder_state(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file's digest and modification time: what a reader must leave as it was."""
    return {
        p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(folder.iterdir())
    }


def schema_of(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0])
    finally:
        conn.close()


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(db=tmp_path / "store" / "memory.db", home=tmp_path / "home",
               env_extra={"REMEM_EMBEDDER": "none", "REMEM_WARM": "0"})  # fmt: skip


@pytest.mark.parametrize("version", [1, 6, LATEST - 1])
def test_reading_an_older_store_changes_nothing(cli: Cli, version: int) -> None:
    older_store(cli.db, version)
    before = folder_state(cli.db.parent)
    for command in READS:
        proc = cli(*command)
        assert proc.returncode == 0, (command, show(proc))
        notice = [line for line in proc.stderr.splitlines() if "older remem" in line]
        assert len(notice) == 1 and f"schema {version}," in notice[0], show(proc)
        assert folder_state(cli.db.parent) == before, command
    listed = cli("list", "--json")
    assert {e["id"] for e in json.loads(listed.stdout)} == {"old0", "old1", "old2"}
    assert "kiwi" in cli("search", "kiwi port").stdout
    assert "PostgreSQL 16" in cli("search", "测试数据库用什么").stdout


def test_an_older_store_reads_as_it_will_once_upgraded(cli: Cli, tmp_path: Path) -> None:
    """The same hits, scores and entries as the upgraded file gives."""
    older_store(cli.db, 6)
    upgraded = older_store(tmp_path / "upgraded" / "memory.db", 6)
    assert cli("reindex", db=upgraded).returncode == 0  # a command that writes upgrades it
    assert schema_of(upgraded) == LATEST and schema_of(cli.db) == 6
    for command in (["search", "--json", "kiwi port"], ["search", "--json", "测试数据库"],
                    ["list", "--json"], ["history", "--json", "old1"]):  # fmt: skip
        copy, disk = cli(*command), cli(*command, db=upgraded)
        assert copy.returncode == disk.returncode == 0, show(copy)
        assert comparable(copy.stdout) == comparable(disk.stdout), command
        assert "older remem" not in disk.stderr


def comparable(output: str) -> object:
    """A command's JSON without the subjects the upgrade reads from older memories (the
    copy in memory is read without: a reading per memory on every command)."""
    data = json.loads(output)
    items = data["versions"] if isinstance(data, dict) else data
    for item in items:
        entry = item.get("entry", item)
        entry.pop("subject", None), entry.pop("value", None)
    return data


def test_a_command_that_writes_upgrades_the_file(cli: Cli) -> None:
    older_store(cli.db, 6)
    proc = cli("save", "The mango service listens on port 7050")
    assert proc.returncode == 0 and "older remem" not in proc.stderr, show(proc)
    assert schema_of(cli.db) == LATEST
    proc = cli("list")
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout.count("\n") == 4, show(proc)


@pytest.mark.parametrize("kind", ["empty file", "empty database"])
def test_an_empty_store_is_read_as_empty_and_left_empty(cli: Cli, kind: str) -> None:
    cli.db.parent.mkdir(parents=True)
    if kind == "empty file":
        cli.db.write_bytes(b"")
    else:
        sqlite3.connect(cli.db).execute("PRAGMA user_version = 0").connection.close()
    before = folder_state(cli.db.parent)
    for command in READS:
        proc = cli(*command)
        assert "Traceback" not in proc.stderr, show(proc)
        assert folder_state(cli.db.parent) == before, command


def test_the_library_reads_an_older_store_and_refuses_to_write_it(tmp_path: Path) -> None:
    db = older_store(tmp_path / "s" / "old.db", 6)
    before = folder_state(db.parent)
    store = SQLiteStore(db, create=False)  # what a command that only reads opens
    assert store.notices and "older remem" in store.notices[0]
    with Memory(project=PROJECT, store=store, embedder=FakeEmbedder()) as mem:
        assert [h.entry.id for h in mem.search("kiwi service port")][:1] == ["old0"]
        assert "7040" in mem.context_for("kiwi service port")
        with pytest.raises(StoreError, match="does not keep"):
            mem.save("The mango service listens on port 7050")
    assert folder_state(db.parent) == before


def test_an_older_store_too_large_to_copy_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = older_store(tmp_path / "s" / "old.db", 6)
    before = folder_state(db.parent)
    monkeypatch.setattr(reading, "COPY_LIMIT", 1024)
    result = CliRunner().invoke(remem_cli, ["--db", str(db), "--project", PROJECT, "list"])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "older remem" in result.output and "remem reindex" in result.output
    assert folder_state(db.parent) == before


def test_migrate_reads_an_older_source_and_dry_run_target_as_they_are(tmp_path: Path) -> None:
    source = older_store(tmp_path / "src" / "memory.db", 6)
    target = older_store(tmp_path / "dst" / "memory.db", 1)
    before = folder_state(source.parent), folder_state(target.parent)
    runner = CliRunner()
    dry = runner.invoke(remem_cli, ["migrate", "--all-users", "--dry-run", "--from",
                                    str(source), "--to", str(target)])  # fmt: skip
    assert dry.exit_code == 0 and "Would copy 0 of 3" in dry.output, dry.output
    assert (folder_state(source.parent), folder_state(target.parent)) == before
    copy = tmp_path / "copy.db"
    done = runner.invoke(remem_cli, ["migrate", "--all-users", "--from", str(source), "--to",
                                     str(copy)])  # fmt: skip
    assert done.exit_code == 0, done.output
    assert folder_state(source.parent) == before[0] and schema_of(copy) == LATEST
    with Memory(copy, project=PROJECT, embedder=None) as mem:
        assert {e.id for e in mem.list()} == {"old0", "old1", "old2"}


def test_the_older_store_files_are_real(tmp_path: Path) -> None:
    """The helper's stores are what a remem of that version wrote: in WAL mode, without
    the columns of a later schema."""
    db = older_store(tmp_path / "old.db", 6)
    assert db.read_bytes()[18:20] == b"\x02\x02"  # WAL mode, in SQLite's header
    columns = {r[1] for r in sqlite3.connect(db).execute("PRAGMA table_info(entries)")}
    assert "subject" not in columns and "content" in columns


def test_an_older_postgresql_store_is_refused_by_a_reader_not_upgraded(pg_url: str) -> None:
    """A shared database cannot be copied aside to read: a command that only reads says
    so in one line and changes nothing; one that writes upgrades it."""
    import psycopg

    from remem.store.postgres import schema as pg_schema

    older = pg_schema.LATEST - 1
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                     "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)")  # fmt: skip
        for version, name, sql in pg_schema.MIGRATIONS[:older]:
            for statement in pg_schema._statements(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, now())", (version, name))

    def version() -> int:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            return int(conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0])

    runner = CliRunner()
    for command in (["list"], ["search", "kiwi"], ["export", "-"]):
        result = runner.invoke(remem_cli, ["--db", pg_url, "--project", PROJECT, *command])
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        assert f"older remem (schema {older}," in result.output
        assert version() == older
    result = runner.invoke(remem_cli, ["--db", pg_url, "--project", PROJECT, "reindex"])
    assert result.exit_code == 0 and version() == pg_schema.LATEST, result.output


def test_a_reader_on_an_empty_postgresql_database_creates_nothing(pg_url: str) -> None:
    """A database where remem has begun no store reads as empty, like a missing file:
    no table, extension or row is made by a command that only reads."""
    import psycopg

    def tables() -> int:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            found = conn.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
            ).fetchone()
            return int(found[0])

    runner = CliRunner()
    for command in (["list", "--json"], ["search", "kiwi", "--json"], ["export", "-"]):
        result = runner.invoke(remem_cli, ["--db", pg_url, "--project", PROJECT, *command])
        assert result.exit_code == 0, result.output
        assert tables() == 0
    assert json.loads(runner.invoke(remem_cli, ["--db", pg_url, "list", "--json"]).output) == []
    result = runner.invoke(remem_cli, ["--db", pg_url, "--project", PROJECT, "save", "kiwi"])
    assert result.exit_code == 0 and tables() > 0, result.output


def test_an_older_store_another_account_owns_is_read_not_upgraded(
    nobody: Unprivileged,  # noqa: F811
) -> None:
    """A store in a folder the caller may not write is never migrated, by any command: it
    is read from the upgraded copy too, and a write is refused in one line."""
    folder = Path(tempfile.mkdtemp(prefix="remem-old-ro-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        db = older_store(folder / "memory.db", 6)
        db.chmod(0o644)
        before = folder_state(folder)
        cli = Cli(db=db, home=folder / "home", python=nobody.python,
                  env_extra={**nobody.env_extra, "HOME": str(folder), "REMEM_EMBEDDER": "none"},
                  user=nobody.uid, group=nobody.gid)  # fmt: skip
        for command in (["list"], ["search", "kiwi port"], ["reindex"]):
            proc = cli(*command)
            assert proc.returncode == 0 and "older remem" in proc.stderr, show(proc)
        assert "kiwi" in cli("search", "kiwi port").stdout
        proc = cli("save", "The mango service listens on port 7050")
        assert proc.returncode == 1 and proc.stderr.count("Error") == 1, show(proc)
        assert folder_state(folder) == before
    finally:
        shutil.rmtree(folder)
