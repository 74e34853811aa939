"""Secrets round 45: each kind h50 missed or flagged, with new sentences made up for these
tests: an identity document that lets a person live or work in a country, named by its name or
its abbreviation; and the ordinary notes of the same look that must pass (a device's IMEI or
asset tag, a product whose code its buyer sets, quoted lettering on a thing, an account locked
and a business's number to call)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a residence or work permit's number, by its name or its abbreviation": [
        ("Marta's residence permit number for the landlord is XK4471902", "XK4471902"),
        ("copy his biometric residence card no. RB5520913 onto the HR form", "RB5520913"),
        ("the new starter's TFN: 459 599 230", "459 599 230"),
        ("Li's ARC number, for the bank, is A800123456", "A800123456"),
        ("her EAD card number is SRC2290117734", "SRC2290117734"),
    ],
    "a residence permit's number (Chinese)": [
        ("阿明的居留许可号码是 YR12345678，办签证要用", "YR12345678"),
        ("他的永居证：910156198802031234", "910156198802031234"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # an abbreviation that is another word too, with no number of the document
    "ARC 2024 conference, room 2204",
    "the TIN number field on the booking form is mandatory",
    "BRP collected from the post office on 12 May",
    "the residence permit expires in March, renewal ref 20240311",
    # a device's hardware identifier for a warranty, an insurer or the IT desk
    "IMEI of the cracked tablet is 353918058712342, send it to the insurer",
    "手机串号 356938035643809，填在保修单上",
    "asset tag for the loan laptop: 100482",
    # a product whose code the buyer sets, no code given
    "stock 6 luggage locks, the kind you set your own 3-digit combination on",
    "the lockers take a 4-digit PIN that guests choose themselves",
    "门锁的密码可以自己设，6位数字",
    # lettering a thing shows, quoted
    'the plaque should read "Volunteer of the Year 2023" in gold',
    'banner saying "Happy 60th Margaret" for Saturday',
    "蛋糕上写“开业大吉 2025”",
    # an account locked, and a business's number to call
    "the booking system's admin login is locked, call 0800 046 0117 to get it reset",
    "打印店会员账号被冻结了，拨打 400-820-1234 解冻",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


# the sentences these rules leave secret: a value given beside them
STILL_SECRET = [
    ("the lockers take a code you choose yourself, mine is 7741", "7741"),
    ('the note on the safe reads "code 4471"', "4471"),
    ("my bank account number is 4001234567", "4001234567"),
]


@pytest.mark.parametrize(("text", "value"), STILL_SECRET)
def test_a_value_beside_them_is_still_found(text: str, value: str) -> None:
    assert_found("still secret", text, value)
