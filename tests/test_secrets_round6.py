"""Secrets round 6 (issue 29): each kind h7 and h8 missed or flagged, with new sentences
made up for these tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets_digits import spoken_digits
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "digits said aloud: nought, double, commas, 两个8, 、": [
        ("Gran's key safe: six, nought, two, eight. Tell the carer.", "six"),
        ("The garage keypad takes 9 double 0 3 now.", "9 double 0 3"),
        ("Shed padlock is two two, seven, nought.", "two two"),
        ("单元门的键盘：七、三、两个0。", "七、三、两个0"),
        ("报警器是 5 三个 1，进门三十秒内输入。", "5 三个 1"),
        ("我家车锁：拐幺洞五。", "拐幺洞五"),
        ("支付密码是两个九再三个四。", "两个九再三个四"),
        ("备忘：慢慢念：五、八、零、三。这是车库的锁。", "五、八、零、三"),
        ("Holiday let key box by the bins: 3, 9, 0, 6, then lift the flap.", "3, 9, 0, 6"),
    ],
    "a password told by its parts, named after": [
        ("It's Bramble, then 42, then a dollar sign. That's the router admin password.", "Bramble"),
        ("Starts with Kestrel, then 19, then a hash. My Steam password, don't tell.", "Kestrel"),
        ("先是 Moli，然后 886，最后一个井号——这是我邮箱的密码。", "Moli"),
    ],
    "recovery words said as a phrase": [
        (
            "Trezor seed words in order: amber lunch rival token smooth cabin grape nephew "
            "silent oyster lava drum",
            "amber",
        ),  # fmt: skip
    ],
    "security-question answers in prose": [
        (
            "Security answers for the pension site: first pet Pickles, maiden name Okafor.",
            "Pickles",
        ),  # fmt: skip
        ("Bank security questions: city where our parents met is Gdansk.", "Gdansk"),
        ("密保问题：母亲的名字——王淑芬；出生城市——柳州。", "王淑芬"),
    ],
    "an authenticator's base32 seed": [
        ("TOTP secret for the VPN: JBSWY3DPEHPK3PXPMFRGG2LOMNXW4ZLT", "JBSWY3DP"),
        ("验证器种子：KRSXG5CTMVRXEZLUKN2XAZLSNFSWG3TF，别截图。", "KRSXG5CT"),
    ],
    "a password's common misspelling (秘码)": [
        ("家里路由器的秘码是 Fm_home2024，别外传。", "Fm_home2024"),
    ],
    "a password said in pinyin": [
        ("ta de qq mima shi lanhua2008，记一下。", "lanhua2008"),
    ],
    "a challenge and its countersign": [
        ("明早哨位口令：黄河；回令：泰山。", "黄河"),
    ],
    "a locker's one-time collection code": [
        ("Parcel locker at the station, pickup code 771 204, collect within 72 hours.", "771 204"),
        ("DPD collection code 5530912 for the shoes, the locker by the gym.", "5530912"),
    ],
    "the value first, then named by 'is the password'": [
        ("For the NAS: otter-mango-7731 is the password, user is admin.", "otter-mango-7731"),
    ],
    "a half of a code, the thing named by three words": [
        ("First half of the bike shed code is 31-07. Jo has the rest.", "31-07"),
    ],
    "a wifi's key after a dash": [
        ("Send the holiday flat wifi — Seagull-Rock-Pier-19 — to Mum tonight.", "Seagull"),
    ],
    "a code set by its panel's role": [
        ("Change the alarm keypad master code to 6142 before we move in.", "6142"),
    ],
    "a Spanish NIE or DNI": [
        ("DNI for the gym contract: 48291735K", "48291735K"),
    ],
    "a safe said with where it stands": [
        ("Safe behind the office bookcase: 14-33-07", "14-33-07"),
    ],
    "a code keyed after a menu's prefix": [
        ("To get into the till's manager screen, press 00 then 6612.", "6612"),
    ],
    "a grid card of one-time codes": [
        ("银行给的密码卡 D4 是 2291，F1 是 6048。", "2291"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a public line near a card
    "Customer care is on the back of my debit card: 0800 015 4422, free from landlines.",
    "信用卡背面的客服热线 400 669 5566，24 小时有人接。",
    # a wifi's name, its key withheld
    "The office wifi is called Larch-Guest — ask reception for the key.",
    "公司 WiFi 名字叫 Acme-Office，密码跟原来一样。",
    "民宿 WiFi 叫 Seaview-2F，密码入住时见面再说。",
    "The studio wifi is named Loft-7B; I'll give you the password in person.",
    # a code made to be shared
    "My Mario Kart friend code is SW-4821-7730-1299, add me!",
    "Valorant crosshair share code: 0;P;c;5;o;1;d;1;z;3 if you want my setup.",
    # a number given as an example of a format
    "邮编前两位代表省份，比如 10 就是北京。",
    "Sort codes have six digits, for example 402715 means a branch in Leeds.",
    # weak passwords named so nobody uses them
    "Security training: the most common passwords are still 123456 and qwerty, never use them.",
    "安全周提醒：常见的弱密码包括 111111 和 abc123，请勿使用。",
    # digits said aloud that open nothing
    "We need four, nought, two chairs? No, forty-two chairs for the hall.",
    "The kids are two, five, seven and nine years old.",
    "菜谱：鸡蛋两个，盐一勺，糖三勺。",
    "我们一个一个念名字：张三、李四、王五。",
    "门口三三两两站着几个人。",
    "We sat at tables 1, 2, 3, 4 near the door.",
    "Steps 1, 2, 3, 4 of the password reset guide are out of date.",
    # parts in order with no secret named
    "It's Paris, then 12 days in Rome, then home. Best trip plan ever.",
    # security questions talked about, no answer
    "Security questions for the new portal: first pet, maiden name and favourite teacher.",
    "密保问题：还没设置，下周再说。",
    # base32-looking words, pinyin, a pickup without a code
    "Product code ABCDEFGH23456723 is on the box, for the warranty.",
    "wo de mima shi shenme lai zhe? wangle.",
    "The pickup code will be texted when the parcel arrives at the locker.",
    "口令喊错了，回令也没人答，演习重来。",
    # an alarm's or a keypad's number that opens nothing, an answer that is a person
    "报警器是 110 联网的，响了会自动报警。",
    "键盘：2023 年买的，用了一年。",
    "Security questions were dropped; favourite teacher Ms Okoro says hello.",
    "Safe under 30 km/h by the school: 20-30-40 zones.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


def test_spoken_digits_keep_where_each_stood() -> None:
    text = "Alarm: seven, double two, nought."
    plain, where = spoken_digits(text) or ("", [])
    assert plain == "Alarm: 7220."
    assert len(where) == len(plain)
    assert text[where[plain.index("7")]] == "s"  # the first digit maps to "seven"
    assert where[plain.index("0") + 1] == text.index(".")
    assert spoken_digits("one dog, two cats") is None  # fewer than four digits
    assert spoken_digits("ports 80 443 8080 9090") is None  # written, not said


def test_public_spans_name_only_the_public_value() -> None:
    text = "The wifi is called Fern-5G, ask me for the key. The safe is 4471."
    spans = public_spans(text, text.lower())
    assert [text[a:b] for a, b in spans] == ["Fern-5G"]
    assert values(text) == ["4471"]  # a secret beside a public value is still found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Ring the helpline on 0800 123 4567 and read them my PIN 1234 5678.", "1234 5678"),
        ("The commonest passwords are 123456 and letmein; mine is Vq82!rTz.", "Vq82!rTz"),
        ("常见的弱密码包括 123456，而我的密码是 Lm7#pQ2x。", "Lm7#pQ2x"),
        ("The wifi name is Birch-5G, the key is unchanged, and the safe is 7712.", "7712"),
    ],
)
def test_a_secret_beside_a_public_value_is_found(text: str, value: str) -> None:
    assert any(value in v for v in values(text)), (text, values(text))
