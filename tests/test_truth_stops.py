"""A fact said to have stopped in words no rule reads whole ("Cancelled the gym plan,
no more Tuesday sessions", "游泳课不上了") is asked about, of the one memory sharing its
words; a due date, a scope or a wish is no stop."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.stops import stops


@pytest.mark.parametrize(
    "content",
    [
        "Cancelled the Brightwave broadband contract, not renewing",
        "Otto has quit judo, no more Saturday classes",
        "We no longer print the Friday newsletter",
        "The Maple Street listing was withdrawn yesterday",
        "周日的羽毛球活动取消了，场地被占",
        "游泳课不上了，孩子太累",
        "跟鼎盛物业解约了",
        "他不再负责采购",
        "Marta has left the bakery",  # someone who has left a place
        "Dev handed in his notice on Friday",
    ],
)
def test_these_say_something_stopped(content: str) -> None:
    assert stops(content)


@pytest.mark.parametrize(
    "content",
    [
        "车险在平安，11月到期",  # a due date
        "10.9.0.0/16 是生产网，不在范围内",  # a scope
        "Should we cancel the Friday newsletter?",  # a question
        "The Friday newsletter goes out at 9",
        "我不喜欢香菜",  # a taste, not a stop
        "Sam has left a voicemail about the invoice",  # a thing left, not a place
        "what's left of the glaze budget is £40",
        "Her trainer's left knee is sore again",  # an owner's left
    ],
)
def test_these_say_nothing_stopped(content: str) -> None:
    assert not stops(content)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Brightwave broadband: 500 Mbit, 24-month contract", "Cancelled Brightwave, not renewing"),
        ("Otto: judo on Saturdays at 10", "Otto has quit judo, no more Saturday classes"),
        ("儿子周三下午上乐高编程课，在万达三楼", "乐高编程课不上了，太远"),
        ("My gym is Planet Fitness", "Cancelled Planet Fitness, it was too far"),
        # one name shared: the note's first word, capitalised in both; a Chinese name
        ("Rota: Tamsin does Thursdays and Fridays", "Tamsin has left the kitchen."),
        ("每周二让学徒张凯去进货", "张凯不干了，回老家了"),
        # one word shared, the one the stop opens on: what stopped
        ("烤肠每天进两箱，找老刘拿货", "烤肠不卖了，利润太低"),
        ("Zumba class runs Wednesdays in studio 2", "zumba's cancelled for good, instructor left"),
    ],
)  # fmt: skip
def test_a_stop_is_asked_of_the_memory_it_ends(db: Path, before: str, after: str) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save(before).entry
        mem.save("The recycling bins go out on Thursday night")
        result = mem.save(after)
        assert result.status == "conflict"
        assert [c.id for c in result.conflicts] == [first.id]


def test_a_stop_sharing_words_with_two_memories_alike_ends_neither_unasked(db: Path) -> None:
    """The stop pass asks nothing where two memories share its words alike; the words judge
    (session 28) reads it a likely end of each (0.90) and asks about both, never one."""
    with Memory(db, embedder=None) as mem:
        both = {
            mem.save("Piano lessons with Mrs Hale on Mondays").entry.id,
            mem.save("Piano lessons with Mr Ruiz on Thursdays").entry.id,
        }
        result = mem.save("Cancelled the piano lessons")
        assert result.status in ("added", "conflict")
        assert result.status == "added" or {c.id for c in result.conflicts} == both
        assert both <= {e.id for e in mem.list()}


def test_a_stop_sharing_one_word_with_one_memory_alone_asks_about_it(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save("拼单每周三中午截止").entry
        mem.save("The recycling bins go out on Thursday night")
        result = mem.save("公司的拼单不弄了，大家都自己点")
        assert result.status == "conflict"
        assert [c.id for c in result.conflicts] == [first.id]


def test_a_stop_sharing_one_word_with_two_memories_asks_nothing(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        mem.save("拼单每周三中午截止")
        mem.save("水果拼单找前台小王")
        assert mem.save("公司的拼单不弄了，大家都自己点").status == "added"
