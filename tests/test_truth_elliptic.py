"""A change that names nothing held, only how a value moved ("推迟一周", "ten minutes
earlier now"), asked about the memory saved last (`remem.truth.elliptic`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from remem import Entry, Memory
from remem.truth.elliptic import moved_named, moves_by, shifted

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    ["推迟一周", "开饭提前半小时", "加到120ml了", "又给我加了4台", "课时费每节涨20",
     "晚上多开一小时", "Reception lunch is ten minutes earlier now",
     "and another 15p on top after Christmas", "Fuel charge up 8p a litre"],
)  # fmt: skip
def test_a_value_moved_by_an_amount_is_read(text: str) -> None:
    assert shifted(text)


@pytest.mark.parametrize(
    "text",
    ["每天接单 早8到晚8", "每周至少3次", "参加3次", "差不多3点", "The standup is at 9:30",
     "Pushed the button", "面基在20号", "more " * 30 + "3"],
)  # fmt: skip
def test_a_plain_value_or_a_long_text_is_not(text: str) -> None:
    assert not shifted(text)


def saved(mem: Memory, *texts: str) -> list[str]:
    ids = []
    for i, t in enumerate(texts):
        ids.append(mem.save(t, created_at=T0 + timedelta(days=i)).entry.id)
    return ids


@pytest.mark.parametrize("correction", ["记错了，是第9格", "sorry, bay 14 not 12"])
def test_a_correction_naming_only_its_value_asks_about_the_memory_saved_last(
    tmp_path: Path, correction: str
) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        _, last = saved(mem, "Bella's vet is Dr Singh", "冷藏柜的钥匙挂在第12格，bay 12，6:45 开")
        result = mem.save(correction, created_at=T0 + timedelta(days=5))
        assert result.status == "conflict"
        assert [e.id for e in result.conflicts] == [last]


def test_it_asks_about_the_memory_saved_last(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        _, meetup = saved(mem, "Bella's vet is Dr Singh", "社团面基定在20号")
        result = mem.save("推迟一周 场地没订到", created_at=T0 + timedelta(days=5))
        assert result.status == "conflict"
        assert [e.id for e in result.conflicts] == [meetup]
        done = mem.save("推迟一周 场地没订到", created_at=T0 + timedelta(days=5), replace_id=meetup)
        assert done.status == "replaced"


@pytest.mark.parametrize(
    ("memories", "moved"),
    [
        # the last memory holds no amount
        (("Standup is at 9:30", "Mia likes the blue room best"), "pushed back two weeks, sadly"),
        # the last memory has a look-alike
        (
            ("Hive 2 inspection every 9 days", "Hive 3 inspection every 7 days"),
            "pushed back two days",
        ),
        # a fact of its own, a particle and a number in it: no move of what came last
        (("Standup is at 9:30",), "Watch straps take 3 working days to come back from the shop"),
        (("Standup is at 9:30",), "We top up the van at the Northside garage, card ending 12"),
        (("周三下午两点开例会",), "每周六加开一场去植物园的亲子导览"),
    ],
)
def test_nothing_is_asked(tmp_path: Path, memories: tuple[str, ...], moved: str) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        saved(mem, *memories)
        assert mem.save(moved, created_at=T0 + timedelta(days=5)).status == "added"


def test_a_text_naming_a_memory_is_not_taken_for_the_last_one(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        lunch, gym = saved(mem, "The team lunch is at 12:30", "The gym opens at 6")
        result = mem.save("team lunch moved 30 minutes later", created_at=T0 + timedelta(days=5))
        assert gym not in {e.id for e in result.conflicts}
        assert (
            result.status != "superseded" or result.replaced is None or result.replaced.id == lunch
        )


def test_a_text_naming_its_own_subject_is_not_taken_for_the_last_memory(tmp_path: Path) -> None:
    """The probes' crossing: "My rent went up by $50" is the rent's, whatever was said last."""
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        (internet,) = saved(mem, "I pay $85 a month for internet")
        result = mem.save("My rent went up by $50 a month", created_at=T0 + timedelta(days=5))
        assert internet not in {e.id for e in result.conflicts}


@pytest.mark.parametrize(
    ("before", "moved"),
    [
        ("Sharpening fee for a set of chisels is £18", "chisel sharpening fee up a fiver"),
        ("Orchard tour starts at 3pm on open days", "orchard tour an hour earlier on open days"),
        ("羽毛球场地费每小时40元", "场地费每小时涨10块"),
    ],
)  # fmt: skip
def test_a_move_naming_one_memory_asks_about_it(tmp_path: Path, before: str, moved: str) -> None:
    """Said later, among other memories: the one sharing two of its words is asked about."""
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        (old,) = saved(mem, before)
        saved(mem, "Shed keys hang by the back door", "周六下午大扫除")
        result = mem.save(moved, created_at=T0 + timedelta(days=5))
        assert result.status == "conflict", result.reasons
        assert [e.id for e in result.conflicts] == [old]


def test_a_move_naming_two_memories_guesses_neither() -> None:
    courts = [Entry(content=f"Court {n} hire fee is £{fee} an hour") for n, fee in ((1, 9), (2, 8))]
    moved = Entry(content="hire fee up £2 an hour")
    assert moved_named(moved, courts) == []
    assert [m.entry for m in moved_named(moved, courts[:1])] == courts[:1]


@pytest.mark.parametrize(
    ("text", "by"),
    [
        ("sauna slot up a fiver", True), ("tasting starts half an hour later on Fridays", True),
        ("mileage rate up by 4p", True), ("门票每张涨5块", True),
        ("We raised the upload limit to 300 MB", False), ("停车费涨到一天 40 了", False),
        ("My brother picks the dog up from the vet at 4:30", False),
    ],
)  # fmt: skip
def test_a_move_by_an_amount_is_not_a_value_said_whole(text: str, by: bool) -> None:
    assert moves_by(text) is by
