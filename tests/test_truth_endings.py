"""Changes said in two clauses, the first ending the old value and the second naming
what holds now (issue 12, held-out sets p-u of session 8): "思域卖了，换了辆 Model 3",
"Cancelled Planet Fitness, joined a climbing gym instead", "Omar is no longer on
billing; Lena owns it now"; the kind switched ("I switched dentists, now seeing …",
"换了牙医，现在找…"); a restatement whose name changed ("告警升级找 Maria" -> "以后告警升级找
Kenji"); and what must stay apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.changes import topic_of
from remem.truth.ending import ended, switched
from remem.truth.segment import Tok, normal, sentences, tokenize
from remem.truth.values import span_text

CHANGES = [
    ("我开的是一辆思域", "思域卖了，换了辆 Model 3"),
    ("组长是老马", "老马不当组长了，现在是阿莎带组"),
    ("我办的健身卡是一兆韦德", "一兆韦德退了，换成攀岩馆"),
    ("我在读《沙丘》", "《沙丘》读完了，现在在读《海伯利安》"),
    ("推送服务用极光", "极光已经下线了，推送改用个推"),
    ("我在学吉他", "吉他不学了，改学钢琴"),
    ("移动端组长是 Priya", "Priya 离职了，移动端现在由 Marco 带"),
    ("My gym is Planet Fitness", "Cancelled Planet Fitness, joined a climbing gym instead"),
    ("I'm reading Dune", "Finished Dune, now reading Hyperion"),
    ("I'm learning Spanish", "I gave up Spanish and started learning Japanese"),
    ("Omar owns the billing service", "Omar is no longer on billing; Lena owns it now"),
    ("Our error tracker is Sentry", "We dropped Sentry last month; errors go to Rollbar now"),
    ("My dentist is Dr. Kim", "I switched dentists, now seeing Dr. Alvarez"),
    ("我的牙医是金医生", "换了牙医，现在找阿尔瓦雷斯医生"),
    ("告警升级找 Maria", "以后告警升级找 Kenji"),
    ("值班每周轮换一次", "值班改成两周轮换一次"),
    # set v
    ("I commute on the 42 bus", "The 42 was discontinued; I take the 17 now"),
    ("I'm allergic to penicillin", "Correction: I'm allergic to amoxicillin, not penicillin"),
    (
        "My son goes to Oak Park preschool",
        "My son finished preschool and started at Maple Elementary",
    ),
    ("We deploy with Capistrano", "Capistrano is gone, deploys run through Argo CD"),
    ("我坐 42 路公交上班", "42 路停运了，现在坐 17 路"),
    ("儿子在橡树幼儿园", "儿子幼儿园毕业了，现在上枫叶小学"),
    ("我周日打网球", "网球改到周六上午了"),  # jieba's 打网球 is about 网球
    ("我每天走 8000 步", "最近每天走一万步"),
    ("我每周游泳两次", "现在每周游三次"),  # 游 of 游泳
    ("The team mascot is a fox", "We voted and the mascot is an owl now"),
    # set w
    ("My bank is Chase", "Closed my Chase account and opened one at Ally"),
    ("Our head of design is Ines", "Ines moved to product; Tom is head of design now"),
    ("I'm on the Keto diet", "I stopped keto, now doing intermittent fasting"),
    ("I rent a flat in Camden", "We bought a house in Hackney and moved out of Camden"),
    ("我的心理咨询师是奥塞医生", "不再找奥塞医生了，现在的咨询师是伦德医生"),
    # set x
    ("The VPN server is vpn1.corp.net", "The VPN server was replaced by vpn2.corp.net"),
    ("我周五在家办公", "现在改成周一在家办公了"),  # a day is a value
    # set y
    ("Our password manager is LastPass", "We left LastPass after the breach and use 1Password now"),
    ("Our product manager is Leila", "Leila left the company; Omar is our PM now"),
    ("Our DNS is on GoDaddy", "We transferred DNS to Cloudflare"),
    ("我的跑鞋是耐克飞马", "飞马穿坏了，现在穿 Hoka"),
]


@pytest.fixture
def mem(tmp_path: Path) -> Memory:
    return Memory(tmp_path / "m.db", project="p")


@pytest.mark.parametrize(("before", "after"), CHANGES)
def test_a_change_in_two_clauses_supersedes(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    result = mem.save(after)
    assert result.status == "superseded", result.reasons
    assert [e.content for e in mem.list()] == [after]


def test_the_same_subject_with_an_adverb_inside_is_a_conflict(mem: Memory) -> None:
    # 现在只: when and how it is said, not what of (the subject stays 客户数据 保存)
    old = mem.save("客户数据保存 5 年").entry
    result = mem.save("客户数据现在只保存 3 年")
    assert result.status == "conflict" and [e.id for e in result.conflicts] == [old.id]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # the value that ended is not what the memory holds
        ("I'm reading Dune", "Finished the report, now reviewing pull requests"),
        ("我开的是一辆思域", "旧电脑卖了，换了台 MacBook"),
        ("My dentist is Dr. Kim", "I switched gyms, now going to Equinox"),
        # a different person, the same template
        ("告警升级找 Maria", "故障复盘找 Kenji"),
        pytest.param(
            "The VPN server is vpn1.corp.net",
            "The mail server was replaced by mx2.corp.net",
            # keyword-only, the words judge asks (0.98); with the embedder it adds
            marks=pytest.mark.xfail(strict=True, reason="the words judge asks"),
        ),
        ("我周五在家办公", "我周一去健身房"),
    ],
)
def test_what_ends_another_value_adds(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status == "added"
    assert len(mem.list()) == 2


def _sent(text: str) -> list[Tok]:
    return sentences(tokenize(normal(text)))[0]


@pytest.mark.parametrize(
    ("text", "stopped", "rest"),
    [
        ("思域卖了，换了辆 Model 3", "思域", "换了辆 Model 3"),
        (
            "Cancelled Planet Fitness, joined a climbing gym instead",
            "Planet Fitness",
            "joined a climbing gym instead",
        ),  # fmt: skip
        ("I gave up Spanish and started learning Japanese", "Spanish", "started learning Japanese"),
        ("《沙丘》读完了，现在在读《海伯利安》", "沙丘", "现在在读《海伯利安》"),
    ],
)
def test_the_value_that_ended_and_what_holds_now(text: str, stopped: str, rest: str) -> None:
    found = ended(_sent(text))
    assert found is not None
    assert (found[0], span_text(found[1])) == (stopped, rest)


@pytest.mark.parametrize(
    "text",
    [
        "I finished early today",  # one clause
        "Sold it, bought a bike",  # no value named
        "思域卖了",  # nothing new said
        "The plan was cancelled, and we were sad",
    ],
)
def test_what_ends_nothing_that_holds(text: str) -> None:
    assert ended(_sent(text)) is None


@pytest.mark.parametrize(
    ("value", "terms"),
    [("七天", ("7d",)), ("7 天", ("7d",)), ("三百五十", ("350",)), ("两千", ("2000",)),
     ("四个小时", ("4h",)), ("一致", ("一致",)), ("一起", ("一起",))],
)  # fmt: skip
def test_chinese_numerals_are_their_number(value: str, terms: tuple[str, ...]) -> None:
    from remem.truth.keys import value_terms

    assert value_terms(value) == terms


def test_the_kind_switched() -> None:
    found = switched(_sent("I switched dentists, now seeing Dr. Alvarez"))
    assert found is not None and found[0] == "dentists"
    assert switched(_sent("I switched it off, now it works")) is None
    topic = topic_of("换了牙医，现在找阿尔瓦雷斯医生")
    assert topic is not None and topic.words == "牙医"


@pytest.mark.parametrize(
    ("others", "old", "new"),
    [
        # the lookup once asked for the new name too (rare in the store, held by another
        # project's memory), which the old memory cannot share
        (("代码评审找 Kenji", "发布审批找 Kenji"), "告警升级找 Maria", "以后告警升级找 Kenji"),
        # 管理工具 and 理工 (jieba's pieces of 单仓库管理工具) are rare over the store, held by
        # another project only: the rarest two words then name no memory of this project
        (("项目管理工具用 Jira", "理工楼在东区"), "单仓库用 Lerna 管理", "单仓库管理工具换成了 Nx"),
    ],
)
def test_a_change_is_found_whatever_other_projects_make_rare(
    tmp_path: Path, others: tuple[str, ...], old: str, new: str
) -> None:
    db = tmp_path / "m.db"
    with Memory(db, project="other") as other:
        for text in others:
            other.save(text)
    with Memory(db, project="mine") as mem:
        mem.save(old)
        result = mem.save(new)
        assert result.status == "superseded", result.reasons
