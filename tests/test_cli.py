from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from remem.cli.app import cli


@pytest.fixture
def run(db: Path) -> Any:
    runner = CliRunner()

    def invoke(*args: str, stdin: str | None = None) -> Result:
        return runner.invoke(cli, ["--db", str(db), "--project", "p", *args], input=stdin)

    return invoke


def all_commands() -> list[tuple[str, ...]]:
    """Every command and subcommand, lazily registered ones included."""
    ctx = click.Context(cli)
    out: list[tuple[str, ...]] = []
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        if isinstance(command, click.Group):
            out += [(name, sub) for sub in command.list_commands(ctx)]
        else:
            out.append((name,))
    return out


def test_lazy_commands_are_listed() -> None:
    names = {path[0] for path in all_commands()}
    assert {"compact", "sessions", "extract", "bench", "save", "search"} <= names


@pytest.mark.parametrize("path", all_commands(), ids=" ".join)
def test_every_command_has_json_and_an_example(path: tuple[str, ...]) -> None:
    command: click.Command | None = cli
    ctx = click.Context(cli)
    for part in path:
        assert isinstance(command, click.Group)
        command = command.get_command(ctx, part)
    assert command is not None
    assert any("--json" in p.opts for p in command.params if isinstance(p, click.Option))
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.output and f"remem {' '.join(path)}" in result.output


def test_save_search_conflict_replace_history(run: Any) -> None:
    saved = run("save", "--json", "项目使用 JDK 17 和 Maven")
    assert saved.exit_code == 0, saved.output
    old_id = json.loads(saved.output)["entry"]["id"]
    found = json.loads(run("search", "--json", "创建 Java 项目用什么 JDK").output)
    assert [h["entry"]["id"] for h in found] == [old_id]

    conflict = run("save", "项目使用 JDK 21")
    assert conflict.exit_code == 1
    assert "Conflict" in conflict.output and old_id in conflict.output
    assert "--replace" in conflict.output and "--force" in conflict.output
    data = json.loads(run("save", "--json", "项目使用 JDK 21").stdout)
    assert data["status"] == "conflict" and data["conflicts"][0]["id"] == old_id

    replaced = run("save", "--json", "--replace", old_id, "项目使用 JDK 21")
    assert replaced.exit_code == 0 and json.loads(replaced.output)["status"] == "replaced"
    history = json.loads(run("history", "--json", old_id).output)
    assert [v["content"] for v in history["versions"]] == [
        "项目使用 JDK 17 和 Maven",
        "项目使用 JDK 21",
    ]
    assert [a["action"] for a in history["audit"]] == ["add", "replace", "supersede"]


def test_words_join_and_stdin(run: Any) -> None:
    assert run("save", "回答", "用中文").exit_code == 0
    assert run("save", "-", stdin="从标准输入保存的记忆\n").exit_code == 0
    listed = json.loads(run("list", "--json").output)
    assert sorted(e["content"] for e in listed) == ["从标准输入保存的记忆", "回答 用中文"]


def test_list_show_verify_delete_forget_clear(run: Any) -> None:
    eid = json.loads(
        run("save", "--json", "--global", "--type", "preference", "回答用中文").output
    )["entry"]["id"]
    run("save", "使用 pnpm 管理依赖")
    assert json.loads(run("show", "--json", eid[:6]).output)["id"] == eid
    assert "回答用中文" in run("show", eid).output
    assert json.loads(run("verify", "--json", eid).output)["confidence"] == "confirmed"
    assert len(json.loads(run("list", "--json", "--scope", "global").output)) == 1
    dry = json.loads(run("forget", "--json", "--dry-run", "pnpm").output)
    assert dry["dry_run"] and len(dry["deleted"]) == 1
    assert len(json.loads(run("list", "--json").output)) == 2
    refused = run("forget", "pnpm")  # not a terminal: it will not ask, it refuses
    assert refused.exit_code == 2 and "--yes" in refused.output
    assert len(json.loads(run("list", "--json").output)) == 2
    assert run("forget", "--yes", "pnpm").exit_code == 0
    assert run("clear", "--scope", "global").exit_code == 2  # needs --yes
    assert json.loads(run("clear", "--json", "--scope", "global", "--yes").output)["deleted"] == 1
    assert json.loads(run("list", "--json").output) == []
    assert run("delete", eid).exit_code == 1


def test_context_stats_export_import_edit_prune(run: Any, tmp_path: Path) -> None:
    eid = json.loads(run("save", "--json", "项目使用 JDK 17 和 Maven").output)["entry"]["id"]
    block = json.loads(run("context", "--json", "帮我再创建一个 Java 项目").output)["context"]
    assert "项目使用 JDK 17 和 Maven" in block
    assert json.loads(run("context", "--json", "今天天气怎么样").output)["context"] == ""
    stats = json.loads(run("stats", "--json").output)
    assert stats["entries"] == 1 and stats["visible"] == 1
    out = tmp_path / "dump.json"
    assert json.loads(run("export", "--json", str(out)).output)["exported"] == 1
    imported = json.loads(run("import", "--json", str(out)).output)
    assert imported["duplicates"] == 1 and imported["added"] == 0
    edited = json.loads(run("edit", "--json", eid, "项目使用 JDK 21").output)
    assert edited["status"] == "replaced"
    assert json.loads(run("prune", "--json").output)["deleted"] == []


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("save", ""), 2),
        (("save", "   "), 2),
        (("save", "--type", "bogus", "x"), 2),
        (("search", ""), 2),
        (("show", "doesnotexist"), 1),
        (("history", "nope"), 1),
        (("verify", "nope"), 1),
        (("search", "--limit", "0", "x"), 2),
        (("import", "missing-file.json"), 2),
        (("frobnicate",), 2),
    ],
)
def test_errors_are_one_line_and_non_zero(run: Any, args: tuple[str, ...], code: int) -> None:
    result = run(*args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_save_says_a_period_that_had_ended_was_kept_as_ended(run: Any) -> None:
    out = run("save", "The v0 API was supported until June 30, 2025.")
    assert out.exit_code == 0, out.output
    assert "already ended when it was written: kept as ended on" in out.output
    data = json.loads(run("save", "--json", "The v1 beta ran until March 1, 2024.").output)
    assert data["notes"] and data["status"] == "added"
