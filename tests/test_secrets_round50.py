"""Secrets round 50: each kind h55 missed, with new sentences made up for these tests: a wifi
named, then "the key's" and its key, a code said to have come in, in two groups of three, a
service's login as an e-mail and a password under a noun typed in haste (passwrd, 密玛; a slash
between its digits), a licence number of a UK driving licence's layout or a learner's licence,
a wifi's quoted name then "pw" and words joined, a device's verification or activation code of
capitals and digits, a numbered locker, a colon and its code (spaced or said), a hotspot's
name / key, an alarm's code right after it (七二九一); and the ordinary notes of the same look
that must pass (a key said to be somewhere, an order or a tracking code that came, a licence's
category or a premises licence's number, a flight's confirmation code, a code on a sticker with
none given, a locker's year or price, a smoke alarm's model, hot topics with a slash)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "a wifi named, then 'the key's' and its key": [
        ("the cafe wifi is Bean_Lounge and the key's harb0urlights", "harb0urlights"),
        ("guest wifi Loft-Net, key's sailandanchor", "sailandanchor"),
    ],
    "a code said to have come in, in two groups of three digits": [
        ("the code from the pharmacy site just arrived, 772 405", "772 405"),
        ("code from the council's app came through: 530 118", "530 118"),
        ("平台的码刚发过来，417 262", "417 262"),
    ],
    "a service's login: an e-mail, then the password under a noun typed in haste": [
        ("Netflix for the staff room: staff.tv@proton.me, passwrd Popcorn7/7!", "Popcorn7/7"),
        ("Deezer for the salon: salon.tunes@outlook.com, paswd Waltz3/4time", "Waltz3/4time"),
        ("店里的音乐账号：music.shop@163.com，密玛 Guitar7/8!", "Guitar7/8"),
    ],
    "a licence number of a UK driving licence's layout, or a learner's licence": [
        ("licence no. for the van hire is JONES710224AB9CD", "JONES710224AB9CD"),
        ("Dan's licence number for the lesson: HARRI806123DJ9AB", "HARRI806123DJ9AB"),
        ("my learner's licence number is 8813 2290 1174", "8813 2290 1174"),
    ],
    "a wifi's quoted name, then pw and plain words joined": [
        ('wifi "Tackle_Shop" pw lureandline', "lureandline"),
        ("wifi “Den” pw gooseberryfool", "gooseberryfool"),
        ("wifi 'Pottery' pw clayandwheel", "clayandwheel"),
    ],
    "a device's verification or activation code of capitals and digits": [
        ("the doorbell app's verification code is 7KQZ2W, on the label", "7KQZ2W"),
        ("activation code for the baby monitor: XK42PR", "XK42PR"),
        ("camera verification code 8HRT3K", "8HRT3K"),
        ("门铃的设备验证码是 K3WQ9P，贴在背面", "K3WQ9P"),
    ],
    "a numbered locker, a colon, then its code spaced or said": [
        ("更衣柜 12 号：3 8 2 9", "3 8 2 9"),
        ("工具柜 7 号：五三八二", "五三八二"),
        ("储物柜3号：2604", "2604"),
    ],
    "a hotspot's name / key": [
        ("garage hotspot: Shed_Net / qwerty9876zx", "qwerty9876zx"),
        ("手机热点：Xiaomi_Hot / qwe12345rt", "qwe12345rt"),
        ("my hotspot is Pixel_7 / tarmac88road", "tarmac88road"),
        ("car hotspot: Golf_Hot / winding-road-77", "winding-road-77"),
    ],
    "an alarm's code right after it, in Chinese numerals or digits": [
        ("仓库报警器 三九二七", "三九二七"),
        ("面馆报警器 七二九一", "七二九一"),
        ("店里报警器 3927", "3927"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


def test_the_hotspot_name_before_the_slash_is_no_key() -> None:
    assert values("my hotspot is Pixel_7 / tarmac88road") == ["tarmac88road"]


ORDINARY = [
    # a wifi named and its key said to be somewhere, or talked about
    "the wifi is Bean_Lounge and the key's on the fridge",
    "the wifi is Bean_Lounge, the key's changed",
    'wifi "Tackle_Shop" pw required',
    'the wifi "Tackle_Shop" is slow again, restart the router',
    "the wifi at Jo's place pw required",
    "热点 Stall_Hot 今天网速很慢",
    # an order, a tracking code or a page count that came in
    "the order from the fabric supplier just came through, 882 091",
    "the tracking code from the courier just came through, 882 091",
    "the code from the printer came through, 120 pages",
    "二维码刚发过来，882 091",
    "优惠码刚发来，100 200",
    # a login's label and talk about its password
    "Reminder: Sam, password reset sent",
    "Netflix for the staff room: staff.tv@proton.me, passwrd changed last week",
    # a licence's category, a premises' or a TV licence's number
    "my driving licence covers category B and C1, test booked for June",
    "the premises licence number is PL-40917, on the wall",
    "TV licence number 1234 5678 90, renew in May",
    # a flight's confirmation code, a code on a sticker with none given, a model's code
    "the flight confirmation code is K7PQ2X, check in opens tomorrow",
    "the verification code is on the sticker under the camera",
    "the verification code is EXPIRED, ask for a new one",
    "the device code is DS7104N on the box",
    # a locker's number with a year, a price or a count; a freezer's
    "储物柜 3 号：2019",
    "储物柜 3 号：1500 日元",
    "储物柜 3 号：2 件行李",
    "冰柜 3 号：1200",
    # a smoke alarm's number, an alarm's year, count or price
    "烟雾报警器 3927",
    "报警器 2019 年装的",
    "报警器 三个，装在门口",
    "报警器 1200 块",
    # hot topics with a slash, a path
    "今日热点：AI / Web3 / 新能源",
    "本周热点：ChatGPT5 / Sora2024 / 新能源",
    "热点 config: Android/data12345/files",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
