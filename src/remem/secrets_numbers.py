"""Checks on a card's or an ID's number beyond its shape (`remem.secrets`, and
`remem.secrets_prose`): a Chinese ID's check character, a card's Luhn sum, an IBAN's mod 97,
and the nouns that name a number a card's or an ID's when its check fails (a typo, a test card;
money paid onto a card, 转到她农行卡上：6228 …), or the expiry and the back code said after it
that only a card has; a UK driving licence's layout (`UK_LICENCE`: a person's, whatever
licence it is said to be).

    cn_id_valid("11010519491231002X")        # True: the check character fits
    card_valid("4111 1111 1111 1111")        # True: Luhn
"""

from __future__ import annotations

import re

from remem.secrets_shapes import Lazy

__all__ = [
    "UK_LICENCE",
    "card_named",
    "card_valid",
    "cn_id_valid",
    "iban_valid",
    "ibans",
    "id_named",
    "lettered_id",
    "luhn",
]

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def cn_id_valid(number: str) -> bool:
    total = sum(int(c) * w for c, w in zip(number[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == number[17].upper()


# An ID's noun says 证 (船员证号, 证件号码): its 18 digits with a date of birth inside are an
# ID's even when the check character is wrong (a typo, a test record)
_ID_NOUN = Lazy(r"证件?号?码?\s*(?:是|为|[:：])?\s*$")
# A card's noun right before: 公务卡 6228 4800 1234 5678 912, "fuel card 5412 ..." laid out in
# fours (a test card fails Luhn); a member's, a bus's or a shop's card is no payment card
# ("card 4111 1111 1111 1112" alone, with no kind of card said, is no card's number); money
# paid onto a card names it too: 转到她农行卡上：6228 4804 …
_CARD_NAMED = Lazy(
    r"(?i)(?:(?<=[\u4e00-\u9fff])(?<!会员|积分|购物|礼品|公交|交通|校园|门禁|电话|流量)(?<!饭)卡"
    r"(?:号码?|上|里)?|(?<![a-z])(?:company|corporate|business|fuel|account|expenses?|travel"
    r"|purchasing|procurement|work|petty\s+cash)\s+card(?:\s+(?:number|no\.?))?)\s*(?:是|为|[:：#，,])?\s*$"
)
_FOURS = Lazy(r"[3-6]\d{3}(?: \d{4}){3}(?: \d{1,3})?|[3-6]\d{3}(?:-\d{4}){3}(?:-\d{1,3})?")


# A UK driving licence's number: the surname's first five letters (9s pad a short one), the
# birth date's digits (the month plus 50 for a woman), two initials, a digit, two check
# characters, and perhaps the licence's issue number: it names a person, wherever it is given
UK_LICENCE = (
    r"[A-Z9]{5}\d(?:[05][1-9]|[16][0-2])(?:0[1-9]|[12]\d|3[01])\d[A-Z9]{2}\d[A-Z0-9]{2}"
    r"(?:\s?\d{2})?"
)


def _before(m: re.Match[str], size: int) -> str:
    return m.string[max(0, m.start() - size) : m.start()]


def lettered_id(value: str) -> bool:
    """An ID of letters and digits in groups ("4TR7-KP2-WX19", a Medicare number): fewer
    digits than a numeric one, but eight characters or more of both kinds."""
    letters, digits = sum(c.isalpha() for c in value), sum(c.isdigit() for c in value)
    return letters >= 2 and digits >= 3 and letters + digits >= 8


def id_named(m: re.Match[str]) -> bool:
    return _ID_NOUN.search(_before(m, 10)) is not None


# Any card said with its expiry right after ("treasurer's card 4000 1234 5678 9010 exp 09/27",
# or bare with the code on the back, "…, 09/27, 318"): a payment card's, Luhn or not
_EXPIRY = Lazy(
    r"(?i)\s*,?\s*(?:exp(?:iry|ires|\.)?(?:\s+date)?|valid\s+(?:thru|through|until|to)|有效期[至到]?)"
    r"\s*[:：]?\s*(?:0[1-9]|1[0-2])\s*/\s*(?:20)?\d{2}(?!\d)"
    r"|(?:\s*,\s*|\s+)(?:0[1-9]|1[0-2])/(?:20)?\d{2}(?![\d/])"
)
# ... and the code on its back said after the expiry, named or bare ("…, 03/27, back code 881",
# "exp 02/28 code 773", "09/26 cvv 412"): the three things only a card has, together
_BACK_CODE = Lazy(
    r"(?i)\s*[,;]?\s*(?:(?:(?:(?:back|security|sec|verification|card)\s+)?(?:code|number|no\.?)"
    # or said by where it is: "the three digits on the back are 442"
    r"|(?:the\s+)?(?:(?:three|four|3|4)\s+)?(?:digits?|numbers?|code)\s+on\s+(?:the\s+)?back"
    r"(?:\s+of\s+(?:it|the\s+card))?"
    r"|cvv2?|cvc2?|csc|安全码)\s*(?:is\s+|are\s+|[:：=#]\s*)?\d{3,4}(?![\d/.,:]?\d)"
    # bare, the clause ends or goes on: not "1200 units"
    r"|\d{3,4}(?![\d/.,:]?\d)(?!\s*(?!(?:and|then|for|to|on|but|so|if|over)(?![a-z]))[a-z%]))"
)
# a card's word, or a card's brand that ends in one (Mastercard), 信用卡
_CARD_WORD = Lazy(r"(?i)cards?(?![a-z])|卡")


def card_named(m: re.Match[str]) -> bool:
    """16 to 19 digits in fours right after a card's noun, or after any card and before its
    expiry, or before its expiry and the code on its back: a card's number without Luhn."""
    if not _FOURS.fullmatch(m[0]):
        return False
    if (expiry := _EXPIRY.match(m.string, m.end())) is not None:
        clause = re.split(r"[.!?;。；]\s", _before(m, 60))[-1]  # "card for the deposit 4658 ..."
        if _CARD_WORD.search(clause) or _BACK_CODE.match(m.string, expiry.end()):
            return True
    return _CARD_NAMED.search(_before(m, 24)) is not None


def card_valid(text: str) -> bool:
    digits = re.sub(r"[ -]", "", text)
    if digits[0] == "2" and not 2221 <= int(digits[:4]) <= 2720:  # Mastercard's 2-series only
        return False
    if len(digits) == 13 and digits[0] != "4":
        return False  # only an old Visa has 13 digits: an EAN-13 barcode passes Luhn too
    return 13 <= len(digits) <= 19 and len(set(digits)) > 1 and luhn(digits)


def luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


_IBAN_HINT = Lazy(r"[A-Z]{2}\d{2}")
_IBAN = Lazy(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])"
)


def ibans(text: str) -> list[tuple[int, int]]:
    """The spans of `text` laid out as an IBAN whose mod-97 check holds."""
    if not _IBAN_HINT.search(text):
        return []
    return [m.span() for m in _IBAN.finditer(text) if iban_valid(m[0])]


def iban_valid(text: str) -> bool:
    """IBAN's mod-97 check on `text` (spaces allowed)."""
    s = text.replace(" ", "").upper()
    if not 15 <= len(s) <= 34:
        return False
    moved = s[4:] + s[:4]
    digits = "".join(str(int(c, 36)) for c in moved)
    return int(digits) % 97 == 1
