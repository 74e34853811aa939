"""Secrets round 30: each kind h35 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "a wifi key of plain words typed as one, after the network's name and a comma": [
        ("the marquee wifi is Wedding_Guests, password confettiandcake", "confettiandcake"),
        ("wifi in the clinic - PhysioNet, pw stretchandbend.", "stretchandbend"),
        ("Van wifi is TransitHub, passcode ladderandbucket", "ladderandbucket"),
        ("诊所WiFi叫PhysioNet，密码 stretchandbend，都是小写", "stretchandbend"),
    ],
    "an ID number after what it is for, its link far from the noun": [
        ("her national insurance number for the care home rota is QQ 12 34 56 C", "QQ 12 34 56 C"),
        ("his passport number for the ferry booking next spring is 533218844", "533218844"),
        ("NI for the new starter at the depot: AB 12 34 56 D", "AB 12 34 56 D"),
        ("national insurance: PR 55 10 92 A, for the payslip", "PR 55 10 92 A"),
        ("My PPS number for the grant form is 1234567TA", "1234567TA"),
    ],
    "a code changed from one number to another (both are secrets)": [
        ("the florist's alarm code went from 2580 to 0147", "2580"),
        ("the florist's alarm code went from 2580 to 0147", "0147"),
        ("changed the back gate code from 1987 to 2014 after the break-in", "2014"),
        ("the padlock on the bait freezer changed from 4-4-1 to 9-0-3", "9-0-3"),
        ("Keypad at the allotments: switched from 1190 to 7734.", "7734"),
    ],
    "a room kept locked, then its code after a colon or a dash": [
        ("bike shop stock room: four one one nine, lock it after", "four one one nine"),
        ("the store room at the surgery - 8842", "8842"),
        ("Server room: 5 0 9 1", "5 0 9 1"),
    ],
    "a code said by its count after what it pays or opens (Chinese)": [
        ("给理发店收款的app，照旧是那六位：582046", "582046"),
        ("手机银行，老样子，那六位：302118", "302118"),
        ("钱包app还是那六位数字 271845", "271845"),
    ],
    "a code said by its count as the usual one": [
        ("the card machine app, usual six digits: 271845", "271845"),
        ("till login, the usual four: 5521", "5521"),
    ],
    "a dial turned to each number, the way unsaid (Chinese)": [
        ("修车铺那台保险箱的拨盘：先到15，然后到40，最后到7", "先到15，然后到40，最后到7"),
        ("花店保险箱拨盘先拨到33，再拨到12，最后拨到50", "先拨到33，再拨到12，最后拨到50"),
        ("密码锁先往左拧到3，再往右到17，最后到9", "先往左拧到3，再往右到17，最后到9"),
    ],
    "a one-time code a service texted, what it is for after it": [
        ("the council texted 418 277 for the parking permit login", "418 277"),
    ],
    "a keypad's digits ending with the key that confirms them": [
        ("Cricket pavilion door: 2-0-1-8-star", "2-0-1-8"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a network's name with its key withheld, or a word about the key, not the key
    "the wifi is Cafe_Guest, password on the blackboard",
    "wifi at the hall is Village_Hall, password unchanged",
    "guest wifi is Salon_Guest, password available at reception",
    "the wifi is Cafe_Guest, voucher code required",
    "wifi叫Cafe_Guest，密码在前台",
    # national insurance talk, a passport's photo, a reference that is not the ID
    "my national insurance contributions are 12% this year",
    "the passport photo for the form is 35 by 45",
    "NI for the new starter is pending, ref AB 12 34",
    # a price, hours, a locker's number, years of a style changed
    "the gate fee changed from 1500 to 1800",
    "door hours changed from 0900 to 1000",
    "the locker number changed from 104 to 221",
    "the gate changed from 1998 to 2005 style",
    "the alarm changed from 0630 to 0700",
    "the zip code changed from 94110 to 94117",
    "we moved the lockers from 104 to 221",
    # a stock room's contents, its temperature
    "the stockroom: 40 boxes of paper",
    "the server room: 21 degrees",
    "store room - 12 chairs",
    # the last digits of a number, a six-figure sum, a version (Chinese)
    "银行卡后六位：302118",
    "手机尾号那四位：8820",
    "收款的app，今天收了六位数：100000",
    "app版本号，三位：101",
    # counting things, a phone's digits
    "we sold the usual six boxes, 123456 in total",
    "the phone number is the same six 123456",
    # a route, floors, counters (Chinese)
    "先到北京，再到上海，最后到广州",
    "转盘先到一楼，再到二楼",
    "先到12号柜台，再到8号，最后到61号",
    # money sent, not a code
    "we sent 150 200 to the printers",
    # a phone number on the back of a card (not its security code); where a secret is kept
    "call the number on the back of your card, 0800 056 0572, if it is stolen",
    "the emergency line on the back of the card is 0161 496 0018",
    "the seed words for the shop wallet are kept in a fireproof box at my sister's, not here",
    "钱包的助记词锁在银行保险箱里，这里不写",
    # a password reset said of tomorrow ("reset to" is no link inside a word)
    "the wifi dropped again, password reset tomorrow",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


def test_both_numbers_of_a_changed_code_are_redacted() -> None:
    found = values("the salon safe code's changed from 1155 to 8800")
    assert "1155" in found and "8800" in found


@pytest.mark.parametrize(
    ("text", "place"),
    [
        (
            "the seed words for the shop wallet are kept in a fireproof box at my sister's",
            "fireproof",
        ),
        ("钱包的助记词锁在银行保险箱里，这里不写", "银行保险箱"),
    ],
)
def test_where_a_secret_is_kept_is_public(text: str, place: str) -> None:
    # the model reads the note without the place: its safe or box is where, not what
    assert any(place in text[a:b] for a, b in public_spans(text, text.lower()))


def test_a_made_up_value_after_where_it_is_kept_stays_secret() -> None:
    text = "the PIN is kept in the vault as CorrectHorse."
    assert not any("CorrectHorse" in text[a:b] for a, b in public_spans(text, text.lower()))


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Kiln_Guest 是楼上的WiFi。", False),  # a network's name alone, said as the name
        ("Orchard_5G is the wifi name.", False),
        ("Kiln_Guest 是楼上的WiFi，密码 kiln2024up", True),  # with its key: the key is found
        ("Orchard_5G is the wifi name, key appleblossom77", True),
    ],
)
def test_a_network_named_first_with_no_key_said_is_public(text: str, secret: bool) -> None:
    assert bool(find_secrets(text, contacts=False)) is secret
