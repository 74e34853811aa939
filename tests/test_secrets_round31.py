"""Secrets round 31: each kind h36 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "a code told as a date someone keeps, by a lock or a code named before it": [
        ("the dive locker combo is Tom's birthday, 0311, he picked it", "0311"),
        ("the padlock's set to Mum's birthday - 0412", "0412"),
        ("the gun cabinet is our anniversary, 2006, keep it quiet", "2006"),
        ("茶叶柜的密码是老板娘生日0623", "0623"),
        ("档案柜，老会计生日，1104", "1104"),
    ],
    "a number told with how to remember it, in a sentence about what it opens": [
        ("Feed shed opens on 7831, the year we bought it backwards", "7831"),
        ("the boat store unlocks with 5512 — it's the berth number reversed", "5512"),
        ("后门密码6102，倒过来就是开业那年", "6102"),
    ],
    "a letter dial's word": [
        ("the tack box lock spells out PONY7 on its letter wheels", "PONY7"),
        ("the cello case word lock is set to HARP", "HARP"),
        ("my word lock: OTTER", "OTTER"),
        ("工具箱字母锁是 MAPLE", "MAPLE"),
    ],
    "a lock's wheels turned to one number, then it opens": [
        ("钓具箱的密码锁拨到418就开", "418"),
        ("旅行箱密码锁转到527就能打开", "527"),
        ("the costume trunk padlock turns to 309 and pops open", "309"),
    ],
    "a pairing code, or the keys pressed to pair a remote to a door": [
        ("车库门遥控器对码时按住学习键再输入4471", "4471"),
        ("新遥控器要对码，按两下再输5590", "5590"),
        ("电动伸缩门的遥控器配对码：8826", "8826"),
        ("re-pair the roller door remote by pressing 3927", "3927"),
    ],
    "a lock's code in parts by side, or its first part told with the rest held back": [
        ("修鞋铺工具柜，左边三位是418，右边三位是093", "418"),
        ("花店后门跟你说一半，头两位是38，剩下的明天说", "38"),
        ("冷库门前两位52，后两位等老周回来……算了，直接说吧，71", "71"),
        ("the first two digits of the greenhouse door are 47, rest later", "47"),
        ("the storeroom lock, left two digits 29, right two 06", "29"),
    ],
    "a login's user, then the password as the other one, no word for it": [
        ("酒馆的管理后台，账号 laowang，另一个是 Hops2023", "Hops2023"),
        ("报税网站，用户名 chenmei，然后是 Ledger2024", "Ledger2024"),
        ("the clinic portal user is drsmith, second bit is Stetho55", "Stetho55"),
        ("the camera app login is pond_cam, then the other one is Lily2022pad", "Lily2022pad"),
    ],
    "a key box's digits said in Chinese after a pause": [
        ("花房的钥匙盒，七七一九，用完拨乱", "七七一九"),
        ("工具间钥匙盒，4471，记得打乱", "4471"),
    ],
    "a one-time code said by how it came and that it runs out": [
        ("快递柜发来的那个码5521，快过期了", "5521"),
        ("银行发的那串数字482913，五分钟后就失效了", "482913"),
        ("the six digits the council texted, 662910, expire in five minutes", "662910"),
        ("the bank sent 907112, read it back before it expires", "907112"),
    ],
    "a generated run of letters in one case after an authorisation code's word": [
        ("网店后台的授权码 QWERTYUIOPASDFGH 别外传", "QWERTYUIOPASDFGH"),
        ("邮箱客户端授权码是ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOP"),
        ("财务邮箱的授权码zxcvbnmasdfghjkl记一下", "zxcvbnmasdfghjkl"),
    ],
    "a machine's start-up password after what must be typed": [
        ("收银电脑开机得输cashier88", "cashier88"),
        ("仓库那台电脑开机要输 stock2020", "stock2020"),
    ],
    "a code keyed where a till, a bank's USB key or a login asks for one": [
        ("退款要主管授权，敲6601就行", "6601"),
        ("退货要授权，输入9900", "9900"),
        ("网银的UKey插上以后输入246810", "246810"),
        ("K宝插上输135246", "135246"),
        ("refunds need a supervisor to authorise them, type 5512", "5512"),
        ("the bank dongle asks you to enter 204816 when you plug it in", "204816"),
    ],
    "a wifi key said as what connects, as the network's key (钥匙), on the wireless (无线)": [
        ("奶茶店wifi叫MilkTea_5G，milktea2024就能连上", "milktea2024"),
        ("面馆无线叫Noodle，连的时候输noodle8888", "noodle8888"),
        ("花店无线网叫FlowerShop，连上去要输rose5566", "rose5566"),
        ("wifi名 Bakery_Guest，钥匙 bread2024", "bread2024"),
        ("the barn wifi is BarnNet, type hayloft-2291 to connect", "hayloft-2291"),
        ("the wifi's KeZhang, yinzhang666 gets you on", "yinzhang666"),
        ("the wifi is KeZhang and you connect with yinzhang666", "yinzhang666"),
    ],
    "a code said as what it was and what it is now (both are secrets)": [
        ("收银机主管码原来是1111，现在改成7788了", "7788"),
        ("收银机主管码原来是1111，现在改成7788了", "1111"),
        ("POS机操作员密码以前是0000，现在是3691", "3691"),
        ("cashier login used to be 0000, now 2580", "2580"),
        ("the gate code was 1234, now 5678", "1234"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a birthday said as a date, a cake's box, a birthday stated, not a code
    "老周生日0917，记得买蛋糕",
    "Dave's birthday, 1207, we're getting a cake",
    "the container for Dave's birthday cake is in the fridge",
    "the lifejacket container is by the door, Dave's birthday is 1207",
    "柜子里放着老团长生日0917那天的照片",
    # hours, a price or a count learnt backwards
    "the store opens on 0900, easy to remember",
    "the bill was 2991, which is 1992 backwards, funny",
    "Count backwards from 1000 to test the mic",
    "the zip code 94110 reversed is 01149",
    # a lock's word said of it, not its word
    "the water tank lock is rusty, spells trouble",
    "the letter dial on the old safe is broken",
    "word lock: the one with letters",
    # a dial or a volume turned, a store's number
    "音量调到100就开了",
    "道具箱转到606号仓库",
    "turn the oven to 180 and it opens fine",
    # pairing talk, a count held down
    "蓝牙音箱配对的时候按住电源键3秒",
    "遥控器配对不上，按了好几次",
    "核对码数按1234号单子来",
    # a house number's, a plate's, a phone's first digits; pages and rows
    "仓库门牌号前两位是12",
    "车牌前两位是京A，后两位是88",
    "手机号前三位139，后四位5678",
    "the first two pages of the door manual are 12 and 13",
    "first two rows of the lockers, 12 each",
    "the first two of the door panel screws are 12mm",
    # a user named, then what the other one is about
    "用户名lizhitan，后面那个是2024年注册的",
    "用户名 lizhitan，然后是2024年注册的",
    "the username is lizhitan, the other one is his brother's",
    # a key box said of, not opened
    "钥匙盒，2019年买的，还挺好用",
    # an order's number, points, a voucher, a card that expire
    "供应商平台发的那个订单号962731，明天过期",
    "优惠券发来的6000积分要过期了",
    "发来的合同编号202401要过期了",
    "the voucher they sent, 2500 points, expires Friday",
    "my membership card expires 2027, they sent a new one",
    "the parcel was sent on 1204 and the insurance expires in 2025",
    # where an authorisation code is, a product by the key word
    "邮箱的授权码在手机上",
    "密码Bitwarden里有",
    # what a machine wants before it starts, not the password
    "雕刻机开机要等5分钟",
    "电脑开机要输密码，问老板",
    # amounts keyed, money lost, a count
    "打牌输了2000",
    "登录后输2000元充值",
    "收银退菜要授权，输入金额再确认",
    "退款1000元以上要主管授权",
    "U盘插上输1234份文件",
    "enter 2024 as the year and authorise the payment",
    "the authorised dealer said to enter 2024 as the year",
    "the till void needs authorising, just put in 5588",
    # a wifi's name, no key given; a radio
    "wifi叫KeZhang就能连",
    "店里wifi叫KeZhang，不用密码就能连",
    "wifi名popcorn_stand，钥匙在吧台",
    "店里无线TanMianHua，信号不太好",
    "无线电频道是1234",
    "the wifi is KeZhang, connect with your phone",
    # a price, a room, a time, a person that changed
    "POS机价格原来是1999，现在改成2999了",
    "房间原来是1203，现在换成1505了",
    "POS操作员01原来是小王，现在改成小李了",
    "the till was 1200, now 1300 after lunch",
    "the login page was 2019, now 2024 redesign",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


@pytest.mark.parametrize(
    "text",
    [
        "菜园wifi叫Veggie_01，密码在工具棚门背后",
        "wifi叫Orchard_2G，密码就在路由器底下",
    ],
)
def test_a_network_named_with_its_key_kept_somewhere_is_public(text: str) -> None:
    # where the key is, not the key: the network's name is broadcast
    name = text.split("叫")[1].split("，")[0]
    assert any(name in text[a:b] for a, b in public_spans(text, text.lower()))
    assert find_secrets(text, contacts=False) == []


def test_both_halves_of_a_code_held_back_and_then_given_are_redacted() -> None:
    found = values("冷库门前两位52，后两位等老周回来……算了，直接说吧，71")
    assert "52" in found and "71" in found
