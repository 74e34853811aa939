"""Memory that stays true (issue 12): what a memory is about (subject and value, read by
rules in Chinese and English), decisions by subject (duplicate, conflict, a stated
change superseding), time in the model (valid_from / valid_to, `as_of`), and removal
that never takes the current memory by surprise."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from remem import Memory
from remem.entry import Entry, format_ts
from remem.truth import keys
from remem.truth.markers import states_change
from remem.truth.subject import read
from remem.truth.when import validity

T0 = datetime(2026, 1, 5, tzinfo=UTC)


def at(days: float) -> str:
    return format_ts(T0 + timedelta(days=days))


# -- subjects and values -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("测试数据库用 SQLite", "测试数据库", "SQLite"),
        ("The billing service listens on port 9090", "billing service port", "9090"),
        ("部署脚本改到了 tools/deploy.py", "部署脚本 location", "tools/deploy.py"),
        ("I prefer emacs", "the user's editor", "emacs"),
    ],
)
def test_the_issues_subjects_and_values(text: str, subject: str, value: str) -> None:
    claim = read(text)
    assert claim is not None and (claim.subject, claim.value) == (subject, value)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("测试数据库用 SQLite", "测试环境的数据库采用 SQLite"),
        ("The billing service listens on port 9090", "The port of the billing service is 9090"),
        ("我们用 Redis 做缓存", "缓存用的是 Redis"),
        ("I prefer emacs", "My editor is emacs."),
        ("项目使用 JDK 17", "Java 版本定为 17"),
        ("预算 5 万", "预算是 50000"),
        ("Carol is the owner of the search service", "The search service owner is Carol"),
        ("王强是报表服务的负责人", "报表服务由王强负责"),
        ("The launch date is June 30", "发布日期是 6月30日"),
    ],
)
def test_one_fact_said_twice_has_one_subject_and_value(left: str, right: str) -> None:
    a, b = read(left), read(right)
    assert a is not None and b is not None, (a, b)
    assert a.key == b.key
    assert keys.relation(a.value_terms, b.value_terms) == "same"


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("The billing service listens on port 9090", "The auth service listens on port 8080"),
        ("The billing service listens on port 9090", "The auth service listens on port 9090"),
        ("生产环境的 Redis 是 7.0", "测试环境的 Redis 是 6.2"),
        ("生产环境的 Redis 是 7.0", "测试环境的 Redis 是 7.0"),
        ("订单服务的超时时间是 30 秒", "订单服务的端口是 30"),
        ("The staging cache is Redis", "The production cache is Redis"),
        ("服务 A：用 pnpm", "服务 B：用 pnpm"),  # a topic before a colon is the subject
    ],
)
def test_qualifiers_belong_to_the_subject(left: str, right: str) -> None:
    a, b = read(left), read(right)
    assert a is not None and b is not None
    assert a.key != b.key


@pytest.mark.parametrize(
    "text",
    [
        "Bart在海边放风筝，感到非常开心。",
        "Bart看喜欢的故事书视频感到非常开心。",
        "Bart在学校的绘画比赛中获得优胜奖，感到非常自豪。",
        "Bart danced at the Christmas party and felt very happy.",
        "Is the port 9090?",
        "我们要不要换成 MySQL？",
        "We might switch to Go next quarter",
        "项目使用 JDK 17 和 Maven",  # two facts, not one value
    ],
)
def test_no_subject_where_the_text_states_none(text: str) -> None:
    assert read(text) is None


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("数据库改用 PostgreSQL 16", True),
        ("CI 换成了 GitHub Actions", True),
        ("超时调整为 60 秒", True),
        ("我们不再使用 Jenkins", True),
        ("The team switched to pnpm", True),
        ("The docs moved to docs/site/", True),
        ("The API now uses gRPC", True),
        ("We no longer use Jenkins", True),
        ("Correction: the port is 9091", True),
        ("更正：端口是 9091", True),
        ("数据库用 PostgreSQL 16", False),
        ("The port is 9091", False),
    ],
)
def test_stated_changes(text: str, changed: bool) -> None:
    assert states_change(text) is changed
    claim = read(text)
    assert claim is not None and claim.change is changed


def test_the_value_that_stopped() -> None:
    claim = read("数据库不再用 MySQL，改用 PostgreSQL")
    assert claim is not None and (claim.subject, claim.value, claim.dropped) == (
        "数据库", "PostgreSQL", "MySQL"
    )  # fmt: skip
    stop = read("We no longer use Jenkins")
    assert stop is not None and stop.value is None and stop.dropped == "Jenkins"


def test_validity_stated_in_the_text() -> None:
    ref = datetime(2026, 3, 1, tzinfo=UTC)
    since = validity("从 2026-05-01 起数据库改用 PostgreSQL", ref)
    assert since.start == datetime(2026, 5, 1, tzinfo=UTC) and since.end is None
    assert since.rest == "数据库改用 PostgreSQL"
    until = validity("The freeze lasts until June 30", ref)
    assert until.end == datetime(2026, 7, 1, tzinfo=UTC)
    assert validity("会议时间改到 6月30日", ref).end is None  # a new date, not an end


# -- decisions by subject ------------------------------------------------------------------
def test_the_issues_examples(mem: Memory) -> None:
    assert mem.save("测试数据库用 SQLite").status == "added"
    conflict = mem.save("测试数据库用 MySQL")
    assert conflict.status == "conflict" and "SQLite -> MySQL" in conflict.reasons[0]
    assert mem.save("I prefer vim").status == "added"
    assert mem.save("I prefer emacs").status == "conflict"
    old = mem.save("数据库使用 MySQL 8").entry
    new = mem.save("数据库改用 PostgreSQL 16")
    assert new.status == "superseded" and new.replaced and new.replaced.id == old.id
    hits = [h.entry.content for h in mem.search("数据库 MySQL PostgreSQL")]
    assert "数据库改用 PostgreSQL 16" in hits and "数据库使用 MySQL 8" not in hits
    mem.save("部署脚本在 scripts/deploy.sh")
    moved = mem.save("部署脚本改到了 tools/deploy.py")
    assert moved.status == "superseded"
    assert [h.entry.content for h in mem.search("部署脚本")][0] == "部署脚本改到了 tools/deploy.py"
    assert mem.save("The auth service listens on port 8080").status == "added"
    assert mem.save("The billing service listens on port 9090").status == "added"
    assert mem.save("测试环境的 Redis 是 6.2").status == "added"
    assert mem.save("生产环境的 Redis 是 7.0").status == "added"


def test_one_frontend_framework_stays_current(mem: Memory) -> None:
    assert mem.save("前端框架用 React").status == "added"
    assert mem.save("前端框架用 Vue").status == "conflict"
    assert mem.save("前端框架用 Svelte").status == "conflict"
    assert [e.content for e in mem.list()] == ["前端框架用 React"]
    switched = mem.save("前端框架改用 Svelte")
    assert switched.status == "superseded"
    assert [e.content for e in mem.list()] == ["前端框架改用 Svelte"]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("团队周会在周一上午十点", "周会改到周二下午三点了"),  # 在 + a time is a time
        ("The standup is at 9am", "The standup moved to 10am"),  # clock times
        ("Standup is at 9:30", "Standup moved to 10:15"),  # 9:30 is one token, not a colon
        ("服务 A：用 pnpm", "服务 A：改用 yarn"),
    ],
)
def test_times_and_topics_are_updated(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status == "superseded"
    assert [e.content for e in mem.list()] == [after]


def test_same_subject_and_value_is_a_duplicate_however_written(mem: Memory) -> None:
    first = mem.save("The billing service listens on port 9090").entry
    again = mem.save("The port of the billing service is 9090")
    assert again.status == "duplicate" and again.entry.id == first.id
    vaguer = mem.save("数据库用 PostgreSQL 16")
    assert mem.save("数据库用 PostgreSQL").status == "duplicate"
    sharper = mem.save("The cache is Redis")
    assert sharper.status == "added" and vaguer.status == "added"
    assert mem.save("The cache is Redis 7.2").status == "superseded"  # more precise


def test_a_stop_supersedes_only_the_value_it_names(mem: Memory) -> None:
    mem.save("CI 用 Jenkins")
    stopped = mem.save("我们不再使用 Jenkins")
    assert stopped.status == "superseded"
    assert mem.save("CI 用 GitHub Actions").status == "added"  # nothing else is stated
    assert mem.save("We no longer use Travis CI").status == "added"


def test_a_change_of_a_broader_subject_supersedes_the_one_it_can_mean(mem: Memory) -> None:
    mem.save("The API budget is 50k per month")
    assert mem.save("Budget changed to 80k").status == "superseded"
    mem.save("测试环境的 Redis 是 6.2")
    mem.save("生产环境的 Redis 是 7.0")
    which = mem.save("Redis 升级到 7.2")  # two Redis: which one? the user says
    assert which.status == "conflict" and len(which.conflicts) == 2


def test_events_are_kept_apart_and_plain_duplicates_merge(mem: Memory) -> None:
    events = [
        "Bart在海边放风筝，感到非常开心。",
        "Bart看喜欢的故事书视频感到非常开心。",
        "Bart在学校的绘画比赛中获得优胜奖，感到非常自豪。",
        "Bart在学校的体育节上获得男子一百米第一名，感到非常开心。",
    ]
    assert [mem.save(e).status for e in events] == ["added"] * 4
    assert mem.save(events[0]).status == "duplicate"


def test_import_of_look_alike_facts_reports_no_conflicts(mem: Memory, tmp_path: Path) -> None:
    services = ["auth", "billing", "search", "payment", "gateway", "inventory"]
    envs = ["staging", "production", "test", "development"]
    facts = []
    for i, (svc, env) in enumerate((s, e) for s in services for e in envs):
        facts += [
            {"content": f"The {env} {svc} service listens on port {8000 + i}"},
            {"content": f"The {env} {svc} service timeout is {10 + i} seconds"},
            {"content": f"{env}环境的{svc}服务的数据库用 {'MySQL' if i % 2 else 'PostgreSQL'}"},
        ]
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(facts, ensure_ascii=False), encoding="utf-8")
    result = mem.import_(path)
    assert (len(result.added), len(result.conflicts), len(result.duplicates)) == (len(facts), 0, 0)
    again = mem.import_(path)
    assert len(again.duplicates) == len(facts) and not again.conflicts


def test_import_reports_a_real_conflict(mem: Memory, tmp_path: Path) -> None:
    mem.save("测试数据库用 SQLite")
    path = tmp_path / "one.json"
    item = {"content": "测试数据库用 MySQL", "project": mem.project}
    path.write_text(json.dumps([item], ensure_ascii=False), encoding="utf-8")
    result = mem.import_(path)
    assert [c.entry.content for c in result.conflicts] == ["测试数据库用 MySQL"]


# -- time ------------------------------------------------------------------------------------
def test_as_of_answers_what_was_true_then(mem: Memory) -> None:
    first = mem.save("测试数据库用 SQLite", created_at=at(0)).entry
    mem.save("测试数据库改用 MySQL", created_at=at(30))
    later = mem.save("从 2026-04-01 起测试数据库换成 PostgreSQL", created_at=at(60))
    assert later.status == "superseded" and later.entry.valid_from == datetime(
        2026, 4, 1, tzinfo=UTC
    )

    def contents(**kw: object) -> list[str]:
        return [h.entry.content for h in mem.search("测试数据库", **kw)]  # type: ignore[arg-type]

    assert contents() == ["从 2026-04-01 起测试数据库换成 PostgreSQL"]
    assert contents(as_of=at(10)) == ["测试数据库用 SQLite"]
    assert contents(as_of=at(70)) == ["测试数据库改用 MySQL"]  # the change starts 2026-04-01
    assert contents(as_of="2026-05-01") == ["从 2026-04-01 起测试数据库换成 PostgreSQL"]
    assert contents(as_of="2025-12-01") == []  # before the chain's first version
    history = mem.history(first.id).versions
    assert [v.valid_to for v in history] == [
        T0 + timedelta(days=30), datetime(2026, 4, 1, tzinfo=UTC), None
    ]  # fmt: skip
    assert "SQLite" in mem.context_for("测试数据库用什么", as_of=at(10))
    assert "SQLite" not in mem.context_for("测试数据库用什么")


def test_an_end_stated_in_the_text_takes_it_out_of_now(mem: Memory) -> None:
    mem.save("The release freeze lasts until 2026-01-31", created_at=at(0))
    assert mem.search("release freeze", as_of=at(10))
    assert mem.search("release freeze") == []  # it is not true any more


# -- removal --------------------------------------------------------------------------------
def test_deleting_an_older_version_keeps_the_current_memory(mem: Memory) -> None:
    a = mem.save("测试数据库用 SQLite", created_at=at(0)).entry
    b = mem.save("测试数据库改用 MySQL", created_at=at(10)).entry
    c = mem.save("测试数据库换成 PostgreSQL", created_at=at(20)).entry
    assert mem.delete(b.id).id == b.id
    chain = mem.history(c.id).versions
    assert [v.id for v in chain] == [a.id, c.id]
    assert chain[0].superseded_by == c.id and chain[1].supersedes == a.id
    assert [e.id for e in mem.list()] == [c.id]
    mem.delete(c.id)  # the current one takes its chain with it
    assert mem.list(include_history=True) == []


def test_forget_touches_only_this_project_unless_asked(db: Path) -> None:
    with Memory(db, project="a") as a, Memory(db, project="b") as b:
        a.save("staging 用 SQLite")
        a.save("staging 的全局约定", scope="global")
        b.save("staging 端口 8080")
        assert [e.content for e in a.forget("staging", dry_run=True)] == ["staging 用 SQLite"]
        assert len(a.forget("staging", dry_run=True, scopes=None)) == 2
        assert [e.content for e in a.forget("staging")] == ["staging 用 SQLite"]
        assert [e.content for e in b.list()] == ["staging 端口 8080", "staging 的全局约定"]


# -- stores of an earlier remem --------------------------------------------------------------
def test_an_existing_store_migrates(tmp_path: Path) -> None:
    from remem.store.sqlite.schema import MIGRATIONS

    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT "
                 "NULL, applied_at TEXT NOT NULL)")  # fmt: skip
    for version, name, run in MIGRATIONS[:5]:
        run(conn)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (version, name, at(0)))
    for eid, content, created, by, sup in [
        ("old1", "测试数据库用 SQLite", at(0), "old2", None),
        ("old2", "测试数据库用 MySQL", at(10), None, "old1"),
        ("old3", "今天和小王一起吃了午饭", at(11), None, None),
    ]:
        conn.execute(
            "INSERT INTO entries(id, content, type, scope, project, created_at, updated_at, "
            "last_verified_at, token_count, source, confidence, metadata, facts, linked_paths, "
            "superseded_by, supersedes, canon, skeleton, terms, term_count) VALUES (?, ?, "
            "'fact', 'project', 'p', ?, ?, ?, 5, 'user_explicit', 'confirmed', '{}', '{}', "
            "'[]', ?, ?, ?, '', ?, 2)",
            (eid, content, created, created, created, by, sup, content, "测试 数据库"),
        )
    conn.close()
    with Memory(path, project="p", embedder=None) as mem:
        old1, old2 = mem.get("old1"), mem.get("old2")
        assert old1.valid_from == old1.created_at and old1.valid_to == old2.created_at
        assert (old2.valid_from, old2.valid_to) == (old2.created_at, None)
        assert (old2.subject, old2.value) == ("测试数据库", "MySQL")
        assert mem.save("测试数据库改用 PostgreSQL").replaced.id == "old2"  # type: ignore[union-attr]
    keys_of = dict(sqlite3.connect(path).execute("SELECT id, subject_key FROM entries"))
    assert keys_of["old3"] == "" and keys_of["old2"]  # read once: none found is kept too


def test_a_memory_without_a_subject_is_not_read_again(tmp_path: Path) -> None:
    from remem.store.protocol import Domain
    from remem.truth import decide, index

    db = tmp_path / "m.db"
    with Memory(db, project="p", embedder=None) as mem:
        lunch = mem.save("今天和小王一起吃了午饭").entry
    with Memory(db, project="p", embedder=None) as mem:  # the marker survives a reopen
        near = mem.store.same_domain(Domain.of(lunch), index.fields(lunch))
        assert [(n.entry.id, n.subject_key) for n in near] == [(lunch.id, "")]
    stated = Entry("测试数据库用 SQLite", project="p")
    assert decide.claim_of(stated) is not None
    assert decide.claim_of(stated, key="") is None  # what the stored key says is trusted


def test_a_stored_claim_is_about_its_stored_key() -> None:
    from remem.truth import decide, index

    stored = Entry("测试数据库用 SQLite", project="p", subject="测试数据库", value="SQLite")
    computed = decide.claim_of(stored)
    assert computed is not None and computed.key == index.subject_key(stored)
    kept = decide.claim_of(stored, key="database kept")  # as the store found it
    assert kept is not None and kept.key == "database kept" and kept == computed


def test_newer_subject_rules_read_memories_without_a_subject_again(tmp_path: Path) -> None:
    from remem.truth import index

    db = tmp_path / "m.db"
    with Memory(db, project="p", embedder=None) as mem:
        stated = mem.save("测试数据库用 SQLite").entry
    conn = sqlite3.connect(db)  # as if older rules had read no subject in it
    with conn:
        conn.execute("UPDATE entries SET subject = NULL, value = NULL, subject_key = ''")
    conn.close()
    with Memory(db, project="p", embedder=None) as mem:
        assert mem.get(stated.id).subject is None  # the same rules: not read again
        assert index.backfill(mem.store, rules=index.SUBJECT_RULES + 1) == 1
        got = mem.get(stated.id)
        assert (got.subject, got.value) == ("测试数据库", "SQLite")
        assert mem.store.subject_rules() == index.SUBJECT_RULES + 1
        assert mem.save("测试数据库改用 MySQL").replaced.id == stated.id  # type: ignore[union-attr]
    with Memory(db, project="p", embedder=None) as mem:  # an older remem keeps newer keys
        assert mem.store.subject_rules() == index.SUBJECT_RULES + 1


def test_an_export_without_validity_imports_with_it(tmp_path: Path) -> None:
    old = Entry("测试数据库用 SQLite", id="e1", project="p", created_at=T0, superseded_by="e2")
    new = Entry("测试数据库用 MySQL", id="e2", project="p", created_at=T0 + timedelta(days=3),
                supersedes="e1")  # fmt: skip
    items = []
    for e in (old, new):
        d = e.to_dict()
        for name in ("subject", "value", "valid_from", "valid_to"):
            del d[name]
        items.append(d)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        mem.import_(path)
        versions = mem.history("e2").versions
        assert [v.valid_to for v in versions] == [T0 + timedelta(days=3), None]
        assert mem.search("测试数据库", as_of=T0 + timedelta(days=1))[0].entry.id == "e1"


def test_a_change_said_in_chat_is_extracted_as_an_update(mem: Memory) -> None:
    from remem.extract.extractor import Extractor

    old = mem.save("数据库使用 MySQL 8").entry
    result = Extractor(mem).extract("对了，我们的数据库改用 PostgreSQL 16 了。")
    assert [c.content for c in result.saved] and not result.refused
    current = mem.list()
    assert len(current) == 1 and "PostgreSQL 16" in current[0].content
    assert current[0].supersedes == old.id


# Phrasings written apart from the dev set (benchmarks/make_truth_dev.py): a change is
# caught (superseded, or a conflict for the caller) and look-alikes stay apart.
@pytest.mark.parametrize(("before", "after"), [
        ('日志级别是 INFO', '日志级别调整为 DEBUG'),
        ('默认分支是 master', '默认分支改成 main 了'),
        ('缓存过期时间为 10 分钟', '缓存过期时间改为 30 分钟'),
        ('我们的云服务商是阿里云', '云服务商换成了腾讯云'),
        ('项目经理是张伟', '项目经理换成李娜了'),
        ('文档放在 docs/ 目录', '文档挪到了 website/docs 目录'),
        ('Python 版本是 3.10', 'Python 版本升级到 3.12'),
        ('线上数据库的最大连接数是 200', '线上数据库的最大连接数调到 500'),
        ('我习惯用 Tab 缩进', '我现在改用空格缩进了'),
        ('The default branch is master', 'We renamed the default branch to main'),
        ('The staging URL is https://staging.example.com',
         'The staging URL changed to https://stg.example.com'),
        ('Our on-call rotation is weekly', 'The on-call rotation is now biweekly'),
        ('The build uses Gradle', 'We switched the build to Bazel'),
        ('Max upload size is 10 MB', 'Max upload size was raised to 25 MB'),
        ('The design lead is Maria',
         'Maria handed design lead over to Tom; Tom is the design lead now'),
        ('I prefer dark mode', 'I now prefer light mode'),
        ('The release is planned for March 3', 'The release slipped to March 17'),
        ('Node version is 18', 'Node version is now 20'),
        ('The repo is hosted on Bitbucket', 'The repo moved to GitHub'),
        ('Tests run with pytest -x', 'Tests now run with pytest -n auto'),
        ('The cron job runs at 2am', 'The cron job runs at 4am instead'),
])  # fmt: skip
def test_other_phrasings_of_a_change_are_caught(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


@pytest.mark.parametrize(("left", "right"), [
        ('订单服务的日志级别是 INFO', '支付服务的日志级别是 DEBUG'),
        ('北京机房的带宽是 1G', '上海机房的带宽是 10G'),
        ('iOS 客户端的最低版本是 14', 'Android 客户端的最低版本是 9'),
        ('主库的备份保留 7 天', '从库的备份保留 3 天'),
        ('The frontend repo uses pnpm', 'The backend repo uses poetry'),
        ('The EU cluster has 12 nodes', 'The US cluster has 20 nodes'),
        ("Alice's laptop runs macOS", "Bob's laptop runs Ubuntu"),
        ('The staging DB password rotates monthly', 'The prod DB password rotates weekly'),
        ('The search API timeout is 2 s', 'The upload API timeout is 60 s'),
        ('v1 接口的限流是 100 QPS', 'v2 接口的限流是 500 QPS'),
        ('开发环境的 Kafka 有 3 个分区', '生产环境的 Kafka 有 48 个分区'),
        ('The mobile team meets on Monday', 'The web team meets on Thursday'),
])  # fmt: skip
def test_other_look_alikes_are_kept_apart(mem: Memory, left: str, right: str) -> None:
    assert mem.save(left).status == "added"
    assert mem.save(right).status == "added"


# A second set written apart from the dev set: changes, repeats in other words, look-alikes.
@pytest.mark.parametrize(("before", "after"), [
        ('监控用的是 Zabbix', '监控已经迁到 Prometheus 了'),
        ('团队沟通用钉钉', '团队沟通工具换成飞书'),
        ('接口文档在 Confluence 上', '接口文档搬到 Notion 了'),
        ('发布窗口是每周四晚上', '发布窗口调整到每周二晚上'),
        ('测试覆盖率要求 80%', '测试覆盖率要求提高到 90%'),
        ('运维负责人是老周', '运维负责人换成了小陈'),
        ('数据仓库用 Hive', '数据仓库迁移到 ClickHouse'),
        ('本地开发端口是 3000', '本地开发端口改成 5173'),
        ('我喜欢用 VS Code', '我现在改用 Cursor 了'),
        ('回复请用中文', '以后回复用英文'),
        ('The team uses Jira for tickets', 'We moved tickets to Linear'),
        ('The cache TTL is 5 minutes', 'Cache TTL bumped to 15 minutes'),
        ('The primary region is us-east-1', 'The primary region is now eu-west-1'),
        ('Sprint length is two weeks', 'Sprint length changed to one week'),
        ('The tech lead is Priya', 'The tech lead is now Sam'),
        ('The API rate limit is 100 requests per minute',
         'The API rate limit was raised to 300 requests per minute'),
        ('We use MySQL 5.7', 'We upgraded MySQL to 8.0'),
        ('Docker images are stored in Docker Hub', 'Docker images moved to GHCR'),
])  # fmt: skip
def test_more_phrasings_of_a_change_are_caught(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


@pytest.mark.parametrize(("first", "again"), [
        ('项目使用 Python 3.12', '项目的 Python 版本是 3.12'),
        ('The billing service listens on port 9090', 'Billing service port: 9090'),
        ('我偏好深色主题', '我喜欢用深色主题'),
        ('CI 用 GitHub Actions', '我们的 CI 是 GitHub Actions'),
        ('The on-call lead is Dana', 'Dana is the on-call lead'),
        ('缓存用 Redis', 'Redis 用于缓存'),
])  # fmt: skip
def test_a_fact_said_again_in_other_words_is_a_duplicate(
    mem: Memory, first: str, again: str
) -> None:
    assert mem.save(first).status == "added"
    assert mem.save(again).status == "duplicate"


@pytest.mark.parametrize(("left", "right"), [
        ('订单库的主键是 order_id', '用户库的主键是 user_id'),
        ('前端的 Node 版本是 18', '构建机的 Node 版本是 20'),
        ('灰度环境的副本数是 2', '正式环境的副本数是 8'),
        ('The admin panel is at /admin', 'The status page is at /status'),
        ("Team A's standup is at 9:30", "Team B's standup is at 10:00"),
        ('The iOS app uses Swift', 'The Android app uses Kotlin'),
        ('Staging uses a t3.medium instance', 'Production uses an m5.xlarge instance'),
        ('华东区的负载均衡用 SLB', '华北区的负载均衡用 Nginx'),
        ('周报每周五提交', '月报每月最后一天提交'),
        ('The login service timeout is 5 s', 'The payment service timeout is 30 s'),
])  # fmt: skip
def test_more_look_alikes_are_kept_apart(mem: Memory, left: str, right: str) -> None:
    assert mem.save(left).status == "added"
    assert mem.save(right).status == "added"
