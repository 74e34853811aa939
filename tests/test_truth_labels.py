"""A number at the head of a note that names which thing it is about ("Locker 14 ...",
"Ticket #412: ...", "5号楼的电梯 ...") keeps two such notes apart, whatever a pass reads;
a version, an amount or a measure stays a value that can change."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.dedup import labels, named_apart


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Locker 14 holds the camping gear", {"locker": "14"}),
        ("Ticket #412: login page slow", {"ticket": "412"}),
        ("#7730：夜间任务偶尔超时", {"#": "7730"}),
        ("Bay 3B: forklift charger broken", {"bay": "3b"}),
        ("5号楼的电梯周三保养", {"号楼": "5"}),
        ("208房的热水器漏水", {"房": "208"}),
        ("C栋 电梯周三保养", {"栋": "c"}),  # a letter naming which, before a Chinese noun
        ("Plan A is to fly", {"plan": "a"}),  # a letter after a noun names which
        ("Grade A and B eggs are in", {}),  # two of them
        ("Java 17 is our runtime", {}),  # a technology's number is its version
        ("Python 3.12 everywhere", {}),  # a point: a version
        ("timeout 30 seconds for the API", {}),  # a unit: a measure
        ("Budget 5000 for the offsite", {}),  # four digits: an amount
        ("The API timeout: 30 seconds", {}),  # after the colon: the value
        ("我住在 502 房间", {}),  # not at the head
    ],
)  # fmt: skip
def test_labels_at_the_head(text: str, found: dict[str, str]) -> None:
    assert labels(text) == found


def test_two_numbered_things_are_apart_and_one_thing_is_not() -> None:
    assert named_apart("Locker 14 holds the tent", "Locker 15 holds the tent")
    assert named_apart("Coach Dana: U12 on Tuesdays", "Coach Dina: U12 on Tuesdays")
    assert named_apart("A组 周二下午体能", "B组体能 周四下午")
    assert not named_apart("A组 周二下午体能", "A组体能 改到周四下午")
    assert not named_apart("Coach Dana: U12 on Tuesdays", "Coach Dana: U12 on Thursdays")
    assert not named_apart("Team lunch: Friday", "Monthly team lunch: Thursday")
    assert not named_apart("Locker 14 holds the tent", "Locker 14 holds the skis")
    assert not named_apart("Locker 14 holds the tent", "The tent is in the garage")


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Locker 14 holds the camping gear", "Locker 15 holds the ski gear"),
        ("Bay 3: forklift charger broken since Monday", "Bay 5: forklift charger fixed on Monday"),
        ("Ticket #412: login page slow on Safari", "Ticket #421: login page crashes on Safari"),
        ("5号楼的电梯周三保养", "6号楼的电梯周五保养"),
        ("208房的热水器漏水，已报修", "280房的热水器漏水，已报修"),
        ("Supplier Acme Ltd: net 30 payment terms", "Supplier Apex Ltd: net 45 payment terms"),
        ("供应商华达：月结30天", "供应商华联：月结45天"),
    ],
)  # fmt: skip
def test_numbered_look_alikes_stay_apart(db: Path, left: str, right: str) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save(left)
        assert mem.save(right).status == "added"
        assert first.entry.id in {e.id for e in mem.list()}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("项目使用 JDK 17", "项目升级到 JDK 21"),
        ("timeout 30 seconds for the API", "timeout 45 seconds for the API now"),
        ("Locker 14 holds the camping gear", "Locker 14 now holds the ski gear"),
        ("Standup: 9:30 every weekday", "Standup: 10:00 from next Monday"),
    ],
)  # fmt: skip
def test_values_at_the_head_still_change(db: Path, before: str, after: str) -> None:
    with Memory(db, embedder=None) as mem:
        mem.save(before)
        assert mem.save(after).status in ("superseded", "conflict")
