"""Secrets round 16: each kind h21 missed or flagged, with new sentences made up for these
tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a one-time code any system sent, by the message or by how it came": [
        ("the email the parking app just sent me says 318 552, can you enter it", "318 552"),
        ("the HR portal gave me 407 219 to verify, be quick", "407 219"),
        ("council parking site just texted me four one eight two nine six", "four one eight two"),
        ("the payroll login code just came through as 730914", "730914"),
    ],
    "a code told in parts: first two and last two, or how it starts and ends": [
        ("Boat shed padlock: the first two numbers are 57 and the last two are 03.", "57"),
        ("the key safe at the yard starts with 62, text you later: it ends 48", "62"),
    ],
    "a router's pass given as a plain word": [
        ("office router pass is marmaladesandwich, all lower case", "marmaladesandwich"),
        # the name is public only when the key is not given; a key given is still found
        ("Hall Wi-Fi is VillageHall, the password is toffee-apple-42", "toffee-apple-42"),
    ],
    "a lock's code after 'is', further on, or its reset or override": [
        ("the neighbour says the key safe round the side near the gate is 4417", "4417"),
        ("freezer room alarm reset is 3390", "3390"),
        ("pharmacy store room code is six two zero eight", "six two zero eight"),
        ("shift supervisor override: four four one nine", "four four one nine"),
        ("groundsman's shed door: 5 2 # 7 7", "5 2 # 7 7"),
        ("Boiler cupboard 8315", "8315"),
    ],
    "a dial in Chinese numerals, or by 先转到 … 再到 … 最后到": [
        ("财务室保险柜：右转二十四，左转十六，再右转五十一", "右转二十四"),
        ("文件柜密码锁：先转到22，再到7，最后到36", "先转到22"),
        ("老保险箱四十一、九、二十七", "四十一、九、二十七"),
    ],
    "a Chinese lock told by its label, a pause, or who said it": [
        ("二楼那个B07柜子，5821", "5821"),
        ("配电房钥匙箱，王师傅说是六二八三", "六二八三"),
        ("2号楼门禁管理员码88123", "88123"),
        ("店铺报警撤防2005，布防2006", "2005"),
    ],
    "a password in halves, or by how it is made": [
        ("财务系统密码前半截是cash，后半截是flow_2023，连起来", "flow_2023"),
        ("监控后台密码就是拼音jiankong加8866", "jiankong加8866"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a system that sent something that is no code
    "The booking portal gave me 250 000 search results, useless.",
    "the ticketing system just sent me 3 reminders about the renewal",
    "The text the app sent me says 50% off this weekend.",
    # parts and ends with no lock or code
    "The race starts with 40 riders and ends with 12 finishers.",
    "the first two numbers are odd and the last two are even",
    # a wifi whose key is not given
    "Library Wi-Fi is CityLib-Free, the password is printed on your ticket.",
    "Grandad's Wi-Fi is PlusNet-8F2A, he'll type the password in himself.",
    "咖啡馆WiFi叫Bean_Guest，密码写在菜单背面",
    # a lock or door with its size, room or year, not a code
    "The key safe round the back is black.",
    "Room 12 door 1204",
    "The alarm reset is in the settings menu.",
    "二楼那个B07柜子，放文件用的",
    "保险柜三、四、五层放档案",
    "先转到15路，再到40路，最后到3路",
    # a password policy, a pinyin name
    "系统密码按规定每90天一换",
    "他的名字拼音是zhangwei",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
