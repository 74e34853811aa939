"""Session 34: a destination verb before an amount says what a value becomes ("fills go
to £9.50"); a subject said shorter than the memory's ("locker rental" of "the club's
locker rental") is the same thing, asked about; the period a value holds for ("... this
season") is no word of which thing; a correction owning its mistake in other words ("got
it wrong", 记岔了), naming the old value with its ordinal or measure word ("not the 4th",
不是10个), or sharing the thing's characters where jieba cut them apart ("打药不是"); a
stop said "altogether", "given up", 干完了. Sentences of our own, not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth import when
from remem.truth.elliptic import shifted
from remem.truth.subject import read


def saved_after(db: Path, *texts: str) -> tuple[str, list[str]]:
    """The status of saving the last of `texts` after the others (forced), keyword-only,
    and the contents it conflicts with or replaced."""
    with Memory(db, embedder=None) as mem:
        for old in texts[:-1]:
            mem.save(old, force=True)
        res = mem.save(texts[-1])
        named = [e.content for e in res.conflicts] + (
            [res.replaced.content] if res.replaced else []
        )
        return res.status, named


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a value said of its thing named shorter (and going to an amount)
        ("The club's locker rental is £5 a month.", "From June locker rental goes to £6 a month."),
        ("Junior squad subs are £20 a term.", "From September squad subs go to £24 a term."),
        ("Greenwich stall pitch is 14.", "greenwich stall - pitch 22 this season"),
        # corrections
        ("果园打药安排在下周二。", "打药不是下周二，是下周三，我记岔了。"),
        (
            "The boiler service is booked for 4 March.",
            "misread the letter, the boiler service is 9 March not the 4th",
        ),
        ("每桌坐10人。", "每桌是8个人，不是10个，我说多了。"),
        # owning the mistake, the value taken back names the memory alone
        ("食堂的大米改在五常订了", "说错了，不是五常，是在盘锦订的"),
        (
            "Soup of the day on Friday is leek and potato.",
            "Got it wrong, Friday soup is leek and stilton.",
        ),
        # a heading's new day, which jieba cuts off its 每周
        ("每周二去城西仓库做消防检查。", "仓库消防检查：每周五"),
        # a value moved by an amount: more of a verb (多蒸), again (又进了)
        ("每锅蒸80个包子。", "每锅多蒸10个"),
        ("仓库里存了2000斤大米。", "又进了500斤。"),
        # stops
        (
            "Delivery round: Wednesday is the Hitchin shops.",
            "dropped the Wednesday round altogether, not enough orders",
        ),
        (
            "I coach the under-12s at Riverside on Sundays.",
            "Given up the Sunday coaching at Riverside.",
        ),
        ("雇了3个人摘苹果，每人每天200。", "摘苹果的活干完了，人都走了。"),
    ],
)
def test_a_change_said_these_ways_names_its_memory(tmp_path: Path, old: str, new: str) -> None:
    status, named = saved_after(tmp_path / "m.db", old, new)
    assert status in ("superseded", "conflict")
    assert named == [old]


def test_a_subject_two_memories_hold_is_asked_of_neither(tmp_path: Path) -> None:
    status, named = saved_after(
        tmp_path / "m.db",
        "Junior squad subs are £20 a term.",
        "Senior squad subs are £30 a term.",
        "From September squad subs go to £24 a term.",
    )
    assert named != ["Junior squad subs are £20 a term."]
    assert named != ["Senior squad subs are £30 a term."]


def test_a_signed_amount_is_a_move_and_a_phone_number_is_not() -> None:
    assert shifted("pip +65g this week")
    assert shifted("raising the hour session by a fiver")
    assert not shifted("Call the depot on +44 20 7946 0000")
    assert not shifted("多少3个")


def test_going_to_an_amount_is_what_a_value_becomes() -> None:
    claim = read("Nitrox fills go to £9.50 a cylinder.")
    assert claim is not None and claim.subject == "Nitrox fills"
    # a place or an address stays a destination
    sent = read("Error tracking goes to Sentry.")
    assert sent is not None and sent.subject.endswith("destination")


def test_the_period_a_value_holds_for_is_no_word_of_its_thing() -> None:
    assert when.present_tail("greenwich - pitch 31 this season") == "greenwich - pitch 31"
    assert when.present_tail("The rota this week is Sam.") == "The rota this week is Sam."
    claim = read("stall - pitch 22 this season")
    assert claim is not None and claim.key == "pitch stall"


def test_a_value_taken_back_that_two_memories_hold_replaces_neither(tmp_path: Path) -> None:
    status, _ = saved_after(
        tmp_path / "m.db",
        "周二的快递放在保安室",
        "周四的外卖放在保安室",
        "说错了，不是保安室，是前台",
    )
    assert status != "superseded"
