"""Session 39: a change that names the value it moved from is judged against a memory
holding that value's numbers, the unit said another way ("from 3 sacks to 5" of "3 x 10kg
flour"); a value named by words alone must still be all in the memory ("no longer use
Travis CI" is not of "CI runs on GitHub Actions"). 从X那换到 names X; a note opening on
"不对，" owns a mistake; 小 / 李送 is 小李. Sentences of our own, not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import text
from remem.truth.corrected import moved_from
from remem.truth.verdicts import _held
from test_truth_round35 import saved_after


@pytest.mark.parametrize(
    ("gone", "terms", "held"),
    [
        ({"3", "sack"}, {"3", "10kg", "flour", "order"}, True),  # its number, another unit
        ({"3", "sack"}, {"4", "10kg", "flour", "order"}, False),  # another number
        ({"travi", "ci"}, {"ci", "github", "action"}, False),  # words: every one
        ({"travi", "ci"}, {"ci", "travi", "build"}, True),
    ],
)
def test_a_stopped_value_is_held_by_its_numbers_or_all_its_words(
    gone: set[str], terms: set[str], held: bool
) -> None:
    assert _held(frozenset(gone), frozenset(terms)) is held


def test_a_change_from_a_count_in_other_units_is_asked(db: Path) -> None:
    old = "Weekly order: 3 x 10kg flour from Millers."
    status, named = saved_after(db, old, "Changed the flour order from 3 sacks to 5 sacks a week.")
    assert (status, named) == ("conflict", [old])


def test_a_change_from_another_count_is_not_of_it(db: Path) -> None:
    old = "Weekly order: 3 x 10kg flour from Millers."
    status, _ = saved_after(db, old, "Changed the sugar order from 6 bags to 8 bags a week.")
    assert status == "added"


@pytest.mark.parametrize(
    ("content", "was"),
    [
        ("豆腐从老周那换到菜场的李记了", ["老周"]),  # the one it came from, and where
        ("对账的活从我爸那又换回我了", ["我爸"]),
        ("例会从周二改到周三", ["周二"]),
    ],
)
def test_a_change_from_someone_there_names_them(content: str, was: list[str]) -> None:
    assert moved_from(content) == was


def test_a_note_opening_on_wrong_takes_a_value_back(db: Path) -> None:
    old = "快递站的小周每天来收件"
    status, named = saved_after(db, old, "不对，是小邹，不是小周")
    assert (status, named) == ("superseded", [old])
    # "不对外" is no "wrong,"
    status, _ = saved_after(db, "周三值班的是小王", "不对外开放的是小王那间")
    assert status != "superseded"


@pytest.mark.parametrize(
    ("content", "person"),
    [("桶装水每周由小赵送", "小赵"), ("账本让老胡拿着", "老胡"), ("报表这个月老孙做", "老孙")],
)
def test_a_surname_glued_to_a_verb_of_doing_is_the_person(content: str, person: str) -> None:
    assert person in text.terms(content)
