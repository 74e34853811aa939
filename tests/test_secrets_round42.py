"""Secrets round 42: each kind h47 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (a year's best, a gift, a door's size, a
login with a browser or a second factor, a user's count, a text about a time or an amount, a
network named with no key to give)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a thing that locks said to be what its number is, the number after a dash": [
        ("the strongbox is the year the bakery opened — 1971", "1971"),
        ("The shed padlock is my birthday then 77 — 110377", "110377"),
        ("the back gate is the year the club was founded plus 11 — 188411", "188411"),
        ("the locker is the year I started here plus 12, 201512", "201512"),
    ],
    "a login said as who one is and what with": [
        ("the stock kiosk signs in as ops2 using Lantern-88 when it reboots", "Lantern-88"),
        ("the rota tablet is logged in as desk.fox with Marigold7Sun if it drops", "Marigold7Sun"),
    ],
    "a one-time code in a text sent to confirm a step": [
        ("the building society's text to approve the transfer says 318 004", "318 004"),
        ("the text the council sent to verify my parking permit says 551 203", "551 203"),
        ("text from the card company to confirm the new card said 4417 2290", "4417 2290"),
    ],
    "a user's number at a machine, then the code it signs in with": [
        ("the ticket machine user 5 with code 7713 for refunds", "7713"),
        ("the POS: staff no. 14 passcode 0921 at the start of a shift", "0921"),
        ("Clerk 4's code is 8812", "8812"),
    ],
    "a default login nobody changed, the Chinese going on after it": [
        ("摄像头还是root/hik12345没换过", "hik12345"),
        ("路由器还是 admin 然后 tplink2020 没换", "tplink2020"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a year's best, a kind of year, a gift, a present, a thing's size
    "the vault is the year's best film, 2023.",
    "the store is the year-round one, 2024.",
    "The gate is the anniversary gift from the council: 1999",
    "the garage is the birthday present we got, 2019",
    "the door is 2 metres wide",
    # a year said, then the sentence goes on
    "the safe is the year the bakery opened. 1923 was a good year.",
    # logged in as someone with a second factor, a browser, a product, a team
    "I logged in as admin with two-factor",
    "she signed in as jo with Google",
    "logged in as guest with Chrome 120 on the laptop",
    "logged in as sam with Windows11 on the laptop",
    "we logged in as a team with 12 people",
    # a text about an amount, a time, a phone number
    "message from the builders to confirm the quote says 500 000 pounds",
    "the text from the vet to confirm Tuesday says 10 30",
    "text from the bank says 0207 946 0000 is their number",
    # a user's number and a code that is no sign-in
    "operator 02, error code 3390",
    "the kitchen printer user 2, code 1500 lines",
    "user 3, code review at 1400",
    # a default pair's words, not a pair
    "后台是admin/后台管理",
    # a network named, no key to give
    "面馆的WiFi叫老张面馆_02，不用密码",
    "WiFi叫Shop_01，没有密码，直接连",
    "the cafe wifi is called Bean_Shop_01, no password needed",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


def test_a_network_without_a_key_keeps_a_key_given_after() -> None:
    # the name is public, a key said beside it is still found
    assert_found("wifi key", "店里WiFi叫面馆_02，密码是 mianguan888", "mianguan888")
