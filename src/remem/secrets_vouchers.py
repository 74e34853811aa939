"""Codes that are money (issue 29): a gift card's, a voucher's or a top-up card's code, in
capitals and digits as the card prints it, said after the card's name in its sentence ("the
e-gift voucher for Sam: QK7M-2XPD-9LRT", 礼品卡给你：KQ7M-2XPD-9LRT-4HWN), in Chinese and
English. Whoever reads the code spends it, so it is a secret without a secret's noun.

    voucher_spans("the e-gift voucher for Sam: QK7M-2XPD-9LRT", ...)   # the code
    voucher_spans("promo voucher WELCOME2024 for 10% off", ...)        # []

Not a promo or discount code (made to be shared: a word with a year, SPRING2025, not digits
and capitals in turn), nor the card's order, batch or reference number, nor its balance or
the digits it ends in. Used by `remem.secrets_cues`.
"""

from __future__ import annotations

from remem.secrets_shapes import Lazy, scan, sentence

__all__ = ["voucher_spans"]

# A card or a voucher that holds money, by its name (not a store's credit card, a bank's)
_HOLDS_MONEY = Lazy(
    r"(?i)(?<![a-z])(?:e-?gift|gift\s*(?:card|voucher|certificate|token)s?|vouchers?"
    r"|(?:pre-?paid|top-?up|recharge|reload|game)\s+(?:card|voucher)s?|redeem\s+codes?)(?![a-z])"
    r"|礼品卡|购物卡|充值卡|储值卡|提货卡|提货券|代金券|兑换券|卡券|点卡|(?<![A-Za-z])E卡"
)
_HINTS = (
    *"gift voucher paid top recharge reload game redeem".split(),
    *"礼品卡 购物卡 充值卡 储值卡 提货 代金券 兑换券 卡券 点卡 e卡".split(),
)
# its code: groups of capitals and digits ("KQ7M-2XPD-9LRT"), or one run of ten or more
_CODE = Lazy(r"(?<![\w-])(?:[A-Z0-9]{4,6}(?:[- ][A-Z0-9]{4,6}){2,4}|[A-Z0-9]{10,20})(?![\w-]|\.\w)")
# a number that names the card's order, batch or a reference, or a code made to be shared
_NOT_ITS_CODE = Lazy(
    r"(?i)(?<![a-z])(?:order|batch|serial|ref(?:erence)?|tracking|invoice|booking|ending|ends"
    r"|promo|discount|coupon|referral|sku|product)(?![a-z])|订单|单号|编号|批号|序列号|尾号|优惠码"
)


def _made_up(code: str) -> bool:
    """Capitals and digits in turn, three or more of each (a generated code, not a word with a
    year: WELCOME2024, SAVE-2025-XMAS)."""
    body = [c for c in code if c.isalnum()]
    letters, digits = sum(c.isalpha() for c in body), sum(c.isdigit() for c in body)
    turns = sum(a.isdigit() != b.isdigit() for a, b in zip(body, body[1:], strict=False))
    return letters >= 3 and digits >= 3 and turns >= 3


def voucher_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the codes of the cards and vouchers that hold money `text` names."""
    out: list[tuple[int, int]] = []
    for m in scan(_HOLDS_MONEY, text, low, *_HINTS):
        _, end = sentence(text, m.start())
        code = _CODE.search(text, m.end(), min(end, m.end() + 60))
        if code is None or (out and out[-1] == code.span()):
            continue
        if _made_up(code[0]) and not _NOT_ITS_CODE.search(text, m.end(), code.start()):
            out.append(code.span())
    return out
