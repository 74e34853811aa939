"""Secrets round 29: each kind h34 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a code between commas right after its noun": [
        ("Handed Joe the tool chest combo, 0917, keep it quiet.", "0917"),
        ("the bike lock combination, 482, is on a post-it", "482"),
        ("Told the new barista the back door code, 7713, and nothing else.", "7713"),
    ],
    "a code in halves said to open a thing": [
        ("Music room box: first half is 19, second half 42, together it opens.", "42"),
        ("Storeroom cabinet: first half is 40, second half 18, key them in.", "18"),
    ],
    "a sign-in code in groups, or a one-time code said after what it is for": [
        ("Sign-in code for the parish portal is 604 218, don't share it", "604 218"),
        ("The one-time code from the card issuer for the boiler bill is 309 772.", "309 772"),
    ],
    "a text said to hold a code": [
        ("Verification text says 512 088, pop it in the app before it lapses", "512 088"),
        ("the text from the building society read 771 405", "771 405"),
    ],
    "a dial's numbers in words after 'opens on'": [
        ("The gun cabinet opens on nineteen, four, thirty-two.", "nineteen, four, thirty-two"),
    ],
    "a machine's menu or mode behind a code": [
        ("Espresso machine engineer mode takes 0412.", "0412"),
        ("the till programming menu wants 8830", "8830"),
    ],
    "a wifi key after 'key ='": [
        ("garden wifi = ShedNet, key = moss-stone-4471", "moss-stone-4471"),
    ],
    "a thing that locks wants a word typed": [
        ("The kiosk lock wants the password Heron2020 typed in.", "Heron2020"),
        ("the door panel needs the word orchard77 before it opens", "orchard77"),
    ],
    "a manager's till code typed in haste": [
        ("pub till manger code 7301 for refunds", "7301"),
    ],
    "a service's pass: words and digits": [
        ("The eBay pass is owl-river-2016.", "owl-river-2016"),
    ],
    "an alarm or a lock set with a code": [
        ("Arm the alarm with 4402 on your way out.", "4402"),
        ("set the shop alarm using 9051 before locking up", "9051"),
    ],
    "a thing that locks, then its digits right after (Chinese)": [
        ("工具间挂锁8 1 6 4，别弄丢钥匙。", "8 1 6 4"),
        ("后院仓库七七二一。", "七七二一"),
        ("财务室的钥匙箱五零三八，别外传。", "五零三八"),
    ],
    "a vendor's secret pasted right after Secret是 (Chinese)": [
        ("云服务的AccessKey Secret是Xk2pQ9rT7vLm3NcB8dFw5HyJ，别泄露", "Xk2pQ9rT7vLm3NcB8dFw5HyJ"),
    ],
    "密码 with its value touching it (Chinese)": [
        ("wifi叫小院，密码xiaoyuanmenqian，都是小写。", "xiaoyuanmenqian"),
        ("后台密码qx_shop_2023", "qx_shop_2023"),
    ],
    "a lock screen's digits right after it (Chinese)": [
        ("平板锁屏482916，拿去用吧。", "482916"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a combo meal and its calories, a match's halves
    "We ordered the combo, 1299 calories, way too much.",
    "First half 2, second half 1, a tense game.",
    # a sign-in code of conduct, a text about a crowd
    "Sign-in code of conduct was updated in 2024.",
    "The text from Mum says 100 200 people came.",
    # a shop's opening days, a menu's load time
    "The shop opens on twenty, twenty-one and twenty-two May.",
    "The service menu takes 30 seconds to load.",
    # a network's name, its key withheld; a printer's toner
    "the wifi = CafeGuest, ask at the bar for the key",
    "Barn_2G is the wifi name; the password is on the noticeboard by the stairs.",
    "the printer needs toner TN2420 soon",
    # a pass that is a ticket; a wake-up alarm
    "The Disney pass is 2024-ready.",
    "My bus pass is valid until 2025.",
    "Set the alarm with 0700 as the wake time.",
    # a storeroom's year, a counter's number, a size (Chinese)
    "仓库2019。",
    "柜台3号。",
    "仓库很大，1200平方。",
    # a film called Secret, a lock screen's timeout, an app after 密码 (Chinese)
    "Secret是一个好电影。",
    "手机锁屏30秒就黑了。",
    "密码app里可以重置",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
