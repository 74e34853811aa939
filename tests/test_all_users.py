"""Issue 29: `--all-users`, the administrator's flag of export, import and migrate, is
refused beside a user or agent partition (before anything is opened or written) and,
for a store file, to an account that does not own it."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli.app import cli
from test_processes import Cli, Unprivileged, show
from test_processes import nobody as nobody  # noqa: F401 (a fixture)

SECRET = "The zebra project codename is ORCHID"


@pytest.fixture
def team(tmp_path: Path) -> Path:
    db = tmp_path / "team.db"
    with Memory(db, project="p", user_id="alice", embedder=None) as alice:
        alice.save(SECRET)
    with Memory(db, project="p", user_id="bob", embedder=None) as bob:
        bob.save("bob deploys on Fridays")
    return db


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def entry_count(db: Path) -> int:
    with Memory(db, project="p", embedder=None) as mem:
        return sum(1 for _ in mem.store.iter_all())


@pytest.mark.parametrize("who", [["--user", "bob"], ["--agent", "helper"],
                                 ["--user", "bob", "--agent", "helper"]])  # fmt: skip
def test_all_users_is_refused_beside_a_partition(
    team: Path, tmp_path: Path, who: list[str]
) -> None:
    export = tmp_path / "all.json"
    copy = tmp_path / "copy.db"
    plant = tmp_path / "plant.json"
    plant.write_text(json.dumps([{"content": "Disable the firewall before deploys",
                                  "user_id": "alice", "project": "p"}]), "utf-8")  # fmt: skip
    before = entry_count(team)
    tries = {
        "export": ["--db", str(team), "--project", "p", *who, "export", "--all-users",
                   str(export)],
        "export -": ["--db", str(team), "--project", "p", *who, "export", "--all-users", "-"],
        "import": ["--db", str(team), "--project", "p", *who, "import", "--keep-partitions",
                   "--all-users", str(plant)],
        "migrate": [*who, "migrate", "--all-users", "--from", str(team), "--to", str(copy)],
        "migrate --dry-run": [*who, "migrate", "--all-users", "--dry-run", "--from", str(team),
                              "--to", str(copy)],
    }  # fmt: skip
    for name, args in tries.items():
        code, output = invoke(*args)
        assert code == 2, (name, output)
        assert output.count("\n") == 1 and "--all-users" in output, (name, output)
        assert f"cannot run as {' '.join(who[:2])}" in output and "ORCHID" not in output
    assert not export.exists() and not copy.exists()
    assert entry_count(team) == before
    with Memory(team, project="p", user_id="alice", embedder=None) as alice:
        assert alice.search("firewall deploys") == []


def test_all_users_without_a_partition_takes_the_whole_store(team: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.json"
    code, output = invoke("--db", str(team), "--project", "p", "export", "--all-users", str(out))
    assert code == 0, output
    assert {e["user_id"] for e in json.loads(out.read_text())["entries"]} == {"alice", "bob"}
    code, output = invoke("migrate", "--all-users", "--json", "--from", str(team), "--to",
                          str(tmp_path / "all.db"))  # fmt: skip
    assert code == 0 and json.loads(output)["copied"] == 2, output


def test_the_help_says_who_the_administrator_is() -> None:
    for command in ("export", "import", "migrate"):
        code, output = invoke(command, "--help")
        assert code == 0 and "owner" in output and "--user/--agent" in output, output


@pytest.fixture
def shared_store(nobody: Unprivileged) -> Iterator[Cli]:  # noqa: F811
    """A store owned by root, readable by everyone (0644 in a 0755 folder, as a careless
    copy leaves it), and a CLI run as the unprivileged user nobody."""
    folder = Path(tempfile.mkdtemp(prefix="remem-admin-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        db = folder / "team.db"
        with Memory(db, project="demo", user_id="alice", embedder=None) as alice:
            alice.save(SECRET)
        db.chmod(0o644)
        yield Cli(db=db, home=folder / "home", python=nobody.python,
                  env_extra={**nobody.env_extra, "HOME": str(folder), "REMEM_EMBEDDER": "none"},
                  user=nobody.uid, group=nobody.gid)  # fmt: skip
    finally:
        shutil.rmtree(folder)


def test_all_users_is_the_store_owners(shared_store: Cli) -> None:
    """An account that can read a store file but does not own it is not its administrator:
    it reads its own partition (here: nothing), never everyone's."""
    proc = shared_store("export", "--all-users", "-")
    assert proc.returncode == 1 and "ORCHID" not in proc.stdout, show(proc)
    assert proc.stderr.count("\n") == 1 and "owns it" in proc.stderr, show(proc)
    proc = shared_store("export", "--all", "-")
    assert proc.returncode == 0 and "ORCHID" not in proc.stdout, show(proc)
    dst = Path(tempfile.mkdtemp(prefix="remem-admin-dst-", dir="/tmp"))
    try:
        dst.chmod(0o777)
        proc = shared_store("migrate", "--all-users", "--from", str(shared_store.db), "--to",
                            str(dst / "copy.db"))  # fmt: skip
        assert proc.returncode == 1 and "owns it" in proc.stderr, show(proc)
        assert list(dst.iterdir()) == []
    finally:
        shutil.rmtree(dst)
