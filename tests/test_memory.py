from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from remem import InvalidInput, Memory, NotFound
from remem.entry import utcnow
from remem.errors import StoreError
from remem.store.sqlite.store import SQLiteStore


def test_save_and_search_chinese(mem: Memory) -> None:
    saved = mem.save("项目使用 JDK 17 和 Maven")
    assert saved.status == "added"
    assert saved.entry.facts == {"jdk": "17"}
    assert saved.entry.token_count > 0
    hits = mem.search("创建 Java 项目用什么 JDK")
    assert [h.entry.id for h in hits] == [saved.entry.id]
    assert 0 < hits[0].score <= hits[0].relevance * 1.2


def test_duplicate_refreshes_verification(mem: Memory) -> None:
    first = mem.save("项目使用 JDK 17 和 Maven", created_at="2026-01-01T00:00:00Z")
    assert first.entry.last_verified_at == datetime(2026, 1, 1, tzinfo=UTC)
    again = mem.save("项目使用JDK 17和Maven。")
    assert again.status == "duplicate"
    assert again.entry.id == first.entry.id
    assert mem.get(first.entry.id).last_verified_at > first.entry.created_at
    assert len(mem.list()) == 1
    assert [r.action for r in mem.history(first.entry.id).audit] == ["add", "refresh"]


def test_auto_extracted_duplicate_does_not_vouch(mem: Memory) -> None:
    first = mem.save("团队统一使用 ruff 格式化", created_at="2026-01-01T00:00:00Z")
    again = mem.save("团队统一使用 ruff 格式化", source="auto_extracted")
    assert again.status == "duplicate"
    assert mem.get(first.entry.id).last_verified_at == first.entry.last_verified_at


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("项目使用 JDK 17 和 Maven", "项目使用 JDK 21"),
        ("预算 5 万", "预算是 8 万"),
        ("项目用 Java 17", "项目用 Java 21"),
        (
            "我习惯用 IntelliJ IDEA 写后端服务和单元测试的 Java 代码",
            "我习惯用 IntelliJ IDEA 写后端服务和单元测试的 Kotlin 代码",
        ),
        ("The API budget is 50k per month", "The API budget is 80k per month"),
    ],
)
def test_conflicts_write_nothing_and_return_both(mem: Memory, old: str, new: str) -> None:
    first = mem.save(old)
    result = mem.save(new)
    assert result.status == "conflict", result
    assert [e.id for e in result.conflicts] == [first.entry.id]
    assert result.reasons and result.entry.content == new
    assert [e.content for e in mem.list()] == [old]


def test_unrelated_statements_do_not_conflict(mem: Memory) -> None:
    assert mem.save("项目使用 JDK 17 和 Maven").status == "added"
    assert mem.save("前端使用 React 18 和 Vite").status == "added"
    assert mem.save("部署到阿里云 ECS").status == "added"
    assert mem.save("v1.2 已发布", type="milestone").status == "added"
    assert mem.save("v1.3 已发布", type="milestone").status == "added"


def test_force_keeps_both(mem: Memory) -> None:
    mem.save("项目使用 JDK 17")
    result = mem.save("项目使用 JDK 21", force=True)
    assert result.status == "added"
    assert len(mem.list()) == 2


def test_replace_keeps_old_version_in_history(mem: Memory) -> None:
    old = mem.save("项目使用 JDK 17 和 Maven").entry
    result = mem.save("项目使用 JDK 21", replace_id=old.id[:6])
    assert result.status == "replaced" and result.replaced is not None
    assert result.replaced.id == old.id
    new = result.entry
    assert [e.id for e in mem.list()] == [new.id]
    assert [h.entry.id for h in mem.search("JDK")] == [new.id]
    assert {h.entry.id for h in mem.search("JDK", include_history=True)} == {old.id, new.id}
    history = mem.history(old.id)
    assert [v.id for v in history.versions] == [old.id, new.id]
    assert history.versions[0].superseded_by == new.id
    assert history.versions[1].supersedes == old.id
    assert [r.action for r in history.audit] == ["add", "replace", "supersede"]
    with pytest.raises(InvalidInput, match="already replaced"):
        mem.save("项目使用 JDK 22", replace_id=old.id)


def test_verify_and_staleness(mem: Memory, tmp_path: Path) -> None:
    source = tmp_path / "pom.xml"
    source.write_text("<project/>")
    old = utcnow() - timedelta(days=40)
    entry = mem.save("构建用 Maven 3.9", created_at=old).entry
    linked = mem.save("配置在 pom.xml 里", linked_paths=[str(source)]).entry
    assert {h.entry.id: h.stale for h in mem.search("Maven")}[entry.id] is True
    assert (mem.stats().visible, mem.stats().stale) == (2, 1)
    assert mem.verify(entry.id).last_verified_at > old
    assert mem.search("Maven")[0].stale is False
    assert mem.search("pom.xml")[0].stale is False
    future = (utcnow() + timedelta(seconds=5)).timestamp()
    os.utime(source, (future, future))
    assert [h.stale for h in mem.search("pom.xml") if h.entry.id == linked.id] == [True]
    assert mem.stats().stale == 1  # the linked file changed since it was verified
    assert "possibly stale" in mem.context_for("pom.xml 配置")


def test_scopes_and_projects(db: Path) -> None:
    with Memory(db, project="a") as a, Memory(db, project="b") as b:
        a.save("项目使用 JDK 17")
        a.save("回答用中文", scope="global", type="preference")
        assert [e.content for e in b.list()] == ["回答用中文"]
        assert b.search("JDK") == []
        assert len(a.list()) == 2
        with pytest.raises(InvalidInput, match="session"):
            a.save("x" * 10, scope="session")
    with Memory(db, project="a", session_id="s1") as s1, Memory(db, project="a") as other:
        s1.save("本会话只讨论登录模块", scope="session")
        assert len(s1.list()) == 3
        assert len(other.list()) == 2


def test_user_and_agent_partitions(db: Path) -> None:
    with (
        Memory(db, project="p", user_id="alice") as alice,
        Memory(db, project="p", user_id="bob") as bob,
        Memory(db, project="p") as shared,
    ):
        alice.save("我喜欢深色主题", type="preference")
        shared.save("团队使用 GitLab CI")
        assert {e.content for e in alice.list()} == {"我喜欢深色主题", "团队使用 GitLab CI"}
        assert [e.content for e in bob.list()] == ["团队使用 GitLab CI"]
        assert [e.content for e in shared.list()] == ["团队使用 GitLab CI"]


def test_expiry_and_prune(mem: Memory) -> None:
    gone = mem.save("临时密钥轮换窗口", expires_at=utcnow() - timedelta(seconds=1)).entry
    weak = mem.save("可能喜欢 tabs", source="auto_extracted", importance=0.1).entry
    strong = mem.save("一律使用 UTF-8 编码", source="auto_extracted", importance=0.9).entry
    assert gone.id not in {e.id for e in mem.list()}
    removed = mem.prune(auto_extracted_below=0.5)
    assert {e.id for e in removed} == {gone.id, weak.id}
    assert [e.id for e in mem.list()] == [strong.id]
    assert [r.action for r in mem.store.audit(weak.id)] == ["add", "prune"]


def test_delete_forget_clear(mem: Memory) -> None:
    a = mem.save("使用 pnpm 管理依赖").entry
    mem.save("使用 pytest 写测试")
    mem.save("回答用中文", scope="global", type="preference")
    assert mem.delete(a.id[:5]).id == a.id
    with pytest.raises(NotFound):
        mem.get(a.id)
    with pytest.raises(NotFound):
        mem.delete("ffffffffffff")
    assert [e.content for e in mem.forget("PYTEST", dry_run=True)] == ["使用 pytest 写测试"]
    assert len(mem.forget("pytest")) == 1
    assert len(mem.clear("global")) == 1
    assert mem.list() == []
    assert mem.stats().audit_records == 6


def test_bad_input_is_refused(mem: Memory) -> None:
    for bad in ("", "   \n"):
        with pytest.raises(InvalidInput, match="empty"):
            mem.save(bad)
    with pytest.raises(InvalidInput, match="at most"):
        mem.save("x" * 10_000_000)
    with pytest.raises(InvalidInput, match="type"):
        mem.save("valid text", type="nonsense")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="JSON"):
        mem.save("valid text", metadata={"x": object()})
    with pytest.raises(InvalidInput):
        mem.search("")
    assert mem.list() == []


def test_metadata_round_trips_exactly(mem: Memory) -> None:
    meta = {"dia_id": "D1:3", "n": 3, "f": 1.5, "nested": {"a": [1, "二", None, True]}}
    entry = mem.save("Caroline went to the LGBTQ support group", metadata=meta).entry
    assert mem.get(entry.id).metadata == meta
    assert mem.search("support group")[0].entry.metadata == meta
    # Metadata is searchable too.
    assert mem.search("D1")[0].entry.id == entry.id


def test_threads_share_one_memory(mem: Memory) -> None:
    def work(n: int) -> None:
        for i in range(25):
            mem.save(f"线程 {n} 的第 {i} 条记忆 item{n}x{i}", force=True)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert mem.stats().entries == 100


def test_broken_unicode_is_refused_cleanly(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="not valid text"):
        mem.save("bad \ud800 surrogate")
    with pytest.raises(InvalidInput, match="not valid text"):
        mem.save("nul \x00 byte")
    with pytest.raises(InvalidInput, match="JSON"):
        mem.save("fine", metadata={"k": "\udfff"})
    assert mem.list() == []


def test_context_records_use_of_exactly_the_injected_memories(mem: Memory) -> None:
    injected = mem.save("项目使用 JDK 17 和 Maven").entry
    cold = mem.save("JDK 升级计划另议，先看 Gradle", created_at=utcnow() - timedelta(days=30))
    unrelated = mem.save("Redis 缓存策略是 LRU").entry
    ids = [injected.id, cold.entry.id, unrelated.id]
    assert {h.entry.id for h in mem.search("JDK 版本")} == {injected.id, cold.entry.id}
    assert mem.store.last_used(ids) == {}  # an explicit search is not a use
    before = utcnow()
    block = mem.context_for("JDK 版本")
    assert "JDK 17" in block and "Gradle" not in block
    used = mem.store.last_used(ids)
    assert list(used) == [injected.id] and before <= used[injected.id] <= utcnow()


class ReadOnlyStore(SQLiteStore):
    """A store that refuses every write, like one opened read-only, and has no usage
    table yet (tests run as root, where chmod cannot make a real one)."""

    @contextmanager
    def write(self) -> Iterator[None]:
        raise StoreError(f"cannot write the store {self.path}: read-only")
        yield

    def last_used(self, ids: Sequence[str]) -> dict[str, datetime]:
        raise StoreError("no such table: usage")


def test_context_on_a_read_only_store(db: Path) -> None:
    with Memory(db, project="proj") as mem:
        mem.save("项目使用 JDK 17 和 Maven")
    with Memory(project="proj", store=ReadOnlyStore(db)) as mem:
        with pytest.raises(StoreError):
            mem.save("a memory nobody may write")
        assert "JDK 17" in mem.context_for("JDK 版本")
        assert [h.tier for h in mem.search("JDK 版本")] == ["hot"]  # served in this session


@pytest.mark.slow
def test_slow_one_off_work_is_announced_before_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from remem.retrieval.embedding import FakeEmbedder
    from remem.store import upgrade as store_module
    from remem.store.protocol import IndexFields
    from remem.store.sqlite.store import SQLiteStore

    db = tmp_path / "m.db"
    with Memory(db, project="p", embedder=None) as mem:
        saved = [mem.save(f"第 {i} 条笔记 note {i}", type="conversation").entry for i in range(300)]
    old = SQLiteStore(db)  # as an older remem left it: older rules, version 1
    old.reindex([(e, IndexFields(["zzz"], "zzz", "", {})) for e in saved], 1)
    old.close()
    monkeypatch.setattr(store_module, "NOTIFY_AT", 100)
    heard: list[str] = []
    with Memory(db, project="p", embedder=FakeEmbedder(), notify=heard.append) as mem:
        assert heard == ["remem: re-indexing 300 memories for the current search rules (once)"]
        assert mem.notices == ["remem: re-indexed 300 memories for the current search rules"]
        # (a query keywords do not settle, so the vectors are needed)
        assert mem.search("笔记 草稿")  # the re-indexed terms are searchable
        assert heard[1:] == ["remem: embedding memories with fake-hash for semantic search (once)"]
        mem.search("note draft")
        assert len(heard) == 2  # once
