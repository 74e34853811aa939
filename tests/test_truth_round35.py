"""Session 35: two notes opening with a number naming which one of a thing ("2号烤炉",
"6号冷库") are about two of them when the numbers differ: no change of one by the other,
by the words they share or by a statement read the same. Labels at a note's head read
further: an English noun's number as its third word ("Greenhouse bench 7 ..."), a capital
letter between English words ("Loading bay C door ..."), a number and 号 after a Chinese
noun ("酱菜3号缸 ..."). Sentences of our own, not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.dedup import labels, named_apart


def saved_after(db: Path, old: str, new: str) -> tuple[str, list[str]]:
    """The status of saving `new` after `old` (forced), keyword-only, and the contents
    it conflicts with or replaced."""
    with Memory(db, embedder=None) as mem:
        mem.save(old, force=True)
        res = mem.save(new)
        named = [e.content for e in res.conflicts] + (
            [res.replaced.content] if res.replaced else []
        )
        return res.status, named


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("1号车上周换了刹车片", "2号车上周换了轮胎"),  # by the words they share
        ("3号炉的温度定在800度", "4号炉温度改成850度了"),  # read as one statement
        ("5号冷库温度定在零下18度", "6号冷库温度改成零下20度了"),
    ],
)
def test_another_numbered_one_is_another_thing(db: Path, old: str, new: str) -> None:
    assert saved_after(db, old, new) == ("added", [])


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("5号冷库温度定在零下18度", "5号冷库温度改成零下20度了"),
        ("切面用1号机", "切面改用2号机了"),  # the number is the value that moved
    ],
)
def test_the_same_numbered_one_or_a_number_that_moved_is_a_change(
    db: Path, old: str, new: str
) -> None:
    status, named = saved_after(db, old, new)
    assert status in ("superseded", "conflict") and named == [old]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Greenhouse bench 7 has the chilli seedlings", {"bench": "7"}),
        ("Loading bay C door sticks in the cold", {"bay": "c"}),
        ("Practice room A piano is a Yamaha upright", {"room": "a"}),
        ("酱菜3号缸腌的是萝卜", {"酱菜": "3"}),
        ("Plan A for the launch", {}),  # a stopword after the letter: no thing named
        ("Mr T. Smith pays the rent", {}),  # an initial
        ("I have A levels in maths", {}),
    ],
)  # fmt: skip
def test_labels_read_further_at_the_head(text: str, found: dict[str, str]) -> None:
    assert labels(text) == found


def test_another_label_is_another_thing_the_same_label_may_change(db: Path) -> None:
    assert named_apart("Loading bay C door sticks", "Loading bay D door sticks")
    assert not named_apart("Greenhouse bench 7 has the chillies", "Greenhouse bench 7 has basil")
    old, new = "Greenhouse bench 7 has the chilli seedlings", "Greenhouse bench 9 has the basil"
    assert saved_after(db, old, new) == ("added", [])


def test_a_judged_change_between_two_people_named_first_is_asked_not_made() -> None:
    """Each note opens on a person the other does not name (孙老板, 小刘, in its first
    words): a change the judges are sure of is asked about, never made."""
    from remem.truth.verdicts import _two_named

    assert _two_named("老主顾孙老板每周要200斤豆皮", "新主顾钱老板每周要150斤豆皮")
    assert _two_named("夜班保安小刘管东门", "夜班保安小赵管西门")
    assert not _two_named("孙老板每周要200斤豆皮", "孙老板改成每周要150斤豆皮了")
    # a person named later in the note: a value the judges may change unasked
    assert not _two_named("豆皮每周五早上送到孙老板那", "豆皮每周五早上改送钱老板那了")
