"""A new value under a heading one memory holds ("记账软件：金蝶云" after "所里记账软件用的是
用友") is asked about; a heading of one common word, another template's head, or a value
the memory already holds asks nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.headed import heading


def test_the_heading_is_what_comes_before_the_first_colon_that_is_no_time() -> None:
    assert heading("记账软件：金蝶云星辰") == ("记账软件", "金蝶云星辰")
    assert heading("9:30 standup: room 4") == ("9:30 standup", "room 4")
    assert heading("Standup is at 9:30") is None
    assert heading("Kitchen lights:") is None
    # a jotting's head set off by a spaced dash, not a range
    assert heading("Kiln 2 – Tuesdays only") == ("Kiln 2", "Tuesdays only")
    assert heading("Clinic open 9 - 5") is None
    assert heading("Kiln 2 went wonky-ish") is None
    # a Chinese jotting's head set off by a space
    assert heading("蒸笼 180度") == ("蒸笼", "180度")
    assert heading("今天 很开心，去公园玩了") is None


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("所里的报销软件用的是易快报。", "报销软件：每刻报销，下月切换"),
        ("The choir rehearsal venue is St Anne's", "Choir rehearsal venue: the library annex"),
        ("Our dog walker on weekdays is Maren", "Dog walker: Tobias from Pawsome, weekdays"),
        ("Kiln 2 firing is on Wednesdays.", "Kiln 2 - Saturdays from now on"),
        # a spaced jotting of one word the memory says whole, with an amount or a day
        ("蒸馒头的时候蒸笼开大火蒸25分钟", "蒸笼 20分钟"),
        ("小卖部每天早上7点开门", "开门 6点半"),
        ("书法课的作品展定在5月18号", "作品展 5月25号"),
    ],
)  # fmt: skip
def test_a_new_value_under_a_held_heading_is_asked(db: Path, before: str, after: str) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save(before).entry
        mem.save("The recycling bins go out on Thursday night")
        result = mem.save(after)
        if result.status == "superseded":
            assert first.id not in {e.id for e in mem.list()}
        else:
            assert result.status == "conflict"
            assert [c.id for c in result.conflicts] == [first.id]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("晚上散步半小时", "晚上吃：二甲双胍500mg"),  # one common word
        ("Dog walker on weekdays: Maren", "Dog groomer: Tobias, monthly"),  # another head
        ("Our dog walker on weekdays is Maren", "Dog walker: Maren, weekdays"),  # the same value
        ("周末把阳台整理一下 旧花盆挂闲鱼", "闲鱼 在售 旧书 18块"),  # the memory holds no amount
        ("老家亲戚下个月来", "下个月起 晚班改到10点"),  # a head of when
        ("仓库里的纸箱 还剩一半", "纸箱 找老王要"),  # no amount, time or day
        ("今天我们 去北京", "我们 明天 去上海"),  # no word of a thing
        # the value the memory holds, said another way: a repeat
        ("Parents evening is on 12 March at 6pm", "Parents evening - March 12th, 18:00"),
    ],
)  # fmt: skip
def test_no_question_without_the_heading_and_a_new_value(db: Path, before: str, after: str) -> None:
    with Memory(db, embedder=None) as mem:
        mem.save(before)
        assert mem.save(after).status != "conflict"
