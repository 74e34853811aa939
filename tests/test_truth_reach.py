"""Shapes of a fact found by probe set k (issue 12, written before any fix): whom one
reports to (one's manager), where something is sent or deployed ("we send our logs to
Loki", "we deploy the frontend to Vercel"), a product's own version ("Python 版本是 3.9"
is not "Node 版本是 18"), a "system" head ("监控系统" is the monitoring), and a change
that names no owner ("We relocated to the 12th floor" after "Our office is on the 5th
floor"); how often, said as a value ("Releases are weekly now") or after the verb ("We
release every two weeks"); a team that owns something ("The platform team owns /api");
how much of something a day ("I drink two coffees a day" -> "I cut down to one coffee a
day")."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth import changes, keys
from remem.truth.subject import read


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I report to Priya", "owner", "Priya"),  # as "My manager is Priya"
        ("We send our logs to Elasticsearch", "database destin log", "Elasticsearch"),
        ("Our logs are shipped to Loki", "destin log", "Loki"),
        ("We deploy the frontend to Vercel", "frontend platform", "Vercel"),
        ("前端的部署平台是 Vercel", "frontend platform", "Vercel"),
        ("监控系统是 Zabbix", "monitoring", "Zabbix"),
        ("Our monitoring system is Zabbix", "monitoring", "Zabbix"),
        # a noun before a verb is no verb with an object
        ("The staging deploys happen on Mondays", "deployment staging time", "Mondays"),
        ("We release every two weeks", "frequency launch", "every two weeks"),
        ("Releases are weekly now", "frequency launch", "weekly"),
        ("发版频率是每两周一次", "frequency launch", "每两周一次"),
        ("The data warehouse refreshes every 6 hours", "data frequency warehous", "every 6 hours"),
        ("We now deploy twice a day", "deployment frequency", "twice a day"),
        ("The platform team owns /api now", "api owner", "platform team"),
        ("Code owners for /api are the backend team", "api owner", "backend team"),
        ("推送服务用极光", "推送", "极光"),
        ("The billing service listens on port 9090", "bill port", "9090"),
        ("I drink two coffees a day", "coffe time", "two"),
        ("I run 5 km every day", "km run time", "5"),
        ("The port of the billing service is 9090", "bill port", "9090"),
    ],
)
def test_shapes_read_with_their_subject_and_value(text: str, key: str, value: str) -> None:
    claim = read(text)
    assert claim is not None
    assert (claim.key, claim.value) == (key, value)


def test_system_alone_or_first_stays_the_subject() -> None:
    for text, key in (("系统语言是中文", "language 系统"), ("系统是 Ubuntu", "os 系统")):
        claim = read(text)
        assert claim is not None and claim.key == key


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("My manager is Dana", "I now report to Kevin"),
        ("The frontend is deployed on Vercel", "We moved the frontend deployment to Netlify"),
        ("Our office is on the 5th floor", "We relocated to the 12th floor"),
        ("我们的监控用 Zabbix", "监控系统换成 Prometheus 了"),
        ("We send our logs to Elasticsearch", "Logs now go to Loki"),
        ("Python 版本是 3.9", "Python 版本升级到 3.11"),
        ("The release train leaves every two weeks", "Releases are weekly now"),
        ("The warehouse refreshes every 6 hours", "The warehouse now refreshes every hour"),
        ("We deploy every day", "We now deploy twice a day"),
        ("Code owners for /api are the backend team", "The platform team owns /api now"),
        ("团队的代码规范用 ESLint", "代码规范检查改用 Biome"),
        ("I drink two coffees a day", "I cut down to one coffee a day"),
        ("I run 5 km every day", "I now run 10 km a day"),
    ],
)  # fmt: skip
def test_changes_in_these_shapes_are_caught(mem: Memory, before: str, after: str) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


def test_an_owner_less_move_finds_its_memory_among_many(tmp_path: Path) -> None:
    # the change shares no rare word with the memory it changes ("relocated", "12th"),
    # and other projects hold those words: it is found by its subject
    db = tmp_path / "m.db"
    with Memory(db, project="other", embedder=None) as other:
        other.save("We relocated to the 3rd floor last year")
        other.save("The 12th floor has the big meeting room")
    with Memory(db, project="mine", embedder=None) as mem:
        mem.save("Our office is on the 5th floor")
        assert mem.save("We relocated to the 12th floor").status == "superseded"


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Python 版本是 3.9", "Node 版本是 18"),  # two products, two versions
        ("MySQL 版本是 8.0", "PostgreSQL 版本是 16"),
        ("My manager is Dana", "My mentor is Priya"),
        ("Our office is on the 5th floor", "The gym is on the 2nd floor"),
        ("The staging deploys happen on Mondays", "The production deploys happen on Thursdays"),
        ("We send our logs to Elasticsearch", "We send our metrics to Prometheus"),
        ("Backups run nightly", "The cache is flushed every hour"),
        ("The nightly job starts at 1am", "Releases are weekly"),  # a time is not how often
        ("I swim 2 km a day", "I run 5 km a day"),  # a measure: the activity is the subject
        ("I drink two coffees a day", "I drink three glasses of water a day"),
    ],
)  # fmt: skip
def test_look_alikes_in_these_shapes_are_kept_apart(mem: Memory, left: str, right: str) -> None:
    assert mem.save(left).status == "added"
    assert mem.save(right).status == "added"


def test_a_relocation_leaves_other_floors_alone(mem: Memory) -> None:
    assert mem.save("The gym is on the 2nd floor").status == "added"
    assert mem.save("We relocated to the 12th floor").status == "added"


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("We send our logs to Elasticsearch", "Our logs are shipped to Elasticsearch"),
        ("The frontend is deployed on Vercel", "We deploy the frontend to Vercel"),
        ("我们的监控用 Zabbix", "监控系统是 Zabbix"),
        ("My manager is Dana", "I report to Dana"),
    ],
)  # fmt: skip
def test_the_same_fact_in_these_shapes_is_a_duplicate(mem: Memory, first: str, again: str) -> None:
    assert mem.save(first).status == "added"
    assert mem.save(again).status == "duplicate"


@pytest.mark.parametrize(
    ("value", "often"),
    [
        ("weekly", True), ("every two weeks", True), ("twice a day", True),
        ("每两周一次", True), ("每天", True), ("every 6 hours", True),
        ("1am", False), ("every Friday", False), ("每周五", False), ("9am every day", False),
    ],
)  # fmt: skip
def test_how_often_is_a_value_of_its_own(value: str, often: bool) -> None:
    assert keys.is_frequency(keys.value_terms(value)) is often


# -- probe set l: abbreviations, a switch of which thing, who handles or chairs ----------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("My dentist is Dr. Patel", "dentist", "Dr Patel"),  # "Dr." ends no sentence
        ("I switched dentists; it's Dr. Kim now", "dentist", "Dr Kim"),
        ("换了新电脑，现在用 ThinkPad X1", "电脑", "ThinkPad X1"),
        ("Sam handles customer escalations", "custom escal owner", "Sam"),
        ("Customer escalations are handled by Sam", "custom escal owner", "Sam"),
        ("客户投诉由小张处理", "owner 客户 投诉", "小张"),
        ("小张负责处理客户投诉", "owner 客户 投诉", "小张"),
        ("部门周会由老陈主持", "owner 周会 部门", "老陈"),
    ],
)
def test_titles_handlers_and_switches_read_with_subject_and_value(
    text: str, key: str, value: str
) -> None:
    claim = read(text)
    assert claim is not None
    assert (claim.key, claim.value) == (key, value)


def test_a_switch_alone_states_no_value() -> None:
    assert read("I switched jobs") is None
    assert read("换了新电脑") is None


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("My dentist is Dr. Patel", "I switched dentists; it's Dr. Kim now"),
        ("我的工作电脑是 MacBook Pro", "换了新电脑，现在用 ThinkPad X1"),
        ("Sam handles customer escalations", "Escalations are handled by Priya now"),
        ("客户投诉由小张处理", "客户投诉现在由小李处理"),
        ("部门周会由老陈主持", "周会改由小吴主持"),
    ],
)  # fmt: skip
def test_a_new_dentist_computer_or_handler_replaces_the_old(
    mem: Memory, before: str, after: str
) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("My dentist is Dr. Patel", "My doctor is Dr. Nguyen"),
        ("Sam handles customer escalations", "Lee handles billing questions"),
        ("客户投诉由小张处理", "发票问题由小赵处理"),
    ],
)  # fmt: skip
def test_a_doctor_beside_a_dentist_or_two_handlers_stay_apart(
    mem: Memory, left: str, right: str
) -> None:
    assert mem.save(left).status == "added"
    assert mem.save(right).status == "added"


def test_who_handles_said_twice_is_a_duplicate(mem: Memory) -> None:
    assert mem.save("客户投诉由小张处理").status == "added"
    assert mem.save("小张负责处理客户投诉").status == "duplicate"


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        ("季度规划会在 4B 会议室", "季度规划会改到 7A 会议室", True),
        ("我每周去两次健身房", "我现在每周去三次健身房", True),
        ("我每周去两次游泳馆", "我现在每周去三次健身房", False),  # another place
        ("周例会在 3A 会议室", "季度规划会改到 7A 会议室", False),  # another meeting
        ("季度规划会在 4B 会议室", "季度规划会在 4B 会议室", False),  # nothing changed
    ],
)  # fmt: skip
def test_a_restatement_changes_only_its_value(old: str, new: str, same: bool) -> None:
    assert changes.restated(old, new) is same


def test_a_restated_change_finds_its_memory_though_others_hold_the_new_value(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.db"
    with Memory(db, project="other", embedder=None) as other:
        other.save("The offsite moved to Room 7A")  # "7a" is known, and rarer than the rest
    with Memory(db, project="mine", embedder=None) as mem:
        mem.save("季度规划会在 4B 会议室")
        assert mem.save("季度规划会改到 7A 会议室").status == "superseded"
        assert [e.content for e in mem.list()] == ["季度规划会改到 7A 会议室"]


# -- probe set m: how the user has a thing, state management, timeouts, 最近 ---------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I like my coffee black", "coffe style", "black"),
        ("These days I take my coffee with oat milk", "coffe style", "oat milk"),
        ("I like my answers in bullet points", "reply_language style", "bullet points"),
        ("We use Redux for state management", "state", "Redux"),
        ("CI times out after 30 minutes", "ci timeout", "30 minutes"),
        ("最近最喜欢的歌手变成了陈奕迅", "歌手", "陈奕迅"),
    ],
)
def test_how_one_has_a_thing_reads_with_subject_and_value(text: str, key: str, value: str) -> None:
    claim = read(text)
    assert claim is not None
    assert (claim.key, claim.value) == (key, value)


def test_taking_a_thing_somewhere_is_no_manner() -> None:
    assert read("I take my kids to school") is None


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I like my coffee black", "These days I take my coffee with oat milk"),
        ("The frontend uses Redux for state", "State management is Zustand now"),
        ("我最喜欢的歌手是周杰伦", "最近最喜欢的歌手变成了陈奕迅"),
    ],
)  # fmt: skip
def test_a_new_way_of_having_a_thing_or_favourite_is_caught(
    mem: Memory, before: str, after: str
) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("I prefer answers in bullet points", "I like my answers in bullet points"),
        ("The CI timeout is 30 minutes", "CI times out after 30 minutes"),
    ],
)  # fmt: skip
def test_a_preference_or_timeout_said_again_is_a_duplicate(
    mem: Memory, first: str, again: str
) -> None:
    assert mem.save(first).status == "added"
    assert mem.save(again).status == "duplicate"


def test_two_things_the_user_has_their_way_are_two(mem: Memory) -> None:
    assert mem.save("I like my coffee black").status == "added"
    assert mem.save("I like my tea with honey").status == "added"


# -- probe set n: 用户 prefers, glued 在, tightened, commute, a rename of what a thing is ------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("用户偏好用 Tab 缩进", "indentation", "Tab"),  # an agent's note of the user
        ("用户现在偏好 4 个空格缩进", "indentation", "4 个空格"),
        ("用户喜欢简洁的回答", "reply_language style", "简洁"),
        ("女儿的游泳课在周日上午 9 点", "time 女儿 游泳 课", "周日上午 9 点"),  # jieba's 课在
        ("We tightened the p99 latency target to 200 ms", "latenc p99 target", "200 ms"),
        ("I commute by bike", "commut", "bike"),
        ("This repository uses Yarn", "package_manager", "Yarn"),
    ],
)
def test_user_preferences_targets_commutes_read_with_subject_and_value(
    text: str, key: str, value: str
) -> None:
    claim = read(text)
    assert claim is not None
    assert (claim.key, claim.value) == (key, value)


def test_now_and_words_ending_in_zai_stay_whole() -> None:
    claim = read("我现在在上海")
    assert claim is not None and claim.key == "location" and claim.change


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("用户偏好用 Tab 缩进", "用户现在偏好 4 个空格缩进"),
        ("Our p99 latency target is 300 ms", "We tightened the p99 latency target to 200 ms"),
        ("I commute by bike", "I commute by train now"),
        ("Our Slack workspace is acme-eng", "We renamed the Slack workspace to acme-dev"),
    ],
)  # fmt: skip
def test_a_tightened_target_new_commute_or_rename_is_caught(
    mem: Memory, before: str, after: str
) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


def test_two_childrens_lessons_are_two(mem: Memory) -> None:
    assert mem.save("儿子的钢琴课在周六上午 10 点").status == "added"
    assert mem.save("女儿的游泳课在周日上午 9 点").status == "added"


# -- probe set o: served from, shortened to, 扩充到, 交接给 ----------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Images are served from cdn.old.example.com", "Images are now served from cdn.x.com"),
        ("Our SLA for P1 tickets is 4 hours", "The P1 SLA was shortened to 2 hours"),
        ("团队规模是 8 个人", "团队扩充到 12 个人"),
        ("发布负责人是老孙", "发布工作交接给了小钱"),
    ],
)  # fmt: skip
def test_served_from_shortened_expanded_handed_over_are_caught(
    mem: Memory, before: str, after: str
) -> None:
    assert mem.save(before).status == "added"
    assert mem.save(after).status in ("superseded", "conflict")


def test_a_source_after_from_is_a_place_not_a_value_that_stopped() -> None:
    # "from X" with no "to" states no change: read as "served from" it is where
    claim = read("Images are served from cdn.old.example.com")
    assert claim is not None
    assert (claim.value, claim.dropped) == ("cdn.old.example.com", None)
