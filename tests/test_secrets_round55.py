"""Secrets round 55: each kind h60 missed, with new sentences made up for these tests: a room, a
store or a door said to be "coded" its digits, where it is between ("the bike store behind the
hall is coded 2604", "the side door's coded 7390"); a combination said short, "combi", by a lock
("the shed combi: 5 9 3"); locks, all of them, "set to" a code ("the hire locks are all set to
5120"); keys in a key safe or a lockbox somewhere, then ", code" and its digits and an aside in
brackets; a wifi's name, a slash, and its key of words joined as one ("tomato-and-basil"); an API
key's or a token's string written as one word ("keystring") before its value; a safe where it is,
then its numbers with no colon; one's own compartment of a locker (更衣柜我那格是 X); a locker's
number, then its code spaced with no pause (工具柜 2 号 9 4 4 1); an app's name, its user, a slash
and a password (美团 lixiao99 / lx520lx520); and the ordinary notes of the same look that must pass
(a room coded on a plan, a combi boiler, clocks set, a code's edition, a wifi's key withheld
"the password's on the card")."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a room, a store or a door said to be 'coded' its digits": [
        ("The bike store behind the hall is coded 2604.", "2604"),
        ("the side door's coded 7390", "7390"),
        ("the paint room next to the workshop is coded 8152", "8152"),
        ("Our loading bay door is coded 4417, don't write it on the board.", "4417"),
        ("器材室的门锁码为 5813", "5813"),
    ],
    "a combination said short, 'combi', by a lock": [
        ("the shed combi: 5 9 3", "5 9 3"),
        ("locker combi is 2 8 1", "2 8 1"),
        ("the store combi in the workshop: 4 0 7", "4 0 7"),
        ("the bike lock combi 3 3 8", "3 3 8"),
        ("gym locker combi 19-04-33", "19-04-33"),
    ],
    "locks, all of them, set to a code": [
        ("the hire locks are all set to 5120", "5120"),
        ("The gym lockers are now set to 0447.", "0447"),
        ("the loan padlocks were all set to 6203 last week", "6203"),
        ("所有挂锁都设成 5120", "5120"),
    ],
    "keys in a key safe somewhere, then ', code' and its digits and an aside": [
        ("the shop keys are in the key cabinet next to the office, code 1357 (honestly)", "1357"),
        ("spare keys are in the lockbox by the back door, code 3719 (don't share)", "3719"),
        ("flat keys are in the key safe near the bins, code 8264 (new one)", "8264"),
        ("备用钥匙在门口的钥匙盒里，密码 6082（真的）", "6082"),
    ],
    "a wifi's name, a slash, and its key of words joined as one": [
        ("shed wifi Potting_Shed / tomato-and-basil", "tomato-and-basil"),
        ("studio wifi BlueDoor-Guest / lemon-tree-garden", "lemon-tree-garden"),
        ("the cafe wifi CornerCafe_Staff / pickled-onion-jar.", "pickled-onion-jar"),
        ("nursery wifi Sprout-Room / sand_pit_rules", "sand_pit_rules"),
        ("店里 wifi BakeryNet / xiangcai-he-suan", "xiangcai-he-suan"),
    ],
    "an API key's or a token's string written as one word, then its value": [
        (
            "API keystring for the stock sync script k3m9x2q8v7w1z4p6t5r0nbdf",
            "k3m9x2q8v7w1z4p6t5r0nbdf",
        ),
        (
            "the tokenstring for the backup bot is in here: 8wq3z7m2k9x4v1p6t5rnbc0d",
            "8wq3z7m2k9x4v1p6t5rnbc0d",
        ),
        (
            "the weather service keyvalue for the garden display r7t2w9q4x8m3k1z6v5p0bnhd",
            "r7t2w9q4x8m3k1z6v5p0bnhd",
        ),
        ("天气接口的密钥串：k3m9x2q8v7w1z4p6t5r0nbdf", "k3m9x2q8v7w1z4p6t5r0nbdf"),
    ],
    "a safe where it is, then its numbers, no colon": [
        ("the petty cash safe behind the counter 22-51-08", "22-51-08"),
        ("gun safe in the loft 14-39-70", "14-39-70"),
        ("till safe under the counter 31-47-58", "31-47-58"),
        ("阁楼的保险箱 14-39-70", "14-39-70"),
    ],
    "one's own compartment of a locker, then its code": [
        ("更衣柜我那个是 5127", "5127"),
        ("工具柜我那格是 4419", "4419"),
        ("员工柜子里我的那一格是 8830", "8830"),
    ],
    "a locker's number, then its code spaced, no pause": [
        ("更衣柜 7 号 4 1 9 8", "4 1 9 8"),
        ("柜子 12 号 3 0 5 7", "3 0 5 7"),
        ("工具柜 2 号 9 4 4 1", "9 4 4 1"),
    ],
    "an app's name, its user, a slash and a password": [
        ("美团 lixiao99 / lx520lx520", "lx520lx520"),
        ("淘宝 chenmo77 / cm2024cm", "cm2024cm"),
        ("京东 wangfei_88 / wf1988wf", "wf1988wf"),
        ("Spotify danny82 / dn82dn82", "dn82dn82"),
        ("Steam Account gamer_tom / tomtom2011", "tomtom2011"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a room coded on a plan or by colour, files coded, a room's time
    "The meeting room is coded 12 on the floor plan.",
    "The colour room behind the stage is coded blue on the map.",
    "The files in the back room are coded by year.",
    "The boiler room takes 20 minutes to heat.",
    # a combi boiler, oven or ticket
    "Our combi boiler in the shed: 24 kW.",
    "the combi oven in the kitchen is 6 1 1 model",
    "combi ticket for the bike hire: 3 days",
    # things set to gears, times
    "The hire bikes are all set to 3 gears for the kids.",
    "The lockers are all set to open at 0800.",
    "The alarms are set to 0630 and 0700.",
    # keys somewhere, no code; a code's edition in brackets
    "spare keys are in the key box by the shed (the grey one)",
    "keys are in the lockbox next to the office, code on the sheet",
    # a wifi's name and where its key is or whom to ask; bands
    "wifi OfficeNet / downstairs",
    "cafe wifi CornerCafe / ask-at-the-bar",
    "the wifi 2.4 / 5 GHz bands",
    # a key where it is kept, a format
    "API key for the weather tool is in the vault",
    "the keystring format is 24 lowercase letters",
    # a safe's boxes, days, a date
    "safe in the loft 2 of 3 boxes",
    "the safe under the counter 3-4 days",
    "the gun safe in the loft 12-03-24",
    # a locker's own number, shelf, size
    "更衣柜我那格是 12 号",
    "柜子我那个是最上面那格",
    "更衣柜 7 号 3 层",
    "柜子 12 号 2 米",
    # an app's choices, years, plans, roles
    "美团 外卖 / 到店",
    "淘宝 2024 / 2025",
    "Spotify Premium / Family",
    "Deliveroo Rider / Driver",
    # a wifi's name with its key said to be kept somewhere ("the password's on the card")
    "The wifi is called Mill_Guest and the password's on the card by the till.",
    "Bakery wifi network is called CrumbNet_5G — the password's on the chalkboard, ask Jo.",
    "Studio network is called Loft_2G, password's in the welcome folder.",
    "The wifi network is called Barn_5G; the key's on the router.",
    "店里的 wifi 叫 TeaHouse_5G，密码在收银台后面的卡片上，问小王。",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
