"""Secrets round 44: each kind h49 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (a part, stock or model number, a lens or
a drive with its price, a booking's reference, a route or a price list changed, a year)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a token pasted back in after a colon, where it goes said before it": [
        (
            "when the scanner app signs you out, paste this token back in: zz_tok_4Rk9PwQ2mL7xVb3T",
            "zz_tok_4Rk9PwQ2mL7xVb3T",
        ),
        ("type the password in: Hollow_Reed_88", "Hollow_Reed_88"),
    ],
    "a word with what is added to it, then the whole": [
        ("the tablet at the stall: tulip plus her birth year, so tulip1986", "tulip1986"),
        ('office PC: "harbour" followed by the door number, so harbour42!', "harbour42!"),
    ],
    "an old code said dead, then the one to use": [
        ("the yard gate got reset, 4410 is dead, use 9921 from Monday", "9921"),
        ("keypad on the bins: 1111 is no longer valid, use 6620", "6620"),
    ],
    "a card with its expiry and the digits on its back said by where they are": [
        (
            "rent comes off 4929 1234 5678 9012, 11/27, the three digits on the back are 318",
            "4929 1234 5678 9012",
        ),
        ("fuel goes on 5412 0000 1111 2223, 03/28, digits on the back 771", "5412"),
    ],
    "a cash tin or box that opens on spaced single digits": [
        ("the petty cash tin opens on 7 0 2", "7 0 2"),
        ("money box in the back office opens on 5 5 1", "5 5 1"),
    ],
    "a thing that locks, where it is, a pause and its code's noun": [
        ("service menu on the depot coffee machine, code 4418", "4418"),
        ("the side door at the allotment, pin 6090", "6090"),
    ],
    "an alarm keyed in two parts, or in halves with spaced digits (Chinese)": [
        ("面包店的报警系统，先输38再输72", "38"),
        ("花店报警器，前两位是4 1，后两位9 0", "4 1"),
    ],
    "a dial's numbers said before their way (Chinese)": [
        ("仓库保险柜 24右 08左 31右", "24右"),
    ],
    "a door that is a number's last digits, a pause, then them (Chinese)": [
        ("店里后门就是老板手机尾号，5819", "5819"),
    ],
    "any lock's digits with the hash key after them (Chinese)": [
        ("员工宿舍指纹锁3382#", "3382"),
    ],
    "a phone's lock screen and its digits (Chinese)": [
        ("收银手机锁屏：三六九二五八", "三六九二五八"),
        ("备用手机锁屏 250814", "250814"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a part, a stock or a catalogue number, with the model it fits
    "Drum unit for the office MX4120 is part number 101R00664, order two",
    "stock code ABC778812 for the new board game at the toy shop",
    "SKU 88120-44 is the blue mug",
    # a lens or a drive named with its size and price
    "Samsung 870 EVO 500GB back in stock, £49",
    "RF 70-200mm f/4L on offer at the camera shop, £1,499",
    # a booking's reference with a letter after a hyphen
    "dentist appointment ref 20250302-C for the checkup",
    # a word and what is added to it, with no value made of them
    "we add salt plus the usual pinch, so salt",
    "it's version plus the build number, so version 12",
    # a route or a price list changed, an old number dead
    "the bus route changed, 1357 is dead, use 6620 instead",
    "price list changed, 1357 is gone, use 6620",
    # a card and its expiry with a count after, a code of something else
    "order 4929 1234 5678 9012, 11/27, 318 units",
    "the gate at the school, code red drill at 10",
    "meeting room at the office, code 2277",
    # a shop that opens, a door with its year or its number's source unsaid
    "the shop opens on 3 1 4",
    "门是新装的，2019",
    "门就是她手机尾号，不记得了",
    "买了把锁2000块",
    "出门 24右 08左 31右",
    "手机锁屏：2019",
    "锁屏时间：一分钟",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
