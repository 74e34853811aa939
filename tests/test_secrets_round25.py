"""Secrets round 25: each kind h30 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a password's noun typed in haste, then 's and the value": [
        ("for the dental portal the pasword's quillfeather22, no caps", "quillfeather22"),
        ("the paswd's rosehip7731 now", "rosehip7731"),
    ],
    "a role's override named in full (override code), then its digits": [
        ("Chemist counter - supervisor override code 5530", "5530"),
    ],
    "a key box's code, three digits": [
        ("The holiday cottage key box code is 482.", "482"),
        ("Keysafe code 917, by the back porch", "917"),
    ],
    "a code, then the key that confirms it": [
        ("Studio door code is 2290 then the green button.", "2290"),
        ("Bin store code 4417, then hash", "4417"),
    ],
    "a dial's numbers between en or em dashes": [
        ("Gun cabinet: 22 – 08 – 71", "22 – 08 – 71"),
    ],
    "a dial turned to each number in turn, the way unsaid": [
        ("Old safe in the loft: first turn to 14, then 60, then 33.", "to 14, then 60, then 33"),
    ],
    "a value recalled by a hint word, then that's the code": [
        ("shed alarm: think 1977, that's the code", "1977"),
    ],
    "get in the thing with its number": [
        ("the cleaners get in the rear door with 5081, keep it quiet", "5081"),
    ],
    "half of a lock's code said elsewhere, the rest given": [
        ("half the padlock number is on the fridge note, the rest is 62", "62"),
    ],
    "a code's parts said apart, then the whole (Chinese, English)": [
        ("柜子取件码 71 和 2093 分两条发的，合起来是712093", "712093"),
        ("the locker pickup code came in two texts, together it's 480375", "480375"),
    ],
    "a lock changed, then the new one (Chinese)": [
        ("仓库门锁换了，新的是五二八一", "五二八一"),
    ],
    "a lock's three digits, spaced or in words (Chinese)": [
        ("杂货店冰柜锁 7 3 9", "7 3 9"),
        ("书房抽屉柜的三位锁：二六四", "二六四"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # an override or a key box talked about, a count after it
    "The manager override code has 4 digits.",
    "The key box holds 3 keys.",
    # a code, then a button: a step of a how-to with no code
    "Press the C button then the green button to start the wash.",
    "Error code 404 then the page reloads.",
    # dashes: a score, a range of years
    "Final score 3 – 1 – 0 in the group table.",
    "Turn to page 27, then 91, then 105 for the answers.",
    # a year thought of, no code
    "Think 1990, that's the year the club opened.",
    # getting in with things that are no code
    "We get in the back door with the shopping.",
    # halves and the rest of a thing that is no code
    "Half the class went home early, the rest is 12 pupils.",
    "Together it's 4500 words, the two essays.",
    "两个包裹合起来是 2500 克。",
    # a lock changed, a sentence about it; a lock's count
    "门锁换了，新的是指纹锁。",
    "冰柜锁了 3 天。",
    "这把锁：三位数的。",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
