"""`MemoryManager`: memories at the end of the system prompt (PR1), never in the user's
message; the ledger; extraction after the turn and its guard; /clear and resume."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from remem import Memory
from remem.agent.manager import MemoryManager
from remem.context.ledger import read_events, resume


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "REMEM.md").write_text("构建工具：Maven", encoding="utf-8")
    return project


@pytest.fixture
def mm(root: Path, tmp_path: Path) -> Iterator[MemoryManager]:
    manager = MemoryManager.open(root, memory=Memory(tmp_path / "m.db", project="proj"))
    yield manager
    manager.close()


def test_memories_end_the_system_prompt(mm: MemoryManager) -> None:
    mm.save("项目使用 JDK 17")
    mm.add_user_message("帮我再创建一个 Java 项目，用什么 JDK？")
    wire = mm.prepare("帮我再创建一个 Java 项目，用什么 JDK？")
    system = wire[0]["content"]
    assert wire[0]["role"] == "system" and "## Project Context" in system
    assert system.index("构建工具：Maven") < system.index("项目使用 JDK 17")
    assert system.rstrip().endswith(system.rstrip().splitlines()[-1])
    assert "JDK 17" not in wire[-1]["content"].replace("JDK？", "")
    assert wire[-1] == {"role": "user", "content": "帮我再创建一个 Java 项目，用什么 JDK？"}
    assert set(mm.timings) == {"retrieval_prompt", "compaction_check"}


def test_extraction_in_background_and_status(mm: MemoryManager) -> None:
    mm.add_user_message("记住：我们项目统一用 UTF-8 编码")
    mm.extract_in_background("记住：我们项目统一用 UTF-8 编码").join(5)
    assert any("UTF-8" in e.content for e in mm.memory.list())
    status = mm.status()
    assert status.extracted >= 1 and status.context.messages == 2
    assert mm.status_text().startswith("context ")


def test_no_extraction_after_external_content(mm: MemoryManager) -> None:
    mm.add_user_message("看看这个")
    call = {"id": "c", "type": "function", "function": {"name": "execute_command",
            "arguments": '{"command": "curl -s https://example.com"}'}}  # fmt: skip
    mm.add_assistant_message(None, [call])
    mm.add_tool_result("c", "execute_command", "我们项目统一用 GBK 编码",
                       args={"command": "curl -s https://example.com"})  # fmt: skip
    result = mm.extract_and_save("我们项目统一用 GBK 编码")
    assert result.saved == [] and "external content" in result.refused[0].reason
    assert mm.memory.list() == []
    assert mm.status().external_sources == ["execute_command: curl"]


def test_a_cleared_session_is_recorded_and_resumes_as_cleared(
    mm: MemoryManager, root: Path, tmp_path: Path
) -> None:
    mm.add_user_message("第一个问题")
    mm.add_assistant_message("第一个回答")
    mm.prepare("第一个问题")
    seen = [dict(m) for m in mm.messages]
    mm.flush()
    assert resume(mm.ledger.path) == seen  # type: ignore[union-attr]
    old_id = mm.session_id
    mm.clear()
    assert [m["role"] for m in mm.messages] == ["system"]
    kinds = [e.get("source") for e in read_events(mm.ledger.path)]  # type: ignore[union-attr]
    assert "clear" in kinds
    mm.close()
    later = MemoryManager.open(root, memory=Memory(tmp_path / "m.db", project="proj"))
    try:
        assert later.resume() == old_id  # no id: the latest other session
        assert later.resume(old_id) == old_id and later.session_id == old_id
        assert [m["content"] for m in later.messages[1:]] == []  # the last view: cleared
        later.add_user_message("清空之后的问题")  # recorded in the resumed session's file
        later.flush()
        assert resume(mm.ledger.path)[-1]["content"] == "清空之后的问题"  # type: ignore[union-attr]
    finally:
        later.close()
    again = MemoryManager.open(root, memory=Memory(tmp_path / "m.db", project="proj"))
    try:  # resumed once more: one id, one file, the latest view
        assert again.resume() == old_id
        assert [m["content"] for m in again.messages[1:]] == ["清空之后的问题"]
    finally:
        again.close()
