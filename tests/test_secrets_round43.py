"""Secrets round 43: each kind h48 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (a stuck button, a year a shutter was put
in, its size and price, an ID office's hours, a wake-up alarm, a code that is a count)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "an override of a part of a thing that locks, in digit words, a reason after": [
        ("the cash drawer override at the café is four four one nine, my mum's birthday", "four"),
        ("the register drawer override is nine nine two one because the old one leaked", "nine"),
        ("manager's drawer override: seven seven four one", "seven seven four one"),
    ],
    "backup codes listed after a clause of when, with no comma": [
        ("recovery codes in case the phone dies: 4471 2290, 1188 3321", "4471 2290"),
        ("the shop's 2FA backup codes should I get locked out: 55120 88431, 90021", "55120"),
    ],
    "a one-time code that came through, what it came for between": [
        ("the code which came in on my phone for the council portal as 551203", "551203"),
        ("code that arrived for the bakery's Google login: 882 104", "882 104"),
        ("the code that came through on my phone for the water board login is 445 901", "445"),
    ],
    "an ID number by its short name, its country or a national ID": [
        ("my Polish ID is 84071512345", "84071512345"),
        ("her ID no. for the lease is 31234567", "31234567"),
        ("my Egyptian national ID is 29001011234567", "29001011234567"),
        ("Romanian CNP for the lease: 1850512123456", "1850512123456"),
    ],
    "a code everyone clocks or signs in with, no user named": [
        ("the drivers sign in to the tablet using her PIN 0921 before a shift", "0921"),
        ("we all clock in at the café tablet with the same four digits, 3308", "3308"),
        ("at the florist everyone uses 7140 to clock in", "7140"),
        ("clock-in code for the depot app is 6621", "6621"),
    ],
    "an alarm's code by how it is keyed at a place, then the key": [
        ("alarm disarm at the florist's: 6021 then OFF", "6021"),
        ("shop alarm off: 1357 then UNSET", "1357"),
        ("the alarm unset at the salon is 8842 then OK", "8842"),
    ],
    "a roller shutter's code in Chinese digits, chatter after": [
        ("奶茶店卷闸门是六二零八，晚班锁好", "六二零八"),
        ("仓库的卷闸门 三九九一，钥匙在老板那", "三九九一"),
    ],
    "a door lock's digits, then the hash key and chatter": [
        ("车库门锁 二八四六 #，车停里面", "二八四六"),
        ("宿舍门锁 2 5 8 0 #，进门左转", "2 5 8 0"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # an override's button, a policy
    "the till drawer override button is stuck again",
    "the security policy override is 30 days",
    # codes kept somewhere, said with a clause of when
    "backup codes if I lose my phone: in the blue notebook",
    "the password if you forget it: reset via the email link",
    # a code that came through, no code in it
    "the tracking code that came through for the parcel: 715 402",
    "the code that came through for the meeting: 10 30",
    "the code that came through is 2 minutes old",
    # an ID's office, fee, photo, form; an ID no longer working
    "the Turkish ID office opens at 0900",
    "my ID no longer works, call the help desk",
    "my national ID card expired in 2019",
    "a Canadian ID photo is 50 mm by 70 mm",
    "the Indian ID no. 12 form",
    # clocking in: a time, a count, a year, a sign-on fee
    "I clock in at 0800 with the rest",
    "everyone logs in with the same code each day",
    "logged in with the same code 12 times",
    "sign in with code 2024 for the conference",
    "it took 2000 to sign on",
    # an alarm that wakes someone
    "alarm set at the flat: 0630",
    "alarm off: 0700",
    "the alarm set at the flat is 0630",
    # a floodgate, a shutter's year, size, price, power, hours
    "水库闸门是 1998 年修的",
    "闸门 4471",
    "卷闸门是 2019 年装的",
    "卷闸门 3 米宽",
    "新卷闸门花了三千八百块",
    "卷闸门电机 2200 瓦",
    "卷闸门，早上七点半开",
    "出租屋门锁 换了，房东说 3 号来",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
