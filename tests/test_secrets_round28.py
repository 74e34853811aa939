"""Secrets round 28: each kind h33 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a login's e-mail, then 'and it's' a made-up word with digits": [
        ("Club newsletter account — news.rowing@gmail.com and it's Bateau2019", "Bateau2019"),
    ],
    "a barrier or a container named, then its code set or said": [
        ("the depot barrier changed to 7741, let the drivers know", "7741"),
        ("the tool container is two-eight-one-five.", "two-eight-one-five"),
    ],
    "a login word, then a name and a short PIN after a slash": [
        ("bakery till login Priya / 3390", "3390"),
    ],
    "opens with what the number is, then it": [
        ("the allotment store opens with the year grandad retired, 1979.", "1979"),
    ],
    "an alarm that disarms on a code": [
        ("the studio alarm disarms on six-two-two-nine.", "six-two-two-nine"),
        ("boathouse alarm disarms on 3804", "3804"),
    ],
    "a code for something, then six digits in threes": [
        ("the staff code for the vending machines is 418 260.", "418 260"),
    ],
    "a wifi key of words joined by hyphens after 'pw' or 'password'": [
        (
            "Bakery wifi pw is flour-on-every-single-shelf, all lower case",
            "flour-on-every-single-shelf",
        ),
        ("the garden wifi password is roses-climb-the-old-wall", "roses-climb-the-old-wall"),
    ],
    "密码 then words joined by '_' (Chinese)": [
        ("陶艺室的NAS，管理员密码 taoyi_storage", "taoyi_storage"),
    ],
    "a safe's two halves, the second after who knows it (Chinese)": [
        ("档案柜，前两位 62，后两位问小李，是 18。", "18"),
    ],
    "a machine's login with one capital inside (Chinese)": [
        ("茶室电脑开机 chaShi2023（大写S）", "chaShi2023"),
    ],
    "a code card's row (Chinese)": [
        ("公司网银 动态口令卡第三组 402719", "402719"),
    ],
    "a box's code with its count of digits, then read out (Chinese)": [
        ("工具间备用钥匙柜：四位数，七二零五", "七二零五"),
    ],
    "a wallet's recovery phrase named in Chinese": [
        (
            "陶艺室钱包恢复短语：river stone clay kiln glaze bowl wheel spout handle lid foot rim",
            "river stone clay kiln glaze bowl wheel spout handle lid foot rim",
        ),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a login page, a year after a slash
    "the login page / 2024 redesign is live",
    # an e-mail, and what it is like
    "Write to club.news@gmail.com and it's answered within a day.",
    # a barrier, a container of a size or a count
    "the barrier is 3 metres wide",
    "the container holds 2000 litres",
    # opens with a season's day, a show with a year
    "The gallery opens with the spring show, 2025.",
    # a public code in threes
    "the sort code is 400 515.",
    "the tracking code for the parcel is 550 121.",
    # a network's name, a hyphenated phrase not after a pass word
    "the wifi network is Cafe-Guest-Upstairs",
    # a name after 令牌, a box's count (Chinese)
    "令牌 log-triage 已经删掉了",
    "工具柜：四个抽屉，两把锁",
    # a product after 开机 (Chinese)
    "开机 iPhone15 很快",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
