"""Secrets round 40: each kind h45 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (a phone's own number, directions by
shelf, a key cabinet's hooks, a recipe's working, typing advice, a renamed network)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a one-time code sent to someone's phone, in groups, then to be typed in": [
        ("The council portal sent a code to my phone, 418 227, can you key it in", "418 227"),
        ("DVLA texted a code to her mobile 903 114, she needs it typed in", "903 114"),
    ],
    "a lock's wheels by where they sit, a digit each": [
        ("Bike lock at the bakery: top wheel 4, middle 1, bottom 9", "top wheel 4"),
        ("Tool chest padlock, left 2, centre 8, right 5.", "left 2"),
        ("仓库密码锁左边 7，中间 2，右边 0", "左边 7"),
    ],
    "a key cabinet or cupboard, its digits, then an aside": [
        ("Workshop key cupboard 7713, van keys bottom row.", "7713"),
        ("the surgery key cabinet 4086 — spare set on hook two", "4086"),
    ],
    "a code never said whole: a number, then a digit to add at an end": [
        ("Bins store padlock: her birth year, 1986, then put a 5 on the end", "1986"),
        ("the yard gate code, take the van's reg digits, 318, and add a nine at the end", "318"),
        ("门禁是 624，后面加个 0", "624"),
    ],
    "a code built from a number said just before it": [
        ("Shed door is the flat number, 12, doubled so 1212", "1212"),
        ("Back gate is her door number twice, 36 so 3636", "3636"),
    ],
    "a word and then digits, typed as one": [
        ("the till unlock is the word otter and then 42, no space", "otter and then 42"),
        ("Laptop login is the word 'harbour' followed by 19", "harbour"),
    ],
    "a value then how it is typed, or the same as a name, then given": [
        ("Wi-Fi key: bluefinch, all lower case", "bluefinch"),
        ("收银机密码跟老板名字一样，wangjianguo，全小写", "wangjianguo"),
        ("店里WiFi密码跟店名一样，laomiandian", "laomiandian"),
    ],
    "a lock's code in Chinese numerals, spaced, or what someone says it is": [
        ("工具箱的挂锁 七 二 九", "七 二 九"),
        ("库房的挂锁，师傅讲就是他生日，0527", "0527"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a code sent to a phone, the phone's own number after it; directions by shelf
    "sent a code to my phone, my phone number is 552 190",
    "left 2, middle 3, right 1 at the junction",
    "the shelves by the safe: left 2, middle 3, right 1 boxes",
    # a key cabinet's own number or its hooks
    "the key cabinet 12, by the door",
    "the key cabinet has 40 hooks",
    # a number with a digit added, no lock; a room's number before "so"
    "the order was 384, then add a zero on the end",
    "the recipe takes 250, then put a 0 on the end for the big batch",
    "back gate, room 14 so 1455",
    # typing advice, no value; a count after "the word"
    "type your name in lower case",
    "the password rules: letters only, all lower case",
    "the password is different, all lower case",
    "the password is case sensitive, type everything in lower case",
    "the lock is the word moon then 12 times",
    "the password is the same as the old one, unchanged.",
    # a lock's state or a date when, not its code
    "后门锁，老板说是明天 0900 来换",
    "后门锁，老板说是去年 2019",
    "仓库 二 零 一 九 年建的",
    "抽屉锁 一 二，坏了",
    # a network renamed, its key unchanged and not given
    "The barn wifi is now Loft-Net-2 instead of the old router, same password as before.",
    "The cafe WiFi has changed to BeanBar_2 this week, same key as the old network.",
    "WiFi 现在是 NoodleHouse5G，密码跟以前一样",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


STILL_FOUND = [
    # a renamed network whose key is given after all; a key cabinet's code after "is"
    ("WiFi 现在是 NoodleHouse5G，密码 noodle2024", "noodle2024"),
    ("The wifi is now Otter-7-lamp", "Otter-7-lamp"),
    ("the key cabinet code is 5520", "5520"),
]


@pytest.mark.parametrize(("text", "value"), STILL_FOUND)
def test_still_found(text: str, value: str) -> None:
    assert_found("still", text, value)
