"""A stated change found by the words it shares with the memory it changes, and the
guards that keep a change of one thing off another that looks like it (issue 12, session
9: probe sets z1-z4, written blind; the look-alike crossings of every probe set)."""

from __future__ import annotations

import pytest

from remem import Memory
from remem.truth import overlap
from remem.truth.valueforms import said_as


# -- caught by the words they share --------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I take the 8:15 train", "I now catch the 7:50 train instead"),
        ("缓存过期时间是 10 分钟", "缓存过期时间减半，改成 5 分钟"),
        ("We track issues in GitHub Issues", "We moved issue tracking to Linear"),
        ("复盘会每两周五开", "复盘会现在改到每周一"),
        ("Production images are built with Docker", "We build production images with Buildah now"),
        ("我们每月开一次全员会", "全员会改成每季度一次"),
    ],
)
def test_a_stated_change_is_found_by_the_words_it_shares(
    mem: Memory, before: str, after: str
) -> None:
    old = mem.save(before)
    assert old.status == "added"
    new = mem.save(after)
    assert new.status in ("superseded", "conflict"), new.reasons
    if new.status == "conflict":
        mem.save(after, replace_id=new.conflicts[0].id)
    assert [e.content for e in mem.list()] == [after]


def test_a_context_clause_does_not_hide_the_change(mem: Memory) -> None:
    mem.save("Prometheus 监控数据保留 15 天")
    result = mem.save("磁盘扛不住，Prometheus 数据保留又缩到 10 天了")
    assert result.status in ("superseded", "conflict"), result.reasons


def test_again_states_a_change_back(mem: Memory) -> None:
    mem.save("The HPA minimum for the api deployment is 2 replicas")
    raised = mem.save("The api HPA minimum is 3 replicas now")
    assert raised.status == "superseded", raised.reasons
    back = mem.save("Traffic has calmed down, so the api HPA minimum is 2 replicas again")
    assert back.status == "superseded", back.reasons
    assert back.replaced is not None and back.replaced.id == raised.entry.id


# -- another thing, however alike -----------------------------------------------------------
@pytest.mark.parametrize(
    ("kept", "change"),
    [
        ("The auth service listens on port 8080", "We moved the billing service to port 9090"),
        ("The session TTL is 30 minutes", "Cache TTL halved to 5 minutes"),
        ("My parents live in Portland", "I relocated to Denver last month"),
        ("我爸妈住在苏州", "上个月我搬到了成都"),
        ("My wife is on the Basic plan", "I upgraded to the Team plan"),
        ("The deploy timeout is 10 minutes", "We increased the CI timeout to 45 minutes"),
        ("部署超时时间是 10 分钟", "CI 超时时间下调到 20 分钟"),
        # session 19's words judge asked about it (0.82); session 20's leaves it alone
        ("生产服务器的 IP 是 10.0.1.5", "测试服务器换了新 IP 10.0.0.8"),
        ("Node 版本是 18", "已经升级到 Python 3.11"),
        ("清理任务凌晨 3 点跑", "备份改到凌晨 4 点跑"),
        (
            "The feature freeze for 4.2 is on Friday",
            "The feature freeze for 4.3 was pushed to June 6",
        ),
        ("Our p50 latency target is 80 ms", "We tightened the p99 latency target to 200 ms"),
        ("李四的团队用 GitHub Actions", "张三的团队改用 GitLab CI 了"),
        ("My phone plan costs $25 a month", "My gym membership went up to $55 a month"),
        ("The fallback model is gpt-4o-mini", "Default model changed to gpt-4.1"),
        ("我的家庭医生是张医生", "牙医换成了王医生"),
        (
            "My wife picks the kids up from school at 3:15",
            "I take the kids to school at 8:10 again",
        ),
        ("The gym is on the 2nd floor", "We relocated to the 12th floor"),
        (
            "Docker base image is python:3.9-slim",
            "The worker's Docker base image is now node:20-alpine",
        ),
        (
            "The team retro is on Friday afternoons",
            "The infra team's retro moved to Thursday afternoons",
        ),
        ("快递用的是中通", "退货快递改用极兔了"),
        ("Go 版本用的是 1.20", "前端那边的 Node 版本升到 20 了"),
        ("Shipping to Canada costs $18 flat", "Shipping to the UK went up to $29 flat"),
        (
            "My office is in room 4.102 of the Gates building",
            "My advisor's office is in room 4.110 of the Gates building",
        ),
        # session 28's words judge reads a likely change (0.73): asked, none replaced
        pytest.param(
            "We raised the max heap of the inventory service to 8 GB",
            "After the OOM incidents the order service's max heap was raised to 6 GB",
            marks=pytest.mark.xfail(strict=True, reason="the words judge asks (0.73)"),
        ),
        # two people, each named by a word the other lacks (jieba tags 阿姨 a name after 王)
        ("王阿姨周五抽血，要空腹。", "王叔叔周五拍胸片，不用空腹。"),
        # a range of times is no change "到 4": 点到 after a number ends the range
        ("仓库早班从8点到4点。", "仓库中班从4点到12点。"),
    ],
)
def test_a_change_of_a_look_alike_leaves_the_other_alone(
    mem: Memory, kept: str, change: str
) -> None:
    first = mem.save(kept).entry
    result = mem.save(change)
    assert result.status == "added", result.reasons
    assert first.id in {e.id for e in mem.list()}


def test_a_story_is_not_read_as_a_change(mem: Memory) -> None:
    mem.save("Bart and Jimmy had a great time swinging in the park.")
    result = mem.save(
        "Bart felt lonely and upset about moving to a new city, but he made new friends."
    )
    assert result.status == "added"


# -- the words compared ---------------------------------------------------------------------
def test_units_keep_acronyms_and_drop_possessives() -> None:
    forms = [u.form for u in overlap.units("The US cluster's quota is now 20 nodes")]
    assert "us" in forms and "cluster" in forms and "cluster's" not in forms


def test_units_know_values_from_words() -> None:
    units = {u.form: u.value for u in overlap.units("测试环境地址换成 qa.acme.io 了，端口 8443")}
    assert units["qa.acme.io"] and units["8443"]
    assert not units["地址"]


def test_a_qualifier_is_said_on_each_side() -> None:
    new = overlap.units("The billing service moved to port 9090")
    old = overlap.units("The auth service listens on port 8080")
    assert overlap._qualifiers(new, old, set()) == {"bill"}
    assert "auth" in overlap._qualifiers(old, new, set())


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Our Figma bill is $180 a month", "The Figma bill is $300 a month since we added seats"),
        ("My salary is £58k", "Since the promotion in April my salary is £66k"),
        (
            "The API rate limit is 100 requests per minute",
            "After the incident the API rate limit is 50 requests per minute",
        ),
        ("页面加载大约 3 秒", "换了 CDN 之后页面 1 秒内就能加载完"),
    ],
)
def test_a_state_since_an_event_is_a_change(mem: Memory, before: str, after: str) -> None:
    from remem.truth.markers import states_change

    assert states_change(after)
    mem.save(before)
    assert mem.save(after).status in ("superseded", "conflict")


def test_lines_of_a_conversation_saved_as_facts_do_not_conflict(mem: Memory) -> None:
    lines = [
        "Melanie: Hey Caroline! Good to see you! I'm swamped with the kids & work.",
        "Melanie: That's really cool. You've got guts. What now?",
        "Melanie: Thanks, Caroline! Painting's a fun way to express my feelings.",
        "Hey Mel! Long time no talk. Lots has been going on since then!",
        "Hey Mel, what's up? Been a busy week since we talked.",
    ]
    assert [mem.save(line).status for line in lines] == ["added"] * len(lines)


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [("Database: PostgreSQL 16", "Database", "PostgreSQL 16"), ("端口：9090", "端口", "9090")],
)
def test_a_key_and_value_alone_is_still_read(text: str, subject: str, value: str) -> None:
    from remem.truth.subject import read

    claim = read(text)
    assert claim is not None and (claim.subject, claim.value) == (subject, value)


# -- said again with one value changed, no change word ---------------------------------------
@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Viewing slot for the Hartley flat is Tuesday 4pm", "Hartley flat viewing Thursday 4pm"),
        ("Forklift servicing at the north depot costs £180", "north depot forklift servicing £210"),
        ("Junior membership for the fencing club is £90", "from April junior membership £95"),
        ("Harbour café on the quay opens at noon", "harbour café quay 11am"),
        ("Sample TB-3310 (rye) is kept on shelf 4.", "TB-3310 shelf 6"),
        (
            "Warm-up in the church hall is 6pm on show nights",
            "from the winter season warm-up is 5:30pm on show nights",
        ),
    ],
)
def test_a_value_said_again_differently_is_asked(mem: Memory, before: str, after: str) -> None:
    old = mem.save(before).entry
    mem.save("Bring the blue folder to the Tuesday meeting")
    new = mem.save(after)
    assert new.status == "conflict", new.reasons
    assert [e.id for e in new.conflicts] == [old.id]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Flat 2A boiler serviced 3 March", "Flat 2B boiler serviced 3 March"),  # a label
        ("Choir practice is Wednesdays at 7pm", "Choir practice 7pm on Wednesdays"),  # a repeat
        ("The junior squad trains on Monday at 5pm", "The senior squad trains on Monday at 7pm"),
        ("MongoDB 副本集有 3 个节点", "Redis 副本集有 3 个节点"),  # a name at the head: which one
    ],
)
def test_a_label_a_repeat_or_another_word_asks_nothing(
    mem: Memory, before: str, after: str
) -> None:
    mem.save(before)
    assert mem.save(after).status == "added"


def test_a_value_said_another_way_is_the_same_value() -> None:
    said = said_as
    assert said("8pm") == said("20:00") and said("12th") == said("12")
    assert said("3,000") == said("3000") and said("10.30") == said("10:30")
    assert said("november") == said("nov") and said("7pm") != said("8pm")


def test_a_value_swapped_is_no_repeat() -> None:
    swaps = overlap.swaps_a_value
    assert swaps("choir night is thursday", "Choir meets every Tuesday evening")
    assert swaps("每周三下午交货", "每周五下午交货")
    assert swaps("hive inspections - last friday of the month", "Hive checks: first Friday")
    assert not swaps("Choir practice 7pm on Wednesdays", "Choir practice is Wednesdays at 7pm")
    assert not swaps("Dentist Tuesday 3pm with Dr Lee", "Dentist on Tuesday")  # adds, swaps none
    assert not swaps("standup at 9.30am", "The standup is at 9:30am")


def test_a_value_swapped_is_never_taken_for_a_repeat(mem: Memory) -> None:
    """The judge read "… quiz night: tuesdays, snug" a repeat of "… is Monday in the snug"
    (0.91): a new night is a change, never dropped as a duplicate."""
    old = mem.save("Quiz night for the chess club is Monday in the snug.").entry
    new = mem.save("chess club quiz night: tuesdays, snug")
    assert new.status == "conflict", new.reasons
    assert [e.id for e in new.conflicts] == [old.id]
