"""Secrets round 27: each kind h32 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock opens with, or a box takes, a code read out in words": [
        ("the bike shed padlock opens with thirty-one seventy-eight", "thirty-one seventy-eight"),
        ("the meter box takes two-nine-nine-one", "two-nine-nine-one"),
    ],
    "a lock's code said as last year's with a digit changed, then whole": [
        ("the key safe is the same as before but ending 8 not 3, so 6158", "6158"),
        ("仓库门跟以前一样，只是最后一位改成2：5102", "5102"),
    ],
    "a gate's code spelled, a letter told by a word, then its numbers": [
        ("back gate — it's K for kilo then 31 then 07", "K for kilo then 31 then 07"),
    ],
    "a network named, then its key": [
        ("the office network Mill-Staff is copper-kettle-3390", "copper-kettle-3390"),
        ("仓库网 Depot-5G 连 forklift-2231", "forklift-2231"),
        ("朋友来了问wifi就说 mantou8848", "mantou8848"),
    ],
    "a one-time code that came through, by its name or after 'a code'": [
        ("the bank app asked for a code, mine came through as 771 204", "771 204"),
        ("Eventbrite OTP just came through: 390 651", "390 651"),
    ],
    "an admin login as an e-mail and a password": [
        ("Shopify admin is orders@bakehouse.co.uk and Sourdough22!", "Sourdough22"),
    ],
    "a thing's code said as the last four of another number": [
        ("the roller door is the last four of my old mobile, 7294", "7294"),
    ],
    "a box or cupboard in Chinese, then its digits read out": [
        ("工具柜还是原来那样，三七二九", "三七二九"),
        ("备用钥匙盒是六零五八，别外传", "六零五八"),
        ("储物间门禁坏了，备用码四八二六", "四八二六"),
        ("后门挂锁密吗 7731（是密码）", "7731"),
        ("行李箱转到3、8、1就开了", "3、8、1"),
        ("柜子前两位 41，后两位是我妈生日 09", "09"),
    ],
    "a machine's login said by how it starts, no noun (Chinese)": [
        ("值班室电脑开机是 zhiban456", "zhiban456"),
        ("前台那台电脑 kaidian88 就能进", "kaidian88"),
        ("档案室电脑开机 dangan2020 全小写", "dangan2020"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a network named with its key only pointed to
    "店里 WiFi 是 ChaGuan_5G，密码在柜台后面贴着。",
    "The wifi is Orchard-Guest, the password is taped under the till.",
    # a network named, then what it is like
    "the staff network Mill-Staff is open to visitors",
    "the guest network Cafe-Guest is down again",
    # a show opens, a box holds a count
    "The box takes 2 AA batteries.",
    "the fuse box takes 1500 watts",
    # the same as last year, a date or a price said
    "The fee is the same as last year but ending in March, so 2025 it is.",
    # a number of its own said as another's tail
    "The extension is the last four of the main number, 6620.",
    # a code came, none said
    "A code came through on my phone but I deleted it.",
    # an admin named with an e-mail and a word
    "The admin is jo@club.org and she answers quickly.",
    # a box, a product, a time (Chinese)
    "书柜还是老样子，2019 年买的",
    "电脑开机是 Windows11 系统",
    "开机 win10 很快",
    "那台电脑 office2019 就能用",
    "转到 3 频道就开了",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
