"""Secrets round 33: each kind h38 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "a lock's code said as its number, its digits in words, or after its possessive": [
        ("the padlock's number is 5820", "5820"),
        ("the feed bin padlock number is 3391", "3391"),
        ("the bait freezer padlock is five one nine", "five one nine"),
        ("the trailer lock's six zero four", "six zero four"),
        ("walk-in fridge lock: two four six eight", "two four six eight"),
    ],
    "a locker named by its own number, then its code": [
        ("saddle locker 6 is 4417", "4417"),
        ("kit locker B2 is 9063", "9063"),
        ("the glove locker no. 11 is 7302", "7302"),
    ],
    "a store or a room named by what it keeps, then its code after a colon or a dash": [
        ("scaffold store behind the yard — 6620", "6620"),
        ("feed room: 4471", "4471"),
        ("sail store at the club: star 8812", "8812"),
        ("the kiln room door: hash 3190", "3190"),
    ],
    "a room named by what is kept or done in it, said to be its code": [
        ("the chemical dosing room is 2281", "2281"),
        ("the smokehouse room at the farm is 53190, don't tell visitors", "53190"),
    ],
    "a thing that opens on a number, the sentence going on after a comma": [
        ("the mower locker 4 opens on 0672, the fuel is in there", "0672"),
        ("cold room at the butcher's opens on 3318, mind the step", "3318"),
    ],
    "a thing that opens with a letter and digits, as a keypad takes them": [
        ("the first aid cabinet by the pitch opens with D5827", "D5827"),
        ("the cash drawer opens with K4410", "K4410"),
    ],
    "an alarm's code said as what sets or unsets it": [
        ("the barn alarm set 3377 unset 3377", "3377"),
        ("the office alarm unset is 6021", "6021"),
        ("离店布防按 6619 再按确认", "6619"),
        ("仓库布防按 2044", "2044"),
    ],
    "a padlock's number in Chinese, in digits or in words": [
        ("工具房挂锁，号码四一九三", "四一九三"),
        ("鱼塘小屋门上那把锁的数字是二八零六", "二八零六"),
        ("配电箱挂锁的号是 7715", "7715"),
        ("自行车锁号码 5508", "5508"),
    ],
    "a dial's turns by their letters, or two turns and then it opens": [
        ("the tip safe 18 L, 40 R, 6 L", "18 L, 40 R, 6 L"),
        ("float safe R 22, L 9, R 31", "R 22, L 9, R 31"),
        ("档案柜的转盘右转到14，左转到30，就能打开", "右转到14，左转到30"),
        ("the cash tin: left to 11, right to 27 and it opens", "left to 11, right to 27"),
    ],
    "a combination said in three words or after a dash": [
        ("the tack room combination is two eight one", "two eight one"),
        ("coastguard box combination - five five three", "five five three"),
    ],
    "a code split between people, each part said in brackets": [
        ("the chapel safe — Ruth knows the first half (52), I know the other half (07)", "52"),
        ("the chapel safe — Ruth knows the first half (52), I know the other half (07)", "07"),
        ("workshop padlock - half of it is with me (31), the rest with Sam (64)", "64"),
        ("保险柜密码我记前一半 27，另一半在小陈那 81", "81"),
    ],
    "a one-time code a service sent, said whole, with what it is for or that it runs out": [
        ("Ocado messaged me 581204 to approve the refund", "581204"),
        ("the dentist portal texted me 730915 so I can log in", "730915"),
        ("got 448201 from Zettle to verify the till", "448201"),
        ("the council app sent 902716, it's only good for 10 minutes", "902716"),
        ("enter 604 218 on the booking site before it expires", "604 218"),
        ("银行App发来 339182，说十分钟内有效", "339182"),
        ("手机上收到 602913，说是登录用的", "602913"),
        ("改密码的验证码，短信里的是593027", "593027"),
    ],
    "a payment's six digits, said as what is typed": [
        ("支付宝付钱的时候要输六零二四一三", "六零二四一三"),
        ("刷卡付款输的是 530916", "530916"),
    ],
    "a password after its noun, a pause and 是": [
        ("咖啡机后台要管理员密码，是 774411", "774411"),
        ("收银机的主管密码，是 5566", "5566"),
    ],
    "a wifi key said as what is typed, after a name with a dot, or words joined": [
        ("书店WiFi是ShuDian_5.8G，连上要输shuxiang2023", "shuxiang2023"),
        ("面馆网络MianGuan，要输入的是lamian8888", "lamian8888"),
        ("the kiosk wifi is Kiosk_2G, what you type is honeyjar77", "honeyjar77"),
        ("florist wifi PetalPost, password sunflower_seeds", "sunflower_seeds"),
        ("barn wifi HayLoft2, password rope-and-pulley", "rope-and-pulley"),
    ],
    "a wifi key said as a phrase's pinyin": [
        ("琴房无线的密码用高山流水的全拼gaoshanliushui", "gaoshanliushui"),
    ],
    "a login said as an address with a made-up word, as what a service is": [
        ("the club Zoom is chair.pots@gmail.com with Kiln-Fire-2024", "Kiln-Fire-2024"),
        ("Canva's under design.team@bakes.org with Rolling9Pin", "Rolling9Pin"),
    ],
    "a crypto wallet's twelve words after a colon, no seed named": [
        (
            "our Ledger, the words in order: amber ocean violin fossil kitten harbor lemon cradle"
            " pepper orbit sugar whale",
            "amber ocean violin fossil kitten harbor lemon cradle pepper orbit sugar whale",
        ),
        (
            "exodus wallet: tiger lamp ocean spring hotel bread union mist laptop river sound"
            " chest",
            "tiger lamp ocean spring hotel bread union mist laptop river sound chest",
        ),
    ],
    "a bank card's number said as where money is paid": [
        ("房租请存到我招行卡里 6214 8301 2345 6789 123", "6214 8301 2345 6789 123"),
        ("货款转他工行的卡，6222 0200 1122 3344 556", "6222 0200 1122 3344 556"),
    ],
    "the part of an ID kept secret, named as its secret part": [
        ("the radio licence number is public but its secret part is 4hq", "4hq"),
        ("the hangar keypad has a secret bit we never write down, it's 9fk", "9fk"),
        ("the licence holder's secret digits are 4471", "4471"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a lock with no code, a catalogue's number, a locker's or a room's own number or size
    "the padlock is on the shed door",
    "locker 12 is the last on the left",
    "locker 3 is 40 cm wide",
    "locker 3 is 1500 yen a day",
    "the meeting room at the hotel is 1204",
    "the living room is 4500 by 3200",
    "the paint store is 4471",
    "the cupboard is 2019",
    "the cage is 1200 birds",
    # a store's or a room's hours, year or count
    "the corner store — 0800 to 1700",
    "paint store: 1998",
    "feed store - 2 bags left",
    "the waiting room: 0900-1700",
    "meeting room: 4127",
    "dining room: 1200 covers",
    # opening hours, not a code
    "the side gate opens on 0900, closes at 1730",
    "the season opens with M2024 fixtures",
    # a wake-up alarm
    "the alarm set 0645 for the early shift",
    # the lock's make, a locksmith's number, a lock talked of
    "这把锁的型号是 3391",
    "锁的号码是2019年的",
    "钥匙在老王那，锁的型号是 M30",
    # directions, halves of a crowd
    "turn left 2, right 3 and the park opens up",
    "half the team (12) went home, the rest (18) stayed",
    "half the lockers (36) are taken, the rest (91) are free",
    "half of it (36) went to the shed, the rest (91) to the barn",
    # sums and counts sent or received, a date keyed
    "we got 250000 from the grant, confirm with finance",
    "sent 150000 to the builder, confirm receipt",
    "we received 500000 in donations, please verify the total",
    "the council sent 123456 leaflets to confirm the vote",
    "enter 202406 in the date field to confirm",
    "enter 150000 into the app to confirm the transfer amount",
    "优惠券发来了，满200减30，三天内有效",
    "拼多多发来一个快递，五分钟后到",
    "收到 100000 元的转账，确认一下",
    # a payment's sum, a password talked of
    "转账要输 100000 元",
    "付款的时候要输入金额，别输错",
    "密码，是2019年改的",
    "这个密码，是不是1234",
    "WiFi密码，是我老婆设的",
    "管理密码改了，还没告诉我",
    # a wifi's key withheld or talked of
    "staff wifi BarnNet, password not_required",
    "guest wifi CafeNet, password on_request",
    "staff wifi is HutStaff, password on the fridge",
    # an address with a report, a purse's list, talk of a secret
    "the contact is jo.smith@gmail.com with Q3report2024 attached",
    "wallet shopping list: bread milk eggs tea jam rice pasta beans oats salt sugar flour",
    "crypto meetup agenda: intro news talks demo lunch chat panel drinks quiz prizes awards close",
    "the secret bit of the recipe is the 2 eggs",
    "the secret part is that nobody knows",
    "会员卡上：6228 4804 0256 1739 012",
    "转到她农行卡上了，已付",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


@pytest.mark.parametrize(
    ("text", "public"),
    [
        ("electrical certificate ref EIC-7731, next check in 2027", "EIC-7731"),
        ("Arts council application ref ACE-PR-24-00871 went in today", "ACE-PR-24-00871"),
        (
            "our customer number at the builders' merchant is 55821, quote it at the counter",
            "55821",
        ),
        ("the vestry safe combination is known only to the churchwarden", "combination is known"),
        ("ask the caretaker for the boiler room code", "ask the caretaker for"),
        ("仓库挂锁的密码在老周那里，找他要", "密码在老周那里"),
    ],
)
def test_a_reference_a_number_to_quote_and_a_code_held_by_someone_are_public(
    text: str, public: str
) -> None:
    # a reference or a number to quote is given out; a code said to be with someone is not
    # given at all: the model reads the text without them
    spans = [text[a:b] for a, b in public_spans(text, text.lower())]
    assert any(public in span for span in spans), spans
    assert find_secrets(text, contacts=False) == []


@pytest.mark.parametrize(
    "text", ["my locker is 1204", "the gate opens on 0730, then the market starts"]
)
def test_a_lockers_own_number_and_an_opening_time_are_no_code_by_the_rules(text: str) -> None:
    # a locker's own number, a gate's opening time (the model's opinion is its own)
    assert find_secrets(text, contacts=False, model=False) == []


def test_a_code_said_after_who_holds_it_is_still_found() -> None:
    assert values("the vestry safe code is with Jim, it's 4471") == ["4471"]


def test_a_software_serial_in_groups_is_no_reference() -> None:
    # a product key's groups of five are a key, not a public reference
    text = "licence serial VK7JG-NPHTM-C97JM-9MPGT-3V66T"
    assert not any("VK7JG" in text[a:b] for a, b in public_spans(text, text.lower()))


def test_both_parts_of_a_code_kept_by_two_people_are_redacted() -> None:
    found = values("the float safe: Ann has half of it (44), I have the rest (19)")
    assert "44" in found and "19" in found
