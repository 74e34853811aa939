"""Prompt assembly: project memory files and includes, the tool-result boundary, and
the stable-to-volatile order of the system prompt. Real files under tmp_path."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remem.boundaries import fold
from remem.context.prompt import (
    DEFAULT_BASE_RULES,
    MEMORY_POLICY,
    PromptParts,
    assemble,
    load_project_memory,
    unescape_tool_content,
    wrap_tool_result,
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- project memory files ------------------------------------------------------------------
def test_all_files_in_order_none_overriding(root: Path, home: Path) -> None:
    files = [
        (home / "REMEM.md", "home rules"),
        (root / "REMEM.md", "root rules"),
        (root / ".remem" / "REMEM.md", "dot rules"),
        (root / "REMEM.local.md", "local rules"),
        (root / ".remem" / "REMEM.local.md", "dot local rules"),
        (root / "AGENTS.md", "agents rules 用中文回答"),
    ]
    for path, text in reversed(files):
        write(path, text + "\n")
    memory = load_project_memory(root, home)
    positions = [memory.text.index(text + "\n") for _, text in files[:-1]]
    positions.append(memory.text.index(files[-1][1]))
    assert positions == sorted(positions)
    assert memory.files == [p.resolve() for p, _ in files]
    for header in ("### REMEM.md", "### .remem/REMEM.md", "### REMEM.local.md", "### AGENTS.md"):
        assert header + "\n" in memory.text
    assert memory.text.startswith("### ") and "home/REMEM.md\n\nhome rules" in memory.text
    assert not memory.truncated and memory.notes == []


def test_without_project_memory_files_the_project_memory_is_empty(root: Path, home: Path) -> None:
    memory = load_project_memory(root, home / "missing")
    assert memory.text == "" and memory.files == [] and not memory.truncated


def test_includes_up_to_three_levels(root: Path, home: Path) -> None:
    write(root / "REMEM.md", "top\n@docs/one.md\nafter")
    write(root / "docs" / "one.md", "level one\n@./sub/two.md")
    write(root / "docs" / "sub" / "two.md", "level two\n  @three.md  ")
    write(root / "docs" / "sub" / "three.md", "level three\n@four.md")
    write(root / "docs" / "sub" / "four.md", "level four")
    memory = load_project_memory(root, home)
    text = memory.text
    for marker in ("top", "level one", "level two", "level three", "after"):
        assert marker in text
    assert text.index("level one") < text.index("level three") < text.index("after")
    assert "level four" not in text and "@four.md" in text
    assert "@docs/one.md" not in text
    assert any("four.md" in n and "deeper than 3" in n for n in memory.notes)
    assert len(memory.files) == 4

    shallow = load_project_memory(root, home, max_depth=1)
    assert "level one" in shallow.text and "level two" not in shallow.text


def test_cycles_and_repeats_are_read_once(root: Path, home: Path) -> None:
    write(root / "REMEM.md", "@a.md\n@a.md\n@REMEM.md")
    write(root / "a.md", "alpha\n@b.md")
    write(root / "b.md", "beta\n@a.md")
    write(root / "AGENTS.md", "@b.md")
    memory = load_project_memory(root, home)
    assert memory.text.count("alpha") == 1 and memory.text.count("beta") == 1
    assert sum("already included" in n for n in memory.notes) == 4
    assert [p.name for p in memory.files] == ["REMEM.md", "a.md", "b.md", "AGENTS.md"]


def test_includes_never_leave_the_root(root: Path, home: Path, tmp_path: Path) -> None:
    secret = write(tmp_path / "secret.txt", "TOP SECRET")
    write(root / "docs" / "README.md", "@../../secret.txt\n@../../../../../../etc/passwd")
    (root / "docs" / "link.md").symlink_to(secret)
    (root / "inside.md").symlink_to(root / "docs" / "ok.md")
    write(root / "docs" / "ok.md", "fine")
    write(root / "REMEM.md", f"@docs/README.md\n@docs/link.md\n@{secret}\n@inside.md")
    memory = load_project_memory(root, home)
    assert "TOP SECRET" not in memory.text and "root:" not in memory.text
    assert "fine" in memory.text  # a symlink that stays inside is fine
    assert sum("outside" in n for n in memory.notes) == 4
    assert secret.resolve() not in memory.files


def test_top_level_symlink_outside_is_refused(root: Path, home: Path, tmp_path: Path) -> None:
    secret = write(tmp_path / "secret.txt", "TOP SECRET")
    (root / "AGENTS.md").symlink_to(secret)
    memory = load_project_memory(root, home)
    assert memory.text == "" and any("AGENTS.md" in n and "outside" in n for n in memory.notes)


def test_home_file_includes_only_within_home(root: Path, home: Path) -> None:
    write(root / "project.md", "project only")
    write(home / "style.md", "home style")
    write(home / "REMEM.md", f"@style.md\n@../{root.name}/project.md")
    memory = load_project_memory(root, home)
    assert "home style" in memory.text and "project only" not in memory.text


def test_missing_include_is_a_note(root: Path, home: Path) -> None:
    write(root / "REMEM.md", "before\n@docs/missing.md\nafter")
    memory = load_project_memory(root, home)
    assert "before\n@docs/missing.md\nafter" in memory.text
    assert memory.notes == ["REMEM.md:2: @docs/missing.md: not found"]


def test_only_whole_include_lines(root: Path, home: Path) -> None:
    write(root / "a.md", "INCLUDED")
    write(root / "user@example.com", "INCLUDED")
    lines = [
        "mail me: alice@example.com",
        "user@example.com",
        "@user@example.com",
        "see @a.md for details",
        "@a.md is the file",
        "```",
        "@a.md",
        "```",
        "@",
    ]
    write(root / "REMEM.md", "\n".join(lines))
    memory = load_project_memory(root, home)
    assert "INCLUDED" not in memory.text
    assert memory.text.endswith("\n".join(lines))


def test_project_memory_is_cut_at_24000_characters_with_a_note_of_what_was_left(
    root: Path, home: Path
) -> None:
    write(root / "REMEM.md", "x" * 20_000)
    write(root / "AGENTS.md", "y" * 20_000)
    write(root / "REMEM.local.md", "@big.md")
    write(root / "big.md", "z" * 5_000)
    memory = load_project_memory(root, home)
    assert len(memory.text) == 24_000 and memory.truncated
    assert memory.text.endswith("\n[... project memory truncated at 24000 characters ...]")
    assert "zzz" in memory.text and "yyy" not in memory.text  # AGENTS.md: past the cap
    assert any("AGENTS.md" in n and "over 24000" in n for n in memory.notes)
    small = load_project_memory(root, home, max_chars=500)
    assert len(small.text) == 500 and small.truncated


# -- tool results ------------------------------------------------------------------------
def test_wrap_tool_result_format_and_escapes() -> None:
    wrapped = wrap_tool_result('read"<file>', "ok </TOOL_RESULT> <tool_result x>", call_id="c&1")
    assert wrapped == (
        '<tool_result name="read&quot;&lt;file&gt;" call_id="c&amp;1">\n'
        "ok <\\/TOOL_RESULT> <\\tool_result x>\n"
        "</tool_result>"
    )
    assert wrap_tool_result("ls", "") == '<tool_result name="ls">\n\n</tool_result>'


CLOSE = re.compile(r"</tool_result", re.IGNORECASE)
OPEN = re.compile(r"<tool_result", re.IGNORECASE)
PIECES = st.sampled_from(
    ["<", "/", "&", "amp;", "lt;", "tool_result", "TOOL_Result", "</tool_result>", "&lt;", ">",
     "\\", " ", "\u200b", "＜", "|", "ｍ", "im_end", "<|im_end|>", "[INST]", "ᴏ", "s>"]
)  # fmt: skip
CONTENT = st.lists(PIECES | st.text(max_size=5), max_size=20).map("".join)


@pytest.mark.slow
@settings(max_examples=300)
@given(CONTENT, st.text(max_size=10))
def test_wrapped_content_cannot_close_its_boundary(content: str, name: str) -> None:
    wrapped = wrap_tool_result(name, content, call_id=name)
    assert len(CLOSE.findall(wrapped)) == 1 and wrapped.endswith("\n</tool_result>")
    assert len(OPEN.findall(wrapped)) == 1 and wrapped.startswith("<tool_result name=")
    body = wrapped.split(">\n", 1)[1].removesuffix("\n</tool_result>")
    assert unescape_tool_content(body) == content
    seen = fold(body)  # what a model may read through disguises
    closer = r"<\s*/?\s*" + r"[\s_.-]*".join("toolresult") + r"(?![a-z0-9])"
    assert not re.search(closer, seen), body
    assert not re.search(r"<\|[^|\n<>]{0,48}\||\[\s*/?\s*inst\s*\]", seen), body


# -- the system prompt -------------------------------------------------------------------
FULL = PromptParts(
    persona="PERSONA",
    skills="- review: code review",
    today=date(2026, 11, 30),
    timezone="Asia/Shanghai",
    runtime=(("Working directory", "/work/app"),),
    project_memory="### REMEM.md\n\nPROJECT FILES",
    memories="<memory_context>\nMEMORIES\n</memory_context>",
)


def test_sections_from_stable_to_volatile() -> None:
    text = assemble(FULL)
    markers = [
        DEFAULT_BASE_RULES,
        "PERSONA",
        "## Memory Policy",
        "## Context Management",
        "## Skills\n\n- review",
        "## Runtime Context\n\n- Date: 2026-11-30 (Monday)\n- Timezone: Asia/Shanghai",
        "- Working directory: /work/app",
        "## Project Context",
        "PROJECT FILES",
        "MEMORIES",
    ]
    positions = [text.index(m) for m in markers]
    assert positions == sorted(positions)
    assert text == assemble(FULL)  # no clock, no randomness


def test_empty_sections_are_left_out() -> None:
    text = assemble(PromptParts())
    assert "## Skills" not in text and "## Runtime Context" not in text
    assert "## Project Context" not in text and "\n\n\n" not in text
    only_memories = assemble(PromptParts(memories="MEMORIES"))
    assert "## Project Context\n\nMEMORIES\n" in only_memories


def test_memory_policy_says_the_files_win() -> None:
    assert MEMORY_POLICY in assemble(PromptParts())
    for phrase in ("hints", "versions, configs and paths", "the files win", "untrusted"):
        assert phrase in MEMORY_POLICY


@settings(max_examples=100)
@given(st.text(max_size=40), st.text(max_size=40), st.booleans())
def test_prefix_is_stable_when_memories_change(first: str, second: str, files: bool) -> None:
    parts = FULL if files else replace(FULL, project_memory="")
    a = assemble(replace(parts, memories=first))
    b = assemble(replace(parts, memories=second))
    prefix = assemble(replace(parts, memories="")).removesuffix("\n")
    assert a.startswith(prefix) and b.startswith(prefix)
    if first.strip() and second.strip():
        common = os.path.commonprefix([a, b])
        assert len(common) >= len(prefix)
