"""Changes the subject grammar alone does not tie to the memory they change (issue 12,
phrasings found by probes written apart from the dev set): replacements ("replaced X
with Y", "X 被 Y 取代"), a change stated of a topic ("Alerts now go to Opsgenie"), times
before events ("每天早上九点站会"), and the words around them (又, 换回, ubuntu:22.04)."""

from __future__ import annotations

import pytest

from remem import Entry, Memory
from remem.truth import lexicon, overlap
from remem.truth.changes import topic_of
from remem.truth.subject import read


# -- readings ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "subject", "value", "dropped"),
    [
        ("We replaced Datadog with Grafana", "monitoring", "Grafana", "Datadog"),
        ("Datadog was replaced by Grafana", "monitoring", "Grafana", "Datadog"),
        ("Grafana replaced Datadog", "monitoring", "Grafana", "Datadog"),
        ("We swapped Jenkins out for GitHub Actions", "ci", "GitHub Actions", "Jenkins"),
        ("用 Grafana 替换了 Datadog", "monitoring", "Grafana", "Datadog"),
        ("Datadog 被 Grafana 取代了", "monitoring", "Grafana", "Datadog"),
        ("我们把 Datadog 换成了 Grafana", "monitoring", "Grafana", "Datadog"),
        ("We dropped SQLAlchemy in favour of SQLModel", "database", "SQLModel", "SQLAlchemy"),
    ],
)
def test_replacements_are_read_with_the_value_that_stopped(
    text: str, subject: str, value: str, dropped: str
) -> None:
    claim = read(text)
    assert claim is not None and claim.change
    assert (claim.subject, claim.value, claim.dropped) == (subject, value, dropped)


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("服务端口又改回 8000 了", "服务端口", "8000"),  # 又 is no part of the subject
        ("前端组件库用 Ant Design", "前端组件库", "Ant Design"),  # jieba glues 库用
        ("数据库备份每天一次", "数据库备份", "每天一次"),  # a rate with no verb
        ("每天早上九点站会", "站会 time", "每天早上九点"),  # a time, then what happens
        ("The build image is ubuntu:20.04", "build image", "ubuntu:20.04"),  # not "ubuntu"
        ("图片存储在七牛云", "图片 location", "七牛云"),  # a name jieba cut in two
        ("Logs are kept for 7 days", "Logs retention", "7 days"),
        ("Deploys happen on Fridays", "Deploys time", "Fridays"),
        ("We keep the wiki on Confluence", "wiki", "Confluence"),
        ("the spare kayak's on rack C", "spare kayak", "rack C"),  # 's before a preposition
        ("Tom's kayak is on rack C", "Tom's kayak", "rack C"),  # ... before what is owned
        ("The bus fare is £3 from the start of March", "bus fare", "£3"),  # when, apart
        ("备用钥匙在前台", "备用钥匙 location", "前台"),  # a thing where things are kept
        ("the spare kayak's in 2B", "spare kayak location", "2B"),  # a room's or bay's code
        ("我的储物柜在 A 区", "the user's 储物柜 location", "A 区"),  # A: a label
    ],
)
def test_more_forms_are_read(text: str, subject: str, value: str) -> None:
    claim = read(text)
    assert claim is not None and (claim.subject, claim.value) == (subject, value)


def test_a_version_or_a_bare_number_is_no_place() -> None:
    for text in ("the kit is in v2", "the meeting is in 2026"):
        claim = read(text)
        assert claim is None or not claim.subject.endswith("location"), claim


@pytest.mark.parametrize(
    "text", ["昨天下午开会", "Bart周末去公园", "我每天跑步一次", "Bart在海边放风筝"]
)
def test_events_and_habits_state_no_value(text: str) -> None:
    assert read(text) is None


def test_an_indented_line_of_the_concept_table_goes_on_with_its_group() -> None:
    table = lexicon.concepts()
    assert table["url"] == table["where"] == table["存储"] == "location"


def test_the_topic_of_a_change_is_the_words_before_its_marker() -> None:
    found = topic_of("The data warehouse now refreshes every hour")
    assert found is not None and (found.words, found.rest) == (
        "data warehouse",
        "refreshes every hour",
    )
    assert topic_of("The data warehouse refreshes every hour") is None  # no change stated


# -- decisions -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Our monitoring uses Datadog", "We replaced Datadog with Grafana"),
        ("Error tracking is done with Sentry", "We replaced Sentry with Rollbar"),
        ("服务注册中心用 Eureka", "我们用 Nacos 取代了 Eureka"),
        ("Alerts go to PagerDuty", "Alerts now go to Opsgenie"),
        ("日志平台用的是 ELK", "日志平台已换成 Loki"),
        ("数据库连接池大小是 20", "连接池大小调大到 50"),
        ("前端组件库用 Ant Design", "组件库换成 Element Plus"),
        ("每天早上九点站会", "站会改到早上十点"),
        ("The build image is ubuntu:20.04", "The build image was bumped to ubuntu:22.04"),
        ("Logs are kept for 7 days", "Logs are now kept for 30 days"),
        ("Deploys happen on Fridays", "Deploys now happen on Tuesdays"),
        ("接口文档用 Swagger", "接口文档已迁移至 Apifox"),
        ("翻译由小李负责", "翻译改由小周负责"),
        ("I use Vim", "Back to VS Code now"),
        # the old memory read only in part (its last clause: the contact), the value left
        # found in its words
        (
            "Personal protective kit is supplied by Dunmore Safety, contact is Rhys.",
            "PPE supply moved from Dunmore Safety to Coldstream Workwear.",
        ),
    ],
)
def test_these_changes_supersede(mem: Memory, before: str, after: str) -> None:
    old = mem.save(before)
    assert old.status == "added"
    new = mem.save(after)
    assert new.status == "superseded", new.reasons
    assert new.replaced is not None and new.replaced.id == old.entry.id
    assert [e.content for e in mem.list()] == [after]


def test_a_replacement_of_a_value_two_memories_hold_asks(mem: Memory) -> None:
    mem.save("The web team's CI is Foobuild")
    mem.save("The data team's pipelines run on Foobuild")
    result = mem.save("We replaced Foobuild with Barbuild")
    assert result.status == "conflict" and len(result.conflicts) == 2
    assert len(mem.list()) == 2  # nothing was written


def test_a_stopped_value_alone_names_no_memory_beside_one_naming_more(mem: Memory) -> None:
    """Two memories say Tuesday; the text names the gutter job: that one is asked about,
    the other is never replaced for sharing the day alone."""
    other = mem.save("Return the ladder to the hire shop before Tuesday.", force=True).entry
    job = mem.save("Gutter clearing at 4 Elm Row is booked for Tuesday 9am.", force=True).entry
    result = mem.save("Elm Row gutter job moved from Tuesday to Wednesday, same time")
    assert result.status == "conflict", result.reasons
    assert [e.id for e in result.conflicts] == [job.id]
    assert {e.id for e in mem.list()} == {other.id, job.id}


def test_one_word_in_common_asks_not_replaces() -> None:
    """A stated change sharing one word of topic with a memory ("… the booking sheets" /
    "don't book anything") is a question, never a silent replacement."""
    old = Entry(content="Teachers' evening is the night after the trip, don't book anything.")
    new = Entry(content="scratch that, Okafors have Heron 2-9 July, I mixed up the booking sheets")
    assert [m.relation for m in overlap.changed_by_words(new, [old])] == ["conflict"]


def test_a_change_of_a_topic_leaves_what_is_said_of_its_attributes(mem: Memory) -> None:
    owner = mem.save("日志平台的负责人是老王").entry
    tool = mem.save("日志平台用的是 ELK").entry
    result = mem.save("日志平台已换成 Loki")
    assert result.status == "superseded" and result.replaced is not None
    assert result.replaced.id == tool.id
    assert owner.id in {e.id for e in mem.list()}


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("前端仓库用 pnpm", "后端仓库改用 yarn"),
        ("The EU cluster has 12 nodes", "The US cluster now has 20 nodes"),
        ("Logs are kept for 14 days", "Metrics are now kept for 90 days"),
        ("用户头像存放在 OSS", "视频文件已迁移到 S3"),
        ("每周一上午例会", "技术分享改到周三下午"),
        ("The staging deploys happen on Mondays", "The production deploys now happen on Thursdays"),
    ],
)
def test_a_change_of_another_thing_is_kept_apart(mem: Memory, left: str, right: str) -> None:
    assert mem.save(left).status == "added"
    assert mem.save(right).status == "added"
    assert len(mem.list()) == 2


# -- the rules' version ---------------------------------------------------------------------
def _fingerprint() -> str:
    """A hash of what the rules read in every text of the hand-written probes."""
    import hashlib
    import json
    from pathlib import Path

    probes = Path(__file__).parent.parent / "benchmarks" / "data" / "truth_probes.json"
    texts = sorted(
        {t for p in json.loads(probes.read_text(encoding="utf-8"))["sets"].values()
         for group in ("updates", "look_alikes", "repeats") for item in p[group] for t in item}
    )  # fmt: skip
    readings = [
        (t, c and (c.subject, c.value, c.key, c.value_terms)) for t in texts for c in [read(t)]
    ]
    return hashlib.sha256(json.dumps(readings, ensure_ascii=False).encode()).hexdigest()[:16]


# When the rules read these texts differently (subjects, values, their keys and value
# terms, which stores keep beside each key), raise remem.truth.index.SUBJECT_RULES (so
# memories stored as having no subject are read again, stored ones keyed again) and put
# both here.
READINGS = {20: "dcd33bc0e01ecbbb"}


@pytest.mark.slow
def test_a_change_of_the_rules_raises_their_version() -> None:
    from remem.truth.index import SUBJECT_RULES

    assert READINGS == {SUBJECT_RULES: _fingerprint()}, (
        "the subject rules read the probes differently: raise SUBJECT_RULES"
    )
