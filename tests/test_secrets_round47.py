"""Secrets round 47: each kind h52 missed, with new sentences made up for these tests: a code
named, then said as whose it is ("ours is"), one locker a group shares "is" its code, a
network's key whose last symbol is named in words after it, a keypad's digits with where it is
after them, a network's name and its key joined by a dash, lockers said all (or also) to be a
code in Chinese; and the ordinary notes of the same look that must pass (a locker's own number,
a keypad's model, a network's name alone)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a code named, then said as whose it is": [
        ("the vet's out-of-hours line wants a passcode, ours is 6620", "6620"),
        ("the bank asks every caller for a PIN; mine's 3907", "3907"),
    ],
    "one locker a group shares, said to be its code": [
        ("the nurses' locker is 462", "462"),
    ],
    "a network's key, its last symbol named after it": [
        (
            "guest wifi is HarbourView, key seagulls! with the exclamation mark on the end",
            "seagulls!",
        ),
    ],
    "a keypad's digits, where it is after them": [
        ("bike store keypad 3816 behind the old chapel", "3816"),
    ],
    "a network's name and its key joined by a dash": [
        ("WiFi: TannerLeather - saddle-stitch-88", "saddle-stitch-88"),
    ],
    "lockers said all or also to be a code (Chinese)": [
        ("仓库的工具柜都是 7305，新来的也一样", "7305"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a number that is no code, said as whose it is
    "the caterer asks for an order number when you ring, ours is 5521",
    # a locker's own number: one's own, or lockers numbered
    "the nurses' lockers are in the basement, mine's 214",
    "Priya's locker is 318",
    # a password's talk, with a symbol ending the sentence
    "guest wifi is HarbourView, password required! ask at the bar",
    # a keypad's model and year, a place after them
    "the keypad model 4410 at the hardware shop is on offer",
    "keypad 2024 at the new site",
    # a network's name alone, what follows the dash no key
    "WiFi: TannerLeather - open, no key",
    "WiFi: TannerLeather - ask at the till",
    # lockers said all to be a size, a year, set by each one
    "柜子都是 2019 年买的",
    "储物柜都是自设密码的，忘了找前台",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
