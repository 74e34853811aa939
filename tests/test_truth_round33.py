"""Session 33: a repeat in other words is caught on words alone (no embedder) where the
words judge is sure and no word of the new note stands in the old one's place for
another; a Chinese person named the familiar way (老黄, 阿斌, 吴老师) or a quoted title is
something new, never a repeat. Sentences of our own, not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.repeats import adds_nothing, reworded, titles, zh_people


def saved_after(db: Path, old: str, new: str) -> str:
    """The status of saving `new` after `old`, keyword-only."""
    with Memory(db, embedder=None) as mem:
        mem.save(old)
        return mem.save(new).status


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The spare fuses are in the red tin.", "red tin = spare fuses"),
        (
            "Hand towels go in the top drawer of the linen cupboard.",
            "linen cupboard, top drawer: that's where the hand towels go",
        ),
    ],
)
def test_a_repeat_in_other_words_is_caught_without_an_embedder(
    tmp_path: Path, old: str, new: str
) -> None:
    assert saved_after(tmp_path / "m.db", old, new) == "duplicate"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The north gate needs a new padlock.", "The south gate needs a new padlock."),
        (
            "Junior choir sings at the library at Christmas.",
            "Senior choir sings at the town hall at Christmas.",
        ),
        ("周末值班是王姐和小李", "周末值班王姐跟阿强"),
        ("《春江花月夜》用的是古琴谱。", "《高山流水》用的是古琴谱。"),
        # numbers in words: another number, another fact
        ("I walk two miles before breakfast", "I swim three lengths before breakfast"),
    ],
)
def test_a_look_alike_with_a_word_swapped_is_kept(tmp_path: Path, old: str, new: str) -> None:
    assert saved_after(tmp_path / "m.db", old, new) != "duplicate"


def test_reworded_reads_a_swapped_word_between_shared_ones() -> None:
    assert not reworded("Upper car park opens at 7.", "Lower car park opens at 7.")
    assert not reworded("冷柜每月中旬除霜", "冰箱每月中旬除霜")
    assert reworded("red tin = spare fuses", "The spare fuses are in the red tin.")
    # a word moved elsewhere is no swap
    assert reworded("Tuesdays the van goes to Leeds", "The van goes to Leeds on Tuesdays")


def test_chinese_people_named_the_familiar_way() -> None:
    assert zh_people("化肥找老黄买，送货找阿斌") == {"老黄", "阿斌"}
    assert zh_people("这周吴老师代课，马老板来结账") == {"吴老师", "马老板"}
    assert zh_people("阿姨每天八点来") == frozenset()  # 阿姨 is no name
    assert not adds_nothing("调音找小马师傅", "店里的琴调音一直找老周师傅")


def test_quoted_titles() -> None:
    assert titles("《十二生肖》系列用大红纸") == {"十二生肖"}
    assert titles('The shop is called "Blue Door" on the app') == {"Blue Door"}
    assert not adds_nothing("“老街水饺”是店名", "“老街饺子”是店名")


def test_a_change_naming_its_old_value_is_of_the_memory_holding_it(tmp_path: Path) -> None:
    """Two current notes of one thing (the second kept beside the first): a change
    saying what it moves from is of the one holding that value, not of the other."""
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        first = mem.save("Saturday stall: outside the town hall").entry
        second = mem.save("saturdays we set up by the old bandstand", force=True).entry
        result = mem.save("Saturday stall moved from the bandstand to the station forecourt")
        named = [*result.conflicts, *([result.replaced] if result.replaced else [])]
        assert [e.id for e in named] == [second.id]
        assert first.id not in {e.id for e in named}


def stopped_after_a_change(db: Path, first: str, change: str, end: str) -> list[str]:
    """`first`, `change` as its next version, then `end` saved: the ids it asks about,
    and the change's id last."""
    with Memory(db, embedder=None) as mem:
        one = mem.save(first, force=True).entry
        two = mem.save(change, replace_id=one.id).entry
        result = mem.save(end)
        return [*(e.id for e in result.conflicts), two.id]


@pytest.mark.parametrize(
    ("first", "change", "end"),
    [
        # the end says only the first version's words
        ("每周三给城西超市送豆腐", "改成周四了", "城西超市不送了，合同到期"),
        (
            "Tuesday evening pottery class at the community centre",
            "moved to 7pm",
            "pottery class is cancelled for good",
        ),
        # jieba cuts the stop onto the thing's last character (班停)
        ("周六下午有少儿书法班，2点开始", "书法课改到3点", "少儿书法班停了，报名人太少"),
    ],
)
def test_an_end_saying_a_replaced_versions_words_is_asked_of_its_current_one(
    tmp_path: Path, first: str, change: str, end: str
) -> None:
    *asked, current = stopped_after_a_change(tmp_path / "m.db", first, change, end)
    assert asked == [current]


def test_ive_left_is_an_end() -> None:
    from remem.truth.stops import stops

    assert stops("I've left the choir")
    assert stops("We've left the allotment society")
