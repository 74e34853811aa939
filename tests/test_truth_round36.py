"""Session 36: a value moved by an amount is read by the verbs of moving one in every
form ("trimming", "adds", "knocked 20p off"), by "another N days" on top, and by 少 / 多
right before the amount (一锅少两勺); a correction that reads only as a value of a kind (a
time, a price) names nothing, so it is asked of what was said last. Sentences of our own,
not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth import elliptic
from remem.truth.stops import stops
from remem.truth.terms import shared_terms
from test_truth_round35 import saved_after


@pytest.mark.parametrize(
    ("verb", "forms"),
    [
        ("drop", {"drop", "drops", "dropped", "dropping"}),
        ("shave", {"shave", "shaves", "shaved", "shaving"}),
        ("cut", {"cut", "cuts", "cutting"}),
        ("push", {"push", "pushes", "pushed", "pushing"}),
        ("extend", {"extend", "extends", "extended", "extending"}),
    ],
)
def test_a_verb_of_moving_a_value_in_every_form(verb: str, forms: set[str]) -> None:
    assert elliptic.inflected(verb) == forms


@pytest.mark.parametrize(
    "moved",
    [
        "trimming it by two minutes, the crust burns",
        "knocked 20p off the seeded loaf",
        "adds £15 to the hire price",
        "the glaze needs another 3 days to cure",
        "delivery slips another week",
        "一锅少两勺盐",
        "大份便宜两块",
    ],
)
def test_a_value_moved_by_an_amount(moved: str) -> None:
    assert elliptic.moves_by(moved)


@pytest.mark.parametrize(
    "said",
    [
        "add oat milk to the order",  # no amount
        "we went with another supplier",  # another one, not more of it
        "每次最少3个人",  # a bound
        "raised the limit to 300",  # the value it moved to, said whole
    ],
)
def test_no_move_by_an_amount(said: str) -> None:
    assert not elliptic.moves_by(said)


def test_a_move_said_after_the_fact_is_asked_of_it(db: Path) -> None:
    old = "Sourdough proves for 14 hours in the walk-in."
    status, named = saved_after(db, old, "adding 2 hours to the sourdough prove, too dense")
    assert (status, named) == ("conflict", [old])


def test_a_correction_naming_only_a_time_is_asked_of_what_was_said_last(db: Path) -> None:
    old = "从下个月起面粉改成周二送"
    assert saved_after(db, old, "说错了，是周三送") == ("conflict", [old])


def test_a_correction_naming_its_own_thing_is_no_guess(db: Path) -> None:
    # the grammar reads a subject of its own in the text (鸡蛋): not the last note's
    assert saved_after(db, "从下个月起面粉改成周二送", "记错了，鸡蛋是周三送") == ("added", [])


def saved_along(db: Path, steps: list[str]) -> tuple[str, list[str]]:
    """The status of saving the last of `steps` after the others, each before it replacing
    the one before (a thing's versions), and the contents it conflicts with or replaced."""
    with Memory(db, embedder=None) as mem:
        prev = mem.save(steps[0], force=True).entry
        for step in steps[1:-1]:
            prev = mem.save(step, replace_id=prev.id).entry
        res = mem.save(steps[-1])
        named = [e.content for e in res.conflicts] + (
            [res.replaced.content] if res.replaced else []
        )
        return res.status, named


@pytest.mark.parametrize(
    "steps",
    [
        ["烤肠一根卖5块，玉米味的。", "每根涨1块", "烤肠7块一根"],
        ["糖水一碗卖8块，红豆的。", "每碗涨1块", "红豆糖水10块一碗"],
    ],
)
def test_a_thing_named_by_the_words_of_a_version_it_replaced(db: Path, steps: list[str]) -> None:
    # the current memory says only the move; the text says the thing as its first version did
    assert saved_along(db, steps) == ("conflict", [steps[1]])


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our market pitch is number 22 by the clock tower.", "pitch is 27 not 22"),
        ("Our market pitch is number 22 by the clock tower.", "oops, pitch 27, my mistake"),
    ],
)
def test_a_number_set_against_the_one_it_takes_back(db: Path, old: str, new: str) -> None:
    status, named = saved_after(db, old, new)
    assert status in ("superseded", "conflict") and named == [old]


def test_a_specific_value_moved_from_is_asked_of_the_one_memory_holding_it(db: Path) -> None:
    old = "说错了，摊位是D区21号"
    assert saved_after(db, old, "管理处把我们从D区21号调到A区5号了") == ("conflict", [old])


def test_a_value_moved_from_that_names_nothing_needs_another_word(db: Path) -> None:
    assert saved_after(db, "仓库在3楼", "办公室从3楼搬到5楼了")[0] != "superseded"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Bread dough: 20 g of salt per batch.", "changed the dough, 24 g salt now instead of 20"),
        (
            "Spring fair entries close on 14 May.",
            "pushed the fair entry deadline back from 14 May to 21 May",
        ),
    ],
)
def test_the_value_a_change_moves_from_said_instead_or_pushed(db: Path, old: str, new: str) -> None:
    assert saved_after(db, old, new) == ("conflict", [old])


def test_a_value_taken_back_held_by_the_version_a_memory_replaced(db: Path) -> None:
    steps = [
        "Boiler service at 3 Mill Lane is booked for Monday 8am.",
        "Mill Lane boiler service moved from Monday to Thursday, same time",
        "sorry, Mill Lane service is Thursday 11am, not 8",
    ]
    assert saved_along(db, steps) == ("superseded", [steps[1]])


@pytest.mark.parametrize(
    "said",
    [
        "we're cancelling the Thursday beginners class",
        "scrapping the late bus on Sundays",
        "shutting the garden centre cafe altogether",
        "stopping the veg box round for good",
    ],
)
def test_a_stop_said_as_it_happens(said: str) -> None:
    assert stops(said)


@pytest.mark.parametrize(
    "said",
    ["shutting at 5pm on Fridays", "stopping at the depot first", "the belt stops when it jams"],
)
def test_a_stop_of_the_day_is_no_end(said: str) -> None:
    assert not stops(said)


def test_a_day_or_a_month_cut_short_is_the_whole_name() -> None:
    shared = shared_terms(
        "Dan is on the bread slicer Mondays and Thursdays.", "Ola on slicer mon/thu"
    )
    assert {"monday", "thursday"} <= shared
    assert "septemb" in shared_terms("Renewal due in September.", "renewal due 3 sept")
    assert not shared_terms("We sat by the window.", "Saturday market")  # "sat" is a verb too


def test_a_capital_right_after_a_chinese_noun_names_which_one(db: Path) -> None:
    # 冷柜A / 冷柜B: two freezers, whatever the temperatures say; the same one changes
    assert saved_after(db, "展柜A放饮料，温度调到6度", "展柜B放冰淇淋，温度调到零下20度") == (
        "added",
        [],
    )
    status, named = saved_after(
        db.with_name("b.db"), "展柜A放饮料，温度调到6度", "展柜A温度调到4度了"
    )
    assert status == "superseded" and named == ["展柜A放饮料，温度调到6度"]
