"""Secrets round 17: each kind h22 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock's code after '=', or a cash box's after 'is'": [
        ("boiler house keypad = 2231", "2231"),
        ("the cash box is 6104 since Monday, not 6140", "6104"),
    ],
    "a code, then what it opens": [
        ("maintenance code 5150, opens the till drawer", "5150"),
        ("engineer code 7781 unlocks the back panel", "7781"),
    ],
    "a code or a combination read out in words": [
        ("the kiosk code is nineteen ninety-two, simple enough", "nineteen ninety-two"),
        ("the cashbox is locked, combination six-one-two", "six-one-two"),
        ("allotment padlock, twenty-one sixteen", "twenty-one sixteen"),
    ],
    "an alarm's code worked out, or one shaped like a time in a place": [
        ("the office alarm is her door number doubled, which makes it 4646", "4646"),
        ("the alarm at the boat club — it's 0 six 3 0", "0 six 3 0"),
    ],
    "a door named by the room it leads from, a thing opened by what the number is": [
        ("the plant room door at the school is 5528", "5528"),
        ("the tool shed opens with my mum's birth year, 1958, don't forget", "1958"),
    ],
    "a card named with its expiry, Luhn or not": [
        ("club card 4000 1234 5678 9010 exp 09/27", "4000 1234 5678 9010"),
    ],
    "a bank's text, with when it came": [
        ("text from my bank today says 551 209, use it for the transfer", "551 209"),
    ],
    "a lock's code in halves, the lock named": [
        ("bike lock: first half is 48, second half is 15", "48"),
        ("side gate: first half is 62, second half is 09, key them in", "62"),
        ("仓库门禁前半是 62，后半是 09", "62"),
    ],
    "a Chinese disarm code, a cupboard's digits, a door's 'that number'": [
        ("烟感报警器解除码 五五二一", "五五二一"),
        ("更衣室柜子，四七一九。", "四七一九"),
        ("防火门那个数就是 6203，记住", "6203"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a cash box's size, a public code, a code in a program
    "the cash box is 30 cm wide",
    "error code 4040 opens the help page",
    "the promo code 2024 opens the sale",
    "the area code is oh two oh seven.",
    "the machine code is 48 89 e5",
    # a wake-up alarm; a room's own number; a thing that opens at a time
    "the alarm in the morning, it's 0630",
    "my alarm, it's 0630 on weekdays",
    "Room 12 door 1204",
    "the hotel room door is 1204",
    "the door opens with the first bell, 0800",
    "the gate opens with the season, 2024 runs from April",
    # a card with no expiry of its own; a bank's figures
    "loyalty card 5412 7534 9012 3456, points expire 11/26",
    "parcel 5412 7534 9012 3456 expiry 11/26",
    "the message from my bank earlier said 120 000 payments are late",
    # halves of a match or of the takings
    "the gate takings: first half was 120, second half was 340.",
    "At the gate: first half is 45 minutes, second half is 45 minutes",
    # Chinese: a department's size, a year, a count, where a code is written
    "部门还是 6120 人",
    "大门还是2019年修的",
    "箱子 三四五六个",
    "报警解除码在说明书上",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
