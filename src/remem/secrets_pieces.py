"""Secrets given in pieces (issue 29): a one-time code said in groups of digits, a
wallet's recovery words given a part at a time, in Chinese and English.

    piece_spans("the OTP is 482 913", ...)                                  # 482 913
    piece_spans("网银动态口令是 273 840", ...)                              # 273 840
    piece_spans("seed words, first six: lemon drift rocket pilot saddle humor", ...)
    piece_spans("order 273 840 shipped", ...)                               # []

A code read off a phone comes in the groups the screen shows it in ("482 913"), and
recovery words are sent in halves so no one message holds them all; each piece is
still the secret. Each rule wants the cue that names the code or the words before the
piece. Used by `remem.secrets_cues`.
"""

from __future__ import annotations

import re

from remem.secrets_shapes import Lazy, scan, sentence

__all__ = ["piece_spans"]

# -- a one-time code in groups: "the OTP is 482 913", 动态口令刚刚是 273 840 ----------------
_ONE_TIME = Lazy(
    r"(?i)(?<![a-z])(?:otp|one[- ]time\s+(?:pass)?code|one[- ]time\s+password|2fa\s+code"
    r"|(?:verification|security|login|sms|auth(?:entication)?|authenticator|confirmation)\s+code)"
    r"(?![a-z])|动态口令|动态码|动态密码|验证码|校验码|短信码|一次性密码|令牌码"
)
_GROUPS = Lazy(  # two to four groups of digits, as a screen or a text message shows them
    r"(?<![\d.,:/-])\d{2,4}(?:[ -]\d{2,4}){1,3}(?!\d|[.,:/-]\d|\s*(?:[a-z%]|[秒分天次元个位]))"
)
_GROUPS_FIRST = Lazy(r"(?<![\d.,:/-])\d{2,4}(?:[ -]\d{2,4}){1,3}(?![\d.,:/-]?\d)")  # a link follows
_OTHER_NUMBER = Lazy(
    r"(?i)(?<![a-z])(?:number|no\.|order|ticket|ref(?:erence)?|case|invoice|phone|line)(?![a-z])"
    r"|#|号|单|电话|热线"
)
_ONE_TIME_WORDS = ("otp", "one-time", "one time", "2fa", " code", "动态", "验证码", "校验码",
                   "短信码", "一次性", "令牌码")  # fmt: skip


# the groups said first, the cue naming them: "texted 602 913 as my OTP", 273 840 是验证码
_NAMED_AS = Lazy(
    r"(?i)\s*(?:[,，—–-]\s*)?(?:as|is|was|for)\s+(?:(?:my|the|your|our|his|her|their|a|an"
    r"|this|today['’]s|new)\s+)+(?:[a-z'’]+\s+){0,2}$"  # "as my bank's one-time code"
    r"|\s*(?:[,，]\s*)?(?:就|这)?(?:是|为|作为)(?:我|你|他|她|我们)?的?[\u4e00-\u9fff]{0,4}$"
)


def _codes_before(text: str, cue: re.Match[str], start: int) -> list[tuple[int, int]]:
    """The last digit groups before `cue` in its sentence, tied to it by a link alone."""
    before = list(_GROUPS_FIRST.finditer(text, max(start, cue.start() - 40), cue.start()))
    if not before or not _NAMED_AS.match(text[before[-1].end() : cue.start()]):
        return []
    return [before[-1].span()]


def _grouped_codes(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for cue in scan(_ONE_TIME, text, low, *_ONE_TIME_WORDS):
        start, end = sentence(text, cue.start())
        m = _GROUPS.search(text, cue.end(), min(end, cue.end() + 24))
        spans = [m.span()] if m else _codes_before(text, cue, start)
        if m is not None and _OTHER_NUMBER.search(text, cue.end(), m.start()):
            continue  # 验证码收不到，工单号 482 913: another number's
        out += [(a, b) for a, b in spans if 6 <= sum(c.isdigit() for c in text[a:b]) <= 8]
    return out


# -- recovery words in parts: "first six: maple ocean ...", 前六个：lemon drift ... ---------
_SEED_CUE = Lazy(
    r"(?i)(?<![a-z])(?:seed\s+(?:phrase|words)|mnemonic|(?:recovery|backup|secret)\s+(?:words"
    r"|phrase|seed)|(?P<bare>seeds?))(?![a-z])|助记词|恢复短语|种子短语|恢复词|备份词"
)
_WALLET = Lazy(  # a bare "seed" is a wallet's only beside one: "the seed catalogue lists ..."
    r"(?i)(?<![a-z])(?:wallet|ledger|trezor|metamask|crypto|bitcoin|btc|eth|ethereum)(?![a-z])"
    r"|钱包|比特币"
)
# six words or more of a wallet's list (lower case, 3-8 letters), after a colon or "is"
_WORDS = Lazy(
    r"(?i:(?<![a-z])(?:is|are)\s+|[:：]\s*)(?P<v>[a-z]{3,8}(?:[ ,]+[a-z]{3,8}){5,23})(?![A-Za-z])"
)
_PROSE = frozenset(  # words of a sentence, never of a wallet's list
    "the and are was were with that this from have has will you your our into been they them "
    "then than what when where which its not but just also very some".split()
)


def _seed_parts(text: str, low: str) -> list[tuple[int, int]]:
    cue = _SEED_CUE.search(text) if any(w in low for w in _SEED_WORDS) else None
    if cue is None or (cue["bare"] and _WALLET.search(text) is None):
        return []
    out = []
    for m in _WORDS.finditer(text, cue.end()):
        start, value = m.start("v"), m["v"]
        if "," in value and re.match(r"\s*[:：]", text[m.end() :]):
            value = value[: value.rindex(",")]  # "..., last six: hover ...": a label ends it
        words = re.findall(r"[a-z]+", value)
        if len(words) >= 6 and value.islower() and not _PROSE.intersection(words):
            out.append((start, start + len(value)))
    return out


_SEED_WORDS = ("seed", "mnemonic", "recovery", "backup", "secret", "助记词", "短语", "恢复词",
               "备份词")  # fmt: skip


def piece_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the pieces these rules find in `text` (`low`: it lower-cased)."""
    return _grouped_codes(text, low) + _seed_parts(text, low)
