"""Session 41: what jieba guesses wrong about a shop's or a thing's name, and a fact said
with a reason after a comma. Sentences of our own, not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem.truth import segment
from remem.truth.subject import read
from test_truth_round35 import saved_after


def _tags(text: str) -> list[tuple[str, str]]:
    return [(t.text, t.tag) for t in segment.tokenize(text)]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("汤馆早上7点开门", "汤馆"),  # jieba tags 汤馆 a person (汤 is a surname)
        ("冷藏柜在后门", "冷藏柜"),  # three characters, no surname first
        ("鸭汤店下午关门", "鸭汤店"),
    ],
)
def test_a_shop_or_a_thing_jieba_took_for_a_person_is_a_noun(text: str, word: str) -> None:
    tags = dict(_tags(text))
    assert tags.get(word, "n")[:1] == "n" and tags.get(word) != "nr"


@pytest.mark.parametrize(
    ("text", "person"), [("收银是王小丽", "王小丽"), ("前端由欧阳娜娜负责", "欧阳娜娜")]
)
def test_people_stay_people(text: str, person: str) -> None:
    claim = read(text)
    assert claim is not None and claim.value == person


def test_a_rare_character_before_a_noun_is_part_of_it() -> None:
    assert ("糁汤", "n") in _tags("糁汤一碗12块")
    assert ("每", "zg") in _tags("对账改成每小时一次")  # 每 is no rare character


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("糁汤馆早上6点开门。", "糁汤馆早上 开门 time", "6点"),
        ("12月起改6点开门，冬天人少", "开门 time", "6点"),  # and why: not a second fact
        ("鞋码现在 38，脚又长了", "鞋码", "38"),
    ],
)
def test_the_rules_read(text: str, subject: str, value: str) -> None:
    claim = read(text)
    assert claim is not None
    assert (claim.subject, claim.value) == (subject, value)


def test_a_reason_after_a_comma_leaves_the_reading_partial() -> None:
    claim = read("12月起改6点开门，冬天人少")
    assert claim is not None and claim.change and not claim.whole


@pytest.mark.parametrize("text", ["冬天人少", "早市人多"])
def test_many_or_few_people_is_no_number(text: str) -> None:
    assert read(text) is None


def test_two_commas_two_facts_read_nothing() -> None:
    assert read("豆浆3块一杯，油条2块一根") is None


def test_a_new_opening_time_with_a_reason_replaces_the_old(db: Path) -> None:
    old = "羊汤馆早上6点开门。"
    status, named = saved_after(db, old, "下月起改5点半开门，赶早市")
    assert status in ("superseded", "conflict") and named == [old]


def test_a_start_or_a_switch_is_no_half_of_a_name_jieba_cut_apart() -> None:
    from remem import text

    assert "糍团" in text.terms("下周起糍团馅改芝麻")  # jieba: 起 / 糍 / 团 / 馅 / 改
    assert "烙堆" in text.terms("明年起烙堆换黑糖")


@pytest.mark.parametrize(
    ("text", "moved"),
    [
        ("再往后推一刻钟", True),  # a direction and a verb of moving, then the amount
        ("往上调两度", True),
        ("往前走三步就到", False),  # walking, not a value moved
        ("往后两周都不在", False),  # the weeks ahead
    ],
)
def test_a_move_said_with_a_direction(text: str, moved: bool) -> None:
    from remem.truth.elliptic import shifted

    assert shifted(text) is moved


def test_a_day_of_the_week_is_a_term_however_jieba_cut_it() -> None:
    from remem import text

    assert "周二" in text.terms("面馆每周二歇业")  # jieba: 每周 / 二
    assert "周日" in text.terms("星期天不开门")
    assert text.terms("周一到周五").count("周一") == 1


def test_a_person_named_first_then_another_named_last_is_asked_about(db: Path) -> None:
    old = "Priya does the Sunday till count."
    assert saved_after(db, old, "sunday till count - Marcus") == ("conflict", [old])


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Staff get 10% off books", "Employees receive 10% off books"),  # both first words
        ("the boiler is serviced by Dan", "Boiler servicing: Dan"),  # the same person
    ],
)
def test_no_person_swapped(new: str, old: str) -> None:
    from remem.truth.overlap import swaps_a_value

    assert not swaps_a_value(new, old)


@pytest.mark.parametrize(
    ("text", "value"),
    [("Saturday opening is 9 till 1.", "9-1"), ("café hours: 8am until 3pm", "8am-3pm")],
)
def test_hours_from_till_are_one_range(text: str, value: str) -> None:
    claim = read(text)
    assert claim is not None and claim.value == value


def test_from_one_number_to_another_stays_a_change() -> None:
    claim = read("Moved the standup from 9 to 10.")
    assert claim is None or claim.value != "9-10"


def test_a_repeat_on_words_alone_shares_more_than_one_word_of_five() -> None:
    from remem.truth.repeats import reworded

    assert not reworded("Screen 4 at the bar shows the darts.", "Derby raffle at the bar, £4 a go.")


def test_a_short_note_naming_only_what_the_memory_names_is_judged(db: Path) -> None:
    from remem.truth.verdicts import shares_enough

    assert shares_enough("麻团2块5一个。", "麻团3块一个", 2)  # one word, all the note names
    assert not shares_enough("麻团2块5一个。", "油条3块一根", 2)
    assert not shares_enough("We moved to the 12th floor.", "Back to two-week sprints", 2)


def test_a_job_named_with_a_word_before_its_noun_has_a_time() -> None:
    claim = read("打包任务晚上 11 点跑")
    assert claim is not None and claim.subject.startswith("打包任务")


def test_an_acronym_of_each_names_two_things(db: Path) -> None:
    old = "The EU shop has 12 staff"  # the words judge reads a change (0.88)
    assert saved_after(db, old, "The US shop now has 20 staff") == ("added", [])


def test_a_capital_letter_after_a_noun_names_which_even_before_a_verb(db: Path) -> None:
    old = "Cold room C is set to 3°C."
    assert saved_after(db, old, "Cold room D is set to 5°C.") == ("added", [])
    assert saved_after(db, old, "Cold room C is now at 4°C.")[0] == "superseded"
    from remem.truth.dedup import labels

    assert labels("Yesterday I went to the depot") == {}
