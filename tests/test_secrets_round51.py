"""Secrets round 51: each kind h56 missed, with new sentences made up for these tests: a
service's login as an e-mail and a password with the case of one of its letters said ("with a
capital Q", L大写), a machine that wants a badge or else its code and the code given, a login
lent or shared and then "it's" its digits (后台登录，是 X), a lock's digits and then the key
that ends them (再按井号, "plus hash"), a code's parts by position with each part's digits named
one by one (前两位是3和9, "first two are 6 and 1"), an alarm set or unset and its keys after a
pause (布防的话，先按 X); and the ordinary notes of the same look that must pass (a name spelt
with its capital, a machine that wants paper, a login page's time, a smoke alarm's model, a
score or a ranking by position, an alarm's hours), with the notes h56 flagged in general: a
firm's line said with the hours it is answered, a code said to be written somewhere and not
given, an order's or an invoice's reference in capitals."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a login as an e-mail, then a password with the case of one of its letters said": [
        ("the bar kiosk: rota.staff@gmail.com, Quayside88 with a capital Q", "Quayside88"),
        ("tablet login is kestrel4, lower-case k", "kestrel4"),
        ("the lab PC: lantern88, capital L", "lantern88"),
        ("前台平板：qian.tai@163.com，Lotus2024，L大写", "Lotus2024"),
        ("平板登录：qingshan2019，首字母大写", "qingshan2019"),
    ],
    "a machine that wants a badge or else its code, the code given": [
        ("Register 2 wants a supervisor badge or the code 4471, use the code", "4471"),
        ("the terminal needs a shift key or the pin 58213", "58213"),
        ("the kiosk asks for a staff card or the manager code 6620", "6620"),
        ("2号终端要刷主管卡，或者输 6620", "6620"),
    ],
    "a login lent or shared, then 'it's' and its digits": [
        ("Mo said to borrow her kiosk login while she's off, it's 4482", "4482"),
        ("the bar login got changed, it's 3391 now", "3391"),
        ("use my sign-in on the scanner, it's 7720", "7720"),
        ("小李不在就用她的后台登录，是 4482", "4482"),
        ("电脑的登录，是 7720", "7720"),
    ],
    "a lock's digits, then the key that ends them": [
        ("仓库门锁 7306 再按井号", "7306"),
        ("后门 8824 按确认键", "8824"),
        ("钥匙箱 4081 按井号", "4081"),
        ("门锁 3308 加井号，里面是库房", "3308"),
        ("the back door lock 6642 then hash", "6642"),
        ("staff flat door lock 3308 plus hash", "3308"),
        ("the keypad 7713 and the hash key", "7713"),
    ],
    "a code's parts by position, each part's digits named one by one": [
        ("仓库门锁密码，前两位是3和9，后两位是1和6", "3和9"),
        ("保险柜，前两位是五和二，后两位是零和八", "五和二"),
        ("the shed padlock: first two are 6 and 1, last two are 8 and 2", "6 and 1"),
        ("safe code: first two 9 and 5, last two 2 and 8", "2 and 8"),
    ],
    "an alarm set or unset, then its keys after a pause": [
        ("报警器布防的话，先按 7731", "7731"),
        ("晚上走之前布防，记得按 2290#", "2290#"),
        ("早上开店撤防的话，先按4406", "4406"),
        ("the shop alarm, to unset it press 4406", "4406"),
    ],
    "a secret beside a firm's reference or a place that names none": [
        ("the door code for order KB-44120 is 4471", "4471"),
        ("the bike shed padlock code is written inside the lid: 4471", "4471"),
        ("the gate code is 4471 2290, open it at nine", "4471 2290"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a name spelt with its capital; a contact's line with a note
    "the login page wants your surname, Patterson, with a capital P",
    "write the tablet's name, Kitchen, with a capital K",
    "Support: help@firm.co.uk, Mon-Fri, with a capital S in the subject",
    # a machine that wants paper or a voucher, takes cash
    "register 3 wants a new roll",
    "the kiosk wants a receipt or the code on the voucher",
    "terminal 4 takes cash or card, 1500 a night",
    # a login's page, time, year or age
    "the login page timed out, it's 1130 now",
    "the kiosk login screen froze again, it's 2019 software",
    "his login expired, it's 1500 days old",
    "I need to log in, it's 1107",
    "后台登录，是 2019 年的系统",
    "电脑登录，是 0830 开始",
    # a lock's year, a fitting, a smoke alarm's model
    "门锁 2019 年加装的",
    "烟雾报警器 3927 按确认键",
    "the door lock 1450 and a handle",
    "fitted a new door lock, 5 lever",
    # a score, children, a ranking by position
    "比分前两局是6和2，后两局是1和5",
    "the first two kids are 5 and 9, the last two 10 and 12",
    "first two are 3 and 8, last two 1 and 6 in the rankings",
    "烟雾报警器，前两位是五和二，后两位是零和八",
    # an alarm's hours, its remote, a count
    "撤防，按一下遥控器就行",
    "布防时间，按 2200 设置",
    "报警器撤防，按了 3 次",
    # a firm's line said with the hours it is answered
    "the van cover's renewals line is 0333 010 4421, open 9 to 5",
    "Boiler cover breakdown line 0800 048 1290, 24/7",
    "the garage's number is 01632 960 552, 8am-6pm weekdays",
    "the bank's card team, 0345 300 0000, Mon-Fri",
    "物业电话 0571 8796 5521，工作日早9点到晚5点",
    # a code said to be written or noted somewhere, not given
    "the bike shed padlock code is written inside the staff handbook, not here",
    "the safe combination is noted on the back of the rota",
    "保险柜密码写在老板的笔记本里，不在这",
    # an order's, an invoice's or a job's reference in capitals
    "Collection for order KB-44120, oak sideboard, slot 8-12",
    "Invoice INV-20417 paid, thanks",
    "job JB-77120 booked for Tuesday, van 2",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
