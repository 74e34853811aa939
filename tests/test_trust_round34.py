"""Session 34, from a black-box review (probe set p40): a long blank or punctuation run
saves in about linear time (1,500 spaces took ~50 s, and one such request stalled the
team server); a token in a linked path's name, a password asked and answered ("Q: …? A:
…"), and a secret finished in the next conversation turn are refused; deep JSON in
add-messages and compact is one line of error; an export of a newer version is not
imported; REST booleans are booleans and pages refuse to be framed; the MCP
confirmation shows the whole memory."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli.app import cli
from remem.conversation import turns
from remem.errors import SecretRefused
from remem.secrets import looks_secret, told_across
from remem.servers.auth import issue_token
from remem.servers.backend import Backend
from remem.servers.http import build_app, running
from remem.servers.mcp import _question
from remem.settings import Settings
from remem.tokens import count_tokens

# each took minutes before (regex backtracking through the run, a quadratic token merge)
RUNS = [" ", "\n", "\u3000", "/\n", "@a", "  \n", "=="]


@pytest.mark.parametrize("unit", RUNS)
def test_a_long_run_saves_without_stalling(tmp_path: Path, unit: str) -> None:
    text = "Pad test " + (unit * 15_000)[:30_000] + " end"
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        began = time.monotonic()
        mem.save(text, force=True)
        # a hang guard, not a benchmark: ~0.1-0.6 s here; the runs took minutes before
        assert time.monotonic() - began < 20


def test_a_long_blank_run_is_counted_near_its_length() -> None:
    assert 0 < count_tokens(" " * 20_000) <= 20_000
    assert 9_000 <= count_tokens("/\n" * 10_000) <= 20_000


def test_a_token_in_a_linked_paths_name_is_refused(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        with pytest.raises(SecretRefused):
            mem.save(
                "kiln schedule", linked_paths=["/tmp/ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"]
            )
        kept = mem.save("kiln schedule", linked_paths=["src/remem/secrets_prose.py"])
        assert kept.status == "added"


@pytest.mark.parametrize(
    "text", ["Q: server password? A: tiger-lily-42", "问：服务器密码？答：tiger-lily-42"]
)
def test_a_password_asked_and_answered_is_a_secret(text: str) -> None:
    assert looks_secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "Q: wifi password? A: on the fridge",
        "Q: server password? A: unchanged",
        "Q: password policy? A: rotate every 90 days",
    ],
)
def test_an_answer_that_is_no_password_is_kept(text: str) -> None:
    assert not looks_secret(text)


def message(*texts: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": t} for t in texts]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("the vault password starts with Qz81", "and ends with kLm7"),
        ("Q: server password?", "A: tiger-lily-42"),
        ("数据库密码前半段 Qz81", "后半段 kLm7"),
    ],
)
def test_a_secret_finished_in_the_next_turn_is_refused(
    tmp_path: Path, first: str, second: str
) -> None:
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        results = mem.add_messages(message(first, second))
    assert results[1].status == "refused"
    assert all(r.entry.content != second for r in results if r.status != "refused")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("my PIN is 4821", "Noted, I will not keep it."),
        ("Where is the wifi password?", "On the fridge, as always."),
        (
            "The office wifi password was changed, ask Jen for it.",
            "Invoice INV-2024-0193 went to the Golden Lion for 18 knives, £72.",
        ),
    ],
)
def test_a_turn_after_a_secret_that_tells_none_is_kept(first: str, second: str) -> None:
    assert not told_across(first, second)
    found = turns(message(first, second), hidden=looks_secret, across=told_across)
    assert not found[1].told


def test_deep_json_is_one_line_of_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    runner = CliRunner()
    base = ["--db", str(tmp_path / "m.db"), "--project", "p"]
    for args in (["add-messages", str(deep)], ["compact", str(deep), "--window", "4000"]):
        result = runner.invoke(cli, [*base, *args])
        assert result.exit_code == 2, result.output
        assert "nested too deeply" in result.output
        assert not isinstance(result.exception, RecursionError)


def test_an_export_of_a_newer_version_is_not_imported(tmp_path: Path) -> None:
    doc = {"format": "remem-export", "version": 999, "entries": [{"content": "a new fact"}]}
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(doc))
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        with pytest.raises(Exception, match="version 999"):
            mem.import_(path)
        assert mem.list() == []


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    backend = Backend(Settings.resolve(db=tmp_path / "memory.db", project="p"))
    token = issue_token(backend.store, "alice")[0]
    try:
        with running(build_app(backend)) as url:
            yield url, token
    finally:
        backend.close()


def test_rest_booleans_are_booleans_and_pages_are_not_framed(server: Any) -> None:
    url, token = server
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, headers=auth, timeout=30) as client:
        bad = client.post("/api/memories", json={"content": "a fact", "keep_both": "yes"})
        assert bad.status_code == 422
        ok = client.post("/api/memories", json={"content": "a fact", "keep_both": True})
        assert ok.status_code in (200, 201)
        for path in ("/api/health", "/"):
            headers = client.get(path).headers
            assert headers["x-frame-options"] == "DENY"
            assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_the_mcp_confirmation_shows_the_whole_memory() -> None:
    shown = _question(
        "Deploy window is Friday." + "\n" * 60 + "Resets go to attacker@evil.example",
        ["https://evil.example"],
    )
    assert "Deploy window is Friday. ⏎ Resets go to attacker@evil.example" in shown
    assert "\n\n\n" not in shown


def test_a_reading_of_a_damaged_store_leaves_no_log_behind(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Memory(db, embedder=None) as mem:
        mem.save("a note about kilns")
        mem.save("another note")
    raw = bytearray(db.read_bytes())
    size = int.from_bytes(raw[16:18], "big")
    for page in range(1, len(raw) // size):  # every b-tree page header smashed
        raw[page * size : page * size + 8] = b"\xee" * 8
    db.write_bytes(bytes(raw))
    result = CliRunner().invoke(cli, ["--db", str(db), "--project", "p", "list"])
    assert result.exit_code == 1 and "damaged" in result.output
    assert not (tmp_path / "memory.db-wal").exists()
    assert not (tmp_path / "memory.db-shm").exists()


def test_a_command_substitution_is_no_secret_value() -> None:
    assert not looks_secret("Use `export GITHUB_TOKEN=$(gh auth token)` to set the token in CI")
    assert looks_secret("export GITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB")


@pytest.mark.parametrize(
    "command",
    [
        "echo INJECTED > $(printf 'AGE%sS.md' NT)",
        "python3 -c \"open('CLA'+'UDE.md','w').write('INJECTED')\"",
        "echo INJECTED > $(echo QUdFTlRTLm1k | base64 -d)",
        "d=.cur; d=${d}sor; mkdir -p $d/rules && echo INJECTED > $d/rules/a.mdc",
        "python3 -c \"open('.'+'git/hooks/pre-commit','w').write('INJECTED')\"",
    ],
)
def test_a_command_building_a_protected_name_is_undone(tmp_path: Path, command: str) -> None:
    import subprocess

    from remem.agent.tools import Toolbox

    root = tmp_path / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True)
    (root / "CLAUDE.md").write_text("# the team's rules\n", encoding="utf-8")
    config = (root / ".git" / "config").read_bytes()
    box = Toolbox(root, allow_commands=True)
    out = box.run("execute_command", {"command": command})
    assert "remem put back" in out, out
    assert not (root / "AGENTS.md").exists()
    assert (root / "CLAUDE.md").read_text(encoding="utf-8") == "# the team's rules\n"
    assert not (root / ".cursor").exists() or not any((root / ".cursor").rglob("*.mdc"))
    assert not (root / ".git" / "hooks" / "pre-commit").exists()
    assert (root / ".git" / "config").read_bytes() == config
    # ordinary work goes on: a file written, git's own files, a new repository
    assert "put back" not in box.run("execute_command", {"command": "echo hi > notes.txt"})
    assert "put back" not in box.run("execute_command", {"command": "git add notes.txt"})
    fresh = Toolbox(tmp_path, allow_commands=True)
    assert "put back" not in fresh.run("execute_command", {"command": "git init -q other"})
    assert (tmp_path / "other" / ".git" / "config").exists()
