"""Secrets round 46: each kind h51 missed or flagged, with new sentences made up for these
tests: a door's code it went back to or is "on" now, a one-time number a service sent for a
login that runs out, a pad's three digits and the key that ends them, a lock's code split between
two people, a network's key after "with" its name, a PIN's typo and what it is for before it, a
one-time code's other word (认证码), a dial's later turns without their verb; and the ordinary
notes of the same look that must pass (a trade's registration or licence number, an order's
number in Chinese)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a door's code it went back to, or is on now": [
        ("the side gate keypad reverted to 7713 after the power cut", "7713"),
        ("loading bay door is on 5092 now", "5092"),
    ],
    "a number a service sent for a login, said to run out": [
        (
            "the rota app texted 6631 to the office laptop to verify me, expires in ten minutes",
            "6631",
        ),
    ],
    "a pad's three digits, spaced, and the hash that ends them": [
        ("bin store gate: 2 9 5 #", "2 9 5 #"),
    ],
    "a lock's code split between two people": [
        ("Tom knows the first half of the locker combo, 19, and I know the second half, 84", "19"),
    ],
    "a network's key after 'with' its name": [
        (
            "Studio_Guest is open but the crew one is Studio_Crew with tripod-lens-shutter",
            "tripod-lens-shutter",
        ),
    ],
    "a PIN (or its typo) with what it is for before the digits": [
        ("the pinn for the site phone 8264", "8264"),
        ("debit card pin for the float 1947, keep it quiet", "1947"),
    ],
    "a one-time code by another word, a dial's later turns (Chinese)": [
        ("刚收到的认证码 604213", "604213"),
        ("工具箱密码锁先转到14再转到33最后7", "先转到14再转到33最后7"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a trade's or a firm's public registration or licence number
    "the plumber's registration number is 773014, it's printed on his invoice",
    "our electrician's licence number is 448120, check it on the council site",
    "营业执照注册号 310115000123456，贴在前台",
    # an order's number in Chinese, digits touching the words around it
    "京东订单4012888888881881已签收",
    # the shapes of the rules above, with no code in them
    "the gate is on 1500 Harbour Road",
    "the back door went back to 2019 rules after the audit",
    "Mum sent 2500 to my account for the deposit, the offer expires Friday",
    "the first half of the match, 45 minutes, and the second half, 45",
    "Cafe_Guest is open and the staff one is Cafe_Staff with a password on the till",
    "先转到3再到5最后8楼",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


# the sentences these rules leave secret: a value given beside them
STILL_SECRET = [
    ("his driving licence number is MORGA753116SM9IJ", "MORGA753116SM9IJ"),
    ("the licence number on the van is 88123, the alarm code is 4471", "4471"),
    ("订单号 20240311，取件码 5521", "5521"),
]


@pytest.mark.parametrize(("text", "value"), STILL_SECRET)
def test_a_value_beside_them_is_still_found(text: str, value: str) -> None:
    assert_found("still secret", text, value)
