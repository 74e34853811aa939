"""Secrets round 56: each kind h61 missed, with new sentences made up for these tests: a lock's
three digits spelled as words joined by hyphens after a pause ("the yard padlock, four-seven-two");
a login said as its user and what with, the password words with a keyboard symbol inside and no
digit ("signs in as front.desk with Paper#Lantern"); a locker's own number said first, by where it
is ("pool 4 locker is 718"), or after it, then a code of three digits ("locker 3 is 806"); a bank's
"authorisation code" sent for a payment (and 授权码); a lock on a thing that holds, its digits
right after with no pause (冷柜锁 927, "the drawer lock 318"); a box or a cabinet said unchanged,
then its digits (工具箱还是老数，4471); and the ordinary notes of the same look that must pass (a
name joined by "&", a count of lockers, a price, a year, a fridge)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock's three digits as words joined by hyphens, after a pause": [
        ("the yard gate has a combination padlock, four-seven-two", "four-seven-two"),
        ("the bike shed padlock, two-zero-eight", "two-zero-eight"),
        ("the little lock on the kit bag, six-one-three", "six-one-three"),
        ("the allotment padlock is nine-nine-one", "nine-nine-one"),
    ],
    "a login as a user, with words and a keyboard symbol inside": [
        ("the kiosk signs in as front.desk with Paper#Lantern", "Paper#Lantern"),
        ("Netflix on the lounge TV logs in as tv.home with Sofa!Nights", "Sofa!Nights"),
        ("the rota tablet logged in as shift.lead using Copper?Kettle", "Copper?Kettle"),
        ("the jukebox signs on as bar.music with Vinyl*Sunday", "Vinyl*Sunday"),
    ],
    "a locker's own number said, then its code (three digits will do)": [
        ("pool 4 locker is 718", "718"),
        ("the changing room 6 locker is 415", "415"),
        ("row 3 locker is 2291", "2291"),
        ("harness locker 3 is 806", "806"),
    ],
    "a bank's authorisation code sent for a payment": [
        ("the bank sent an authorisation code 538 201 for the deposit", "538 201"),
        ("Authorization code 772 019 for the card payment, it came by text", "772 019"),
        ("the card issuer texted an authorisation code 640 915 for the hotel bill", "640 915"),
        ("银行发来的授权码 538201，付房租用的", "538201"),
    ],
    "a lock on a thing that holds, its digits right after, no pause": [
        ("水果摊冷柜锁927", "927"),
        ("抽屉锁 318", "318"),
        ("工具箱锁 604", "604"),
        ("the chest freezer lock 927", "927"),
        ("the drawer lock 318", "318"),
        ("the freezer lock 927 at the back of the stall", "927"),
    ],
    "a box or a cabinet said unchanged, then its digits": [
        ("工具箱还是老数，3308", "3308"),
        ("药柜的密码没变，5521", "5521"),
        ("药柜照旧，5521", "5521"),
        ("首饰盒还是原来那个，7106", "7106"),
        ("the padlock is still the old number, 3308", "3308"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # numbers as words joined for other things
    "a one-two-three count before the lift",
    "the drill was a one-two punch, then a jab",
    # a login with a name, a brand, a second factor
    "signed in as tom with Marks&Spencer",
    "logs in as guest with Face ID",
    "log in as jo with O'Neills",
    "Netflix logs in as tv.home with Google",
    # lockers counted, sized, priced, their own number
    "the 2 lockers are 40",
    "bay 2 locker is 300",
    "floor 2 locker is 12",
    "row 3 locker is 40 cm wide",
    "locker 4 is 215 euros a month",
    "locker 3 is 12",
    "my locker is 12",
    # an authorisation code with no code given
    "the OAuth authorization code flow",
    "the insurer gave an authorisation code for the repair",
    # a lock's price, a year, its size, a count
    "门锁100",
    "冷柜锁 300",
    "the drawer lock 2019",
    "bought a drawer lock 350",
    "the cabinet lock 300",
    "the filing cabinet lock 3 of 4",
    "the drawer lock 318 mm",
    # a box unchanged in price, year, size, count; a fridge
    "纸箱还是老价钱，1250",
    "柜子还是老样子，2019",
    "书柜还是老样子，1200",
    "柜子还是那个，1米2",
    "柜子还是老样子，1250元",
    "冰箱还是老样子，3308",
    "箱子还是老数，24个",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
