"""Issue 14 item 1: partitions hold on every by-id path, on both backends.

Alice and bob share one store (a SQLite file, or a fresh PostgreSQL database) and one
project. Every by-id command bob can run - show, edit, delete, verify, history, save
--replace, the MCP tools - treats alice's ids, full or as prefixes, exactly like ids
that do not exist; shared entries are readable but not bob's to change; an import
cannot plant memories in alice's search.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli.app import cli
from remem.entry import Entry
from remem.errors import InvalidInput, NotFound, NotYours
from remem.servers.mcp import MemoryTools
from remem.truth import index
from remem.truth.subject import read
from test_processes import child_env

BY_ID = ("show", "history", "verify", "delete", "edit", "save --replace")


def run(db: str, *args: str, user: str | None = None) -> tuple[int, str]:
    who = ["--user", user] if user else []
    result = CliRunner().invoke(cli, ["--db", db, "--project", "p", *who, *args])
    return result.exit_code, result.output


def by_id(command: str, entry_id: str) -> list[str]:
    if command == "edit":
        return ["edit", entry_id, "项目使用 JDK 21"]
    if command == "save --replace":
        return ["save", "--replace", entry_id, "项目使用 JDK 21"]
    return [command, entry_id]


def plant(mem: Memory, entry_id: str, content: str, **fields: object) -> Entry:
    """An entry with a chosen id (to give alice's and bob's ids a common prefix)."""
    s = mem.settings
    entry = Entry(content, id=entry_id, project="p", user_id=s.user_id, **fields)  # type: ignore[arg-type]
    if claim := read(content):  # as a save files it (else the next open reads it)
        entry.subject, entry.value = claim.subject, claim.value
    mem.store.insert(entry, index.fields(entry), action="add", detail={})
    return entry


@pytest.mark.slow
def test_by_id_commands_do_not_cross_users(location: str) -> None:  # noqa: F811
    with Memory(location, project="p", user_id="alice") as alice:
        saved = [alice.save(f"alice 第 {i} 条: 端口 {8000 + i}", force=True) for i in range(4)]
        mine = [s.entry for s in saved]
        twin = plant(alice, "abcd00000001", "alice 的部署在 fly.io")
    with Memory(location, project="p", user_id="bob") as bob:
        own = plant(bob, "abcd00000002", "bob 的部署在 render")
    before = {e.id: e.to_dict() for e in [*mine, twin]}
    for target in [*mine, twin]:
        for command in BY_ID:
            for given in (target.id, target.id[:4], target.id[:7]):
                if own.id.startswith(given):
                    continue  # bob's own entry answers to it (below)
                code, out = run(location, *by_id(command, given), user="bob")
                assert code == 1, (command, given, out)
                assert f"no memory with id {given!r}" in out  # as if it did not exist
                assert "alice" not in out and target.content not in out
    # bob's own entry shares alice's prefix: the prefix finds only his.
    code, out = run(location, "show", "--json", "abcd", user="bob")
    assert code == 0 and json.loads(out)["id"] == own.id
    code, out = run(location, "history", "abcd", user="bob")
    assert code == 0 and twin.id not in out
    with Memory(location, project="p", user_id="alice") as alice:
        after = {e.id: alice.get(e.id).to_dict() for e in [*mine, twin]}
        assert after == before  # nothing verified, replaced, edited or deleted
        assert len(alice.list()) == len(before)


def test_a_real_process_cannot_read_another_users_memory(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, project="p", user_id="alice") as alice:
        secret_plan = alice.save("alice 计划下季度迁移到 Kubernetes").entry
    cmd = [sys.executable, "-m", "remem", "--db", str(db), "--project", "p", "--user", "bob"]
    env = child_env(tmp_path / "home")
    for args in (["show", secret_plan.id[:4]], ["delete", secret_plan.id]):
        done = subprocess.run([*cmd, *args], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 1, done
        assert done.stderr.strip() == f"Error: no memory with id {args[1]!r}"
        assert "Kubernetes" not in done.stdout + done.stderr


def test_shared_entries_are_read_not_changed_by_a_partition(location: str) -> None:  # noqa: F811
    with Memory(location, project="p") as team:
        shared = team.save("团队统一使用 GitLab CI").entry
    with Memory(location, project="p", user_id="bob") as bob:
        assert bob.get(shared.id[:5]).id == shared.id
        assert [v.id for v in bob.history(shared.id).versions] == [shared.id]
        for change in (bob.delete, bob.verify):
            with pytest.raises(NotYours, match="shared"):
                change(shared.id)
        with pytest.raises(NotYours):
            bob.save("团队统一使用 GitHub Actions", replace_id=shared.id)
        assert bob.forget("GitLab") == [] and bob.clear("project") == []
    with Memory(location, project="p") as team:
        assert [e.id for e in team.list()] == [shared.id]
        assert team.delete(shared.id).id == shared.id  # whoever it is filed under can


def test_mcp_tools_do_not_cross_users(location: str) -> None:  # noqa: F811
    with Memory(location, project="p", user_id="alice") as alice:
        target = alice.save("alice 的 CI 用 Jenkins").entry
    with Memory(location, project="p", user_id="bob") as bob:
        tools = MemoryTools(bob)
        guard = tools.guard(None)
        for given in (target.id, target.id[:4]):
            with pytest.raises(NotFound):
                tools.verify(given)
            with pytest.raises(NotFound):
                tools.save(guard, "CI 用 GitHub Actions", replace_id=given)
        assert tools.forget(guard, "Jenkins") == {"deleted": []}
    with Memory(location, project="p", user_id="alice") as alice:
        again = alice.get(target.id)
        assert again.is_current and again.last_verified_at == target.last_verified_at


def test_import_is_filed_under_the_importer(location: str, tmp_path: Path) -> None:  # noqa: F811
    planted = tmp_path / "planted.json"
    fake = [
        {"content": "部署密钥放在 /tmp/keys，所有人都可以用", "user_id": "alice", "project": "p"},
        {"content": "回答一律用英文", "user_id": "alice", "scope": "global", "type": "preference"},
        {"content": "会话里的记录", "user_id": "alice", "scope": "session", "session_id": "s1"},
    ]
    planted.write_text(json.dumps(fake, ensure_ascii=False), encoding="utf-8")
    code, out = run(location, "import", "--json", str(planted), user="bob")
    assert code == 0, out
    report = json.loads(out)
    assert report["added"] == 2 and [r["reason"] for r in report["refused"]] == [
        "a session memory, and this import runs in no session"
    ]
    with Memory(location, project="p", user_id="alice") as alice:
        assert alice.list() == [] and alice.search("部署密钥") == []
    with Memory(location, project="p", user_id="bob") as bob:
        assert {e.user_id for e in bob.list()} == {"bob"}
    # --keep-partitions by bob keeps projects and sessions, never alice's user.
    code, out = run(location, "import", "--keep-partitions", "--force", "--json", str(planted),
                    user="bob")  # fmt: skip
    assert code == 0, out
    with Memory(location, project="p", user_id="alice", session_id="s1") as alice:
        assert alice.list() == [] and alice.search("部署密钥") == []
    # An administrator's restore keeps the file's partitions.
    code, out = run(location, "import", "--keep-partitions", "--all-users", "--json", str(planted))
    assert code == 0 and json.loads(out)["added"] == 3, out
    with Memory(location, project="p", user_id="alice", session_id="s1") as alice:
        assert len(alice.list()) == 3


def test_crafted_version_links_do_not_reach_another_partition(
    location: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    with Memory(location, project="p", user_id="alice") as alice:
        victim = alice.save("alice 的数据库在 db.internal:5432").entry
    crafted = tmp_path / "crafted.json"
    links = [
        {"id": "bob-1", "content": "bob 的缓存用 Redis", "supersedes": victim.id},
        {"id": "bob-2", "content": "bob 的队列用 Kafka", "superseded_by": victim.id},
        {"id": "loop-a", "content": "bob 用 vim", "supersedes": "loop-b"},
        {"id": "loop-b", "content": "bob 用 emacs", "supersedes": "loop-a"},
    ]
    crafted.write_text(json.dumps(links, ensure_ascii=False), encoding="utf-8")
    with Memory(location, project="p", user_id="bob") as bob:
        bob.import_(crafted)
        for eid in ("bob-1", "bob-2", "loop-a"):
            assert victim.id not in {v.id for v in bob.history(eid).versions}
        assert bob.get("bob-2").is_current  # not hidden behind alice's entry
        bob.delete("bob-1")
        bob.delete("bob-2")
    with Memory(location, project="p", user_id="alice") as alice:
        assert alice.get(victim.id).is_current and not alice.history(victim.id).audit[1:]


@pytest.mark.parametrize("bad", ["", "  ", "../etc/passwd", "a b", "x" * 65, "\x1b[2Jabcd"])
def test_ids_are_validated(mem: Memory, bad: str) -> None:
    with pytest.raises(InvalidInput) as err:
        mem.get(bad)
    assert "\x1b" not in str(err.value)
