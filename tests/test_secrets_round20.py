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
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
