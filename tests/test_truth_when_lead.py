"""A change whose start is said relative to now ("下个月起透析改为周二、四、六", "Labour goes
to £74/hr from 1 January") is read again without it, as the fact alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.when import lead, starts


@pytest.mark.parametrize(
    ("content", "rest"),
    [
        ("下个月起透析改为周二、四、六", "透析改为周二、四、六"),
        ("从下周一起晨会改到九点半", "晨会改到九点半"),
        ("From next week the choir meets in the crypt", "The choir meets in the crypt"),
        ("From April the gym opens at 6", "The gym opens at 6"),
        ("The parking permit goes to £90 from 1 March.", "The parking permit goes to £90."),
        ("I moved to Porto last month", None),
        ("From here we walk", None),
        ("The day rate goes to £240 from the start of March", "The day rate goes to £240"),
        # this, next, the coming days: "这周起", "本周六起", "下个周末开始", "从明天起"
        ("这周起每天泡15斤", "每天泡15斤"),
        ("从这周五开始晚上6点半出摊", "晚上6点半出摊"),
        ("本周六起改成10点开门", "改成10点开门"),
        ("这个周末开始改成每天泡15斤", "改成每天泡15斤"),
        ("从明天起改成10点开门", "改成10点开门"),
        ("这周五我们去爬山", None),  # a day this week, no start of anything
        ("明天早上6点出摊", None),
    ],
)  # fmt: skip
def test_the_start_is_cut(content: str, rest: str | None) -> None:
    assert lead(content) == rest


def test_a_change_said_with_its_start_supersedes_as_without_it(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save("数仓夜间ETL凌晨2点开始跑").entry
        result = mem.save("从下周一起夜间ETL改成凌晨3点半启动")
        assert result.status == "superseded"
        assert first.id not in {e.id for e in mem.list()}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("炸串摊晚上7点出摊，12点收。", "从这周五开始晚上6点半出摊"),
        ("店里早上10点开门。", "本周六起改成9点开门"),
    ],
)
def test_a_change_starting_this_week_is_of_the_memory_it_changes(
    db: Path, old: str, new: str
) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save(old).entry
        result = mem.save(new)
        assert result.status in ("superseded", "conflict")
        assert first.id in {e.id for e in [*result.conflicts, *filter(None, [result.replaced])]}


@pytest.mark.parametrize(
    ("said", "start"),
    [
        ("from the start of March", True),
        ("From 3 June the drills go to Thursdays", True),
        ("从下月1号起只周三送一次", True),
        ("从本周六起改成10点开门", True),
        ("从明天起改成10点开门", True),
        ("from March 3 to March 10", False),  # the old date is the value moved
        ("from Jenkins", False),
        ("从周二周五改成周一周四", False),
    ],
)  # fmt: skip
def test_from_a_date_says_when_a_change_starts(said: str, start: bool) -> None:
    assert starts(said) is start


def test_a_change_from_a_date_is_judged_against_the_memory_it_changes(db: Path) -> None:
    """ "from the start of March" is when the new rate starts, not the value it left: the
    memory lacking "March" is still the one it may change."""
    from remem.entry import Entry
    from remem.truth.decide import claim_of

    claim = claim_of(Entry(content="day rate goes to £240 from the start of March"), full=True)
    assert claim is None or claim.dropped is None
