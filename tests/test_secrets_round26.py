"""Secrets round 26: each kind h31 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock box said with a long aside, then what it opens on": [
        ("Key box round the back for our walker opens on 5-1-9", "5-1-9"),
        ("the padlock on the side gate by the old bins opens on 27-4-16", "27-4-16"),
    ],
    "a code said as what it is, then its value, then a word vouching for it": [
        ("gate code is the year the club was founded, 1884, honestly", "1884"),
        ("door code is just our wedding year, 2011, yes really", "2011"),
    ],
    "a code that came by text, named as a text code": [
        ("got a text code 4 7 1 9 3 6 from the gym app, type it in please", "4 7 1 9 3 6"),
        ("The text code from the council portal is 552018.", "552018"),
    ],
    "a card's number, then a bare month/year and the digits on the back": [
        (
            "Card for the seed order: 4921 7730 1184 6625, 08/27, 304 on the back",
            "4921 7730 1184 6625",
        ),
        ("Fuel card - 5302 1189 4476 0013, 11/28, 771", "5302 1189 4476 0013"),
    ],
    "a password after 密码 given as a pinyin phrase, no verb (Chinese)": [
        ("仓库 WiFi 密码 qingshanlvshui（网络名 CangKu5G）", "qingshanlvshui"),
        ("老家路由器密码 chunfengxiyu", "chunfengxiyu"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a box or gate with an aside, opening at a time or on a day
    "The key box round the back for the dog walker opens on Monday.",
    "The side gate by the old bins opens at 8 every morning.",
    # a year vouched for, no code
    "The club was founded in 1884, honestly.",
    "Our wedding year, 2011, yes really a long time ago.",
    "The meeting moved to the fourth, 1400, really.",
    # a text talked about, no code
    "The text code of conduct is on the wall.",
    "I got a text from the gym about 6 new classes.",
    # a card said with a date and a count, no card number
    "Card for the seed order arrives 08/27, 3 packets.",
    "Order 4921 7730 1184 6625 shipped, 08/27, 304 items.",
    # 密码 said with an English word, or no pinyin phrase
    "密码 required 才能登录",
    "WiFi 密码 changing 中，稍等",
    "他的名字是 qingshanlvshui。",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
