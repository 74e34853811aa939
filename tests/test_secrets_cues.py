"""Secrets said without a secret noun, or in shapes the noun-and-link reading misses
(issue 29): a code a thing opens with, a dial, a spelled value, a login pair, a key-like
string by a word of keys, zh 口令/门禁/取件码/助记词 — each by family, with the ordinary
facts of the same look that must pass."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remem.secrets import find_secrets, redact


def values(text: str) -> list[str]:
    return [text[h.span[0] : h.span[1]] for h in find_secrets(text)]


FAMILIES = {
    "no noun, a thing it opens": [
        ("punch in 4821 at the side gate", "4821"),
        ("the lockbox at the cabin opens with 7719", "7719"),
        ("I changed the garage keypad to 6402 yesterday", "6402"),
        ("Set my locker to 3318 so I won't forget.", "3318"),
        ("the code to the back door is 1 1 3 8", "1 1 3 8"),
        ("Code for the mailbox: 2290", "2290"),
        ("the keypad by the loading dock takes 9091", "9091"),
        ("Just tap 3344 on the panel and the door unlocks", "3344"),
        ("Entry to the building: 1470#", "1470#"),
        ("The shed padlock is 0-2-2-7", "0-2-2-7"),
        ("进门按 2580# 就行", "2580#"),
        ("家门口的智能锁 输入 468213 就开", "468213"),
        ("行李箱密码 3-7-1", "3-7-1"),
    ],
    "a dial": [
        ("padlock combination: right 14, left 30, right 2", "right 14, left 30, right 2"),
        ("the gym locker combo is 22 left, 8 right, 30 left", "22 left, 8 right, 30 left"),
        ("柜子的密码：右转 12，左转 40，再右转 7", "右转 12，左转 40，再右转 7"),
    ],
    "spelled or counted": [
        ("spelled out, the vault pass is: capital Q, w, e, r, 7, 7, hash", "capital Q"),
        ("the router password: b as in bravo, 7, lowercase x, 2, at sign", "b as in bravo"),
        ("my bank PIN is nine four two seven", "nine four two seven"),
        ("支付密码是六个八", "六个八"),
        ("our hotspot is 99887766", "99887766"),
    ],
    "a login pair or a password's shape by a login": [
        ("creds for the printer are sysop/letmein", "letmein"),
        ("creds are root / toor", "toor"),
        ("账号和密码都是 guest/guest2024", "guest2024"),
        ("路由器后台 admin / Router#88", "Router#88"),
        ("user kwilson pass Maple#Leaf7", "Maple#Leaf7"),
        ("to unlock my laptop type Sparrow*55", "Sparrow*55"),
        ("路由器管理密码跟 wifi 一样，都是 tplink@2024", "tplink@2024"),
        ("The new password my manager chose is Orchid!2026", "Orchid!2026"),
        ("the alarm code they gave us is 8802", "8802"),
        ("The ATM code's 5813", "5813"),
    ],
    "a key-like string by a word of keys": [
        ("VPN secret: 8fK2mQ9xL4vB7nR3tY6wZ1cE5", "8fK2mQ9xL4vB7nR3tY6wZ1cE5"),
        (
            "Mailgun key: key-3f8e2a91c7d4b6e05a1f9c3d7b2e4a68",
            "key-3f8e2a91c7d4b6e05a1f9c3d7b2e4a68",
        ),
        ("百度地图的 ak 是 7d0f4a683f9a7c218e4b4d6fa1c59b2e", "7d0f4a683f9a7c218e4b4d6fa1c59b2e"),
        ("AK：LTAI5tQp2Kx9Rm7Vb3Nc8Wd", "LTAI5tQp2Kx9Rm7Vb3Nc8Wd"),
    ],
    "zh words, phrases and IDs": [
        ("口令是 天王盖地虎", "天王盖地虎"),
        (
            "钱包助记词：森林 河马 铅笔 月饼 雨伞 火车 台灯 海鸥",
            "森林 河马 铅笔 月饼 雨伞 火车 台灯 海鸥",
        ),
        ("单元门门禁 3916#", "3916#"),
        ("菜鸟驿站取件码 6-2-1-8", "6-2-1-8"),
        ("他的港澳通行证号码是 C81234567", "C81234567"),
        ("信用卡背面三位数 418", "418"),
        ("WiFi 的密码短语是 春眠不觉晓2024", "春眠不觉晓2024"),
    ],
    "a wifi, a half, a value after a colon": [
        ("the wifi here is Gr33n-Tea!", "Gr33n-Tea!"),
        ("the wifi is fox-9-lantern", "fox-9-lantern"),
        ("the storage locker opens on 7-21-3", "7-21-3"),
        ("first part of the pin is 51, second part is 09", "51"),
        ("密码一半是 xyz，另一半是 456#", "456#"),
        ("the password is my street plus the year: Elm1987", "Elm1987"),
        ("接头暗号：月亮很圆", "月亮很圆"),
        ("保险柜密码是左两圈到 12，右一圈到 30", "左两圈到 12，右一圈到 30"),
    ],
    "said after the value, or with the same value as another": [
        ("keypad by the stairs: 6120 to disarm", "6120"),
        ("the gym's door code this week is 5541*", "5541*"),
        ("支付密码跟开机密码一样，都是 730915", "730915"),
        ("车库门 2580 就能开门", "2580"),
    ],
    "a value after 'it's', a comma or a colon of its own": [
        ("it's 7 3 0 2 for the side door", "7 3 0 2"),
        ("shed: 5190", "5190"),
        ("if the laptop asks for a PIN, it's 8080", "8080"),
        ("the wiki password changed, the new one is Teal-Otter-51", "Teal-Otter-51"),
        ("Dad's passcode is mum's birthday, 0412", "0412"),
        ("The lock screen code on my phone is 3691", "3691"),
    ],
    "pairs, dashes, dials and card codes said short": [
        ("Confluence login — sam.lee / Sl_19991231", "Sl_19991231"),
        ("the shared login for the lab PC is lab and lab2024x", "lab2024x"),
        ("Combination: 12-30-7", "12-30-7"),
        ("PIN — 4620", "4620"),
        ("keycode 3391 for the loading dock gate", "3391"),
        ("card ending 5521, CVV 884", "884"),
        ("信用卡安全码是 527", "527"),
    ],
    "weak pairs, spelled after a colon, a wifi's key": [
        ("用户名 oracle 密码 orcl", "orcl"),
        ("数据库账号 dev，密码 devpass", "devpass"),
        ("账密 guest guest01", "guest01"),
        ("username pi password Rasp3erry", "Rasp3erry"),
        ("The alarm PIN is four digits: 7, 3, 1, 1.", "7, 3, 1, 1"),
        ("Side gate keypad: star, 2, 2, 8, 6, pound", "star, 2, 2, 8, 6, pound"),
        ("the gym locker combination is 5 right 18 left 33 right", "5 right 18 left 33 right"),
        ("office wifi is Acme-Staff, the key is walnut2021", "walnut2021"),
    ],
    "a quoted half or a word": [
        ('the password is in two parts, "maple" and "Tree88!"', "Tree88!"),
        ('Secret word for the kids\' pickup is "blueberry"', "blueberry"),
        ("code word for the gate guard: flamingo", "flamingo"),
    ],
}
CASES = [(family, text, value) for family, rows in FAMILIES.items() for text, value in rows]


@pytest.mark.parametrize(("family", "text", "value"), CASES)
def test_each_family_is_found_and_redacted(family: str, text: str, value: str) -> None:
    found = values(text)
    assert any(value in v or v in value for v in found), (family, found)
    assert value not in redact(text)


def test_a_password_the_same_as_its_user_is_found() -> None:
    assert values("username admin password admin") == ["admin"]
    assert values("用户名 root 密码 root") == ["root"]


@pytest.mark.parametrize(
    "text",
    [
        "I set the alarm to 0630 for tomorrow.",
        "The zip code for the office is 94110.",
        "The error code was 0x80070005 when the update failed.",
        "The promo code SUMMER2024 gives 20% off.",
        "The wifi network is called CoffeeShop and it's free.",
        "Office guest wifi is Acme-Guest, password is on the fridge.",
        "WiFi 6E routers support the 6 GHz band.",
        "Press 1 for English, then 3 for billing.",
        "Enter 2024 as the year in the form.",
        "Gate 82 is at the far end of terminal B.",
        "My locker is number 118 near the showers.",
        "The gate is 200 meters past the bridge.",
        "Turn left on 5th street, then right on Main.",
        "Left 3 lanes closed, right 2 open on I-95.",
        "Login is via SSO/SAML for everyone.",
        "the login flow is email/password based",
        'Credentials are stored in 1Password under "Infra".',
        "The host key fingerprint is SHA256:nQ7bg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8.",
        "Our commit 3f8e2a91c7d4b6e05a1f9c3d7b2e4a68c0ffee12 fixed the bug.",
        "部署用的密钥名字叫 staging-deploy-2025",
        "Work laptop SSH key is id_ed25519_laptop.",
        "Her Instagram handle is @sunny_days_2020.",
        "The front desk number is (212) 555-0199.",
        "Write to support@example.org for refunds.",
        "Chase's routing number in Texas is 111000614.",
        "这盒牛奶的条形码是 6925303773106",
        "口令要定期更换。",
        "口令是什么来着，我忘了。",
        "快递柜在小区东门，编号 3 号。",
        "密码至少要 12 位，包含大小写字母。",
        "the wifi is down again",
        'The safe word in our improv class is "pineapple".',
        "My daughter's locker is number 1127.",
        "Set the oven to 180 and bake for 25 minutes.",
        "The lottery numbers were 4 8 15 16 23 42.",
        "我家楼下的快递柜编号是 0037",
        "user name password fields are required",
        "username admin password reset link expired",
        "login via password manager",
        "用户名 和 密码 都要填",
        "We need 2 left, 3 right and 1 center speaker.",
        "The combination lock was cheap, maybe 15 dollars.",
        "WPA3 is more secure than WPA2.",
        "The server is db.internal:5432 for the login service.",
        "The PIN pad is broken, use the other one.",
        "I changed my PIN on May 5, 2023",
        "The code is messy, it's 2000 lines long.",
        "We paid 1500 for the garage door.",
        "Forgot the password, it's been a week.",
        "To disarm the alarm you need the app now.",
        "The alarm panel is next to the front door.",
        "支付宝的花呗额度是 5000",
        "信用卡账单 2380 元，25 号还款",
        "会议号 123 456 789，晚上 8 点",
        "账号被冻结了，要打客服电话 95588",
        "the wifi is faster on the 5GHz band",
        "The safe opens in the morning when the bank opens.",
        "We split the bill: half is mine, the other half is Tom's.",
        "First part of the meeting is at 10, second part at 14.",
        "The code is on GitHub under acme/tools.",
        "暗号这个游戏小朋友很喜欢",
        "密码最好一半字母一半数字",
    ],
)
def test_ordinary_facts_of_the_same_look_pass(text: str) -> None:
    assert find_secrets(text) == []


ACCESS = st.sampled_from(
    [
        "the {what} opens with {v}",
        "punch in {v} at the {what}",
        "I set the {what} to {v}",
        "code for the {what} is {v}",
        "the {what} code is now {v}",
        "press {v} on the {what} keypad",
    ]
)
WHAT = st.sampled_from(["side gate", "storage locker", "safe", "lockbox", "garage", "back door"])
CODE = st.lists(st.integers(0, 9), min_size=4, max_size=6).flatmap(
    lambda ds: st.sampled_from(["", " ", "-"]).map(lambda sep: sep.join(map(str, ds)))
)


@settings(max_examples=150, deadline=None)
@given(ACCESS, WHAT, CODE)
def test_generated_access_codes_are_found(said: str, what: str, v: str) -> None:
    text = said.format(what=what, v=v)
    assert any(v in found for found in values(text)), text


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["left", "right"]), st.integers(0, 59)), min_size=3, max_size=4
    ),  # fmt: skip
    st.sampled_from(["locker combination", "safe combo", "padlock combination"]),
)
def test_generated_dials_are_found(turns: list[tuple[str, int]], key: str) -> None:
    dial = ", ".join(f"{side} {n}" for side, n in turns)
    assert values(f"The {key}: {dial}") != []
