"""Secrets round 32: each kind h37 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "a card's number before its expiry and the code on its back (no card named, or a brand's)": [
        (
            "Settled the farrier with 4929 1111 2222 3334, 03/27, back code 881",
            "4929 1111 2222 3334",
        ),
        ("Settled the farrier with 4929 1111 2222 3334, 03/27, back code 881", "881"),
        (
            "the printer took 5100 2233 4455 6677 09/26 cvv 412 over the phone",
            "5100 2233 4455 6677",
        ),
        (
            "Mastercard for the glazier 5484 2231 9087 6612 exp 02/28 code 773",
            "5484 2231 9087 6612",
        ),
        ("the florist used 4000 1234 5678 9011, 10/27, 552", "4000 1234 5678 9011"),
    ],
    "a login said as a line of user / password and nothing else": [
        ("Kiln_Room / ashglaze7pots", "ashglaze7pots"),
        ("ops.lead / Brass!kettle9", "Brass!kettle9"),
        ("Stock portal\nbarrow_yard / muddyboots22", "muddyboots22"),
        ("harbour84 : ropeWinch5ox", "ropeWinch5ox"),
    ],
    "the code of a thing that locks named before it, words of when between": [
        ("the props room code tonight is 2044", "2044"),
        ("the kit locker code this week is 1188", "1188"),
        ("the lobby code from Monday is 7290", "7290"),
        ("the boot room code is 5561", "5561"),
    ],
    "a locker's code at the end of a sentence that says what it is": [
        ("the tack locker by the arena is the yard's phone number backwards, 6692", "6692"),
        ("the dive locker at the club is the boat's old berth, 3318", "3318"),
    ],
    "a room named by what it holds or is for, then its code, as the whole note": [
        ("boot drying room 2290", "2290"),
        ("the freezer room 4431", "4431"),
        ("Radio charging room 8025.", "8025"),
    ],
    "a one-time code after what it is for, whole, with a letter, or in groups": [
        ("2FA for the payroll portal 662018", "662018"),
        ("sign-in code for Xero X-204981", "X-204981"),
        ("two-factor code for the HR system 883104", "883104"),
        ("authorisation code for the supplier payment 55 82 19", "55 82 19"),
        ("OTP for the planning portal login 418206", "418206"),
    ],
    "a code someone sent, or a code to approve something": [
        ("Starling just sent a code for the new payee: 481 227", "481 227"),
        ("the code the bank texted for the wire: 602 118", "602 118"),
        ("code from Lloyds to approve the payment 731 004", "731 004"),
        ("the building society emailed me a new code, 558210", "558210"),
    ],
    "a lock's code after a word of doubt, in digits or words, a tag after": [
        ("the server cage - think three one one four, ok?", "three one one four"),
        ("the stable alarm: maybe six six one zero", "six six one zero"),
        ("boat shed padlock, should be 0227, ok?", "0227"),
        ("the loading bay alarm, I think 8403", "8403"),
    ],
    "an ID or a card number said in Chinese numerals": [
        ("身份证号是 四四零三零五一九八八一二一二三四五六", "四四零三零五一九八八一二一二三四五六"),
        (
            "我的银行卡号：六二二二零二一二三四五六七八九零一二",
            "六二二二零二一二三四五六七八九零一二",
        ),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # sixteen digits with a date and a count, a tracking number; a card's last digits
    "ordered 4 x 1200 mm boards, 11/26 delivery, 337 total",
    "order 4929 1111 2222 3334, 03/27, 1200 units",
    "tracking 4929 1111 2222 3334 exp 03/27 then",
    "card ending 4471 expires 09/27",
    # a pair of words or shares, a product's pair, a pair inside a sentence
    "read / write",
    "Kitchen_Tablet / recipes",
    "iPhone15 / Galaxy24",
    "portfolio split: 75% equities / 25% bonds",
    "Python3 / Django4",
    # a code of a place that is public, or no code given
    "the area code in Leeds is 0113",
    "the dress code tonight is black tie",
    "the kit room code is on the whiteboard",
    "ask Jo for the green room code tonight",
    "the room code policy for guests is 2 visits",
    "the building code they follow is 2018 edition",
    "the shop emailed me a promo code 482 913",
    # a locker's own number, its fee, a year
    "my locker is the last one on the left, 12",
    "the locker fee is 2500 a term",
    "my locker at the pool is the one I had in 1988",
    # a room one is sent to by its number
    "meeting room 1204",
    "Interview in room 4127",
    "Music room 1999",
    "Room 1423",
    "twin room 2104",
    "lab room 2104",
    # talk of one-time codes, a year, a phone number, a booking's confirmation
    "the OTP for the HR portal never arrived",
    "the OTP for the 2024 renewal came late",
    "the 2FA for the HR system went live on 202403",
    "the bank sent a code but it expired",
    "verification code expires in 10 minutes",
    "confirmation code for the hotel 84712345",
    "the code to confirm the booking is in the email",
    "postcode to verify the address: 482917",
    # a doubt about a time or a year, not a code
    "the fire alarm - test at 1100, ok?",
    "the gate was rebuilt, I think 1998, right?",
    "garage door - think 2 cars fit",
    # Chinese numerals that are no ID
    "他说一二三四五六七八九十一二三四五六七八是绕口令",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


@pytest.mark.parametrize(
    ("text", "reference"),
    [
        ("Quiz night booking #QZ-2210, 6 teams, pub rules", "QZ-2210"),
        ("Reservation #KX9931, 2 rooms, late check-in", "KX9931"),
        ("Invoice #INV-0042 to the florist, paid", "INV-0042"),
    ],
)
def test_a_reference_after_its_hash_is_public(text: str, reference: str) -> None:
    # a booking's, an order's or an invoice's reference tracks a thing, opens nothing
    start = text.index(reference)
    assert (start, start + len(reference)) in public_spans(text, text.lower())
    assert find_secrets(text, contacts=False) == []


def test_a_phone_number_after_a_one_time_code_is_no_code_by_the_rules() -> None:
    # the tail of a phone number is no whole code (the model's opinion is its own)
    text = "verification code sent to 07700 900123"
    assert find_secrets(text, contacts=False, model=False) == []


def test_a_card_and_its_back_code_are_both_redacted() -> None:
    found = values("Paid the tiler with 4539 1488 0343 6467, 09/27, back code 221")
    assert "4539 1488 0343 6467" in found and "221" in found
