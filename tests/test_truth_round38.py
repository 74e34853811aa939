"""Session 38: what a thing is rated to is no change ("is rated to 150 kg"); a range of
clock times is one value (9点到21点); names jieba cuts into pieces are one word (饿了么);
a date is no amount moved ("due back 19 Feb"); a day cut short names the day ("Sat
waitress"); a place pointed into (北门那个角上) is a place; a person jieba glued to a verb
(小刘不干了) is a word two notes share; "看错了" owns a mistake; what was used swapped for
another (金龙鱼换成鲁花) is the value moved from; 改 and a verb states a change (改卖).
Sentences of our own, not the blind sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import text
from remem.named_values import named_values
from remem.truth.corrected import moved_from
from remem.truth.elliptic import moves_by
from remem.truth.markers import states_change
from remem.truth.subject import read
from remem.zh_names import joined
from test_truth_round35 import saved_after


@pytest.mark.parametrize(
    ("content", "change"),
    [
        ("The winch is rated to 150 kg.", False),  # what holds, said in the present
        ("Boat lifts are certified to 2000 kg", False),
        ("The API was throttled to 50 requests a second", True),  # said done
        ("We throttled uploads to 20", True),
    ],
)
def test_a_present_passive_to_a_number_says_what_holds(content: str, change: bool) -> None:
    assert states_change(content) is change


def test_two_rigs_rated_differently_are_not_one_changed(db: Path) -> None:
    old = "Hoist on bay 3 is rated to 500 kg."
    status, _ = saved_after(db, old, "Hoist on bay 5 is rated to 750 kg.")
    assert status != "superseded"


@pytest.mark.parametrize(
    ("content", "values"),
    [
        ("营业时间9点到21点", {"营业时间": "9点-21点"}),  # a range, not its end
        ("门店10点至22点营业", {"门店": "10点-22点"}),
        ("预算从5万到8万", {"预算": "8万"}),  # an amount moved: the later one
        ("预算从5万调整为8万", {"预算": "8万"}),
    ],
)
def test_a_range_of_clock_times_is_one_value(content: str, values: dict[str, str]) -> None:
    assert named_values(content) == values


def test_names_jieba_lacks_are_one_word(db: Path) -> None:
    assert "饿了么" in text.terms("饿了么的店铺评分4.6")
    assert "飞书" in text.terms("周报发在飞书群里")
    # two platforms' ratings are two facts
    assert saved_after(db, "美团上的评分是4.7", "饿了么上的评分是4.5") == ("added", [])


@pytest.mark.parametrize(
    ("content", "moved"),
    [
        ("Repair 2210 is a Parker 51, due back 14 Mar.", False),  # a date
        ("the tasting got pushed back 2 days", True),
        ("moved back 3 weeks because of the floods", True),
    ],
)
def test_a_date_after_back_is_no_amount(content: str, moved: bool) -> None:
    assert moves_by(content) is moved


def test_a_day_cut_short_names_the_day(db: Path) -> None:
    old = "Sunday cashier is Marta, 10 to 4."
    assert saved_after(db, old, "Sun cashier: Oskar") == ("conflict", [old])


def test_a_place_pointed_into_is_a_place(db: Path) -> None:
    claim = read("煎饼摊在东风市场南门那个拐角上")
    assert claim is not None and claim.value == "东风市场南门那个拐角"  # 上: where in it
    old = "煎饼摊在东风市场西门。"
    assert saved_after(db, old, "煎饼摊在东风市场南门那个拐角上") == ("conflict", [old])


@pytest.mark.parametrize(
    ("cut", "words"),
    [
        (["小", "刘不干", "了"], ["小刘", "不干", "了"]),
        (["老", "不来", "赵不来", "了"], ["老赵", "不来", "了"]),  # a search cut's pieces first
        (["小", "金鱼"], ["小", "金鱼"]),  # a thing, no person
        (["大", "石头"], ["大", "石头"]),
    ],
)
def test_a_person_jieba_glued_to_a_verb_is_one_word(cut: list[str], words: list[str]) -> None:
    assert joined(cut) == words


def test_a_helper_who_quit_is_asked_of_the_memory_naming_them(db: Path) -> None:
    old = "小周每天下午来帮忙洗碗，一天60块。"
    assert saved_after(db, old, "小周不干了，去工地了") == ("conflict", [old])


def test_a_misread_value_is_a_correction(db: Path) -> None:
    old = "店里每月水费大概300。"
    status, named = saved_after(db, old, "水费看错了，是450左右")
    assert status in ("conflict", "superseded") and named == [old]


@pytest.mark.parametrize(
    ("content", "was"),
    [
        ("醋换了，老陈醋换成镇江香醋", ["老陈醋"]),
        ("把旧秤换成电子秤", ["旧秤"]),
    ],
)
def test_what_was_used_swapped_for_another(content: str, was: list[str]) -> None:
    assert moved_from(content) == was


def test_gai_and_a_verb_states_a_change(db: Path) -> None:
    assert states_change("豆浆从2块改卖3块一杯")
    assert not states_change("厨房的排风改善了很多")  # made better, no value changed
    old = "豆浆2块一杯。"
    assert saved_after(db, old, "豆浆从2块改卖3块一杯") == ("superseded", [old])


def test_a_plural_noun_before_a_verb_is_part_of_the_subject() -> None:
    claim = read("Our print runs go to Halcyon Press.")
    assert claim is not None and (claim.subject, claim.value) == (
        "print runs destination",
        "Halcyon Press",
    )
    claim = read("Ana runs the Tuesday class")  # a verb with its object: no other verb after
    assert claim is None or "runs" not in claim.subject


def test_a_thing_named_after_a_word_and_a_space_is_no_value_swapped() -> None:
    # "VPN 服务器" is one name: the server, not a value the mail server's memory holds
    assert moved_from("VPN 服务器换成了 vpn2.corp.net") == []


def test_gai_and_a_verb_before_zai_is_read_with_zai() -> None:
    claim = read("推理服务现在改跑在 1 张 4090 上了")
    assert claim is not None and claim.value == "1 张 4090"
