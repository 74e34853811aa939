"""Secrets round 48: each kind h53 missed, with new sentences made up for these tests: a store
"is" digits keyed with the hash key, a lock of three wheels that "opens on" them, the code "for"
premises one goes into, a login's words joined then its digits after "as <user> with", a
push-button lock's buttons pressed two at once then in turn, 密码 typed as its homophone 密吗,
a lock pointed back to (那个, 那把) after a code given; and the ordinary notes of the same look
that must pass (a store's own number, a round figure, a course's code, a company's number to
call, sums said in turn, 秘密吗, a year after 那个)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a store said to be digits keyed with the hash key": [
        ("the freezer store behind the bakery is 5183#", "5183#"),
    ],
    "a lock that opens on three digits": [
        ("the tack room locker 4 opens on 617, leave it spun", "617"),
    ],
    "the code for premises one goes into": [
        ("the new code for the pottery studio by the canal is 3815", "3815"),
        ("code for the loft over the garage is 9402", "9402"),
    ],
    "a login's joined words and digits after 'as <user> with'": [
        ("the label printer logs in as dock with amber-tide-73", "amber-tide-73"),
    ],
    "a push-button lock's buttons at once, then in turn": [
        ("boat shed push-button lock: 1 and 4 together, then 7, then 3", "1 and 4 together"),
    ],
    "密码 typed as its homophone": [
        ("鱼档订货网站的密吗是 haixian77，别外传", "haixian77"),
    ],
    "a lock pointed back to after a code given (Chinese)": [
        ("车间的工具柜都是 2580，主任的那把是 7193。", "7193"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a store's own number, no key pressed
    "the freezer store behind the bakery is 214",
    # a thing that opens on a round figure, or on a count
    "the shed opens on 100",
    "the gym locker opens on 365 days a year",
    # a course's or a job's code for the premises
    "the cost code for the office move is 3815",
    "the job code for the loft conversion is 9402",
    # a login with no made-up word, an OS's name and version
    "the laptop logs in as admin with windows-11",
    # sums and steps said in turn, no lock
    "add 2 and 4 together, then 6, then 10 minutes of rest",
    # 密吗 as a question, not 密码
    "这件事是秘密吗？是 2024 年的事",
    # one of them pointed back to, its year or its own number
    "工具柜都是同一批的，那个是 2019 年买的",
    "柜子号码是 12，那个是 3345 号",
    # a company's number to call, on the panel
    "the security firm's number is 0330 100 4432, it's printed on the keypad",
    "Plumber: the boiler company's phone number is 0800 123 4567",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
