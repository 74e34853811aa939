"""Secrets round 54: each kind h59 missed, with new sentences made up for these tests: a lock's code
in halves, the other half said to come in its own message and then given after a colon; a code
said to need both halves (or split between people), then who holds which (我这半是…，老王那半是…);
the word a caller asks for to prove who is on the line (an alarm's monitors, a bank, a school at
pick-up; 要报的词是…); a person's code at a shared machine, "logs in with" its digits, then the
others' (小李用 4826 登录，小张用 1739); a dial's turn taken more than once ("22 left twice",
26 左两圈); a door's remote or fob, where it is, a colon, then "code" and its digits
(车库门遥控器…：码 3390); a safe named by what it holds or where it is, a colon, then its
numbers; an alarm's code for setting and unsetting both, after a colon, a time's shape or not;
and the ordinary notes of the same look that must pass (a match's or a pizza's halves, money
split, a teacher's word, a login with a badge or at a time, directions, an error code, a size,
an alarm's times)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock's code in halves, the other half sent on its own, then given": [
        (
            "Bike shed padlock, first half is 39 — the other half comes in a separate message: 71.",
            "71",
        ),
        (
            "The garage keypad, first half is 4408 - I'll text the second half on its own: 1290.",
            "1290",
        ),
        (
            "Cash box lock, the first two are 61, I'll send the last two in another message: 83.",
            "83",
        ),
        ("Allotment padlock: first half is 62 — the rest by its own message, as agreed: 15.", "15"),
        ("保险柜密码前半是 28，后半我单独发你：54。", "54"),
    ],
    "a code said to need both halves, then who holds which": [
        ("The vault needs both halves: I've got 5521, Priya's got 8804, key mine first.", "8804"),
        ("The cash office lock takes two halves: mine is 4410, Dev has 7729.", "7729"),
        ("Strong box needs both parts: Ann holds 2290, I hold 6613.", "2290"),
        ("The safe's code is split between us: I have 38, Mo has 17.", "17"),
        ("保险柜密码分两半：我记着 5521，老王记着 8804。", "8804"),
        ("库房门要两部分：我有 4410，小陈有 7729，先输我的。", "4410"),
    ],
    "the word a caller asks for to prove who is on the line": [
        (
            'When the monitoring centre calls, the word they ask for is "marigold", no other.',
            "marigold",
        ),
        ('If the alarm people phone, the word to give them is "haystack".', "haystack"),
        ("The bank will ring first; the word the bank wants is copperkettle.", "copperkettle"),
        ('When the school phones about pick-up, the word they expect is "pinecone".', "pinecone"),
        ('The alarm firm\'s call-back word is "lamplighter".', "lamplighter"),
        ('保安公司打电话来核实时，要报的词是"蓝瓶子"。', "蓝瓶子"),
        ("银行回电话的时候，对方要的那个词是老樟树。", "老樟树"),
    ],
    "a person's code at a shared machine, 'logs in with' it, then the others'": [
        ("Shop PCs: Ravi logs in with 4826, Meg with 1739.", "1739"),
        ("The rota tablet: Sam signs in with 5520, Lou with 6094.", "5520"),
        ("Front desk PC, Nina logs on with 7204 and Paul with 8815.", "8815"),
        ("Kiosk: the manager clocks in with 6613.", "6613"),
        ("仓库电脑：小李用 4826 登录，小张用 1739。", "1739"),
        ("前台电脑阿芳用 7204 开机，阿杰用 8815。", "7204"),
        ("考勤机打卡用 6094，新来的用 5520。", "5520"),
    ],
    "a dial's turn taken more than once": [
        ("Office safe: 22 left twice, 41 right, 7 left.", "22 left twice, 41 right, 7 left"),
        ("The gun safe is 30 right three times, 12 left, 55 right.", "12 left"),
        ("locker combination: left 18 twice, right 40, left 6", "left 18 twice"),
        ("Under the desk, the safe: 8 left 3 times, 27 right, 50 left.", "27 right"),
        ("保险柜：26 左两圈，11 右，38 左。", "26 左两圈，11 右，38 左"),
    ],
    "a door's remote or fob, where it is, a colon, then 'code' and its digits": [
        ("Gate remote on the side yard: code 7741.", "7741"),
        ("Garage opener in the workshop: code 3390.", "3390"),
        ("Side gate: code 8804.", "8804"),
        ("Back door fob by the bins: code 6025.", "6025"),
        ("车库门遥控器在工作间：码 3390", "3390"),
        ("大门遥控：代码 7741", "7741"),
    ],
    "a safe named by what it holds or where it is, a colon, then its numbers": [
        ("Office safe with the petty cash: 38-14-72.", "38-14-72"),
        ("The safe holding the deeds: 41-27-63.", "41-27-63"),
        ("The vault behind the counter: 52-33-47.", "52-33-47"),
        ("装着护照的保险箱：41-27-63", "41-27-63"),
    ],
    "an alarm's code for setting and unsetting both, after a colon": [
        ("Shop alarm set and unset: 1342.", "1342"),
        ("Alarm arm and disarm: 0715.", "0715"),
        ("Unit alarm set/unset: 2251.", "2251"),
        ("Office alarm set and unset at the back panel: 0921.", "0921"),
        ("报警器设防和撤防：1342。", "1342"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # halves of a game, a delivery, a score: no lock, or no code given
    "The first half is 45 minutes — the second half comes after the break: 45 more.",
    "first half of the order came — the second half in a separate parcel: 24 boxes",
    "The match needs both halves: I've got 45, Leo's got 45.",
    "The pizza comes in two halves: I've got 8 slices, Leo's got 6.",
    "the door repair bill is split between us: I've got 120, Sam has 80.",
    "Both halves of the quiz: I've got 32, Leo's got 28 points.",
    "The lock comes in two parts: I have 2, Sam has 3 keys.",
    "两半西瓜：我有 3 块，老王有 2 块。",
    # a word wanted by a teacher, a company's word for a thing, a question
    'At school the word they want is "therefore" in every essay.',
    'The word the teacher wants is "because".',
    'When the monitoring firm calls, the word they use for a false alarm is "activation".',
    'When the bank calls, the word to say is "no" if they ask for your PIN.',
    "银行打电话来，要说的词是什么？",
    "老师说作文里要用的词是坚持。",
    'The word you want is "affect", not "effect".',
    # a login with a badge, a factor, at a time, a crowd; a sum spent
    "Ravi logs in with his badge, Meg with her phone.",
    "Sam signs in with 2FA, Lou with a passkey.",
    "Ravi logs in at 0800, Meg at 0930.",
    "He logged in with 1500 other users at once.",
    "The class signed in with 2024 still on the whiteboard.",
    "小李 8 点登录，小张 9 点。",
    "小李用手机登录，小张用电脑。",
    "小李用 4826 元买了新电脑。",
    # turns that are directions, a drill
    "turn left twice, then 2 right, 3 left to the station",
    "Drill: 10 left twice, 10 right, 5 left, that's the warm-up.",
    # a remote's error, model or battery; another thing's code
    "Gate remote on the side yard: code 7741 error means the battery is low.",
    "Garage door remote: model 7741.",
    "Gate remote battery: CR2032.",
    "Side gate: postcode 8804.",
    "TV remote in the lounge: code 0012 for the Samsung.",
    "门店：码数 42",
    "门口贴着收款码 3390",
    # a safe's receipts counted, a cabinet's size
    "Safe with the receipts: 12, 15, 20 bags",
    "the cabinet in the hall: 60, 45, 30 cm",
    "The lock on the gate: 3-4-5 minutes to open it",
    # an alarm's times, not its code
    "Alarm set: 0630.",
    "Alarm set and unset times: 2200 and 0600.",
    "Alarm set and unset: 0630 and 0700.",
    "Alarm set for 0630 and unset at 0700.",
    "Alarm set and unset: twice a day.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
