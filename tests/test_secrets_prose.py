"""Secrets said in prose (issue 29): a password, 口令, PIN, code, card, account or ID number
named or implied, its value linked, split or spelled; and the ordinary facts that talk
about such things without holding one, which must pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remem.secrets import find_secrets, looks_secret, redact
from remem.secrets_prose import iban_valid, luhn

DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "data"


def lines(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def values(text: str) -> list[str]:
    return [text[h.span[0] : h.span[1]] for h in find_secrets(text)]


# The issue's own examples: each with the value(s) that must be found.
@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("The shared admin password is purplemonkey", ["purplemonkey"]),
        ("The root password on the build box is now blu3-Harbor-88", ["blu3-Harbor-88"]),
        ("Login for the NAS is admin / nasAdmin!2025", ["nasAdmin!2025"]),
        ("部署机的 root 密码统一设成 Tr0ub4dor&3", ["Tr0ub4dor&3"]),
        ("数据库密码分两段记：前半段 Qz81，后半段 kLm7", ["Qz81", "kLm7"]),
        ("我的银行卡号是 6222 0212 3456 7890 123", ["6222 0212 3456 7890 123"]),
        ("The master password starts with Qz81 and ends with kLm7", ["Qz81", "kLm7"]),
        ("The gate code is 1 9 8 4", ["1 9 8 4"]),
        ("The password is spelled p-u-r-p-l-e-r-a-i-n", ["p-u-r-p-l-e-r-a-i-n"]),
        ('The wifi key is "blue bicycle 42"', ["blue bicycle 42"]),
        ("My IBAN is DE89 3704 0044 0532 0130 00", ["DE89 3704 0044 0532 0130 00"]),
        ("身份证号 440524 19850312 2316", ["440524 19850312 2316"]),
        ("我的 wifi 密码是一二三四五六七八", ["一二三四五六七八"]),
    ],
)
def test_secrets_said_in_prose_are_found_value_by_value_and_redacted(
    text: str, secret: list[str]
) -> None:
    assert values(text) == secret
    redacted = redact(text)
    assert all(s not in redacted for s in secret)


@pytest.mark.parametrize(
    "text",
    [
        "The password policy requires 12 characters",
        "I reset my password yesterday",
        "the admin password is in 1Password",
        "Customer service hotline is 400-820-8820.",
        "客服热线 400-820-8820，工作日 9 点到 18 点。",
        "Call 1-800-275-2273 for billing.",
        "工单分流用的令牌 log-triage",
        "Set OPENAI_API_KEY in your shell before running the tests.",
        "The token fix landed in commit 9fceb02.",
        "We upgraded to Django 4.2.11; Postgres is on port 5432.",
        "Order number 1234567812345678 shipped today.",  # 16 digits failing Luhn
        "card 4111 1111 1111 1112",  # a bare "card": the number must pass Luhn
        "max tokens is 4096 for the summarizer.",
        "令牌的有效期是 3600 秒。",
        "密码用 bcrypt 哈希后存库。",
        "The secret of our success is GPT-4o with a good prompt.",
        "Our AWS account ID is 123456789012.",
    ],
)
def test_ordinary_facts_pass(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize("name", ["secrets.txt", "secrets_prose.txt"])
def test_every_tuning_secret_is_found(name: str) -> None:
    assert [s for s in lines(name) if not looks_secret(s)] == []


@pytest.mark.parametrize("name", ["benign_facts.txt", "benign_prose.txt"])
def test_no_tuning_fact_is_flagged(name: str) -> None:
    assert [f for f in lines(name) if looks_secret(f)] == []


def test_luhn_and_iban_checks() -> None:
    assert luhn("4111111111111111") and not luhn("4111111111111112")
    assert iban_valid("DE89 3704 0044 0532 0130 00")
    assert not iban_valid("DE89 3704 0044 0532 0130 01")


# -- generated: a made-up value in many phrasings --------------------------------------
VALUE = st.builds(
    lambda a, b, c: a + b + c,
    st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ", min_size=1, max_size=3),
    st.text(alphabet="abcdefghijkmnopqrstuvwxyz", min_size=2, max_size=6),
    st.text(alphabet="0123456789!@#", min_size=2, max_size=4),
)
SAID = st.sampled_from(
    [
        "The {what} password is {v}",
        "the {what} password was changed to {v}",
        "Password for the {what}: {v}",
        "our {what} passphrase is now {v}",
        "use admin / {v} to log in to the {what}",
        "{what} 的密码是 {v}",
        "{what} 的登录密码统一设成 {v} 了",
        "{what} 口令换成了 {v}",
        "{what} 的密钥是 {v}",
        "{what}密码 {v}",
    ]
)
WHAT = st.sampled_from(["router", "NAS", "build box", "staging db", "数据库", "堡垒机", "VPN"])


@settings(max_examples=150, deadline=None)
@given(SAID, WHAT, VALUE)
def test_generated_prose_secrets_are_found_and_redacted(said: str, what: str, v: str) -> None:
    text = said.format(what=what, v=v)
    assert v in values(text)
    assert v not in redact(text)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["Qz81", "kLm7x", "A1b2"]), st.sampled_from(["Zx9", "9fQ2", "pQ7r"]))
def test_split_values_lose_both_halves(first: str, second: str) -> None:
    for text in (
        f"数据库密码分两段：前半段 {first}，后半段 {second}",
        f"First half of the password is {first}, second half is {second}",
    ):
        assert {first, second} <= set(values(text))


PIN = st.text(alphabet="0123456789", min_size=4, max_size=8)


@settings(max_examples=100, deadline=None)
@given(PIN, st.sampled_from(["door code", "PIN", "alarm code", "passcode", "门禁密码", "验证码"]))
def test_codes_named_with_digits_are_found(pin: str, key: str) -> None:
    assert values(f"The {key} is {pin}") == [pin]


NUMBER = st.text(alphabet="0123456789", min_size=16, max_size=16).filter(
    lambda d: d[0] in "23456" and not luhn(d)
)


@settings(max_examples=100, deadline=None)
@given(NUMBER, st.sampled_from(["Order number", "Tracking no.", "订单号", "Invoice", "Ref"]))
def test_numbers_failing_luhn_are_not_cards(number: str, label: str) -> None:
    assert find_secrets(f"{label} {number} shipped today") == []


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(
        [
            "The password must be at least {n} characters.",
            "Passwords expire after {n} days.",
            "The auth token expires after {n} seconds.",
            "密码至少 {n} 位。",
            "令牌有效期为 {n} 秒。",
            "The context window is {n} tokens.",
            "Port {n} serves the admin API.",
        ]
    ),
    st.integers(min_value=1, max_value=99999),
)
def test_numbers_about_secrets_are_not_secrets(said: str, n: int) -> None:
    assert find_secrets(said.format(n=n)) == []
