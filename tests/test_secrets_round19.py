"""Secrets round 19: each kind h24 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a dial's turns with the last one said 'back'": [
        ("office safe: right to 44, left to 8, back right to 21", "back right to 21"),
    ],
    "a password noun typed in haste, four digits right after it": [
        ("the till menu passwrod 5521 - staff must not change prices", "5521"),
    ],
    "a door's code changed to a number, said of the door": [
        ("the boiler room door changed to 6612 last week", "6612"),
    ],
    "a lock or store left on its numbers ('is on 6-4-2', 'are all on 330')": [
        ("the gun safe is on the same numbers as the office one, 14-35-09", "14-35-09"),
        ("the paint store is on 3-8-1, the ladder key is inside", "3-8-1"),
        ("staff lockers are all on 418 for now", "418"),
    ],
    "a driver's licence number with the driver's name between": [
        ("driver Anna's licence number for the hire form: MORGA753116SM9IJ", "MORGA753116SM9IJ"),
    ],
    "a reset code sent somewhere, then its digits after a colon": [
        ("reset code sent to the front desk tablet: 7 1 8 8 2 4", "7 1 8 8 2 4"),
    ],
    "a lock's code of three digits ending the note": [
        ("trailer 9 tool chest lock code 318", "318"),
    ],
    "a code said as a year in words": [
        ("the garage reset code is nineteen eighty-four", "nineteen eighty-four"),
    ],
    "Chinese: a master or admin code (万能码, 管理码)": [
        ("游泳馆储物柜的万能码是4545", "4545"),
        ("会议室投影仪管理码#7731*", "7731"),
    ],
    "Chinese: a door keyed in steps (先按…再按, 先输…再输)": [
        ("机房的门：先按井号，再按5 2 8 1", "5 2 8 1"),
        ("后院铁门：先输63再输08", "63再输08"),
    ],
    "Chinese: a key box or door lock, then its digits": [
        ("三号仓库钥匙箱：五九一三", "五九一三"),
        ("员工宿舍门锁6180", "6180"),
    ],
    "Chinese: a door or password said as what it is, then the digits": [
        ("档案室的门是老板生日1103", "1103"),
        ("柜子密码是开业日期0512", "0512"),
    ],
    "Chinese: an admin console's user / digits": [
        ("门禁系统管理后台 menjin / 20462046", "20462046"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # directions said with "back"
    "go back left to the station, then right to the bridge",
    # a password word then a number that is no value
    "the password policy changed in 2019, see the wiki",
    # a door or room with a number of its own
    "room 3390 is on the left",
    "door 12 is on the left past the lifts",
    "the meeting room changed to 3390 on the booking",
    # a store or a locker that is on a floor, a street, a date
    "the store is on Main Street, open till 9",
    "the lockers are on the second floor",
    "the store is on 12-14 Hill Road",
    "the shop is on 220 Main Street",
    "the lockers are on 3rd floor",
    "my locker at the pool is #214",
    "Staff locker in B4 is 207",
    # a licence said with no number; a lock with no code
    "driver Sam's licence is in the glovebox",
    "the lock code is on the fridge",
    # a year said in words
    "we moved here in nineteen eighty-four",
    "the reset happened in twenty twenty",
    # Chinese: a door's number, a door open at a time, a login page with no password
    "仓库的门是2号门",
    "门是2019年装的",
    "客服电话先按1再按3",
    "门锁2把，放在前台",
    "后台地址 admin / 首页",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
