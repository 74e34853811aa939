"""Secrets round 53: each kind h58 missed, with new sentences made up for these tests: a wallet's
recovery words named as its "wallet words" with an aside before the colon, a code said to be a
machine's or a lock's now with the old one said dead (旧的不能用了), a device's stock user then its
password after "with", a code from a service a moment ago with its digits after a pause (刚才…的码),
lockers or locks and each person's code, a lock and a pause then its three wheels said
(那把小锁，六二八), a dial's starting number then each turn's way and number (三十一 左 十二 右 七);
and the ordinary notes of the same look that must pass (a wallet with words, a phone's or an
extension's new number, a discount, a product run "with" a version, a tracking code, lockers'
own numbers, a lock's price, directions), with the notes h58 flagged in general: a wifi's name
given with its key said to change every week or to be told later (密码每天都换, 到时候会发给你)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

_WORDS_A = "amber satin rocket glove mirror planet sugar violin window zebra cotton ladder"
_WORDS_B = "pepper island quartz meadow copper fabric hollow timber oyster bridge puzzle sponge"
_WORDS_C = "walnut ribbon falcon gravel saddle kettle marble orchid plaza runway spiral tunnel"

KINDS = {
    "a wallet's recovery words named as its words, an aside before the colon": [
        (f"my uncle sent his wallet words by accident: {_WORDS_A}", _WORDS_A),
        (f"the landlord took payment in ether and read out her wallet words: {_WORDS_B}", _WORDS_B),
        (f"his wallet phrase, typed into the group chat in a hurry: {_WORDS_C}", _WORDS_C),
        (f"他把钱包那十二个单词发到群里了：{_WORDS_A}", _WORDS_A),
    ],
    "a code said to be a machine's or a lock's now, the old one said dead": [
        ("the kiosk supervisor number is 4482 now, the old one doesn't work any more", "4482"),
        ("the back office alarm number is 6630 now, the old one no longer works", "6630"),
        ("the kiosk override is 3391 now, the old one has been cancelled", "3391"),
        ("the old pin for the gate doesn't work any more, it's 8820 now", "8820"),
        ("the shed padlock's 4471 now, the old one no longer works", "4471"),
        ("收银机主管号现在是 5526，旧的那个不能用了", "5526"),
        ("储物柜旧的密码失效了，现在是 4410", "4410"),
    ],
    "a device's stock user, then its password after 'with'": [
        ("the NAS is admin with Lantern_42b", "Lantern_42b"),
        ("the door entry panel is admin with Quayside_9th", "Quayside_9th"),
        ("the camera login is admin with tulip-and-44", "tulip-and-44"),
        ("the printer admin is root with Harbour_77x", "Harbour_77x"),
        ("路由器是 admin 加 Kettle_88z", "Kettle_88z"),
    ],
    "a code from a service a moment ago, its digits after a pause": [
        ("code from the council login just now, 518 204", "518 204"),
        ("the code from the pension site a minute ago: 604 118", "604 118"),
        ("刚才社保网站的码，518 204", "518 204"),
        ("刚刚银行app的码 604118，快发我", "604118"),
    ],
    "lockers or locks, then each person's code": [
        ("储物柜：阿明 418，阿芳 227", "418"),
        ("挂锁：老周 5803，小陈 2716，阿杰 0419", "2716"),
        ("padlocks: Tom 418, Priya 227", "227"),
        ("the gym lockers, Sam 481, Jo 227", "481"),
        ("lock boxes: Nadia 5520; Ollie 3391", "3391"),
    ],
    "a lock, a pause, then its three wheels said": [
        ("储物柜上那把挂锁，四八一", "四八一"),
        ("仓库门口那把小挂锁，五零九", "五零九"),
        ("工具包上那把小锁，六二八", "六二八"),
        ("自行车锁，538", "538"),
        ("the little lock on the tool bag, 538", "538"),
    ],
    "a dial's starting number, then each turn's way and number": [
        ("保险箱 三十一 左 十二 右 七", "三十一 左 十二 右 七"),
        ("保险箱 31 左 12 右 7", "31 左 12 右 7"),
        ("档案柜 四十 右 二十二 左 九", "四十 右 二十二 左 九"),
        ("the office safe 31 left 12 right 7", "31 left 12 right 7"),
        ("the gun cabinet: 40 right 22 left 9", "40 right 22 left 9"),
    ],
    "a wifi's key after its name, the key not withheld": [
        ("借便利店的wifi Bake_520，密码 xk29Lm77", "xk29Lm77"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a wallet and words, no list of a wallet's words
    "my wallet words are in the fireproof box",
    "she lost her wallet and words can't describe it: the cards, the keys, the photos and receipts",
    # a phone's or an extension's new number, a discount, a model, an order: no code
    "my phone number is 07700 900 123 now, the old one no longer works",
    "the manager's extension is 4471 now, the old one doesn't work any more",
    "the staff discount is 2500 now, the old one expired",
    "the kiosk printer model is 4471 now, the old one doesn't work any more",
    "the kiosk order number is 4471 now, the old one expired",
    "新的员工卡号是 5526，旧的卡不能用了",
    # a user "with" what it runs: a standard, a browser, a version, a tool
    "the router is admin with WPA2-PSK",
    "the kiosk is guest with Chrome120",
    "the box runs as root with python3.11",
    "log in as admin with 2FA enabled",
    "the server runs as root with systemd",
    "the build box is root with node_18",
    # a reference or another number from a moment ago
    "the tracking code from the courier just now, 518 204",
    "刚才的码不对，工单号 518 204",
    "code from the plumber just now, 518 204 is the invoice number",
    "the zip code from the form just now, 94110",
    "the discount code from the shop just now, SAVE 20",
    # lockers' own numbers, seats, scores, floors, prices
    "储物柜：阿明 418号，阿芳 227号",
    "储物柜编号：阿明 418，阿芳 227",
    "locker numbers: Tom 418, Priya 227",
    "lockers allocated: Tom 418, Priya 227",
    "座位：阿明 12，阿芳 15",
    "scores: Tom 418, Priya 227",
    "柜子：一楼 518，二楼 604",
    "柜子：阿明 418元，阿芳 227元",
    # a lock's price, its keys, its age, a floor
    "换了把新锁，三百块",
    "门锁，一二楼都换了",
    "那把锁，一二三楼都能用",
    "bought a new lock, 450",
    "fixed the lock on the back door, 450 quid",
    "we changed the lock, 2 keys each",
    "the lock on the door, 1998 vintage",
    # directions, a size
    "从 3 号楼 左转 2 右转 1 就到了",
    "turn 2 left 3 right then 1 more block",
    "the safe is 40 cm wide, 30 left, 20 right",
    "保险柜在 3 楼，左 2 右 1 间",
    # a wifi's name, its key said to change or to be told later
    "借楼下面包店的wifi Bake_520，老板说密码每天都换。",
    "对面奶茶店的wifi Cha_66，密码每个月都改。",
    "楼上健身房的wifi叫 GymFit-5，前台说密码到时候会发给你。",
    "the bakery's wifi Crumb_42, the owner said the key changes every week",
    "the wifi is Crumb_42, they'll tell you the password",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
