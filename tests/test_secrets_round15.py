"""Secrets round 15: each kind h20 missed or flagged, with new sentences made up for these
tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a keypad, lock or alarm, then its code as 'it's', 'which is', 'set with'": [
        ("The boot room keypad was changed last week, it's 6093 now.", "6093"),
        ("Spare keys are in the lockbox by the bins, which is 2857", "2857"),
        ("Shop alarm: arm with 7720 then press B, disarm with 7720", "7720"),
        ("padlock on the trailer, its eight one four two", "eight one four two"),
        ("Gym door keypad was reset, new one is 47092", "47092"),
    ],
    "a code a bank sent, by who got it or by the message": [
        ("The code Raj got from the bank to approve the payment was 551-208", "551-208"),
        ("Text from my bank says 318 604 to sign in, what do I do?", "318 604"),
        ("银行发来的短信说 482 913，十分钟内有效", "482 913"),
        ("My bank just texted 615 204 for the new payee", "615 204"),
    ],
    "a thing opened on dashed digits, after a pause": [
        ("bike cages behind the depot, the blue one opens on 7-2-9", "7-2-9"),
    ],
    "an app's login as an e-mail and a password with only a space": [
        ("Rota app login kitchen@harbourcafe.co.uk Pans&Pots22", "Pans&Pots22"),
    ],
    "a code in parts by position, or as the tail of another number": [
        ("车库挂锁是四位的，前两位58，后两位是03", "58，后两位是03"),
        ("工具柜的密码锁：前三位是472，最后一位是6", "472，最后一位是6"),
        ("档案室保险柜密码：前两位八三，后两位七一", "八三，后两位七一"),
        ("仓库保险箱 前三位528 后三位064", "528 后三位064"),
        ("The shed padlock: first two are 35, last two are 91", "35, last two are 91"),
        ("储物柜就是我手机号后四位 8830", "8830"),
        ("The key box is the last four of the office landline, 4417", "4417"),
    ],
    "a card's noun, then 16 to 19 digits in fours (Luhn or not)": [
        ("采购用的那张卡 6222 0212 3456 7890 123，别外传", "6222 0212 3456 7890 123"),
        ("差旅公务卡 4367 4200 1234 5678，月底还款", "4367 4200 1234 5678"),
        ("Fuel card 5412 7500 1111 2222 for the van", "5412 7500 1111 2222"),
        ("office account card 4532 1100 2233 4455 for stationery", "4532 1100 2233 4455"),
    ],
    "a 码 said, then Chinese digits": [
        ("储物间的员工码：三八零七二六", "三八零七二六"),
        ("设备间管理码是六六一九", "六六一九"),
    ],
    "an 18-digit ID with a date of birth after 证 or 证号, its check character wrong": [
        ("他的船员证号 330902198503152817 先别外发", "330902198503152817"),
        ("工作证号码：110105199012314321", "110105199012314321"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a thing opened by a code, then a size, a time or a year said as what it is
    "The keypad sits at waist height, it's 1200 mm from the floor.",
    "The alarm clock, it's 0630 every weekday.",
    "Our safe is an old one, which is 1998 vintage.",
    "Lockers on level 2, the old one opens on Mondays.",
    "The old keypad broke, the new one is 2400 mm wide.",
    "Our locker room, which is 1102 on the map",  # a room, not a locker
    # a bank and a number that is no code
    "The code of conduct from the bank was updated in 2023.",
    "Text from the bank says 3 payments are pending.",
    "The bank just texted 250 000 customers about the outage.",
    "Text from the bank says 250 000 customers were affected by the outage.",
    "银行发来的短信说 2024年的账单已经出了",
    # an e-mail and a word after it, no login said
    "Contact for the app login: help@harbourcafe.co.uk Monday to Friday",
    # digits by position, no lock or code
    "号码的前三位是 138，后四位是 0000",
    "车库挂锁坏了，前两天刚换的",
    "The first two are 35, the last two are 91 in the league table.",
    # 16 digits in fours by a card that pays nothing, or by no card
    "会员卡 6001 2345 6789 0123，积分可以抵现",
    "Order 4000 1234 5678 9010 shipped on Monday.",
    "card 5500 0000 0000 0005 is the example in the docs",
    "快递单号 7736 1234 5678 9012",
    # a 码 that is a product's or a page's
    "商品条码：六九二三四五六七",
    "页码是一二三四",
    # an 18-digit number with no ID's noun, its check character wrong
    "订单号 110101199003071234 已发货",
    "证书编号 320102198806150416 在背面",
    # the flagged ones' kinds: a batch code, a public line, a model with a slash, a wifi's name
    "Insulin delivery: 12 pens, expiry 03/2027, batch KP4471",
    "Reservations line for the ferry: 01632 960 117, weekdays only",
    "The till is a Verifone V240m/Plus, the serial is on the base",
    "三楼会议室WiFi叫MR-3F，密码问行政要",
    "Guest wifi is called Harbour-5G, ask at the bar for the password.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
