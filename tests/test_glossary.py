"""The glossary: what well-known technologies are, for keyword recall of paraphrases."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from remem import Memory, glossary, text
from remem.store.protocol import IndexFields


def kinds(source: str) -> list[str]:
    return glossary.expand(text.terms(source), source)


@pytest.mark.parametrize(
    ("source", "wanted"),
    [
        ("项目后端使用 Spring Boot 3 和 MyBatis", {"java", "框架", "framework"}),
        ("用 PostgreSQL 16", {"数据库", "databas"}),
        ("消息队列选了 Kafka", {"messag", "queue", "mq"}),
        ("部署在 k8s 上", {"容器", "contain"}),
        ("We moved CI to GitHub Actions", {"持续", "集成", "pipelin"}),
        ("UI 是 React 18", {"前端", "javascript"}),
    ],
)
def test_known_technologies_bring_their_kinds(source: str, wanted: set[str]) -> None:
    assert wanted <= set(kinds(source))


def test_everyday_words_stay_words() -> None:
    # "react", "spring" and "rust" are names only when written with a capital.
    assert kinds("how did she react to the news") == []
    assert kinds("we went hiking in the spring") == []
    assert kinds("the rust on the bike") == []
    assert "java" in kinds("We use Spring for the API")


def test_kinds_are_new_terms_once() -> None:
    found = kinds("Java 框架用 Spring Boot，构建用 Maven 和 Gradle")
    assert len(found) == len(set(found))
    assert "java" not in found and "框架" not in found  # already in the text


def test_index_terms_carry_kinds_but_content_does_not(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        saved = mem.save("后端服务使用 Spring Boot 3.2 构建").entry
        assert "java" in IndexFields.of(saved).terms
        assert saved.content == "后端服务使用 Spring Boot 3.2 构建"
        mem.save("周末喜欢去爬山", type="preference")
        hits = mem.search("Java 框架")
        assert [h.entry.id for h in hits] == [saved.id]
        assert "Spring Boot" in mem.context_for("Java 后端框架")


def test_the_table_is_data_read_on_first_use_not_at_import() -> None:
    code = (
        "import remem.glossary as g; before = g._load.cache_info().currsize; "
        "n = len(g.GLOSSARY); print(before, n > 100, g.GLOSSARY['Spring'] == g.GLOSSARY['quarkus'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "True", "True"]  # `@java_fw` spliced into both


def _fresh_index(home: Path) -> str:
    """The glossary index built by a new process with `home` as REMEM_HOME, and whether
    that process loaded jieba to build it."""
    code = (
        "import sys, remem.glossary as g; t = g._table(); "
        "print(repr(sorted(t.table.items())), 'rjieba' in sys.modules)"
    )
    env = {**os.environ, "REMEM_HOME": str(home)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_index_is_cached_under_the_home_and_the_same_read_back(tmp_path: Path) -> None:
    built = _fresh_index(tmp_path)
    cached = list((tmp_path / "cache").glob("glossary-*"))
    assert len(cached) == 1
    again = _fresh_index(tmp_path)
    assert built.rsplit(" ", 1) == [again.rsplit(" ", 1)[0], "True\n"]  # built with jieba
    assert again.endswith(" False\n")  # read back: jieba never loaded
    direct = {}  # the index as the table says, computed here name by name
    for name, kinds in glossary.GLOSSARY.items():
        key = tuple(text.terms(name))
        if key:
            proper = name if name[:1].isupper() else None
            direct[key] = (tuple(dict.fromkeys(text.terms(kinds))), proper)
    assert again.rsplit(" ", 1)[0] == repr(sorted(direct.items()))


def test_a_damaged_or_foreign_cache_is_built_again(tmp_path: Path) -> None:
    built = _fresh_index(tmp_path)
    (path,) = (tmp_path / "cache").glob("glossary-*")
    for junk in (b"", b"\x00garbage", marshal.dumps([(("x",), (1,), None)])):
        path.write_bytes(junk)
        assert _fresh_index(tmp_path) == built
    assert path.read_bytes() != junk  # written again, whole


def test_the_cache_is_named_by_its_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REMEM_HOME", str(tmp_path))
    first = glossary._cache_path()
    assert first is not None and first.parent == tmp_path / "cache"
    monkeypatch.setattr(glossary, "_source", lambda: b"Kafka = queue\n")
    assert glossary._cache_path() not in (None, first)  # another table: another cache
