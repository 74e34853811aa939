"""`remem compact` and `remem sessions` through the CLI; the LLM path runs the real
OpenAI client against the local OpenAI-protocol server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem.cli.app import cli
from remem.context.compaction import CompactionConfig
from remem.context.ledger import SessionLedger
from remem.context.manager import ContextManager
from remem.context.summarizer import SECTIONS

GOOD_SUMMARY = "\n".join(f"## {s}\n- kept: JDK 17, scripts/deploy.sh" for s in SECTIONS)


def history(turns: int = 8, tool_chars: int = 2_000) -> list[dict[str, object]]:
    msgs: list[dict[str, object]] = [{"role": "system", "content": "You are a coding agent."}]
    for t in range(turns):
        msgs.append(
            {"role": "user", "content": f"step {t}: fix src/m{t}.py, keep JDK 17, port {8000 + t}"}
        )
        call = {
            "id": f"c{t}",
            "type": "function",
            "function": {"name": "read_file", "arguments": "{}"},
        }
        msgs.append({"role": "assistant", "content": None, "tool_calls": [call]})
        msgs.append(
            {"role": "tool", "tool_call_id": f"c{t}", "content": f"line {t}\n" * (tool_chars // 7)}
        )
        msgs.append({"role": "assistant", "content": f"fixed src/m{t}.py " * 30})
    msgs[3]["content"] = "X" * 50_000  # one huge read at the start
    return msgs


@pytest.fixture
def in_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    for var in ("REMEM_LLM_BASE_URL", "REMEM_LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def test_compact_offline_with_report(in_project: Path) -> None:
    src = in_project / "history.json"
    src.write_text(json.dumps(history()), encoding="utf-8")
    out = in_project / "small.json"
    args = ["compact", str(src), "--window", "8000", "--out", str(out), "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["offloaded"] == 1 and report["cleared"] >= 1 and report["summarised"] > 0
    assert report["tokens_after"] < report["tokens_before"]
    assert report["summariser"] == "offline extractive summariser"
    compacted = json.loads(out.read_text(encoding="utf-8"))
    assert compacted[0] == {"role": "system", "content": "You are a coding agent."}
    assert "step 7: fix src/m7.py, keep JDK 17, port 8007" in json.dumps(compacted)
    assert not any(k.startswith("remem_") for m in compacted for k in m)
    offloaded = list((in_project / ".remem" / "tool-outputs").glob("compact-*/*.txt"))
    assert len(offloaded) == 1 and offloaded[0].read_text() == "X" * 50_000
    human = CliRunner().invoke(cli, ["compact", str(src), "--window", "8000", "--out", str(out)])
    assert "offloaded:  1" in human.output and "cleared:    " in human.output


def test_compact_uses_a_configured_llm(
    in_project: Path, openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REMEM_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("REMEM_LLM_MODEL", "test-model")
    missing = "\n".join(f"## {s}\n- x" for s in SECTIONS[:2])
    openai_server.script([missing, GOOD_SUMMARY])
    src = in_project / "h.json"
    src.write_text(json.dumps(history()), encoding="utf-8")
    result = CliRunner().invoke(cli, ["compact", str(src), "--window", "8000", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stderr)
    assert report["summary_calls"] == 2 and report["abandoned"] is None  # one repair
    assert len(openai_server.requests) == 2
    assert "Turn the conversation history" in openai_server.requests[0]["messages"][0]["content"]
    compacted = json.loads(result.stdout)
    assert "kept: JDK 17, scripts/deploy.sh" in compacted[1]["content"]


def test_compact_bad_input(in_project: Path) -> None:
    bad = in_project / "bad.json"
    bad.write_text('{"not": "messages"}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["compact", str(bad), "--window", "8000"])
    assert result.exit_code == 2 and "array of messages" in result.output


def test_compact_out_writes_over_only_an_earlier_result(in_project: Path) -> None:
    src = in_project / "history.json"
    src.write_text(json.dumps(history()), encoding="utf-8")
    notes = in_project / "notes.txt"
    notes.write_text("precious\n", encoding="utf-8")
    quoted = in_project / "quoted.json"  # JSON, but not a list of messages
    quoted.write_text('{"role": "user", "content": "mine"}', encoding="utf-8")
    before = src.read_bytes()
    for target in (notes, quoted, src):
        args = ["compact", str(src), "--window", "8000", "--out", str(target)]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 1, result.output
        errors = [line for line in result.output.splitlines() if line.startswith("Error")]
        assert len(errors) == 1 and "nothing was written" in errors[0], result.output
    assert notes.read_text() == "precious\n" and src.read_bytes() == before
    assert quoted.read_text() == '{"role": "user", "content": "mine"}'
    out = in_project / "small.json"
    for _ in range(2):  # a new file, then the earlier result written over
        args = ["compact", str(src), "--window", "8000", "--out", str(out)]
        assert CliRunner().invoke(cli, args).exit_code == 0
    assert isinstance(json.loads(out.read_text()), list)


def test_sessions_list_and_show(in_project: Path) -> None:
    ledger = SessionLedger(in_project, fsync=False)
    ctx = ContextManager(system="sys", config=CompactionConfig(window=8_000), recorder=ledger)
    ctx.add_user("帮我创建一个 Java 项目叫 myapp")
    ctx.add_assistant("好的，已创建 myapp。")
    ctx.prepare()
    ledger.close()
    listed = json.loads(CliRunner().invoke(cli, ["sessions", "list", "--json"]).output)
    assert [s["id"] for s in listed] == [ledger.id]
    assert listed[0]["title"].startswith("帮我创建一个 Java 项目")
    shown = CliRunner().invoke(cli, ["sessions", "show", "--json", ledger.id[:12]])
    data = json.loads(shown.output)
    assert [m["message"] for m in data["messages"]] == ctx.messages
    assert data["tokens"] == ctx.tokens()
    text = CliRunner().invoke(cli, ["sessions", "show", ledger.id]).output
    assert "myapp" in text and "tokens" in text
    assert CliRunner().invoke(cli, ["sessions", "show", "nope"]).exit_code != 0


def test_sessions_list_counts_what_show_lists(in_project: Path) -> None:
    earlier = [{"role": "system", "content": "sys"}]
    for n in range(7):
        earlier += [
            {"role": "user", "content": f"问题 {n}"},
            {"role": "assistant", "content": "好"},
        ]
    with SessionLedger(in_project, fsync=False) as ledger:  # a resumed view, then one turn
        ledger.checkpoint(earlier, "resume")
        ledger.message({"role": "user", "content": "继续"})
        ledger.message({"role": "assistant", "content": "好的"})
    listed = json.loads(CliRunner().invoke(cli, ["sessions", "list", "--json"]).output)
    shown = json.loads(CliRunner().invoke(cli, ["sessions", "show", "--json", ledger.id]).output)
    assert listed[0]["messages"] == len(shown["messages"]) == 17
    assert listed[0]["recorded"] == 2
    human = CliRunner().invoke(cli, ["sessions", "list"]).output
    assert "  17 msgs" in human
