"""Secrets round 13 (issue 29): each kind h13 missed or flagged, with new sentences made
up for these tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "recovery words read out in parts: 'starts with ...', 'the rest goes ...'": [
        (
            "The multisig backup seed begins with amber, and the rest goes pencil radar hollow "
            "ribbon meadow spark orbit",
            "pencil radar hollow ribbon meadow spark",
        ),
        (
            "The recovery phrase runs ocean drift candle meadow raven glove spark anchor",
            "ocean drift candle meadow raven glove",
        ),
    ],
    "a bank's memorable word or memorable information": [
        ("Mum's memorable word for the building society is Marigold.", "Marigold"),
        ("Memorable information: Snowdrop, for the savings login", "Snowdrop"),
    ],
    "'the pass is X' in a sentence giving the login's e-mail address": [
        ("his steam is tom.b@hotmail.com and the pass is Creeper_77x lol", "Creeper_77x"),
        ("club inbox rowing.sec@club.org.uk, the pass is Oars4Days! for now", "Oars4Days"),
    ],
    "a Lightning node's macaroon": [
        ("The node's readonly macaroon: 0201036c6e64025a03810a9c4f1e7b2d30", "0201036c6e64"),
        ("invoice macaroon is 02010b6c6e6402a1f00c7d4e9b1a5530fe if the app asks", "02010b6c"),
    ],
    "a device's lockout or override code": [
        ("Kiln controller override code is nine one one four.", "nine one one four"),
        ("The heat press lockout code is two zero four eight.", "two zero four eight"),
    ],
    "a cash box or strongbox and its dial's numbers": [
        ("Note to self: market stall cash box = 14-52-08", "14-52-08"),
        ("The strongbox under the stairs is 33-07-21", "33-07-21"),
    ],
    "a made-up token 'for' a login or service, no noun": [
        ("ok it's Harbour_Lights_7 for the bar's netflix", "Harbour_Lights_7"),
        ("bro it's Salty_Dog_55 for the boat club spotify", "Salty_Dog_55"),
    ],
    "written numbers keyed in turn with 'then' or 再": [
        ("The bike shed keypad is 47 then 02, then pull hard.", "47 then 02"),
        ("后门门禁是 28 再 91，按完等一秒", "28 再 91"),
    ],
    "a service menu's code with * and #, or 进入码 / 工程码 / 维修码": [
        ("电梯维修码 *#7302#，物业专用", "*#7302#"),
        ("复印机进入码是 *#8810#", "*#8810#"),
    ],
    "a password said changed or unchanged, then its value (改了，新的是 X)": [
        ("路由器密码换了，新的是 qiezi2025chao，别外传", "qiezi2025chao"),
        ("仓库密码锁还是没改，是 七三零五", "七三零五"),
        ("办公室电脑的开机密码一直没变，还是 246810", "246810"),
    ],
    "验证码 in pinyin (yzm, yanzhengma)": [
        ("yzm 发过来了：582047，帮我登一下", "582047"),
        ("yanzhengma 是 7310", "7310"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # words after "goes" or "starts with" that are no wallet's list
    "The seed catalogue starts with tomatoes and the rest goes on beans and peas.",
    "The story goes like this: the backup ran late and then the team went home.",
    # memorable things that are no bank's word
    "The most memorable word of the trip was 'fika'.",
    # a pass that is a ticket, beside an e-mail address
    "Email mo@shop.com about the festival, the pass is valid until 2026.",
    "Write to ana@club.org, the pass is 45 pounds a month.",
    # a macaroon to eat
    "The bakery's pistachio macaroon is 2 pounds 50.",
    # an override said, no code given
    "The override code is in the manual, page 14.",
    # a cash box with money or a date, not a dial
    "The cash box holds 250 pounds in notes.",
    "Cash box count on 12-05-24 was 340 pounds.",
    # a token for a thing that logs nothing in, or a name's shape
    "it's model_v2_final for the app store screenshots",
    "it's Room_101 for the meeting",
    # numbers one after another that are no code
    "The door is 2 then 3 steps down from the street.",
    "Platform 12 then 14 for the Leeds train.",
    "Our side door was 20 then 25 years old.",
    # a phone's own menu code, said as public
    "手机输入 *#06# 可以查看 IMEI",
    # a password changed, no value
    "密码改了，是 2024 年的事",
    "密码一直没变，还是老样子",
    # a landline with a six-digit line, and a key's public ID or fingerprint
    "The ferry office phone is 01983 760442, open till six.",
    "My GPG key ID is 0x7B21C9E4, it's on the keyserver.",
    "Signing key fingerprint: 9A3C 77B2 0D18 C5E6 9F02 A1B3 C4D5 E6F7",
    "我的公钥指纹是 4E1F9A3C77B2，欢迎核对",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


def test_a_six_digit_line_is_a_contact_not_a_secret() -> None:
    text = "The ferry office phone is 01983 760442, open till six."
    assert [h.kind for h in find_secrets(text)] == ["phone_number"]


def test_a_key_id_is_public_but_an_access_key_is_not() -> None:
    text = "My PGP key ID is 0x3C88A0F1, put it on the site."
    assert [text[s:e] for s, e in public_spans(text, text.lower())] == ["0x3C88A0F1"]
    text = "The access key ID is AKIAQWERTYUIOPASDF12 and the private key 3f9a1c7be2d04f6a8b1c"
    assert public_spans(text, text.lower()) == []
    assert find_secrets(text, contacts=False)
