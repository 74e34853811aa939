"""Secrets round 20: each kind h25 missed or flagged, with new sentences made up for these
tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "Chinese typed with half-width marks: a value still ends at the comma": [
        ("仓库门禁密码是5831,别外传", "5831"),
        ("店里wifi密码:huoguo2024,客人问就给", "huoguo2024"),
    ],
    "a locker 'is' a number padded with a leading zero to a code's length": [
        ("The cleaner's locker is 0381, spare gloves are inside.", "0381"),
        ("Kit room locker is 04417 this season", "04417"),
    ],
    "a bank's text about one of its accounts, then the code it said": [
        ("Text from the bank for the shop account said 204 118 is the code", "204 118"),
        ("SMS from my bank about the joint account said 771 302 — use it quick", "771 302"),
    ],
    "an appliance's engineer or installer code with a word for its mode between": [
        ("Boiler installer menu code is 4019, keep it off the fridge door.", "4019"),
        ("The oven technician service code is 7702#", "7702"),
    ],
    "an alarm code made from a date, given in an aside": [
        ("shop alarm is our anniversary ddmm — 2106 — for the back office", "2106"),
        ("The alarm, my son's birthday as mmdd, so 0923.", "0923"),
    ],
    "an identity card named in the language of the country that issued it": [
        ("Her carte d'identité number for the booking: FR77Q0921", "FR77Q0921"),
        ("Guest's identity card number is K0918273X", "K0918273X"),
        ("Lodger's Personalausweis: L01X00T47", "L01X00T47"),
    ],
    "a wifi key named by its security scheme": [
        ("WPA2 for the back office AP: Tern-Sand_77", "Tern-Sand_77"),
        ("PSK: mossy-Gate-4419", "mossy-Gate-4419"),
    ],
    "a code worked out from the usual one, ending a sentence about a key cabinet": [
        ("The key cabinet in the porter's lodge is the old one backwards, so 6621.", "6621"),
    ],
    "the code that puts a machine into its service mode (Chinese)": [
        ("咖啡机进维修模式要输入 80417", "80417"),
        ("电梯控制柜进入调试菜单按 5520#", "5520"),
    ],
    "a dial's numbers given by their order": [
        ("仓库保险箱:第一组 41,第二组 9,第三组 26", "第一组 41,第二组 9,第三组 26"),
        ("Gun safe dial: first 22, second 8, third 35.", "first 22, second 8, third 35"),
    ],
    "a cloud drive's login as user / password after the service's name (Chinese)": [
        ("公司云盘 shenli2020 / panyun888,项目资料都在里面", "panyun888"),
    ],
    "密码 as a pinyin keyboard types it in haste": [
        ("仓库侧门密马 七三一九", "七三一九"),
        ("后台蜜码是 qiu8823", "qiu8823"),
    ],
    "an unlock command code (Chinese)": [
        ("门店的开锁指令码 9C1E-77A0-D3F2,别外传", "9C1E-77A0-D3F2"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # Chinese typed with half-width marks: a password said changed, the clause after is
    # no value of it
    "仓库后台密码昨天改过了,新密码明天当面给你。",
    "保险柜密码上个月换了,只有店长知道!",
    "收银机密码别写在本子上;让老板直接发给你",
    # a locker's own number, not padded to a code's length
    "my locker at the leisure centre is 318",
    "Staff locker in C2 is 1207",
    # a bank's text about an account with no code in it
    "Text from the bank for the joint account said 3 payments are pending",
    # an engineer's visit, not a code
    "The installer mode is explained on page 14 of the manual",
    # an alarm set to wake someone, no date it is made from
    "alarm is set for the early shift — 0545 — so I'll be in first",
    # an identity card talked about, with no number
    "Bring your carte d'identité and two photos to the town hall",
    "My ID card is in the blue wallet",
    # a wifi scheme talked about
    "WPA2 for the guest network is fine, WPA3 is better",
    "The old router only supports WPA2.",
    # a cabinet's own size or a year
    "The key cabinet is the old one from the depot, so 1998.",
    # a machine's modes with no code
    "进入设置菜单要按 3 次返回键",
    # an order in a race or a count, not a dial
    "比赛第一段 36 分,第二段 12 分,第三段 7 分",
    "first 12, second 30, third 7 in the relay heats",
    # a drive's folder names with a slash, no password
    "公司云盘 资料 / 合同,按年份归档",
    # 密马 is no word in 马上
    "他的密马上就到期了",
    # a utility bill's account number beside the utility's public helpline
    "水费缴费户号 4100238815,有疑问打自来水公司热线 96116。",
    "燃气交费户号 5512003348 在账单右上角",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
