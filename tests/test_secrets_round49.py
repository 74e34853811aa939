"""Secrets round 49: each kind h54 missed, with new sentences made up for these tests: a lock
named then its code in its own clause after a pause, a door by a place "is" digits and its
keypad's letter key, an alarm's code named by how it is keyed after a colon, a word and digits a
thing unlocks with, a safe named by what it keeps then a colon, a keypad's star and hash said
aloud around the digits, the one a payment asks for pointed back to (转账那个), a dial turned 先转
再转 with 到 unsaid; and the ordinary notes of the same look that must pass (a year or a time
after a pause, a level or a version that unlocks, an order pointed back to, sums turned over, a
certificate's number)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a lock named, a pause, then its code as a clause of its own": [
        ("the tractor immobiliser, 7314, sometimes takes two goes", "7314"),
        ("trailer immobiliser, six one four eight, then turn the key", "six one four eight"),
    ],
    "a door by a place 'is' digits, the keypad's letter key last": [
        ("the fire door behind the bins is 9137C", "9137C"),
        ("the side door near the cafe is 4417", "4417"),
    ],
    "an alarm's code named by how it is keyed, after a colon": [
        ("Warehouse alarm: unset code 7741, don't tell the temps", "7741"),
    ],
    "a word and digits a thing unlocks with": [
        ("the till tablet unlocks with parrot88, ask before using it", "parrot88"),
    ],
    "a lock named by what it keeps, then a colon": [
        ("the cabinet that holds the petty cash: 3391", "3391"),
    ],
    "a keypad's star and hash said aloud around the digits": [
        ("boathouse gate — hash six one one four star", "hash six one one four star"),
    ],
    "the one a payment or a login asks for, pointed back to": [
        ("手机银行付款那个是 358024，别告诉别人", "358024"),
    ],
    "a dial turned in turn, 到 unsaid": [
        ("仓库保险箱 先拧27 再拧80 最后拧14", "先拧27 再拧80 最后拧14"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a lock named, a pause, then a year or a time
    "the back gate, 1998, was the last thing the old owner fixed",
    "the side door, 0800, is when the cleaners arrive",
    # a door by a place and its count or its own number
    "the door by the lifts is 3 metres wide",
    # a level, a version or a tier that unlocks
    "the bonus round unlocks with level10 on the arcade machine",
    "the new theme unlocks with windows11 only",
    # an order's or a parcel's number pointed back to
    "快递那个是 240613，明天到",
    "订单那个是 358024，已经发货了",
    # sums turned over, and bus routes changed
    "先转19块 再转46块 最后03块，账对上了",
    "先转19路 再转46路 最后03路 就到了",
    # a certificate's number, shown to whoever asks
    "Boiler safety cert no. BX-40917, due again next spring",
    "the lift's inspection certificate number is LI-77120, on the wall",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
