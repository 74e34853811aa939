"""Secrets round 21: each kind h26 missed or flagged, with new sentences made up for these
tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a thing that opens with a number worked out, then 'so' the number": [
        ("The tool cage opens with Dad's door number doubled, so 4646", "4646"),
        ("Bin store unlocks with the postcode digits reversed, so 3172.", "3172"),
    ],
    "a UK National Insurance number written in pairs, or after NI alone": [
        ("Her NI number for the agency timesheet is AB 65 43 21 D, keep it handy", "AB 65 43 21 D"),
        ("Adding my NI: KL 90 12 34 A for the tax rebate", "KL 90 12 34 A"),
        ("his NI is PR 20 77 41 C and his pay code 1180", "PR 20 77 41 C"),
    ],
    "a cupboard or door that 'is coded' a number": [
        ("Medicines cupboard on ward 3 is coded 7719", "7719"),
        ("The back door is coded 50213, new since the break-in", "50213"),
    ],
    "an alarm named at a note's start, then its code, in digits or words": [
        ("Workshop alarm 6142, keypad is inside the porch", "6142"),
        ("Church hall alarm nine-oh-four-one then set", "nine-oh-four-one"),
        ("Gallery alarm seven two two five", "seven two two five"),
    ],
    "a till's supervisor, manager or refund code": [
        ("Bakery till manager code 4930 for voids", "4930"),
        ("refund code 22718 at the garden centre tills", "22718"),
    ],
    "a manager's override for something with an amount": [
        ("Duty manager's override for discounts over $100 is 63308", "63308"),
    ],
    "a wifi named, then 'the key is' a plain word": [
        ("Guest wifi is PotterBarn and the key is moorhenpond", "moorhenpond"),
        ("The studio wifi, Loft_2G, the key is quarrystone", "quarrystone"),
    ],
    "a door, a pause, then four digits (Chinese)": [
        ("花店后门还是那个，8264，按完听到嘀声", "8264"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a thing that opens with something else, or a year worked out
    "The shop opens with a sale on Saturday, so 2025 stock goes first.",
    "The tool cage opens with the big key, so bring it.",
    "The yard gate opens with the early shift, so 0630.",
    # Northern Ireland, and NI with no number of its shape
    "We moved to NI in 2019 and the postcode is BT7 1NN",
    "My NI number letter is in the blue folder",
    # coded as data, not a lock
    "The survey answers are coded 1 to 5",
    "Each diagnosis is coded by the clinic staff",
    # an alarm set to wake someone, a fire alarm's test, a year
    "Bedroom alarm 0715, then the school run",
    "Alarm 0530 then feed the dog",
    "Fire alarm 1030, test every Thursday",
    "Office alarm 2019, replaced last spring",
    # a manager's name for a code of conduct, a till's count
    "The till manager code of conduct is on the wall",
    "Manager's override for refunds over £50 is needed before you give cash back",
    # a wifi that's slow, a key that is something else
    "The wifi is slow and the key is to restart the router",
    "Wifi works fine; the key is under the mat",
    # the network's name said, its key on the router (Chinese)
    "花店 WiFi 网名 FlowerShop_5G，密码见收银台后面的贴纸。",
    # a door where to meet, then when (Chinese)
    "北门见，1830，别迟到",
    "后门还在修，2025年底完工",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
