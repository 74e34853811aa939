"""Secrets round 23: each kind h28 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a door's code in halves, the second half said bare": [
        ("Boardroom door: first half is 72, second half 05.", "05"),
        ("The vestry door — first half is 18, second half 64", "18"),
    ],
    "a code that has not changed, 'still' then its digits (or said aloud)": [
        ("The safe code hasn't changed, still 6031.", "6031"),
        ("Garage alarm code was never reset, still four-one-nine-two.", "four-one-nine-two"),
    ],
    "a PIN described, then 'i.e.' and its digits": [
        ("Till PIN is my old house number twice, i.e. 4747.", "4747"),
        ("Shop safe PIN is my nan's birth year reversed, i.e. 1491.", "1491"),
    ],
    "a wifi's name / a lower-case word and its symbol for its key": [
        ("Studio wifi Loft-Works / paintbrushes!", "paintbrushes"),
        ("Guest wlan Harbour5G / seashellcove#", "seashellcove"),
    ],
    "a one-time code in threes, a few words after its cue": [
        ("OTP from the pension portal arrived as 731 406, use it soon", "731 406"),
    ],
    "six digits in threes a service sent": [
        ("Xero texted me 518 207, give it to me when I ring.", "518 207"),
        ("The council portal sent me 604 991 – type it in", "604 991"),
    ],
    "a code sent, 码 (Chinese)": [
        ("快递柜系统发来的码 884 120，十分钟有效", "884 120"),
    ],
    "a door code of digits with a letter at an end": [
        ("The plant room door code is now K5521Z, capitals.", "K5521Z"),
        ("Server cage gate code is 70312B", "70312B"),
    ],
    "a card with its expiry a few words after the card is named": [
        ("Client card for the van hire 5210 7734 9921 0046 exp 07/29", "5210 7734 9921 0046"),
    ],
    "a lock's code with its length said first (Chinese)": [
        ("档案柜四位数 三八一六", "三八一六"),
        ("工具箱三位密码锁 五零二", "五零二"),
        ("储物柜锁 三位数 914", "914"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # halves of a match or a meeting, a door with no code
    "The door stayed shut for the first half, second half 20 minutes late",
    "first half is 45 minutes, second half 45 minutes",
    # things that have not changed, still a year or an amount
    "The rent hasn't changed, still 1200 a month.",
    "The safe is the same one, still 1998 model.",
    # i.e. before a count or a price
    "The till takes cards, i.e. 2 of them.",
    # a wifi's speed or place after a slash
    "Office wifi OfficeNet / downstairs",
    "the wifi is slow / patchy",
    "Guest wifi Cafe-Net / upstairs",
    # a one-time code talked about, six digits that are money or a phone
    "The OTP never came, the bank said wait 10 minutes",
    "He sent me 250 pounds yesterday",
    "She sent me 300 400 photos of the wedding",
    # a booking reference, a model number
    "The booking code is QX7P2M",
    "Door model is D4500 from the catalogue",
    # a card's last four with an expiry, a ticket number after a PIN
    "Card ending 4421 expires 07/29",
    "My smartcard PIN expired, opened ticket REQ4471208 with the service desk.",
    "Logged incident INC2210045 after the badge reader failed.",
    # lengths and counts (Chinese)
    "这个号码是三位数",
    "柜子有四位数的价格",
    "快递员发来的消息说明天到",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
