"""`remem migrate` (issue #7): a store copied to another is the same store (entries with
history, audit log, vectors, last use), re-running copies nothing twice, an interrupted
run completes, and the source is never touched."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from remem import Memory
from remem.cli.app import cli
from remem.entry import AuditRecord, Entry
from remem.errors import StoreError
from remem.retrieval.embedding import FakeEmbedder
from remem.store.backends import open_store
from remem.store.migrate import migrate, preview
from remem.store.protocol import IndexFields, Store
from remem.store.sqlite.store import SQLiteStore

SENTENCES = [
    "后端服务使用 Spring Boot 3.2 构建",
    "数据库最终定为 PostgreSQL 16",
    "周末喜欢去爬山",
    "The deploy script lives in ops/deploy.sh",
    "前端用 React 18 和 TypeScript",
    "每周三下午开迭代评审会",
    "CI runs on GitHub Actions with a self-hosted runner",
    "日志统一写到 Loki，保留 30 天",
]
QUERIES = ["JDK", "Spring Boot", "数据库", "爬山", "deploy script", "日志 保留", "回答 中文"]
USED_AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def fill(path: Path) -> dict[str, str]:
    """A store with every kind of row: a three-version chain, a deleted entry (its audit
    records stay), a verified one, rich fields, a partition, vectors and last-use times."""
    with Memory(path, project="p", embedder=FakeEmbedder()) as mem:
        v1 = mem.save("项目使用 JDK 17 和 Maven").entry
        v2 = mem.save("项目使用 JDK 21", replace_id=v1.id).entry
        v3 = mem.save("项目使用 JDK 21 和 Gradle", replace_id=v2.id).entry
        mem.save("回答用中文", scope="global", type="preference")
        rich = mem.save(
            "Budget for Q3 is 50k USD",
            entity="budget",
            metadata={"from": "meeting", "tags": ["q3", "财务"]},
            linked_paths=["docs/budget.md"],
            importance=0.8,
            expires_at="2099-01-01T00:00:00Z",
        ).entry
        gone = mem.save("临时的测试记忆，稍后删除").entry
        mem.delete(gone.id)
        for sentence in SENTENCES:
            assert mem.save(sentence).status == "added"
        mem.verify(rich.id)
        mem.store.mark_used([v3.id, rich.id], USED_AT)
    with Memory(path, project="p", user_id="u1", embedder=FakeEmbedder()) as mem:
        mem.save("我的工位在三楼东侧")
    return {"v1": v1.id, "v2": v2.id, "v3": v3.id, "gone": gone.id}


def state(path: Path) -> dict[str, Any]:
    """Everything a migration must carry over, comparable with ==."""
    store = open_store(path)
    try:
        entries = list(store.iter_all())
        # Records keep their order per entry; a stable sort by id compares exactly that.
        audit = sorted((_record(r) for r in store.audit()), key=lambda r: r[0])
        vectors = {model: store.vector_rows(model) for model, _ in store.vector_models()}
        return {
            "entries": entries,
            "audit": audit,
            "vectors": {m: [(eid, blob) for _, eid, blob in rows] for m, rows in vectors.items()},
            "dims": store.vector_models(),
            "used": store.last_used([e.id for e in entries]),
        }
    finally:
        store.close()


def _record(r: AuditRecord) -> tuple[str, str, datetime, dict[str, Any]]:
    return (r.entry_id, r.action, r.at, r.detail)


def raw_audit(path: Path) -> list[tuple[str, str, datetime, dict[str, Any]]]:
    store = open_store(path)
    try:
        return [_record(r) for r in store.audit()]
    finally:
        store.close()


class _Pair:
    """Open a source and a destination store, closing both afterwards."""

    def __init__(self, src: Path, dst: Path, dst_cls: type[SQLiteStore] = SQLiteStore) -> None:
        self.src, self.dst = open_store(src), dst_cls(dst)

    def __enter__(self) -> tuple[Store, Store]:
        return self.src, self.dst

    def __exit__(self, *exc: object) -> None:
        self.src.close()
        self.dst.close()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def src(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "memory.db"
    fill(path)
    return path


@pytest.mark.parametrize("batch", [1, 2, 500])
def test_everything_round_trips_exactly(src: Path, tmp_path: Path, batch: int) -> None:
    dst = tmp_path / "new" / "dir" / "copy.db"  # the folder does not exist yet
    before = sha(src)
    with _Pair(src, dst) as (s, d):
        result = migrate(s, d, batch=batch)
    want = state(src)
    assert state(dst) == want
    assert result.entries == result.copied == len(want["entries"]) == 14
    assert result.present == 0 and result.audit_records == len(want["audit"])
    assert result.vectors == {"fake-hash": 14} and result.destination_entries == 14
    assert want["dims"] == [("fake-hash", 64)] and want["used"] == {
        e.id: USED_AT for e in want["entries"] if e.id in want["used"]
    }
    assert len(want["used"]) == 2
    assert sha(src) == before  # the source is only read


def test_history_chain_and_deleted_entries_audit(tmp_path: Path) -> None:
    ids = fill(tmp_path / "src.db")
    dst = tmp_path / "copy.db"
    with _Pair(tmp_path / "src.db", dst) as (s, d):
        migrate(s, d, batch=1)  # each version in its own batch: links point forward
    with Memory(dst, project="p", embedder=None) as mem:
        history = mem.history(ids["v3"])
        assert [v.content for v in history.versions] == [
            "项目使用 JDK 17 和 Maven",
            "项目使用 JDK 21",
            "项目使用 JDK 21 和 Gradle",
        ]
        v1 = mem.store.get(ids["v1"])
        assert v1 is not None and v1.superseded_by == ids["v2"]
        assert mem.store.get(ids["gone"]) is None
        gone = [(r.action, r.detail) for r in mem.store.audit(ids["gone"])]
        assert gone == [("add", {}), ("delete", {"chain_of": ids["gone"]})]
        assert [h.entry.id for h in mem.search("JDK")] == [ids["v3"]]


def test_rerun_copies_nothing_and_does_not_duplicate_audit(src: Path, tmp_path: Path) -> None:
    dst = tmp_path / "copy.db"
    with _Pair(src, dst) as (s, d):
        first = migrate(s, d, batch=4)
    log = raw_audit(dst)
    with _Pair(src, dst) as (s, d):
        again = migrate(s, d, batch=4)
    assert (again.copied, again.present, again.audit_records) == (0, first.entries, 0)
    assert again.vectors == first.vectors  # rewritten in place, not added
    assert state(dst) == state(src)
    assert raw_audit(dst) == log and len(log) == len(raw_audit(src))


class Stop(Exception):
    pass


def _stop(_: int) -> None:
    raise Stop  # as if the process died right after the first batch committed


def test_interrupted_run_then_rerun_equals_one_clean_run(src: Path, tmp_path: Path) -> None:
    clean, broken = tmp_path / "clean.db", tmp_path / "broken.db"
    with _Pair(src, clean) as (s, d):
        migrate(s, d, batch=3)
    with _Pair(src, broken) as (s, d):
        with pytest.raises(Stop):
            migrate(s, d, batch=3, progress=_stop)
        assert d.counts()["entries"] + d.counts()["history"] == 3
        assert preview(s, d).copied == 11  # a dry run sees what is left
        rest = migrate(s, d, batch=3)
    assert (rest.copied, rest.present) == (11, 3)
    assert state(broken) == state(clean) == state(src)
    assert raw_audit(broken) == raw_audit(clean)  # the very same log, in the same order


KILL_AFTER_FIVE_BATCHES = """
import os, signal, sys
from remem.store.backends import open_store
from remem.store.migrate import migrate

batches = 0

def die(_: int) -> None:
    global batches
    batches += 1
    if batches == 5:  # no cleanup, no close: the process is gone mid-migration
        os.kill(os.getpid(), signal.SIGKILL)

migrate(open_store(sys.argv[1]), open_store(sys.argv[2]), batch=2, progress=die)
"""


def test_killed_process_then_rerun_equals_one_clean_run(src: Path, tmp_path: Path) -> None:
    clean, killed = tmp_path / "clean.db", tmp_path / "killed.db"
    with _Pair(src, clean) as (s, d):
        migrate(s, d, batch=2)  # the log's order follows the batches: same size to compare
    done = subprocess.run(
        [sys.executable, "-c", KILL_AFTER_FIVE_BATCHES, str(src), str(killed)], check=False
    )
    assert done.returncode == -signal.SIGKILL
    result = invoke("--from", str(src), "--to", str(killed), "--json", "--batch", "2")
    assert result.exit_code == 0, result.output
    assert (json.loads(result.output)["copied"], json.loads(result.output)["present"]) == (4, 10)
    assert state(killed) == state(clean)
    assert raw_audit(killed) == raw_audit(clean)


class VectorsFailOnce(SQLiteStore):
    """A destination whose first vector write fails, as a crash in the last phase."""

    failed = False

    def put_vectors(self, model: str, dim: int, vectors: Sequence[tuple[str, bytes]]) -> None:
        if not VectorsFailOnce.failed:
            VectorsFailOnce.failed = True
            raise StoreError("disk full")
        super().put_vectors(model, dim, vectors)


def test_interrupted_in_the_vector_phase(src: Path, tmp_path: Path) -> None:
    dst = tmp_path / "copy.db"
    with _Pair(src, dst, VectorsFailOnce) as (s, d):
        with pytest.raises(StoreError, match="disk full"):
            migrate(s, d, batch=4)
        assert migrate(s, d, batch=4).copied == 0
    assert state(dst) == state(src)


class DropsOne(SQLiteStore):
    """A destination that silently loses an entry: the final check must notice."""

    def restore(
        self, entries: Sequence[tuple[Entry, IndexFields]], audit: Sequence[AuditRecord]
    ) -> int:
        return super().restore(entries[1:], audit) + (1 if entries else 0)


def test_fewer_entries_in_the_destination_is_an_error(src: Path, tmp_path: Path) -> None:
    with _Pair(src, tmp_path / "copy.db", DropsOne) as (s, d):
        with pytest.raises(StoreError, match="holds 13 entries, fewer than the 14"):
            migrate(s, d)


def test_search_on_the_destination_finds_the_same(src: Path, tmp_path: Path) -> None:
    dst = tmp_path / "copy.db"
    with _Pair(src, dst) as (s, d):
        migrate(s, d)
    for embedder in (FakeEmbedder(), None):
        with (
            Memory(src, project="p", embedder=embedder) as a,
            Memory(dst, project="p", embedder=embedder) as b,
        ):
            for query in QUERIES:
                want, got = a.search(query), b.search(query)
                assert want, query
                assert [h.entry.id for h in got] == [h.entry.id for h in want]
                # the decay reads the clock at each search: scores agree to about 1e-6
                assert [h.score for h in got] == pytest.approx([h.score for h in want], rel=1e-5)
    with Memory(dst, project="p", user_id="u1", embedder=None) as mem:
        assert mem.search("工位")[0].entry.content == "我的工位在三楼东侧"


def test_into_a_store_with_its_own_memories(src: Path, tmp_path: Path) -> None:
    dst = tmp_path / "copy.db"
    with Memory(dst, project="q", embedder=None) as mem:
        own = mem.save("这条记忆本来就在目标库里").entry
    with _Pair(src, dst) as (s, d):
        result = migrate(s, d)
        assert result.destination_entries == result.entries + 1
        assert d.get(own.id) is not None and len(d.audit(own.id)) == 1


# -- the command ---------------------------------------------------------------------------
def invoke(*args: str) -> Result:
    # the whole store (its u1 memory too): an administrator's copy
    return CliRunner().invoke(cli, ["migrate", "--all-users", *args])


def test_cli_json_and_summary(src: Path, tmp_path: Path) -> None:
    dst = tmp_path / "out" / "copy.db"
    dry = invoke("--from", str(src), "--to", str(dst), "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    assert json.loads(dry.output)["copied"] == 14 and json.loads(dry.output)["dry_run"]
    assert not dst.exists() and not dst.parent.exists()  # a dry run creates nothing

    done = invoke("--from", str(src), "--to", str(dst), "--json", "--batch", "5")
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["from"] == str(src) and data["to"] == str(dst)
    assert (data["entries"], data["copied"], data["present"]) == (14, 14, 0)
    assert data["audit_records"] == len(raw_audit(src)) and data["vectors"] == {"fake-hash": 14}
    assert data["destination_entries"] == 14 and data["dry_run"] is False
    assert isinstance(data["seconds"], float)

    again = invoke("--from", str(src), "--to", str(dst))
    assert again.exit_code == 0, again.output
    assert again.output.splitlines() == [
        again.output.splitlines()[0],
        f"{dst} now holds 14 entries.",
    ]
    assert again.output.startswith("Copied 0 of 14 entries (14 already present), 0 audit")
    assert "vectors: 14 fake-hash" in again.output
    assert state(dst) == state(src)


def test_cli_dry_run_against_a_partial_copy(src: Path, tmp_path: Path) -> None:
    dst = tmp_path / "copy.db"
    with _Pair(src, dst) as (s, d):
        with pytest.raises(Stop):
            migrate(s, d, batch=10, progress=_stop)
    before = sha(dst)
    out = invoke("--from", str(src), "--to", str(dst), "--dry-run")
    assert out.exit_code == 0, out.output
    assert out.output.startswith("Would copy 4 of 14 entries (10 already present)")
    assert "Dry run: nothing was written." in out.output
    assert sha(dst) == before


@pytest.mark.parametrize(
    "case", ["same", "same-spelled-otherwise", "missing", "folder", "not-sqlite", "same-url"]
)
def test_cli_errors_are_one_line_exit_2(
    src: Path, tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    foreign = tmp_path / "notes.txt"
    foreign.write_text("not a database\n", encoding="utf-8")
    args = {
        "same": (str(src), str(src)),
        "same-spelled-otherwise": (str(src), "src/../src/memory.db"),
        "missing": ("nowhere/memory.db", "copy.db"),
        "folder": (str(tmp_path), "copy.db"),
        "not-sqlite": (str(foreign), "copy.db"),
        "same-url": ("postgresql://me:pw@db.example/remem", "postgres://me@DB.example:5432/remem"),
    }[case]
    result = invoke("--from", args[0], "--to", args[1])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and "Error:" in result.output
    assert "pw" not in result.output  # a password in a URL is never echoed
    assert not (tmp_path / "nowhere").exists() and not (tmp_path / "copy.db").exists()
    assert foreign.read_text(encoding="utf-8") == "not a database\n"


def test_cli_help_has_the_postgres_example() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "remem migrate --all-users --from ~/.remem/memory.db --to postgresql://user@host/db" in (
        result.output.replace("\n      ", " ")
    )


def test_migrate_copies_only_the_callers_partition(tmp_path: Path) -> None:
    """Issue 29: `--user bob migrate` copies bob's and the shared memories, never
    alice's; only --all-users copies every user's."""
    db = tmp_path / "team.db"
    for user in ("alice", "bob", None):
        with Memory(db, project="p", user_id=user, embedder=None) as mem:
            for i in range(4):
                mem.save(
                    f"{user or 'shared'} note {i}: the {WORDS[i]} service runs on port {8000 + i}"
                )
    runner = CliRunner()
    bob = runner.invoke(cli, ["--user", "bob", "migrate", "--from", str(db), "--to",
                              str(tmp_path / "bob.db"), "--json"])  # fmt: skip
    assert bob.exit_code == 0, bob.output
    with Memory(tmp_path / "bob.db", project="p", embedder=None) as copy:
        users = {e.user_id for e in copy.store.iter_all()}
    assert users == {"bob", None} and json.loads(bob.output)["entries"] == 8
    admin = runner.invoke(cli, ["migrate", "--all-users", "--from", str(db), "--to",
                                str(tmp_path / "all.db"), "--json"])  # fmt: skip
    assert admin.exit_code == 0 and json.loads(admin.output)["entries"] == 12, admin.output


WORDS = ("billing", "search", "mailer", "gateway")
