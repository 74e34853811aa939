"""Secrets round 35: each kind h40 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass (a code said to be kept elsewhere too)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a combination's three digits named after a pause, by a thing that locks": [
        ("the spare is in the lockbox on the porch, combo 482", "482"),
        ("left the van keys in the key safe, combination 905", "905"),
    ],
    "a password with an aside between it and its value": [
        ("the router password, believe it or not, is Gravel-Toad-31", "Gravel-Toad-31"),
        ("her email is pat.k and the password, sorry, is riverside77", "riverside77"),
    ],
    "a code keyed in parts joined by 'and then'": [
        ("the keypad's 38 and then 51", "38 and then 51"),
        ("the gate's 20 and then 94, push hard", "20 and then 94"),
    ],
    "a password named in another language": [
        ("Wi-Fi Zonnebloem, wachtwoord tulpenveld42", "tulpenveld42"),
        ("le routeur: mot de passe soleil-rouge-88", "soleil-rouge-88"),
        ("Passwort: Kiefer2019!", "Kiefer2019!"),
    ],
    "a burglar alarm's code when the sentence sets and unsets it": [
        ("the alarm set is 1954, unset is the same", "1954"),
        ("workshop alarm set is 0712, disarm is the same", "0712"),
    ],
    "a safe's or a dial's numbers in spaces": [
        ("the gun safe 14 63 28, it sticks", "14 63 28"),
        ("the old dial 07 33 61", "07 33 61"),
        ("保险箱 18 40 72 转两圈", "18 40 72"),
    ],
    "a one-time code a service sent, read in pairs": [
        ("the bank sent 38 51 07 to confirm the payee", "38 51 07"),
        ("Amazon texted me 90 12 44 to verify the login", "90 12 44"),
    ],
    "a lock's three digits right after it, in numerals or in digits": [
        ("车库门锁 四一六", "四一六"),
        ("文件柜抽屉锁 二零九，别忘了", "二零九"),
        ("电动车车锁 318", "318"),
        ("工具箱挂锁 052，就那把黑的", "052"),
    ],
    "a code in three parts": [
        ("保险柜密码 前面 31 中间 08 后面 66", "31 中间 08 后面 66"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a combo that is a meal, a lock that is bought or priced
    "lunch at the chippy, combo 319",
    "挂锁 100",
    "买了三把车锁",
    "换锁三百块",
    "车锁坏了，换了个新的",
    # a password talked of, an aside and no value
    "the password, as usual, is on the fridge",
    "the password, I think, is changed every month",
    # numbers in turn that are no code, a word for password with no value
    "we waited 20 and then 40 minutes for the bus",
    "the wachtwoord was changed last week",
    # a wake-up alarm
    "the alarm set is 0630 on weekdays",
    # a safe's size, a shelf's numbers
    "the safe is 45 30 40 cm",
    # a message with a sum or a time
    "the bank sent 10 00 00 to the wrong account",
    # a code said to be somewhere else, no value given
    "The trailer key safe is by the hitch; the code is in the group chat, not here",
    "Bakery wifi is CrumbNet5G; the password is on the card by the till",
    "保险柜密码在便签上——便签锁在抽屉里面",
    "the alarm code is on the whiteboard in the office",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
