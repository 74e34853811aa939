"""Readings widened in session 31 from the misses of a blind set, each in general: a
start said by a holiday, a day of the month or "the new season"; a measure said after an
amount; a one-word heading the memory opens with; a move that opens with its thing; a
thing said switched or no longer done (换了, 不送了, "any more", "handed over"); a later
clause giving only the reason; a day both texts say. Sentences of our own, not the set's."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.markers import states_change
from remem.truth.overlap import units, without_asides
from remem.truth.when import lead


def asked_of(db: Path, old: str, new: str) -> bool:
    """Whether saving `new` after `old` asks about `old` (a conflict naming it)."""
    with Memory(db, embedder=None) as mem:
        first = mem.save(old).entry
        result = mem.save(new)
        return result.status == "conflict" and first.id in {e.id for e in result.conflicts}


@pytest.mark.parametrize(
    ("content", "rest"),
    [
        ("十月一号起改成九点开门", "改成九点开门"),
        ("国庆过后每天晚开半小时", "每天晚开半小时"),
        ("开学后接送改到四点半", "接送改到四点半"),
        ("下一批开始换成国产的线", "换成国产的线"),
        ("From the 1st of next month we open at 8.", "We open at 8."),
        ("From the new season the match fee is £12.", "The match fee is £12."),
        ("From half term, swimming is on Fridays.", "Swimming is on Fridays."),
        ("Room hire goes to £25 from Monday.", "Room hire goes to £25."),
        ("老板说下个月起包子涨到两块", "包子涨到两块"),  # who said it, then when
        ("十一点开始营业", None),  # a time, not a holiday
        ("Monday is market day", None),
    ],
)  # fmt: skip
def test_more_starts_are_cut(content: str, rest: str | None) -> None:
    assert lead(content) == rest


def test_a_measure_after_an_amount_belongs_to_it() -> None:
    per_kg = [(u.form, u.value) for u in units("Lamb mince is £7.99/kg.")]
    a_kilo = [(u.form, u.value) for u in units("Lamb mince £8.49 a kilo")]
    assert per_kg == [("lamb", False), ("minc", False), ("7.99kg", True)]
    assert a_kilo == [("lamb", False), ("minc", False), ("8.49kg", True)]


def test_a_price_per_kilo_said_again_is_asked(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        old = mem.save("Lamb mince is £7.99/kg.").entry
        result = mem.save("Lamb mince £8.49 a kilo")
        assert result.status == "conflict" and old.id in {e.id for e in result.conflicts}


@pytest.mark.parametrize(
    ("old", "new", "asked"),
    [
        ("贝斯手是小林。", "贝斯手：阿杰", True),
        ("书店的收银是我妹妹。", "收银：小芳", True),
        ("今天晚上吃火锅", "晚上：饺子", False),  # a word it mentions on the way
    ],
)  # fmt: skip
def test_a_one_word_heading_the_memory_opens_with(
    db: Path, old: str, new: str, asked: bool
) -> None:
    assert asked_of(db, old, new) is asked


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The kiln goes on at 6am.", "kiln on an hour earlier, the big order is due"),
        ("每天早上5点开始蒸包子。", "蒸包子提前半小时，排队的人多"),
        ("3号鱼塘水温保持在22度。", "3号塘再调低1度"),
    ],
)  # fmt: skip
def test_a_move_that_opens_with_its_thing_is_asked(db: Path, old: str, new: str) -> None:
    assert asked_of(db, old, new)


def test_a_move_sharing_one_word_with_two_memories_names_neither() -> None:
    from remem.entry import Entry
    from remem.truth.elliptic import moved_named

    move = Entry(content="kiln on an hour earlier")
    one = [Entry(content="The kiln goes on at 6am.")]
    two = [*one, Entry(content="The kiln in the yard holds 40 pots.")]
    assert [m.entry.id for m in moved_named(move, one)] == [one[0].id]
    assert moved_named(move, two) == []


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("鱼饵换了，不找老陈了", True),
        ("东街那家饭馆不送了", True),
        ("Priya's not running the stall any more", True),
        ("The rota has been handed over to Dev.", True),
        ("今天人不少了", False),
        ("这家店的包子不错了", False),
        ("We sell bait and tackle.", False),
    ],
)  # fmt: skip
def test_a_thing_switched_or_no_longer_done_states_a_change(content: str, says: bool) -> None:
    assert states_change(content) is says


def test_a_later_clause_of_only_the_reason_is_set_aside() -> None:
    was = units("Chess club subs are £20 a term.")
    said = units("subs are £22 a term, the hall went up")
    assert [u.form for u in without_asides(said, was)] == ["sub", "22", "term"]
    # a later clause naming the memory's words stays
    both = units("subs are £22 a term, chess club only")
    assert without_asides(both, was) == both


def test_a_day_both_say_helps_name_the_thing(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        old = mem.save("Shop closes 5.30 on Saturdays.").entry
        result = mem.save("We close at 1pm on Saturdays.")
        assert result.status == "conflict" and old.id in {e.id for e in result.conflicts}
        other = mem.save("Café closes at 4pm on Saturdays.")
        assert old.id not in {e.id for e in other.conflicts}


@pytest.mark.parametrize(
    ("old", "new", "asked"),
    [
        ("渔具店里鱼线一般用0.8的。", "鱼线用1.0的", True),
        ("We deploy with Helm", "We deploy to GKE", False),  # English may open with a verb
        ("1号船鱼线一般用0.8的。", "2号船鱼线用1.0的", False),  # another boat's
    ],
)  # fmt: skip
def test_a_short_note_opening_with_its_one_word_of_the_thing(
    db: Path, old: str, new: str, asked: bool
) -> None:
    assert asked_of(db, old, new) is asked


def test_a_word_saying_the_note_was_wrong_names_no_thing() -> None:
    said = [u.form for u in units("鱼线其实用1.0的")]
    assert "其实" not in said and "鱼线" in said


def test_an_english_jotting_of_a_thing_and_its_amount(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        old = mem.save("Pork belly is £6.50/kg.").entry
        result = mem.save("belly £6.90 a kilo from next week")
        assert result.status == "conflict" and old.id in {e.id for e in result.conflicts}
