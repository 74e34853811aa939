"""A correction naming the value it takes back ("The tent pitch is B7, not B4",
"会议室是302不是203") replaces the one memory holding that value, however else the two
are worded; "not" that sets no value against another takes nothing back."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.corrected import taken_back


@pytest.mark.parametrize(
    ("content", "wrong"),
    [
        ("The pitch is B7, not B4 - I misread the booking", ["B4"]),
        ("Not the Model 3 - it's the Model Y", ["Model"]),
        ("sorry, the deposit is £450 not £400", ["£400"]),
        ("会议室是302不是203", ["203"]),
        ("不对，接送是爷爷，不是奶奶", ["奶奶"]),
        ("no, the spare kayaks are in shed 2 not shed 1", ["shed"]),
        ("No parking on the verge not the lane", []),
        ("We do not use Jenkins", []),
        ("I'm not a fan of olives", []),
        ("Not sure yet about the venue", []),
    ],
)  # fmt: skip
def test_the_values_taken_back(content: str, wrong: list[str]) -> None:
    assert taken_back(content) == wrong


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Pine Hollow: pitch B4, three nights", "Pine Hollow pitch is B7, not B4 - I misread it"),
        ("周四的家长会在302教室", "家长会是203教室不是302，老师发错了"),
    ],
)  # fmt: skip
def test_a_correction_replaces_the_memory_holding_the_value(
    db: Path, before: str, after: str
) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save(before).entry
        other = mem.save("Room 302 of the library has the printer").entry
        result = mem.save(after)
        assert result.status == "superseded"
        current = {e.id for e in mem.list()}
        assert first.id not in current and other.id in current


def test_a_value_two_memories_hold_replaces_neither(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        mem.save("Pine Hollow pitch B4 for the scouts")
        mem.save("Pine Hollow pitch B4 for the family, in August")
        assert mem.save("Pine Hollow pitch is B7, not B4 - I misread it").status != "superseded"
