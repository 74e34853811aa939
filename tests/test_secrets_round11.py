"""Secrets round 11 (issue 29): each kind h11 missed or flagged, with new sentences made
up for these tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets_digits import spoken_digits
from remem.secrets_public import public_spans
from secret_rounds import assert_found, assert_ordinary, cases, values

KINDS = {
    "a one-time code in groups, said before its cue": [
        ("Got 118 204 as the login code, typing it in now.", "118 204"),
        ("They sent 73 51 90 as my bank's verification code.", "73 51 90"),
        ("收到 381 027 作为登录验证码，马上输。", "381 027"),
        ("刚发来 552 019，就是这次的动态码。", "552 019"),
    ],
    "a licence number that starts with letters": [
        ("My driving license no. is WILLI802145JD8XY, for the rental form.", "WILLI802145JD8XY"),
        ("Her driver's licence: SMITH704129AB5CD, keep it safe.", "SMITH704129AB5CD"),
        ("我的驾驶证号是 BROWN612034TK7LM，租车要用。", "BROWN612034TK7LM"),
    ],
    "a wifi's key with no digit, after the network's name": [
        ("Guest wifi at the cabin: PineLodge, key WhisperingBirches", "WhisperingBirches"),
        ("Clinic wifi is Reception-5G, pass SunflowerFields#", "SunflowerFields#"),
        ("酒店 wifi：Harbor-Guest，key SeaBreezeRoom", "SeaBreezeRoom"),
    ],
    "a card's security code in three words": [
        ("The CVC on my debit card is seven, oh, two.", "seven, oh, two"),
        ("新信用卡背面的安全码是三八一。", "三八一"),
        ("card security code: nine nine one", "nine nine one"),
    ],
    "a device's login as its stock user, then the password": [
        ("The camera login is admin then meadow-42.", "meadow-42"),
        ("路由器后台是 root 然后 tplink-2020，别改。", "tplink-2020"),
        ("The printer panel: admin and Lilac77, all lowercase", "Lilac77"),
        ("工作室的 NAS 是 admin / studio-77，大写 S", "studio-77"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # digit groups before a cue, tied to something else
    "The shop sent order 482 913 as the confirmation for my booking.",
    "I paid 120 450 as the deposit, the verification code came later.",
    "订单 482 913 已发货，验证码稍后再发。",
    # a driving licence talked about, no number given
    "The driving licence test is booked for 14 March at the Leeds centre.",
    "Driving licence renewal costs 14 pounds, form D1.",
    # a key that is no wifi's
    "The wifi router is by the door, key hooks on the left.",
    "wifi: Crotchet-Staff, key holder is Anna.",
    # three number words by a card security code that are no code
    "The CVV field takes three digits, one to nine each.",
    "CVV checks failed two or three times today.",
    "安全码错了三次，卡被锁了一天。",
    # a stock user named with no password after it
    "The NAS is admin-only, then backup-2024 runs nightly.",
    "The account is admin then the report goes to v2.3.1.",
    "我是 admin 然后负责 2024 年的预算。",
    # serials, references, tracking numbers: they track a thing, not open it
    "The e-bike's serial number is KXT55B02917, engraved under the saddle.",
    "Our insurer's reference for the claim is CLM-550917, quote it when you call.",
    "Visa application reference: VFS 2231 8870, check the status online.",
    "护照寄回来了，快递单号 SF 1234 5678 901。",
    "签证申请编号 BJ 2025 0419 77，用来查进度。",
    "The new padlock on the shed is a Squire SS50CS, weatherproof.",
    "We bought a Yale YDM4109 for the front door.",
    "门锁型号是 DS-K1T341，装在后门。",
    # a merchant's number, and numbers the text calls public
    "店里的商户号是 8860023417，收款码上印着。",
    "Our company registration number is 09412277 — it's public, fine to share.",
    "我们的统一报税编号 91310115，这个可以公开。",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)


@pytest.mark.parametrize(
    "text",
    [
        "My passport number, for reference, is 533380006",  # "for reference" names no ref
        "我的护照号是 E12345678，快递单号 SF 1234 5678 901",  # the passport, not the parcel
        "The door PIN is 4471 — it's not a secret in this house.",  # a PIN stays a PIN
    ],
)
def test_a_secret_beside_a_reference_or_a_public_cue_is_found(text: str) -> None:
    assert values(text), text


def test_reference_values_are_public_spans() -> None:
    text = "Claim reference is ZX 7720 1184, call with it."
    assert [text[s:e] for s, e in public_spans(text, text.lower())] == ["ZX 7720 1184"]


def test_three_number_words_are_digits_only_by_a_card_security_code() -> None:
    assert spoken_digits("CVV is five nine four") == (
        "CVV is 594",
        [0, 1, 2, 3, 4, 5, 6, 7, 15, 20],  # each digit at its word (the first at its start),
    )
    assert spoken_digits("we had five nine four of them") is None
