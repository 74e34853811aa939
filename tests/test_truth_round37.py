"""Session 37: a person named the Chinese way (小陈, 大刘, 阿芳) is a word two notes share,
though jieba cuts the name into characters; a correction owned by an apology (不好意思,
sorry) or naming the wrong value as another thing's ("9 is the side door's", "50斤是周末的量")
takes that value back; a value taken back "there" (不是东街那边) is the place itself; a
supplier no longer used (不从老何那拿了) is the value moved from; a time or a number taken
back is held with its am / pm or its unit (4:30 of "4:30pm", 1000 of "1000ml").
Sentences of our own, not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem.truth.corrected import holds, moved_from, taken_back
from remem.truth.terms import content_terms, shared_terms
from test_truth_round35 import saved_after


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("早班小王六点开门", "小王改成七点到了", "小王"),
        ("切菜是大周负责", "大周下周起负责收银", "大周"),
        ("送货的阿芳每周二来", "阿芳不来了", "阿芳"),
    ],
)
def test_a_person_named_the_chinese_way_is_a_shared_word(old: str, new: str, name: str) -> None:
    assert name in content_terms(new)
    assert name in shared_terms(old, new)


def test_a_word_jieba_keeps_whole_is_no_name() -> None:
    # 小时 and 小区 are words of their own, not a surname after 小
    assert shared_terms("出锅要一小时", "小区门口出摊") == frozenset()


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("不好意思，是16，不是15", ["15"]),
        ("sorry, it's locker 12 - 9 is the side door's", ["9"]),
        ("我记错了，平时是40斤，50斤是周末的量", ["50斤"]),
        ("菜不是东街那边进的，是西街菜场，我写错了", ["东街"]),
    ],
)
def test_the_value_a_correction_takes_back(text: str, wrong: list[str]) -> None:
    assert taken_back(text) == wrong


def test_a_number_said_to_be_another_things_without_owning_a_mistake_takes_nothing_back() -> None:
    assert taken_back("大份是15块，10块是小份的") == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("牛肉面一碗16", "不好意思，是17，不是16"),
        ("凉菜每天早上从东街菜场进。", "凉菜不是东街那边，是西街菜场，我写错了"),
        ("豆浆每天做40斤", "我搞错了，平时是30斤，40斤是周末的量"),
    ],
)
def test_a_correction_replaces_the_one_memory_holding_what_it_takes_back(
    db: Path, old: str, new: str
) -> None:
    assert saved_after(db, old, new) == ("superseded", [old])


@pytest.mark.parametrize(
    ("text", "was"),
    [
        ("豆腐不从老何那拿了，换成西门的", ["老何"]),
        ("不再从阿强家进货了", ["阿强"]),
        ("the bakery run moved from 6:15 to 6:45", ["6:15"]),
    ],
)
def test_the_value_a_change_moves_from(text: str, was: list[str]) -> None:
    assert moved_from(text) == was


@pytest.mark.parametrize(
    ("old", "value", "held"),
    [
        ("The cafe closes at 5:30pm on Sundays.", "5:30", True),  # a time with its pm
        ("酱料用500ml的瓶子装", "500", True),  # a number with its unit
        ("Spare part is in bay 500B", "500", False),  # a label, not a unit
        ("We sell 10kg sacks", "10", False),  # two digits: an hour or a count, no unit read
    ],
)
def test_a_value_taken_back_is_held_with_its_unit_or_am_pm(
    old: str, value: str, held: bool
) -> None:
    assert holds(old, value) is held


def test_a_supplier_no_longer_used_is_asked_of_the_one_memory_naming_them(db: Path) -> None:
    old = "豆腐是找老何家拿的，一次拿三板"
    assert saved_after(db, old, "豆腐不从老何那拿了，换成西门的") == ("conflict", [old])
