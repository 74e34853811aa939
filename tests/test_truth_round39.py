"""Session 39: a change that names the value it moved from is judged against a memory
holding that value's numbers, the unit said another way ("from 3 sacks to 5" of "3 x 10kg
flour"); a value named by words alone must still be all in the memory ("no longer use
Travis CI" is not of "CI runs on GitHub Actions"). Sentences of our own, not the blind
sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

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
