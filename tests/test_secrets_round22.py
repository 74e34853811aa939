"""Secrets round 22: each kind h27 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a user / password pair for something managed online": [
        ("Uncle Ray wants us to run his energy account online: ray.b / Kestrel42", "Kestrel42"),
        ("Renew the gym pass online, jo.m / Treadmill19", "Treadmill19"),
    ],
    "a code given in halves, then whole after 'so together'": [
        ("bike shed remote: first half is 52 and the second half is 09, so together 5209", "5209"),
        ("Loft hatch keypad, first half 61, second half 44, so together 6144.", "6144"),
    ],
    "a device that 'logs in with' a made-up password": [
        ("The baby monitor logs in with sleepy_owl_88", "sleepy_owl_88"),
        ("Our NAS logs on using Backup-Box-77 every night", "Backup-Box-77"),
    ],
    "an e-mail login, then ', pass X'": [
        ("Canva for the choir – choir@maplesingers.org, pass Alto!Tenor", "Alto!Tenor"),
        ("bank alerts go to ed@fernmail.com, pw Quill#Ink9", "Quill#Ink9"),
    ],
    "a key safe or lockbox, a pause, then 'code NNNN'": [
        ("Spare van key is in the key safe, code 4471", "4471"),
        ("The gallery keys are in the lockbox by the porch, code 9023.", "9023"),
    ],
    "a wifi's name / its password": [
        ("Clubhouse wifi Clubhouse2G / sandwedge2019", "sandwedge2019"),
        ("studio wlan StudioNet / paintpot2077", "paintpot2077"),
    ],
    "a licence serial or code for software": [
        ("Ableton licence serial for the studio PC AB3-4411-7K2M-99QZ", "AB3-4411-7K2M-99QZ"),
        ("the Photoshop license code for the office Mac: PSX-22K9-MM41-0PLA", "PSX-22K9-MM41-0PLA"),
    ],
    "a code in words: a pair, then two single digits": [
        ("locker key code forty-one-oh-six", "forty-one-oh-six"),
        ("The gate code twenty-two oh nine, don't write it down", "twenty-two oh nine"),
    ],
    "a Chinese login: a mobile number / a password": [
        ("淘宝店铺后台登录 13912345678 / Mao_888", "Mao_888"),
    ],
    "a locker's 码 (Chinese)": [
        ("更衣柜7号的码 5521", "5521"),
        ("自行车锁的码是 0318", "0318"),
    ],
    "mm for 密码 in a chat (Chinese)": [
        ("店里 WiFi Bakery_5G，mm是 bread2024", "bread2024"),
        ("wifi 名字 Home_2G，mm：abc12345", "abc12345"),
    ],
    "a lock's code in halves, 前面 / 后面 (Chinese)": [
        ("仓库门锁：前面 41 后面 92", "41"),
        ("保险箱前半是 19，后半是 84", "84"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # something done online, a slash between plain words
    "We pay the water bill online: monthly / quarterly",
    "Book the tickets online: adults / children",
    # halves of a match, a year, an amount
    "the first half of the match ended 2-1, so 2025 looks good",
    "first half 12 pages, second half 30 pages, so together 42",
    "She paid the first half, the second half later, so together 4400",
    # logging in with an app or a device, not a password
    "She logs in with her phone",
    "He logs in with Windows10 every morning",
    "She logs in with Google",
    # a key safe without a code, a code that is a year
    "The key is in the key safe, code on the fridge",
    # a wifi that is slow, a network's name only
    "Office wifi OfficeNet / fast enough for calls",
    # a licence that is not software's, a serial of a boiler
    "our TV licence code arrived by post",
    "The licence serial is on the box",
    "the boiler serial number is GC-4471-221",
    # a zip or area code in words
    "the area code nine one two three",
    # a size or a length in mm (Chinese), a sister
    "鞋柜的码 42 码",
    "螺丝直径 5mm是 标准件",
    "mm是 Lily",
    "间距 20mm为 宜",
    "柜台的码 2024 年更新",
    # in front of the door, metres (Chinese)
    "门口前面 20 米后面 30 米",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
