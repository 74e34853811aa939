"""Secrets round 34: each kind h39 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a padlock's or a combination lock's three digits in Chinese numerals, right after it": [
        ("鸡舍挂锁三一八", "三一八"),
        ("工具车密码锁 五零九", "五零九"),
        ("车棚的挂锁七七二，别告诉外人", "七七二"),
    ],
    "a lock named, then 密码 and three digits": [
        ("化肥棚挂锁 密码六一三", "六一三"),
        ("更衣柜的锁，密码是 407", "407"),
        ("仓库门的挂锁，密码零八九", "零八九"),
    ],
    "a padlock's or a combination lock's digits right after it, in English": [
        ("bait fridge padlock five two nine", "five two nine"),
        ("combination lock on the trailer hitch 617", "617"),
        ("the dog kennel padlock, eight one four", "eight one four"),
    ],
    "a code a device or an app asks for as it starts": [
        ("The stock scanner wants 4096 when it boots.", "4096"),
        ("the rota tablet asks for 7315 on start-up", "7315"),
        ("At login the ticket machine wants 2684.", "2684"),
        ("the ordering app needs 5170 every time it launches", "5170"),
        ("洗车房的收款机启动的时候要输 6248", "6248"),
    ],
    "a one-time code that came in a message, to confirm an account or to be typed in": [
        ("got a text with 581903 to confirm the new supplier login", "581903"),
        ("an email from the booking portal with 730264 to verify my account", "730264"),
        ("a message came through with 914027, type it in quick", "914027"),
        ("短信里有个 602741，确认新账户用的", "602741"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # locks counted, bought, priced or talked of
    "买了三把挂锁",
    "挂锁三个，链条两根",
    "挂锁型号是304",
    "挂锁密码忘了，得叫人来剪",
    "密码锁的密码三位数",
    "we need two more padlocks for the kennels",
    "padlock 100",
    # a machine's load, heat or speed as it starts; people who want something
    "The compressor takes 3000 on startup.",
    "The kiln needs 1200 degrees on startup.",
    "The generator wants 2000 watts on startup.",
    "the founder wants 2750 on startup costs",
    "发动机启动要输 2000 转",
    # a message with a sum, a count or a reference
    "got a text with 448120 as the delivery reference",
    "got a text with 250000 to confirm the loan",
    "a text with 120 photos came, type them in the album",
    "the text said 300 people, confirm the numbers",
    # round numbers in turn: the steps of a scale
    "Grit order for the carving gouges: 800 then 4000.",
    "Sanding the walnut top: 120, 240, 400.",
    "Kiln ramp for the bisque: 600 then 1000.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("Grit order for the carving gouges: 800 then 4000.", "800 then 4000"),
        ("磨刀石先400再1000", "400再1000"),
    ],
)
def test_round_numbers_in_turn_are_public(text: str, steps: str) -> None:
    spans = [text[a:b] for a, b in public_spans(text, text.lower())]
    assert steps in spans, spans


@pytest.mark.parametrize(
    "text", ["the safe: 30 then 10 then 20", "the bike lock, 20 then 40 then 60"]
)
def test_round_turns_of_a_lock_are_still_a_code(text: str) -> None:
    # a lock or a code named in the sentence: the numbers are its turns, not a scale's steps
    assert find_secrets(text, contacts=False) != []
