"""Secrets round 37: each kind h42 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (a network said to be open, a rule about
a code with no code in it, the short number a scam is reported to)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock's code said by the code it shares or whose it is, then after a pause": [
        ("the tool locker in the van opens on the same four as the side door, 8821", "8821"),
        ("the drugs cupboard unlocks with the same code as the treatment room: 5530", "5530"),
        ("the spray booth store opens on the same code as the compressor room, 6620", "6620"),
        ("the bike cage uses the same digits as the bin store, 7204", "7204"),
        ("the back gate takes the same number as the front one, 1942", "1942"),
        ("the stock room opens on the old alarm number, 0391", "0391"),
    ],
    "a network's key of words joined by a symbol, after 'key:' and a slash": [
        ("Salon WiFi: Salon-Back / key: scissors!comb", "scissors!comb"),
        ("studio wifi: Loft-Studio / pw: lens!flare!focus", "lens!flare!focus"),
    ],
    "a one-time code a message brought, in pairs of digits": [
        ("code from the council parking portal text: 61 08 35", "61 08 35"),
        ("code in the text from the pension site: 44 18 92", "44 18 92"),
        ("the vet's booking email code is 41 77 20", "41 77 20"),
        ("the tax portal texted 90 43 17", "90 43 17"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # when a thing opens, not what on: an hour, a year, opening times, a size
    "the gate opens on the hour, 0800",
    "the shed opens on the anniversary of the club, 1987",
    "the stock room opens on the ground floor, 0730–1600",
    "the garage opens on the same day as the market, 2024",
    "the cage opens on the far side, 2200 mm",
    # a network named by its band, or said to be open: no key given
    "Clinic wifi is ClinicStaff_5G; patients use Clinic-Free which is open.",
    "the wifi at the marquee is FieldNet-2.4G",
    "Studio Wi-Fi is Loft-Studio-24, the guest network is open.",
    # a code from a message read as a date, a year, a count; a receipt's code in pairs
    "code from the school newsletter email: 12 03 24 about the trip",
    "code from the council's recycling text: 2024",
    "the portal texted 120 000 customers",
    "code on the receipt: 12 30 45",
    # a rule about a code, no code in it
    "please don't post the shed padlock combination in the group chat",
    "staff must not write the safe code anywhere",
    "remember not to read out the alarm PIN over the radio",
    "别把保险柜密码写在白板上",
    # the short number a scam is reported to
    "phishing text wanted my card PIN, I reported it to 7726",
    "spam text asking for the account PIN, forwarded the text to 7726.",
    "诈骗短信要银行卡密码，已经转发到12381",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


STILL_FOUND = [
    # a rule about a code, with the code given after it
    ("never write the safe code on the board - it's 0392", "0392"),
    ("never write the door code 4471 on the board", "4471"),
    ("don't share the wifi password, it's tiger-lily-42", "tiger-lily-42"),
    # the network's name by its band, its key named after it
    ("Barn wifi is Barn_5G and the key is hay-loft-2291", "hay-loft-2291"),
    # a number a lock is set to, not forwarded
    ("I changed the padlock to 7726", "7726"),
]


@pytest.mark.parametrize(("text", "value"), STILL_FOUND)
def test_a_value_beside_them_is_still_found(text: str, value: str) -> None:
    assert_found("a value said beside an ordinary look-alike", text, value)
