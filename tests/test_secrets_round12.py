"""Secrets round 12 (issue 29): each kind h12 missed or flagged, with new sentences made
up for these tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "a device's stock user, 'and then' or 后面是, then the password": [
        ("The doorbell camera: it's admin and then heron-4417, no caps.", "heron-4417"),
        ("Garage NVR login is admin and then maple-six-six, with dashes.", "maple-six-six"),
        ("仓库的摄像头：账号 admin，后面是 cangku-n7-zz", "cangku-n7-zz"),
        ("打印机后台用户名 root，后面跟 hp-office-2231", "hp-office-2231"),
    ],
    "a password in halves, one named by its noun, the other said to be joined": [
        ("Sending it in two goes: first half of the laptop pass is Marmoset", "Marmoset"),
        ("The other half is Lake77!Shore, no spaces between the two.", "Lake77!Shore"),
        ("second part is Kettle_88Blue, put them together when you log in", "Kettle_88Blue"),
        ("后半段是 Qi9_Lan，跟前半段连起来用。", "Qi9_Lan"),
    ],
    "the pass for a thing, a made-up value after 'is'": [
        ("the pass for the community hall iPad is basically hallkey2291", "hallkey2291"),
        ("Pass to the studio mixer is just Fader88Up, don't change it.", "Fader88Up"),
        ("fyi the pass on the lab desktop is sn0wdrop44", "sn0wdrop44"),
    ],
    "a locker or lock at a place, a colon, then its code": [
        ("Bag locker at the climbing gym: three nine zero six.", "three nine zero six"),
        ("Padlock on the allotment shed: 8157.", "8157"),
        ("Gate behind the bakery: 2649, the buzzer is broken.", "2649"),
    ],
    "a network's key after its name, no wifi said": [
        ("Barn network FarmNet2, key harvest-moon-77", "harvest-moon-77"),
        ("Cottage network Heather_Lodge, key Bluebell2Wood", "Bluebell2Wood"),
        ("民宿的 network SeaView5，key shell-beach-42", "shell-beach-42"),
        # the model's alone until this round (tests/test_secrets_model.py)
        ("Guest network at the lake house: Birch_Lane, pass q7Vm3xTz.", "q7Vm3xTz"),
    ],
    "a user and a bare 'pass' given as a pair": [
        ("Lab microscope workstation user optics, pass Prism-Lens-77.", "Prism-Lens-77"),
        ("the kiosk: user shopfront, pass Till#2024", "Till#2024"),
        ("会议室电脑 user meeting1，pass Board-Room-9", "Board-Room-9"),
    ],
    "words and digits right after 'pw' or 'password'": [
        ("the allotment forum is @greenbeans pw runner_beans_47, don't tell", "runner_beans_47"),
        ("my old blog login, password tea_and_toast_19 if you need it", "tea_and_toast_19"),
        ("论坛账号 @xiaoyu pw moon_cake_88，别外传", "moon_cake_88"),
    ],
    "a thing locked with a number": [
        ("The pottery wheel's timer panel is locked with 3390, like the studio year.", "3390"),
        ("My diary app is secured with 7714, please don't peek.", "7714"),
        ("The gun cabinet is locked with the code 5582.", "5582"),
        ("家里的平板用 6201 锁着，孩子别乱玩。", "6201"),
    ],
    "a word list given by its count, no wallet named": [
        (
            "前六个：amber lunar shift cable ocean tiger，剩下的明天发你。",
            "amber lunar shift cable",
        ),
        (
            "last six: glove radar pencil fossil orbit candle — together with the first six",
            "glove radar pencil fossil",
        ),
        ("Words 7-12 are hollow vivid canyon ribbon spark meadow", "hollow vivid canyon ribbon"),
    ],
    "a login code in Chinese (登录码)": [
        ("快递柜App的临时登录码 730418，今晚失效。", "730418"),
        ("后台登录码是 551920，五分钟内有效。", "551920"),
        ("网吧给的登陆码 928174 别告诉别人", "928174"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a stock user named, then the next thing done, no password
    "The account is admin and then the backups run at night.",
    "我是 admin，后面是周报的事情。",
    # halves that are no password's
    "The first half of the match was dull, the second half is 2-1 so far.",
    "The second half is Tuesday, the whole workshop together takes a week.",
    "前半段是开场白，后半段连起来讲案例。",
    # a pass that is a ticket or a permit
    "The pass for the museum is valid until 2026.",
    "The bus pass for zones 1-4 is 55 pounds a month.",
    "My boarding pass for the flight is on my phone, gate B12.",
    # a place, a colon and a number that is no code
    "Locker at the gym: 2024 membership renewed in March.",
    "Gate at the station: 15 minutes walk from the hotel.",
    "The door at the back: 2 steps down, mind your head.",
    # a network that is no wifi
    "The network team, key contact is Priya.",
    "Our social network has 12000 members now.",
    # a user without a pass, a pass that is no password
    "The kiosk user sees the menu, pass the order to the kitchen.",
    # words and digits after a noun that is no password
    "The tracking page shows parcel_status_22 for now.",
    # locked with things, not numbers
    "The bike is locked with 2 chains outside the office.",
    "Our backups are protected by 256-bit encryption.",
    "The shed is secured with 1200 pounds of concrete blocks.",
    # word lists that are no secret
    "The last six: red, orange, yellow, green, blue, purple.",
    "前六个：苹果 香蕉 橘子 葡萄 西瓜 梨，都是今天要买的。",
    # a login code talked about, no code given
    "临时登录码收不到的话，打客服电话。",
    # a phrase said with what it means: a signal to staff, heard by anyone
    'Staff code phrase at the pool: "Mr Splash to the office" means a child is lost.',
    'At the cinema, "Inspector Reels to screen four" is the signal for a fire.',
    "超市广播里「请保洁员到三号收银台」表示有人摔倒了。",
    # a make and model said with its size, weight or price
    "新买的保险柜是艾谱 3081，高 60 厘米，一百多斤。",
    "买了个密码箱，选了得力 5521，宽 40 厘米。",
    "The new safe is Honeywell 2087, 30 litres inside.",
    "We got the Yale 7730 in the end, 12 kg and about $90.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


@pytest.mark.parametrize(
    "text",
    [
        'Our family code word is "blue heron" — it means the call is really from us.',
        'Our safe word for the kids is "pineapple", it means it is really me calling.',
        "保险箱是爷爷生日 196208。",  # no spec after it: the code, not a model
        "保险箱密码是 3081，高 60 厘米的那个。",  # a code named: no model
    ],
)
def test_a_secret_beside_a_meaning_or_a_spec_is_still_found(text: str) -> None:
    assert values(text), text


def test_signal_phrases_and_models_are_public_spans() -> None:
    text = 'Code phrase for staff: "Doctor Green to ward six" means a fire drill.'
    assert [text[s:e] for s, e in public_spans(text, text.lower())] == ["Doctor Green to ward six"]
    text = "新买的保险柜是艾谱 3081，高 60 厘米。"
    assert [text[s:e] for s, e in public_spans(text, text.lower())] == ["3081"]
