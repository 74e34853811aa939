"""Readings widened in session 32 from the misses of a blind set, each in general: a note
read against the version the current memory replaced (a relative change holds the values
of its thing but not its words); an end said around the thing ("no X any more", "shut for
good", "is off this year", 停止); a start said with its year or after a holiday; the wrong
value named as what was written down; a Chinese word inside a longer one, an hour after its
number, a name both notes say, 一天 as 每天; a number before 号 naming which thing, not a
value. Sentences of our own, not the set's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from remem import Memory
from remem.entry import Entry
from remem.truth.corrected import moved_from, taken_back
from remem.truth.elliptic import moved_named, moves_by
from remem.truth.stops import stops
from remem.truth.when import lead

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def asked_of(db: Path, old: str, new: str) -> bool:
    """Whether saving `new` after `old` asks about `old` (a conflict naming it)."""
    with Memory(db, embedder=None) as mem:
        first = mem.save(old).entry
        result = mem.save(new)
        return result.status == "conflict" and first.id in {e.id for e in result.conflicts}


def after_a_change(db: Path, first: str, change: str, new: str) -> tuple[str, bool]:
    """`first`, then `change` as its next version, then `new` saved: its status, and
    whether it names the current version (`change`)."""
    with Memory(db, embedder=None) as mem:
        one = mem.save(first, created_at=T0).entry
        two = mem.save(change, created_at=T0 + timedelta(days=1), replace_id=one.id).entry
        result = mem.save(new, created_at=T0 + timedelta(days=2))
        named = {e.id for e in result.conflicts} | {result.replaced.id if result.replaced else ""}
        return result.status, two.id in named


@pytest.mark.parametrize(
    ("first", "change", "new"),
    [
        ("Choir subs are £5 a week.", "subs up a pound", "From March, choir subs are £7 a week."),
        ("磨坊的香油一斤卖45。", "香油涨了三块", "下个月起香油一斤卖50"),
        ("Allotment shed opens at 9 on Sundays.", "shed opening moved an hour later",
         "allotment shed opens at 11 on Sundays"),
    ],
)  # fmt: skip
def test_a_note_said_of_the_version_a_change_replaced_is_asked(
    db: Path, first: str, change: str, new: str
) -> None:
    assert after_a_change(db, first, change, new) == ("conflict", True)


def test_a_stop_reads_the_words_of_the_version_replaced(db: Path) -> None:
    status, named = after_a_change(
        db,
        "Maria runs the Tuesday book stall at the market.",
        "oops, it's Pat running the stall, not Maria",
        "no book stall any more, the market moved",
    )
    assert (status, named) == ("conflict", True)


def test_a_look_alike_of_the_replaced_version_is_left_alone(db: Path) -> None:
    status, named = after_a_change(
        db,
        "Choir subs are £5 a week.",
        "subs up a pound",
        "Junior choir subs are £3 a week.",
    )
    assert not named and status == "added"


@pytest.mark.parametrize(
    ("content", "ended"),
    [
        ("no quiz night any more, the landlord sold up", True),
        ("not running the Sunday bus anymore", True),
        ("the bakery counter's shut for good", True),
        ("Bonfire night is off this year, too windy", True),
        ("no raffle this year, not enough prizes", True),
        ("停止供货，等通知", True),
        ("I don't think we need any more chairs", False),  # more of a thing, nothing ended
        ("Dave is off on Fridays", False),  # a day off: a schedule
        ("Dave's off sick today", False),
    ],
)  # fmt: skip
def test_an_end_said_around_the_thing(content: str, ended: bool) -> None:
    assert stops(content) is ended


@pytest.mark.parametrize(
    ("content", "rest"),
    [
        ("明年3月起房租每月2500", "房租每月2500"),
        ("过了春节，面条涨一块", "面条涨一块"),
        ("From the bank holiday weekend the car park is £4.", "The car park is £4."),
        ("from october half term the pool opens at 7", "The pool opens at 7"),
        ("到了冬天冷", None),  # no comma, no fact after it
    ],
)  # fmt: skip
def test_a_start_with_its_year_or_after_a_holiday_is_cut(content: str, rest: str | None) -> None:
    assert lead(content) == rest


@pytest.mark.parametrize(
    ("content", "wrong"),
    [
        ("Pickup is at 10, I put 11 by mistake", ["11"]),
        ("we wrote 40 in error, it's 45", ["40"]),
        ("上次写成了周三，其实是周四", ["周三"]),
        ("I put the kettle on", []),
    ],
)  # fmt: skip
def test_the_wrong_value_named_as_what_was_written(content: str, wrong: list[str]) -> None:
    assert taken_back(content) == wrong


def test_a_correction_naming_what_was_written_replaces_it(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        old = mem.save("Van collection for the Patel order is Thursday at 11am.").entry
        result = mem.save("Patel collection is Thursday 9am, I put 11am by mistake")
        assert result.status == "superseded" and result.replaced and result.replaced.id == old.id


@pytest.mark.parametrize(
    ("old", "new", "asked"),
    [
        ("码头的船票价成人50一位。", "成人票65", True),  # 票 inside 票价
        ("校车早上7:10到村口。", "校车下午4:40到村口", False),  # morning and afternoon: two buses
        ("豆花每天做40碗。", "豆花一天做30碗就够", True),  # 一天 said as 每天
        ("早餐店早上6点半开门。", "7点开门", True),  # an hour, not a number naming which
        ("Raffle is run by Joan and Priya.", "raffle - Priya and Tom", True),  # a name both say
        ("测试数据库用 SQLite", "测试环境的 Redis 是 6.2", False),  # 测试环境 says more than 测试
        ("Piano with Mrs Hale on Mondays", "Piano with Mr Ruiz on Thursdays", False),
    ],
)  # fmt: skip
def test_said_again_with_another_value(db: Path, old: str, new: str, asked: bool) -> None:
    assert asked_of(db, old, new) is asked


def test_a_number_before_hao_names_which_thing_not_a_value(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        old = mem.save("5号仓库用柴油发电机。").entry
        result = mem.save("5号仓库改用太阳能板了")
        assert result.status == "superseded" and result.replaced and result.replaced.id == old.id
        assert mem.save("6号仓库改用风力发电机了").status == "added"  # another warehouse


@pytest.mark.parametrize(
    ("content", "moves"),
    [
        ("又加订了5箱", True),  # more of what is ordered
        ("鸡蛋多买两板，周末人多", True),
        ("knocked £15 off the family ticket for half term", True),  # money off a price
        ("taking £5 off the lesson price in January", True),
        ("Take 2 off the list", False),  # no money
        ("参加3次", False),
        ("多少钱", False),
    ],
)  # fmt: skip
def test_more_of_what_is_done_and_money_off_are_moves(content: str, moves: bool) -> None:
    assert moves_by(content) is moves


def test_a_move_reads_the_words_of_the_version_replaced() -> None:
    first = Entry(content="Flour order from Hilltop Mill is 40 sacks a month.")
    now = Entry(content="correction: 30 sacks", supersedes=first.id)
    move = Entry(content="Christmas rush, flour order up by 10 sacks")
    assert moved_named(move, [now]) == []  # one word shared: not enough to name it
    found = moved_named(move, [now], earlier=lambda e: [first] if e is now else [])
    assert [m.entry for m in found] == [now]


@pytest.mark.parametrize(
    ("content", "was"),
    [
        ("Swapped the quiz host from Dan to Priya", ["Dan"]),
        ("Moved yoga from studio 2 to the main hall", ["studio 2"]),
        ("夜班从老周换成小何了", ["老周"]),
        ("The market runs from 8 to 2", []),  # a range, no change said
    ],
)  # fmt: skip
def test_the_value_a_change_moves_from(content: str, was: list[str]) -> None:
    assert moved_from(content) == was


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Raffle caller for the fete is Dan.", "Swapped the fete raffle caller from Dan to Priya."),
        ("学徒小孙负责刷漆。", "刷漆从小孙换给小马做了"),
    ],
)  # fmt: skip
def test_a_change_from_a_value_one_memory_holds_asks_about_it(db: Path, old: str, new: str) -> None:
    assert asked_of(db, old, new)
