"""The glossary: what well-known technologies are, for keyword recall of paraphrases."""

from __future__ import annotations

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
