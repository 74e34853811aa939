"""Secrets round 24: each kind h29 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "any thing's code, a colon, then its digits said one by one": [
        ("Boat shed winch code: four two eight one.", "four two eight one"),
        ("Studio kiln override code: nine zero zero three", "nine zero zero three"),
    ],
    "any thing's code, then a zero-padded number ending the note": [
        ("Garden hose timer lock code: 0736", "0736"),
        ("Chapel organ cover code 0285.", "0285"),
    ],
    "any thing's code, then digits in spaced pairs ending the note": [
        ("Loading bay roller remote code 31 64 07", "31 64 07"),
        ("Pool pump cover code: 58 20 93.", "58 20 93"),
    ],
    "a verification text from someone came, then its digits": [
        ("Confirmation text from Monzo came through: 771204", "771204"),
        ("The security SMS from the council arrived: 390 115, read it to me.", "390 115"),
    ],
    "a wifi named, then its key given (Chinese): the key is still found": [
        ("WiFi 名叫 Lotus_5G，密码是 lotus8821", "lotus8821"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # public codes of the same shapes: a bank branch, a place, an exam
    "Sort code 40 11 62",
    "Area code 0161",
    "Postcode: 0412",
    "Course code 0412.",
    "The dress code is smart casual.",
    # a code talked about, a count after it
    "The code has 4 digits.",
    "The verification text never arrived, I waited 10 minutes.",
    "Verification text from the bank came at 0930.",
    "The confirmation text arrived: order 48213 ships Monday.",
    # a wifi named, its key to be asked for (Chinese)
    "WiFi 名叫 Bakery_2G，密码请问店员。",
    "店里 WiFi 名叫 TeaHouse5G，密码请问服务员。",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
