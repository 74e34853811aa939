"""Shapes of a fact found by probe set i (issue 12, written before any fix): contractions
that carry the copula ("I'm on UTC-5 now", "we're on the Pro plan"), limits ("allows 1,000
requests"), the tool an activity is done with ("we deploy with Ansible"), who signs or
approves, durations ("sprints last two weeks"), an owner noun that has a place ("我们公司在
杭州" is not "我们的仓库在宁波"), names glued by jieba ("猫叫咪咪"), snake_case settings, and a
move that names a where the old memory did not ("We moved payments to Adyen")."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.segment import normal, tokenize
from remem.truth.subject import read


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm on UTC-5 now", "timezone", "UTC-5"),
        ("我们的时区是 UTC+8", "timezone", "UTC+8"),
        ("We're on the Team plan", "plan", "Team"),
        ("We're on the free tier", "tier", "free"),
        ("I'm in Lisbon this week", "location", "Lisbon"),
        ("The trial allows 2,500 API calls per month", "limit trial", "2,500 API calls per month"),
        ("We deploy with Ansible", "deployment", "Ansible"),
        ("Deployments are done with Ansible", "deployment", "Ansible"),
        ("iOS builds are signed by Mei", "build ios signer", "Mei"),
        ("Our standups last fifteen minutes", "length standup", "fifteen minutes"),
        ("我们公司在深圳", "location 公司", "深圳"),
        ("家里的狗叫旺财", "name 家里 狗", "旺财"),
        ("max_retries is 5", "limit retri", "5"),
        ("The SDK is licensed under MIT", "license sdk", "MIT"),
        ("I moved to Porto last month", "location", "Porto"),  # when is not where
        ("周末早上 9 点开会", "time 开会", "周末早上 9 点"),
        ("每天晚上 11 点备份一次数据库", "backup database time", "每天晚上 11 点"),
        ("我们每三周发一次版", "frequency launch", "每三周"),
    ],
)
def test_shapes_read_with_their_subject_and_value(text: str, key: str, value: str) -> None:
    claim = read(text)
    assert claim is not None
    assert (claim.key, claim.value) == (key, value)


@pytest.mark.parametrize(
    "text",
    [
        "I'm so excited about the trip",  # a feeling, not a value
        "I'm going to the park",
        "We plan to use Go",  # not a fact yet
        "I moved here last year",
        "昨天下午开会",  # once, not a schedule
    ],
)
def test_these_state_no_value(text: str) -> None:
    claim = read(text)
    assert claim is None or claim.value not in ("so excited", "going to the park", "Go")


def test_contractions_split_into_owner_and_copula() -> None:
    toks = [t.low for t in tokenize(normal("I'm on UTC-5; we're fine")) if not t.is_space]
    assert toks[:3] == ["i", "am", "on"]
    assert "we" in toks and "are" in toks
    assert [t.low for t in tokenize(normal("It's fine")) if not t.is_space][0] == "it's"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("My timezone is UTC+1", "I'm on UTC+2 now"),
        ("We're on the Starter plan", "We upgraded to the Business plan"),
        ("We deploy with Pulumi", "We switched deployment to Terraform"),
        ("The trial allows 2,500 calls per month", "The trial now allows 1,000 calls per month"),
        ("iOS builds are signed by Mei", "Raj signs the iOS builds now"),
        ("我们公司在深圳", "公司搬到广州了"),
        ("我们的猫叫花花", "我们给猫改名叫团团了"),
        ("The max open files setting is 1024", "max_open_files is 4096 now"),
        ("最大上传文件 10MB", "上传上限提高到 25MB"),
        ("The project is licensed under GPL", "We relicensed to MIT"),
        ("Our cloud is Azure", "We migrated everything to AWS"),
        ("Refunds go through Braintree", "We moved refunds to Stripe"),
        ("I live in Oslo", "I moved to Bergen last month"),
        ("工作日早上 9 点上班", "上班时间推迟到 10 点"),
        ("每天晚上 11 点备份一次数据库", "数据库备份改到每天凌晨 3 点"),
        ("我们每三周发一次版", "现在改成每两周发一次版"),
        # found by probe set j
        ("The docs site is built with Jekyll", "The docs site was rebuilt with Hugo"),
        ("The QA lead is Ana", "Ben took over as QA lead"),
        ("采购审批人是老刘", "采购审批改由小吴负责"),
        ("我的工位在 3 楼", "工位换到了 5 楼"),
        ("市场预算是 20 万", "市场预算追加到 35 万"),
        ("我每天晚上 11 点睡觉", "我现在每天 10 点睡觉"),
    ],
)  # fmt: skip
def test_changes_in_these_shapes_are_caught(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


def test_a_move_finds_its_memory_however_many_others_there_are(tmp_path: Path) -> None:
    # the memory a move changes is found by its subject without the where, not by
    # sharing rare words: other projects' moves must not hide it
    db = tmp_path / "m.db"
    with Memory(db, project="other", embedder=None) as other:
        other.save("We moved the office to the 5th floor")
    with Memory(db, project="mine", embedder=None) as mem:
        mem.save("Refunds go through Braintree")
        assert mem.save("We moved refunds to Stripe").status == "superseded"


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("我们公司在杭州", "我们的仓库在宁波"),  # two owners, two places
        ("The free plan allows 100 builds a month", "The paid plan allows 5,000 builds a month"),
        ("We deploy with Helm", "We deploy to GKE"),  # the tool, and where it goes
        ("iOS builds are signed by Mei", "iOS builds are reviewed by Raj"),
        ("家里的猫叫花花", "家里的狗叫旺财"),
        ("My timezone is UTC+8", "My sister's timezone is UTC-5"),
    ],
)  # fmt: skip
def test_look_alikes_in_these_shapes_are_kept_apart(mem: Memory, left: str, right: str) -> None:
    assert mem.save(left).status == "added"
    assert mem.save(right).status == "added"


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("We deploy with Helm", "Deployments are done with Helm"),
        ("The sprint length is two weeks", "Our sprints last two weeks"),
        ("The free tier allows 1,000 calls per day", "The free tier allows 1000 calls per day"),
    ],
)  # fmt: skip
def test_the_same_fact_in_these_shapes_is_a_duplicate(mem: Memory, first: str, again: str) -> None:
    assert mem.save(first).status == "added"
    assert mem.save(again).status == "duplicate"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("#0 ;B:0", "#1 ;B:0"),  # found by Hypothesis: the same fact beside different words
        ("预算 5 万，下周讨论招聘", "预算 5 万，周五发版"),
    ],
)
def test_one_shared_fact_in_two_longer_texts_is_no_duplicate(
    mem: Memory, first: str, second: str
) -> None:
    assert mem.save(first, force=True).status == "added"
    assert mem.save(second, force=True).status == "added"
