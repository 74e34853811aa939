"""Secrets round 52: each kind h57 missed, with new sentences made up for these tests: a
login lent at a cash register (a "till" said after "her", "my": the machine, not "until") and
then "it's" and digits that read as a time, a one-time code of capitals and digits said to have
come through (验证码刚发过来，是 X), a wifi's key quoted right after its word with no link, a
gift card's or a voucher's code in capitals and digits after the card's name (礼品卡, 充值卡);
and the ordinary notes of the same look that must pass (a till's closing time, an order's or
a flight's code that came through, a wifi key's quoted word about it, a promo voucher, a gift
card's order or batch), with the notes h57 flagged in general: a network named by its band after
是 or a colon (wifi 是 X_2.4G), a product's ratings listed with their units (12V, IP67, 4000K)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a login lent at a till (the machine), then 'it's' and digits that read as a time": [
        ("Dana's away this week, so use her till login, it's 2245", "2245"),
        ("borrow my till login, it's 0915", "0915"),
        ("the till login for the Saturday staff, it's 0745", "0745"),
        ("小周请假，用她的收银登录，是 2245", "2245"),
    ],
    "a one-time code of capitals and digits said to have come through": [
        ("the verification code just came through as Z3K8Q", "Z3K8Q"),
        ("my 2FA code came in as 4KXP7, quick before it times out", "4KXP7"),
        ("the login code from the game launcher just came through as 7QK2M, sign in now", "7QK2M"),
        ("验证码刚发过来，是 K7P2X，赶紧登录", "K7P2X"),
        ("登录验证码发过来了 Q4M8T，五分钟内有效", "Q4M8T"),
    ],
    "a wifi's key quoted right after its word, no link": [
        ('staff wifi upstairs: Harbour_Office5G, key "mangoandlime"', "mangoandlime"),
        ('the cafe wifi: BeanBar5G, password "toastedalmonds"', "toastedalmonds"),
        ("the hotspot, key ‘lemonsherbet’", "lemonsherbet"),
        ("店里无线 MianGuan_2F，密码“hongshaoniurou”", "hongshaoniurou"),
        ('wifi 叫 TeaRoom5G，密码 "jasminetea"', "jasminetea"),
    ],
    "a gift card's or a voucher's code in capitals and digits, after the card's name": [
        ("the raffle's gift card: 7QMD-K4PX-H2TR-9VWL, still unused", "7QMD-K4PX-H2TR-9VWL"),
        ("the e-gift voucher for Sam: QK7M-2XPD-9LRT", "QK7M-2XPD-9LRT"),
        ("top-up card for the work phone, 7KQ2 9XMP 4LRT 8WZN", "7KQ2 9XMP 4LRT 8WZN"),
        ("the prepaid card for the arcade is K7QM2XPD9LRT", "K7QM2XPD9LRT"),
        ("礼品卡给你：KQ7M-2XPD-9LRT-4HWN，还没兑换", "KQ7M-2XPD-9LRT-4HWN"),
        ("充值卡 QK47-XM29-PL83，别发群里", "QK47-XM29-PL83"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a till's hours, a login that timed out, a time going on
    "the till closes at six, it's 1745 now",
    "I'm on the till till six, it's 1130 now",
    "his till login timed out, it's 1130 now",
    "收银登录，是 0830 开始",
    # an order's, a parcel's or a flight's code that came through; another number's
    "the tracking code came through as DX42KQ",
    "the order code came through as AB12CD, delivery tomorrow",
    "the confirmation code came through as XK42PR for the flight",
    "验证码没收到，工单号 QK7M2X",
    "the SMS code came through for the 4G plan",
    # a quoted word about a wifi's key, or where it is
    'the wifi password "unchanged"',
    'the wifi key "see the fridge"',
    'wifi key "printed-underneath"',
    # a network named by its band after 是 or a colon, no key given
    "家里 wifi 是 HOME_2.4G，5G 那个太慢别连。",
    "办公室 wifi 是 Office_5G，2.4G 那个信号差。",
    "前台 wifi: TEA_2.4G",
    "the shop wifi is CAFE_2.4G, the 5G one drops out",
    # a product's ratings listed with their units
    "Panel light is 12V, 9.6W/m, IP67, 4000K.",
    "The tape is 12V, 4.8W/m, IP20, 2700K.",
    "灯带是 12V，9.6W/m，IP44，4000K。",
    "Charger is 5V, 3A, 15W, USB-C.",
    "Bulb: 7W, 806lm, 2700K, E27.",
    # a promo voucher, a gift card's order, batch, balance or last digits
    "promo voucher WELCOME2024 for 10% off",
    "gift card order QK7M-2XPD-9LRT shipped",
    "the gift voucher batch QK7M-2XPD-9LRT arrived",
    "Gift cards: £10, £25, £50 in stock",
    "gift card ending 4471, balance £12",
    "礼品卡订单号 QK7M-2XPD-9LRT 已发货",
    "the voucher discount code SAVE-2025-XMAS",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
