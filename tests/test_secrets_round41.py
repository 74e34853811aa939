"""Secrets round 41: each kind h46 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (a recipe's halves, a product's model, a
serial number, a raffle's entry, a play's opening line, a year said after a lock, a road's
turns, a password not told)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a code in halves held by two people, the second by its order alone": [
        ("The bike shed code is split: Ana has the first half, 58; Raj has the second, 14.", "14"),
        ("Freezer padlock: first half 41 and second half 77", "77"),
    ],
    "a value then how it is typed, at a machine one logs into": [
        ("the front desk laptop: harbourview, all lower case", "harbourview"),
        ("workshop PC: lathe2020, lowercase", "lathe2020"),
    ],
    "a code said by what its number is, the number alone after a full stop": [
        ("The cellar door code is the year the pub was built. 1887.", "1887"),
        ("The bike lock combination is the year she was born. 1979.", "1979"),
    ],
    "a locker's own number, then the code that opens it": [
        ("学校门口储物箱 8 号，开箱码 6604", "6604"),
        ("快递柜 3 号格，开柜码 552109", "552109"),
    ],
    "an override of a thing that lets people through, in lettered groups": [
        ("the gate override for the depot is K2-118-40", "K2-118-40"),
        ("Turnstile override at platform 2 is 55-120-8", "55-120-8"),
    ],
    "an app or a device that wants or asks for digits": [
        ("the banking app on her phone asks for 8830, then a fingerprint", "8830"),
        ("The stock app on the warehouse tablet needs 6142", "6142"),
    ],
    "a thing said to be locked, then the quoted word it opens with": [
        ("the budget file is password-protected, it unlocks with 'tealeaf'", "tealeaf"),
        ('The rota workbook is locked; it opens with "breadbin"', "breadbin"),
    ],
    "a lock that is a word with digits": [
        ("the kiosk screen lock is tulip_77", "tulip_77"),
        ("The office laptop lock is marble-5512, lock it when you leave.", "marble-5512"),
    ],
    "a code told as a number's tail, then the key that confirms it": [
        ("barn alarm is her old phone's last four, seven two one nine, then SET", "seven"),
        ("gate, 4471 then HASH", "4471"),
    ],
    "an address, a dash, then a quoted password": [
        ('info.fieldkitchen@gmail.com — "Sourdough77"', "Sourdough77"),
        ("orders@pottery.co.uk: 'glaze4kiln'", "glaze4kiln"),
    ],
    "a building's entry number": [
        ("From 8pm the site entry number for the lorries is 7720", "7720"),
    ],
    "a locker given for a purpose, then its code": [
        ("the tool locker for the Leeds install job is 3318", "3318"),
    ],
    "a safe's dial turns, the hand's way said short": [
        ("保险柜先顺转到 15，再逆到 60，最后顺到 33", "15"),
        ("钱柜：顺两圈到 8，逆一圈到 71，再顺到 26", "8"),
    ],
    "a PIN after who told it, in Chinese digit words": [
        ("她的工资卡取款密码，她说是 洞四幺八八二", "洞四幺八八二"),
        ("卡的密码，老板娘讲是 408615", "408615"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a recipe's halves; halves with minutes after them
    "the recipe: first half 20 minutes, the second 40 minutes",
    # a year after a full stop that goes on; a count after a full stop
    "The code is the year the shop opened. 1923 was a good year.",
    "The code is the year the shop opened. 19 people came.",
    # a locker's own number alone; when a box opens
    "储物箱 15 号，开箱时间 0930",
    "油条摊旁边公共储物箱 15 号",
    # an override that is no code
    "the barrier override is a red button by the booth",
    # a device's year, price, count or load
    "the app wants 2025 as the year",
    "the laptop needs 1500",
    "the till takes 1450",
    "the app needs 1234 reviews to rank",
    # a play's or a book's opening words; a locked hall named after
    'the show opens with "Hamlet"',
    'The play opens with "Overture" and the hall is locked after',
    # a serial number on a safe, a locker's own label
    "Serial number on the safe is SF-20391-B if the manufacturer asks.",
    "the locker is block-12",
    # a raffle's entry number; a locker's own small number, a year, a distance
    "our raffle entry number is 8841",
    "the locker for the gym is 12",
    "the locker for the away team is 1998",
    "the store for the festival is 1500 metres away",
    # turns on a road, not a dial's
    "这条路顺到 12 号，逆到 7 号，再顺到 19 号",
    # a password not told; an address with a word
    "密码，他说是忘了",
    "银行卡密码，他说是生日",
    'mail jo@x.com - "thanks"',
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
