"""Secrets round 39: each kind h44 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (a network named with no key, a public
enquiries line, a locker's own number, a reference said of an e-mail, a match's halves)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock's code after whose it is and why it is given, then a colon": [
        ("Side gate code at the Patels' for the window cleaner: 5120", "5120"),
        ("Key safe at number 12 so the carers can get in — 4417", "4417"),
        ("Padlock on the bike shed at Tom's so the kids can get their scooters: 3321", "3321"),
    ],
    "a login's password said of its e-mail or of the login, still or now": [
        ("Outlook for bookings@fernandmoss.co is still w1ntergreen", "w1ntergreen"),
        ("The streaming login is still popcorn7night, nobody changed it", "popcorn7night"),
    ],
    "a code in halves, the other half held by someone": [
        ("the safe code: first half 44, Jim has the other half which is 19", "19"),
        ("Safe: Jim knows the first half, 44, and I have the second half, 19", "44"),
        ("Vestry alarm: first half is 27, the verger has the second half, which is 81", "81"),
    ],
    "a wifi key after 'wi fi', or in three dashed groups by a key word": [
        ("wi fi password Kx7-Pq9-Lm2w for the barn", "Kx7-Pq9-Lm2w"),
        ("the wi fi is tractor-shed-99", "tractor-shed-99"),
        ("licence key 4HJ2-KX9M-T7PW for the mixing desk", "4HJ2-KX9M-T7PW"),
    ],
    "a login after a label or a login word, then pw": [
        ("Etsy shop: maker@claypots.com pw clay-and-glaze", "clay-and-glaze"),
        ("POS login tills3, pw bread-crumb", "bread-crumb"),
        ("Supplier portal user jon.b pw Harbour!77", "Harbour!77"),
    ],
    "an account's name that 'is' an e-mail, then a password after a comma": [
        ("Google account for the shop tablet is shoptab@gmail.com, Cake-Stand7", "Cake-Stand7"),
    ],
    "a code worked out from another number, then given": [
        ("the code for the boiler room is the old one plus two, so 5518.", "5518"),
        ("仓库门的密码是去年的加二，所以 5521", "5521"),
    ],
    "an alarm's code, then the key that confirms it": [
        ("Surgery alarm, 5090 then the tick", "5090"),
        ("the boat shed alarm, 0730 then the green key", "0730"),
        ("alarm panel at the depot, 8812 then press enter", "8812"),
    ],
    "a locker's own number, then its lock's code": [
        ("更衣室柜子 15 号，密码 382", "382"),
        ("工具柜 3 号的锁码是 618", "618"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a purpose said before a colon, then a count; a locker's own number
    "the shed so the kids can get the bikes out: 3 bikes",
    "the gate so you know: 2024 was the last repaint",
    # a login or an account that is still something else; a reference said of an e-mail
    "The account is still locked, try again at 3pm",
    "My login is still jo.baker, the password changed",
    "Order for jo@kiln.com is still ORD7A2, shipping Friday",
    "Her address is jo@kiln.com, Flat4B",
    "site: jo@wovenways.org pw reset pending",
    # a match's halves; an alarm's time then breakfast; a code's working with no code
    "the first half, 20 minutes of drills, then the second half, 45 minutes",
    "my alarm 0730 then breakfast",
    "the discount code is the usual plus one more, so 2024",
    "the code for the printer is the old one plus toner",
    "储物柜 9 号，203 房间",
    # a network named, its key asked of someone; a public enquiries line
    "The yard's Wi-Fi network is MillYard_5G, ask Priya if you need to get on it.",
    "The rail enquiries number is 0345 748 4950 for anyone who asks.",
    "the wi fi is down again, call BT on 0800 800 150",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


STILL_FOUND = [
    # a network's key given after all; a code beside a public line; a worked-out gate code
    ("The office wifi network is Hollybush_5G, the key is Otter-Lake-44", "Otter-Lake-44"),
    ("the emergency line is 0800 123 4567, the alarm code is 7741", "7741"),
    ("the gate code is last year's plus one, so 4807", "4807"),
]


@pytest.mark.parametrize(("text", "value"), STILL_FOUND)
def test_still_found(text: str, value: str) -> None:
    assert_found("still", text, value)
