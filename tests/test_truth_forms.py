"""Shapes of a fact the linking-verb grammar read wrong or not at all (issue 12, found by
probe set f, written before any fix): who is responsible said value-last ("负责X的是Y"),
preferences of manner ("I prefer answers in bullet points"), a value before the copula
("Falcon is the project's codename", "Omar is no longer …; it's Lena now"), and the words
around them (住在 / 搬到, 保留期, 门槛, codename, 这个)."""

from __future__ import annotations

import pytest

from remem import Memory
from remem.truth.subject import read


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("负责前端的是小王", "frontend owner", "小王"),
        ("维护这个仓库的是老李", "owner 仓库", "老李"),
        ("老李负责这个仓库", "owner 仓库", "老李"),
        ("I prefer code reviews in person", "code review style", "person"),
        ("我喜欢简洁的提交说明", "style 提交 说明", "简洁"),
        ("I prefer replies in Japanese", "reply_language", "Japanese"),
        ("Nimbus is the service's codename", "name service", "Nimbus"),
        ("The team was renamed to Platform", "name team", "Platform"),
        ("我住在成都", "location", "成都"),
        ("备份保留 14 天", "backup retention", "14 天"),
        ("Node 版本定在 20", "language", "20"),
        ("The launch is on July 8", "launch time", "July 8"),  # July is no degree adverb
        ("Python is my favorite language", "language", "Python"),  # whose it is comes second
        ("Redis is our cache", "cache", "Redis"),
        ("We back up at 2am", "backup time", "2am"),
        ("Our SSO provider is Okta", "sso", "Okta"),
        ("日志会保存 30 天", "log retention", "30 天"),
    ],
)
def test_shapes_read_with_their_subject_and_value(text: str, key: str, value: str) -> None:
    claim = read(text)
    assert claim is not None
    assert (claim.key, claim.value) == (key, value)


@pytest.mark.parametrize(
    "text",
    [
        "我喜欢红色的花",  # a thing liked, one of many
        "I like pizza with pineapple",
        "It's great",  # a pronoun with nothing before it stands for nothing
        "I tried the new cafe; it's amazing",
        "Even when it's tough, keep going",  # "it's" inside a clause is no new subject
        "Kids are amazingly resilient in tough situations",  # a description, not a value
        "Staying positive is very important",
        "Staying positive is key",
        "The project is on track",
    ],
)
def test_things_liked_and_lone_pronouns_state_no_value(text: str) -> None:
    assert read(text) is None


def test_a_stop_before_the_copula_then_the_new_value() -> None:
    claim = read("Ivan is no longer the release manager; it's Mei now")
    assert claim is not None and claim.change
    assert claim.value == "Mei" and claim.key == read("The release manager is Ivan").key  # type: ignore[union-attr]
    stop = read("老李不再是前端负责人")
    assert stop is not None and stop.value is None and stop.dropped == "老李"
    assert stop.key == "frontend owner"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("负责测试的是小赵", "测试现在由小孙负责"),
        ("I prefer commit messages in imperative mood",
         "I now prefer commit messages as full sentences"),
        ("我偏好简洁的回复", "我现在更喜欢详细的回复"),
        ("The release manager is Ivan", "Ivan is no longer the release manager; it's Mei now"),
        ("The service codename is Nimbus", "The service was renamed to Stratus"),
        ("备份保留 14 天", "备份保留期缩短到 7 天"),
        ("代码覆盖率要求是 70%", "覆盖率门槛调到 85%"),
        ("我住在成都", "我去年搬到了重庆"),
        ("Node 版本是 18", "Node 版本最终定在 20"),
        ("I prefer spaces", "I've come around to tabs"),
        ("缓存集群有 6 个节点", "缓存集群扩到 9 个节点"),
        ("小组有 5 个人", "小组扩到 7 人了"),
        ("The default branch is trunk", "We renamed trunk to main"),
        ("磁盘配额是 50G", "磁盘配额 50G → 80G"),
        ("Log level: info", "Log level: info -> warn"),
        ("We bundle with Rollup", "We've gone from Rollup to Rolldown for bundling"),
        ("备库是 PostgreSQL", "备份库已经从 PostgreSQL 换成了 MySQL"),
        ("The p99 budget is 300 ms", "The p99 budget was tightened to 200 ms"),
        ("我用 Bash", "最近换成 Zsh 了"),
        ("老用户默认是基础版", "老用户默认改为专业版"),
        ("Tracing is disabled in staging", "Tracing is enabled in staging now"),
        ("The upload limit is 20 MB", "The upload limit went up to 50 MB"),
        ("日志保留 30 天", "日志保留期延长为 90 天"),
        ("My nephew is 4 years old", "My nephew just turned 5"),
    ],
)  # fmt: skip
def test_changes_in_these_shapes_are_caught(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("负责前端的是小王", "负责后端的是小李"),
        ("I prefer replies in Japanese", "I prefer replies in bullet points"),
        ("去年预算是 30 万", "今年预算是 50 万"),
        ("备份保留 14 天", "日志保留 30 天"),
        ("The service codename is Nimbus", "The team name is Platform"),
        ("我住在成都", "我父母住在西安"),
        ("Tracing is disabled in staging", "Tracing is enabled in production"),
        ("My nephew is 4 years old", "My niece is 7 years old"),
    ],
)
def test_look_alikes_in_these_shapes_are_kept_apart(mem: Memory, left: str, right: str) -> None:
    assert mem.save(left).status == "added"
    assert mem.save(right).status == "added"


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("前端负责人是小王", "小王负责前端"),
        ("负责前端的是小王", "前端由小王负责"),
        ("The service codename is Nimbus", "Nimbus is the service's codename"),
        ("My favorite language is Go", "Go is my favorite language"),
        ("Backups run at 3am", "We back up at 3am"),
        ("We use Okta for SSO", "Our SSO provider is Okta"),
        ("The project license is Apache-2.0", "The project uses the Apache-2.0 license"),
        ("小组有 5 个人", "小组一共 5 人"),
        ("测试经理是周敏", "周敏是测试经理"),
    ],
)
def test_the_same_fact_in_these_shapes_is_a_duplicate(mem: Memory, first: str, again: str) -> None:
    assert mem.save(first).status == "added"
    assert mem.save(again).status == "duplicate"
