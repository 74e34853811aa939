"""Secrets round 38: each kind h43 missed, with new sentences made up for these tests, and
the ordinary notes of the same look that must pass (an alarm set to wake someone, a locker's
own number, a network whose key is asked for, a card machine's message with no PIN in it)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock, alarm, vault or cage and its code right after it, or after 'it's'": [
        ("the glaze room alarm 6613 — arm it before you lock up", "6613"),
        ("the bike shed keypad 8291, then the green key", "8291"),
        ("the ladder cage, it's 5170, don't tell the temps", "5170"),
        ("van 3 parts vault is 6619", "6619"),
        ("the tractor's immobiliser code is 3391", "3391"),
        ("the workshop roller shutter remote wants 48120 after the fuse goes", "48120"),
    ],
    "a lock's place said with a house number, then its code": [
        ("the key safe at 22 Elm Close is 7405, tenants out all week", "7405"),
    ],
    "a lock changed, when, then the new code": [
        ("the yard gate keypad changed yesterday, now 6628 and hash", "6628"),
        ("side door lock was reset this morning, it's now 3047", "3047"),
    ],
    "a code said as a year with how to remember it": [
        ("the kiln room alarm is 1966, World Cup year, easy", "1966"),
        ("the shed combo is the year my dad retired — 1998", "1998"),
    ],
    "a network's key after a device said to be on its quoted name": [
        ('the card readers are on "Bakery_Till", the key for it is rye-sourdough-31', "31"),
    ],
    "a login given as an e-mail and a token, or an admin's name and a slash": [
        ("photo archive: studio@lensfold.com, Aperture_Room_42", "Aperture_Room_42"),
        ("打印机后台 admin/dayinji2024", "dayinji2024"),
        ("淘宝店 shopkeeper88@qq.com，登录用 Xiaodian2019", "Xiaodian2019"),
    ],
    "a password changed, then said as what it is now": [
        ("小红书账号我改了密码，现在是 hongshu_2024", "hongshu_2024"),
    ],
    "a lock's code in Chinese digit words or spaced digits": [
        ("员工柜是三九一六，别跟别人说", "三九一六"),
        ("面包房冷库 八二零四", "八二零四"),
        ("单车挂锁拨到 4 7 1 9 就开", "4 7 1 9"),
    ],
    "a one-time code in two groups, said in a hurry or as sent by a bank": [
        ("外卖平台的码 392 617，赶紧输，五分钟内有效", "392 617"),
        ("the code 508 226, quick, it expires in a minute", "508 226"),
        ("银行发的：四一七 零八二", "四一七 零八二"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # an alarm's number that is a time, a year, or a thing's size; a vault's year
    "the kids' alarm 0715, school days only",
    "camera shutter: 4000, ISO 200",
    "fire alarm 2019 model, replaced last spring",
    "the bike vault is 2019",
    "the cage, it's 2400 wide",
    "the shop door shuts at six, it's 1745 now",
    "the garage door remote needs 2032 batteries",
    # a combination that is a meal, a locker's own number
    "the store combo meal is 1299",
    "快递柜是 1234 号",
    "冰箱是 2019 款",
    "车库 2019",
    # a contact's e-mail with what it is about; a path after an admin folder
    "Support: help@kilnworks.com, Mon-Fri9am",
    "see the docs at admin/users2 for roles",
    "登录用 iPhone15",
    # a promo code in a hurry; a bank's sum
    "promo code 441 902, hurry, expires Friday",
    "银行发的：120000 元",
    # a network's key asked of someone; a card machine's message
    "Site office wifi is SiteHut5G, ask Priya for the key.",
    "the wifi at the depot is Depot-2G, ask the foreman for the password",
    'the terminal showed "PIN blocked" so she rang her bank',
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


STILL_FOUND = [
    # a network's key given after all, a PIN given on the screen
    ("Site office wifi is SiteHut5G, key is mortar-trowel-55", "mortar-trowel-55"),
    ("the alarm unset 0645, set it again when you leave", "0645"),
    ("门锁是爷爷生日一九六二", "一九六二"),
]


@pytest.mark.parametrize(("text", "value"), STILL_FOUND)
def test_still_found(text: str, value: str) -> None:
    assert_found("still", text, value)
