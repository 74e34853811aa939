"""A secret said as where its value comes from ("my PIN is the last four digits of my
phone number"): remem keeps the number as a memory of its own, so the two together give
the secret away; and the notes of the same look that name no secret's value."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.errors import SecretRefused
from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a secret said as some digits of a person's own number": [
        ("My bank PIN is the last four digits of my phone number.", "my phone number"),
        ("the PIN for the card is the first 4 digits of my old landline", "old landline"),
        ("我的银行卡密码是我手机号后六位", "手机号后六位"),
        ("PIN是我身份证后六位", "身份证后六位"),
    ],
    "a secret said as a person's date or house number": [
        ("The alarm code is my birthday", "my birthday"),
        ("the garage door code is my wife's birthday", "birthday"),
        ("the safe code is our son's date of birth", "date of birth"),
        ("取款密码就是我生日", "我生日"),
        ("支付密码设成了老婆的生日", "老婆的生日"),
        ("门禁密码就是我家门牌号", "门牌号"),
    ],
}


@pytest.mark.parametrize(("kind", "text", "value"), cases(KINDS))
def test_a_secret_said_by_where_it_comes_from_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # no secret's value: a number's own part, where a secret is kept or sent
    "The extension is the last four of the main number.",
    "The Wi-Fi password is on the back of the router.",
    "My new password was sent to my phone number",
    "the code is on the back of my card",
    "验证码会发到我手机上",
    "新密码已经发到我手机号上了",
    "密码在我手机备忘录里",
    # a birthday or a phone number told of itself
    "My birthday is 3 May",
    "The PIN is my responsibility now",
    "银行卡密码，他说是生日",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


def test_a_save_refuses_a_secret_said_by_where_it_comes_from(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        with pytest.raises(SecretRefused):
            mem.save("My bank PIN is the last four digits of my phone number.")
        assert mem.list() == []
