"""The agent's tools: the project-root guard (SE4), paging, grep, commands with
approval, and the memory tools with conflicts and the external guard (SE2)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from remem import Memory
from remem.agent.manager import MemoryManager
from remem.agent.tools import Toolbox, parse_arguments


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "src" / "a.py").write_text("import os\nprint('hi')\n# JDK 17\n", encoding="utf-8")
    return project


@pytest.fixture
def manager(root: Path, tmp_path: Path) -> Iterator[MemoryManager]:
    mm = MemoryManager.open(root, memory=Memory(tmp_path / "m.db", project="proj"))
    yield mm
    mm.close()


def test_files_stay_inside_the_root(root: Path) -> None:
    box = Toolbox(root, write_allow=("新/**",))
    assert "outside the project root" in box.run("read_file", {"path": "../secret"})
    assert "outside the project root" in box.run("write_file", {"path": "/etc/x", "content": "x"})
    (root / "link").symlink_to("/etc")
    assert "outside the project root" in box.run("list_dir", {"path": "link"})
    assert box.run("write_file", '{"path": "新/说明.md", "content": "中文"}').startswith("wrote 2")
    assert (root / "新" / "说明.md").read_text(encoding="utf-8") == "中文"


def test_read_pages_list_and_grep(root: Path) -> None:
    box = Toolbox(root)
    page = box.run("read_file", {"path": "src/a.py", "offset": 2, "limit": 1})
    assert "print('hi')" in page and "import os" not in page and "[lines 2-2 of 3]" in page
    assert box.run("list_dir", {}) == "src/"
    assert box.run("grep", {"pattern": "JDK \\d+"}) == "src/a.py:3:# JDK 17"
    assert box.run("grep", {"pattern": "nothing-here"}) == "no matches"
    assert box.run("grep", {"pattern": "("}).startswith("error: bad pattern")
    assert box.run("nope", {}).startswith("error: unknown tool")
    assert box.run("read_file", "{not json").startswith("error: arguments are not valid JSON")


def test_commands_need_approval(root: Path) -> None:
    asked: list[str] = []
    box = Toolbox(root, approve=lambda c: asked.append(c) or False)
    assert "did not approve" in box.run("execute_command", {"command": "echo hi"})
    assert asked == ["echo hi"]
    allowed = Toolbox(root, allow_commands=True)
    assert allowed.run("execute_command", {"command": "echo 你好"}) == "exit code: 0\n你好\n"
    assert "exit code: 3" in allowed.run("execute_command", {"command": "exit 3"})
    slow = allowed.run("execute_command", {"command": "sleep 5", "timeout": 0.2})
    assert "did not finish" in slow


def test_save_memory_conflict_then_replace(manager: MemoryManager, root: Path) -> None:
    box = Toolbox(root, manager=manager, user_text=lambda: "记住：项目使用 JDK 17")
    first = box.run("save_memory", {"content": "项目使用 JDK 17"})
    assert first.startswith("saved (id ")
    old_id = first.split("id ")[1].split(")")[0]
    box.user_text = lambda: "记一下，项目使用 JDK 21"
    conflict = box.run("save_memory", {"content": "项目使用 JDK 21"})
    assert conflict.startswith("CONFLICT") and f'replace_id="{old_id}"' in conflict
    assert "ask the user" in conflict.lower()
    # The user's answer next turn settles the conflict of the save they asked for ...
    box.user_text = lambda: "用新的，替换掉旧的"
    other = box.run("save_memory", {"content": "项目使用 JDK 8", "replace_id": old_id})
    assert other.startswith("refused:")  # ... and nothing else
    replaced = box.run("save_memory", {"content": "项目使用 JDK 21", "replace_id": old_id})
    assert replaced.startswith(f"replaced {old_id}")
    assert "JDK 21" in box.run("search_memory", {"query": "JDK"})
    assert [e.content for e in manager.memory.list()] == ["项目使用 JDK 21"]


def test_save_memory_reports_a_stated_change_as_an_update(
    manager: MemoryManager, root: Path
) -> None:
    box = Toolbox(root, manager=manager, user_text=lambda: "记住：测试数据库改了")
    old_id = box.run("save_memory", {"content": "测试数据库用 SQLite"}).split("id ")[1][:12]
    updated = box.run("save_memory", {"content": "测试数据库改用 MySQL"})
    assert updated.startswith(f"updated: {old_id}") and "is now history" in updated
    assert [e.content for e in manager.memory.list()] == ["测试数据库改用 MySQL"]


def test_save_memory_refused_after_external_content(manager: MemoryManager, root: Path) -> None:
    manager.add_user_message("抓一下这个页面")
    manager.add_assistant_message(None, [{"id": "c1", "type": "function",
        "function": {"name": "web_fetch", "arguments": "{}"}}])  # fmt: skip
    manager.add_tool_result("c1", "web_fetch", "页面说：项目使用 JDK 8")
    box = Toolbox(root, manager=manager, user_text=lambda: "总结一下这个页面")
    assert box.run("save_memory", {"content": "项目使用 JDK 8"}).startswith("refused:")
    box.user_text = lambda: "记住：项目使用 JDK 8"
    assert box.run("save_memory", {"content": "项目使用 JDK 8"}).startswith("saved")


def test_tool_call_arguments_parse_from_json_and_empty_text_is_no_arguments() -> None:
    assert parse_arguments("") == {}
    assert parse_arguments(json.dumps({"a": 1})) == {"a": 1}
