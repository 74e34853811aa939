"""Secrets round 18: each kind h23 missed or flagged, with new sentences made up for these
tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a code said as what it is, then the number after a comma": [
        ("the combination for the bike shed is the year we moved in, 2009", "2009"),
        ("code for the garden shed is my dad's birth year: 1961", "1961"),
    ],
    "a thing that needs a code as well, then the code": [
        ("the loft ladder needs a code too, 8842B, B for bravo", "8842B"),
        ("the server cage has its own code: 60713", "60713"),
    ],
    "an alarm's code in halves, both digits": [
        ("shop alarm first half is 61, second half is 05, don't write it down", "61"),
    ],
    "digits said as a count of one digit ('three nines then a two')": [
        ("the bin store padlock is three nines then a two", "three nines then a two"),
        ("side gate combination is two fives, then two eights", "two fives, then two eights"),
    ],
    "a wifi key in plain words said with how it is typed": [
        (
            "guest wifi is Orchard-5G, the key is sleepyhollowlane, all lower case",
            "sleepyhollowlane",
        ),
        ("wifi at mum's: BT-Home-22, pass is purple otter all one word", "purple otter"),
    ],
    "a Chinese lock's code: 组合, digits right after the lock, a password changed": [
        ("仓库后门的U型锁，组合是3916", "3916"),
        ("车棚那把挂锁五七二零", "五七二零"),
        ("我把储物柜改密码了，六一四八，明天你去拿", "六一四八"),
    ],
    "a Chinese password in halves: 我这半 / 他那半": [
        ("保险柜密码分开记，我这半是27，小李那半是64", "27"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a count in thousands after a token's noun
    "Arcade tokens: bought 1,500 for the fair, invoice to follow.",
    "We handed out 12,000 tokens at the festival.",
    # a Wi-Fi's name when its key is not given
    "酒店WiFi是Hilton_Guest，密码写在房卡套上",
    "朋友家WiFi叫TP-Link_9A3C，他没给我密码",
    "The café's Wi-Fi is BeanBar-Free, they didn't give us the password.",
    # a described year with no code; a thing that needs something that is no code
    "The museum is the year the town was founded, 1820, in its name.",
    "the form needs a code, ask the office",
    "this recipe needs a pinch of salt, 2 eggs",
    # halves that are no alarm's code; a count of sixes in cricket
    "first half is 45 minutes, second half is 45 minutes",
    "he hit four sixes then a four in the last over",
    # plain words with their case, no key
    "the wifi is slow, all the rooms complain",
    "write your name in lower case on the form",
    # Chinese: a combination that is a set menu, a lock's size, a password changed with no value
    "套餐组合是A加B，另加饮料",
    "挂锁两把，一把放车棚",
    "我换密码了，明天告诉你",
    "这半是苹果，那半是梨",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
