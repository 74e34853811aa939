from __future__ import annotations

from pathlib import Path

from remem.context.offload import OffloadConfig, Offloader


def big_output(chars: int) -> str:
    lines = [f"line {i:06d}: build step output with value {i * 7}" for i in range(chars // 20 + 1)]
    return "\n".join(lines)[:chars]


def test_300kb_result_is_offloaded_with_head_and_tail(tmp_path: Path) -> None:
    content = big_output(300_000)
    off = Offloader(tmp_path, "s1")
    result = off.process("read_file", content, {"path": "big.log"})
    assert result.path is not None and result.path.read_text(encoding="utf-8") == content
    assert result.path.parent == tmp_path / ".remem" / "tool-outputs" / "s1"
    assert result.path.name == "001-read_file.txt"
    assert (tmp_path / ".remem" / "tool-outputs" / ".gitignore").read_text() == "*\n"
    note = result.text
    assert len(note) < 4_000
    assert content[:2000] in note and content[-800:] in note
    assert (
        len(content) >= 290_000
        and f"{len(content)} chars" in note
        and f"{content.count(chr(10)) + 1} lines" in note
    )
    assert ".remem/tool-outputs/s1/001-read_file.txt" in note and '"limit": 200' in note


def test_reading_back_is_never_offloaded_again(tmp_path: Path) -> None:
    off = Offloader(tmp_path, "s1")
    first = off.process("read_file", big_output(100_000), {"path": "a.txt"})
    assert first.path is not None
    rel = first.path.relative_to(tmp_path).as_posix()
    page = big_output(50_000)
    again = off.process("read_file", page, {"path": rel})
    assert again.path is None and again.text == page
    paged = off.process("read_file", page, {"path": "a.txt", "offset": 1, "limit": 200})
    assert paged.path is None
    absolute = off.process("read_file", page, {"path": str(first.path)})
    assert absolute.path is None


def test_commands_have_a_lower_limit_and_small_results_stay(tmp_path: Path) -> None:
    off = Offloader(tmp_path, "s/../x", OffloadConfig())
    assert off.process("execute_command", "ok\n" * 10).path is None
    cmd = off.process("execute_command", big_output(9_000))
    assert cmd.path is not None and cmd.path.name == "001-execute_command.txt"
    assert off.process("grep", big_output(9_000)).path is None
    assert ".." not in str(cmd.path.relative_to(tmp_path))
    second = off.process("grep", big_output(40_000))
    assert second.path is not None and second.path.name.startswith("002-")
