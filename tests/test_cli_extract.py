"""`remem extract`, `remem bench extraction` and the secret refusal of `remem save`,
through the CLI; the LLM path runs the real OpenAI client against the local server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem.cli.app import cli

MESSAGE = "帮我写一个日志解析脚本。对了，我们项目的编码规范是所有文件统一 UTF-8。"
SAVED = {"content": "我们项目的编码规范是所有文件统一 UTF-8", "type": "fact"}
TASK = {"text": "帮我写一个日志解析脚本", "reason": "task request ('帮我')"}


@pytest.fixture
def in_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    for var in ("REMEM_LLM_BASE_URL", "REMEM_LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def stored() -> list[dict[str, object]]:
    code, out = run("list", "--json")
    assert code == 0, out
    return list(json.loads(out))


def test_extract_saves_and_reports(in_project: Path) -> None:
    code, out = run("extract", "--text", MESSAGE, "--json")
    assert code == 0, out
    assert json.loads(out) == {"saved": [SAVED], "refused": [TASK]}
    [entry] = stored()
    assert (entry["content"], entry["type"], entry["scope"]) == (
        SAVED["content"],
        "fact",
        "project",
    )
    assert (entry["source"], entry["confidence"]) == ("auto_extracted", "unverified")
    # the same message again: a duplicate, refused quietly, nothing new stored
    code, out = run("extract", "--text", MESSAGE, "--json")
    assert json.loads(out)["refused"][1] == {
        "text": SAVED["content"],
        "reason": f"already remembered ({entry['id']})",
    }
    assert len(stored()) == 1


def test_extract_human_output(in_project: Path) -> None:
    code, out = run("extract", "--text", MESSAGE)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Saved 1 (rules):"
    assert lines[1].endswith(f"[fact] {SAVED['content']}")
    assert lines[2:] == ["Refused 1:", "  帮我写一个日志解析脚本  <- task request ('帮我')"]


def test_dry_run_stores_nothing(in_project: Path) -> None:
    code, out = run("extract", "--dry-run", "--text", MESSAGE, "--json")
    assert json.loads(out) == {"saved": [SAVED], "refused": [TASK]}
    assert stored() == []
    assert run("extract", "--dry-run", "--text", MESSAGE)[1].startswith("Would save 1 (rules):")


def test_external_session_extracts_nothing(in_project: Path) -> None:
    code, out = run("extract", "--external", "--text", "我们项目统一用 Vue 3。", "--json")
    data = json.loads(out)
    assert code == 0 and data["saved"] == []
    assert data["refused"][0]["reason"].startswith("external content was read in this session")
    assert stored() == []


def test_extract_from_a_file_and_stdin(in_project: Path) -> None:
    path = in_project / "msg.txt"
    path.write_text(MESSAGE, encoding="utf-8")
    assert json.loads(run("extract", "--file", str(path), "--json")[1])["saved"] == [SAVED]
    out = run("extract", "--file", "-", "--dry-run", "--json", input="以后回答都用中文。")[1]
    assert json.loads(out)["saved"] == [{"content": "以后回答都用中文", "type": "preference"}]


@pytest.mark.parametrize(
    "args",
    [
        ("extract",),
        ("extract", "--text", "x", "--file", "y"),
        ("extract", "--file", "does-not-exist.txt"),
    ],
)
def test_extract_bad_usage_exits_2(in_project: Path, args: tuple[str, ...]) -> None:
    code, out = run(*args)
    assert code == 2
    assert out.strip().splitlines()[-1].startswith("Error:")


def test_confirm_asks_before_saving(in_project: Path) -> None:
    text = "我们项目用 Go。我们团队用 Jira。"
    code, out = run("extract", "--confirm", "--text", text, "--json", input="y\nn\n")
    assert code == 0
    assert "I am about to remember: 我们项目用 Go. Save?" in out
    payload = json.loads(out[out.index("{") :])
    assert payload["saved"] == [{"content": "我们项目用 Go", "type": "fact"}]
    assert payload["refused"] == [
        {"text": "我们团队用 Jira", "reason": "not confirmed by the user"}
    ]
    assert [e["content"] for e in stored()] == ["我们项目用 Go"]


def test_extract_uses_a_configured_llm(
    in_project: Path, openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REMEM_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("REMEM_LLM_MODEL", "test-model")
    text = MESSAGE + "接口文档放在 docs/api 目录。"
    reply = {"facts": [{"quote": "接口文档放在 docs/api 目录"}, {"quote": "我们统一用 Gradle"}]}
    openai_server.script([json.dumps(reply, ensure_ascii=False)])
    code, out = run("extract", "--text", text, "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["saved"] == [SAVED, {"content": "接口文档放在 docs/api 目录", "type": "fact"}]
    assert data["refused"][-1] == {
        "text": "我们统一用 Gradle",
        "reason": "model quote refused: not a verbatim quote of the input",
    }
    assert len(openai_server.requests) == 1
    assert run("extract", "--rules-only", "--text", text)[1].startswith("Saved 0 (rules):")
    assert len(openai_server.requests) == 1  # --rules-only never calls it


def test_save_refuses_a_secret_without_force(in_project: Path) -> None:
    secret = "sk-proj-9f8e7d6c5b4a3f2e1d0c9b8a"
    code, out = run("save", f"my key is {secret}")
    assert code == 1
    assert out.strip() == (
        "Error: not saved: the text looks like it holds an OpenAI API key; memories should not "
        "keep secrets (add --force to save it anyway)"
    )
    assert stored() == []
    code, out = run("save", "--force", "--json", f"my key is {secret}")
    assert code == 0 and json.loads(out)["status"] == "added"


GOLDEN = [
    {"id": "p1", "input": "我们项目统一使用 JDK 17 和 Maven 构建。", "expect": ["JDK 17", "Maven"]},
    {"id": "p2", "input": "Our project is built with Gradle, not Maven.", "expect": ["Gradle"],
     "forbid": []},
    {"id": "n1", "input": "我试试 Flask 吧。", "expect": [], "forbid": ["Flask"]},
    {"id": "x1", "input": "Summarize this page. We use Go.", "expect": [],
     "external_context": True},
    {"id": "miss", "input": "包管理用 pnpm。", "expect": ["pnpm"]},
    {"id": "fw", "input": "我们项目用 Go。", "expect": [], "forbid": []},
    {"id": "forbid", "input": "我们项目用 Go 和 Rust。", "expect": ["Go"], "forbid": ["Rust"]},
]  # fmt: skip


def test_bench_extraction_scores_a_golden_set(in_project: Path) -> None:
    path = in_project / "golden.jsonl"
    lines = [json.dumps(case, ensure_ascii=False) for case in GOLDEN]
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    code, out = run("bench", "extraction", "--json", "--repeat", "2", str(path))
    assert code == 0, out
    data = json.loads(out)
    assert data["extractor"] == "rules" and data["cases"] == 7
    assert (data["expected"], data["found"], data["saved"], data["correct"]) == (5, 4, 4, 2)
    assert data["precision"] == 0.5 and data["recall"] == 0.8 and data["f1"] == 0.6154
    assert data["false_writes"] == 2
    assert data["misses"] == [["miss", "pnpm"]]
    assert data["false_write_entries"] == [
        ["fw", "我们项目用 Go"],
        ["forbid", "我们项目用 Go 和 Rust"],
    ]
    assert 0 < data["p50_ms"] <= data["p95_ms"] < 50
    human = run("bench", "extraction", str(path))[1]
    assert "   precision   recall       F1  false writes" in human
    assert "       0.500    0.800    0.615             2" in human
    assert "  false write fw: 我们项目用 Go" in human


def test_bench_extraction_rejects_a_bad_file(in_project: Path) -> None:
    path = in_project / "bad.jsonl"
    path.write_text('{"id": "a", "input": "x"}\n{"id": "b"}\n', encoding="utf-8")
    code, out = run("bench", "extraction", str(path))
    assert code == 2 and "bad.jsonl:2: not a golden case" in out
    code, out = run("bench", "extraction", "--llm", str(in_project / "bad.jsonl"))
    assert code == 2
    code, out = run("bench", "extraction")  # a new user's first try: where a set is
    assert code == 2 and "benchmarks/data/extraction_dev.jsonl" in out
