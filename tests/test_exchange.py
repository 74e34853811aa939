from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remem import InvalidInput, Memory

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
tricky_text = st.text(
    alphabet=st.sampled_from(list("abcXYZ 项目使用记忆中文😀🚀\n\t\"'\\`<>{}#@%_-，。！？"))
    | st.characters(exclude_categories=["Cs"]),
    min_size=1,
    max_size=80,
).filter(lambda s: s.strip() and "\x00" not in s)
timestamps = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)
)
entry_specs = st.fixed_dictionaries(
    {
        "content": tricky_text,
        "type": st.sampled_from(["fact", "preference", "decision", "milestone", "conversation"]),
        "scope": st.sampled_from(["project", "global"]),
        "source": st.sampled_from(["user_explicit", "auto_extracted", "model", "tool", "import"]),
        "metadata": st.dictionaries(st.text(max_size=10), json_values, max_size=4),
        "created_at": timestamps,
        "expires_at": st.none() | timestamps,
        "importance": st.none() | st.floats(0, 1),
        # checked like content: never a NUL byte (issue 29)
        "entity": st.none() | st.text(max_size=10).filter(lambda s: "\x00" not in s),
    }
)


def snapshot(mem: Memory) -> list[dict[str, Any]]:
    return sorted((e.to_dict() for e in mem.store.iter_all()), key=lambda d: d["id"])


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(entry_specs, min_size=1, max_size=6), st.booleans())
def test_export_import_round_trips_every_field(specs: list[dict[str, Any]], replace: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Memory(Path(tmp) / "a.db", project="proj")
        for i, spec in enumerate(specs):
            # A unique prefix keeps generated contents from deduplicating each other.
            spec = {**spec, "content": f"#{i} {spec['content']}"}
            assert src.save(**spec, force=True).status == "added"
        if replace:
            first = next(src.store.iter_all())
            src.save("#replacement 新版本", type=first.type, scope=first.scope, replace_id=first.id)
        before = snapshot(src)
        src.export(Path(tmp) / "out.json")
        dst = Memory(Path(tmp) / "b.db", project="proj")
        # force: generated contents may be numeric variants of each other, which the
        # source accepted with force too.
        result = dst.import_(Path(tmp) / "out.json", force=True)
        assert not result.conflicts and not result.duplicates
        assert snapshot(dst) == before
        assert [r.action for r in dst.store.audit()].count("import") == len(before)
        src.close()
        dst.close()


def test_import_dedups_and_reports_conflicts(tmp_path: Path) -> None:
    a = Memory(tmp_path / "a.db", project="p")
    a.save("项目使用 JDK 17 和 Maven")
    a.save("CI 用 GitHub Actions")
    a.export(tmp_path / "a.json")
    b = Memory(tmp_path / "b.db", project="p")
    b.save("项目使用 JDK 21")
    b.save("CI 用 GitHub Actions")
    result = b.import_(tmp_path / "a.json")
    assert len(result.added) == 0 and len(result.duplicates) == 1
    assert [c.entry.content for c in result.conflicts] == ["项目使用 JDK 17 和 Maven"]
    assert sorted(e.content for e in b.list()) == ["CI 用 GitHub Actions", "项目使用 JDK 21"]
    forced = b.import_(tmp_path / "a.json", force=True)
    assert len(forced.added) == 1
    assert len(b.list()) == 3


def test_import_keeps_ids_unless_taken_and_binds_to_the_importer(tmp_path: Path) -> None:
    a = Memory(tmp_path / "a.db", project="/old/home/proj")
    entry = a.save("部署在 fly.io").entry
    a.export(tmp_path / "a.json")
    b = Memory(tmp_path / "b.db", project="proj")
    b.import_(tmp_path / "a.json")
    assert b.get(entry.id).project == "proj"  # filed under the importer's project
    c = Memory(tmp_path / "c.db", project="proj")
    c.import_(tmp_path / "a.json", keep_partitions=True)  # an administrator's restore
    assert c.list() == []  # filed under the old project, not visible here
    assert Memory(tmp_path / "c.db", project="/old/home/proj").get(entry.id).id == entry.id


@pytest.mark.parametrize(
    "payload",
    [
        "{not json",
        '{"format": "something-else", "entries": []}',
        "42",
        '[{"content": "ok", "type": "nonsense"}]',
        '[{"content": "ok", "unknown_field": 1}]',
        '[{"content": 5}]',
        '[{"content": "ok", "created_at": "yesterday"}]',
        '[{"content": "ok", "id": "a"}, {"content": "ok2", "id": "a"}]',
    ],
)
def test_bad_imports_write_nothing(tmp_path: Path, payload: str) -> None:
    mem = Memory(tmp_path / "m.db", project="p")
    mem.save("已有的记忆")
    bad = tmp_path / "bad.json"
    bad.write_text(payload, encoding="utf-8")
    with pytest.raises(InvalidInput):
        mem.import_(bad)
    assert [e.content for e in mem.list()] == ["已有的记忆"]
    with pytest.raises(InvalidInput, match="cannot read"):
        mem.import_(tmp_path / "missing.json")


def test_export_is_plain_readable_json(mem: Memory, tmp_path: Path) -> None:
    mem.save("回答用中文", type="preference", metadata={"k": "v"})
    n = mem.export(tmp_path / "e.json")
    doc = json.loads((tmp_path / "e.json").read_text(encoding="utf-8"))
    assert n == 1 and doc["format"] == "remem-export" and doc["version"] == 1
    assert doc["entries"][0]["content"] == "回答用中文"
    assert doc["entries"][0]["created_at"].endswith("Z")
    assert doc["audit"][0]["action"] == "add"
