"""Secrets described rather than stated (issue 29): a password told by its parts, a value
said before what it is, a card's security code (named, or on the back), a "social" given by
its number, a code told by its count as the usual one ("the till app, the usual six:
604913"), a code told as a date someone keeps ("the combo is Tom's birthday, 0311",
柜子，老会计生日1104), a password told as a phrase's pinyin (密码是百鸟朝凤的拼音bainiaochaofeng),
the part of an ID kept secret ("the secret bit you don't print is k7f"), a word with what is
added to it, then the whole ('"tulip" plus her birth year, so tulip1986'), in Chinese and English.

    described_spans("the pw is capital R, then 1987, then a dollar sign", ...)   # the parts
    described_spans("it's 2207ka, that's the pin for the bike lock", ...)        # 2207ka
    described_spans("Visa ending 1881, exp 11/28, security code 304", ...)       # 304
    described_spans("Passwords need a capital letter and a symbol", ...)         # []

Each rule wants a concrete value (a letter named, digits, a symbol named, a made-up
token) tied to a secret's noun, so talk about what passwords must contain stays ordinary.
Used by `remem.secrets_cues`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from remem.secrets_shapes import Lazy, pinyin_phrase, scan, sentence, strong

__all__ = ["card_code_spans", "described_spans", "said_again"]

# -- a code said again or by what its number is (`remem.secrets_prose`, after its link) -----
_RESTATED = Lazy(
    r"(?i)(?:也就是|就是|即|i\.e\.,?|that\s+is,?|which\s+is|in\s+digits,?)\s*"
    r"(?P<v>[*#]?\d(?:[ #*-]?\d){3,11}#?)(?!\d)"
)
# "the combo is just the year we opened — 1987"; the number alone after a full stop too: "...
# is the year the shop opened. 1923." (it ends there: not "1923 was a good year")
_DESCRIBED = Lazy(
    r"(?i)(?:the|my|our|his|her|their)\s+(?=[^,:—–]*?\b(?:year|birth\w*|anniversary)\b)"
    r"(?:[\w'’-]+\s+){0,8}?[\w'’-]+\s*(?:[,:—–]|\.(?=\s+\d))\s*(?P<v>\d{4,8})"
    r"(?=\s*(?:[,.;!—–]|$))"
)


def said_again(
    text: str, pos: int, end: int, sentence_end: Callable[[str, int], int]
) -> tuple[int, int] | None:
    """The span of a code's digits said again ("that is 4471") or after what they are, from
    `pos` to the sentence's `end` (or the next sentence's, when the number stands alone)."""
    if (m := _RESTATED.search(text, pos, end)) is not None:
        return m.span("v")
    tail = sentence_end(text, end + 1) if text[end : end + 1] == "." else end
    return m.span("v") if (m := _DESCRIBED.match(text, pos, tail)) is not None else None


# -- a password by its parts: "capital P, then 2015 and an exclamation mark" --------------
_NOUN = Lazy(
    r"(?i)(?<![a-z])(?:pass(?:word|code|phrase)?|pw|pwd|pin|code)(?![a-z])|密码|口令|PIN码?"
)
_PART = Lazy(
    r"(?i)(?P<case>(?<![a-z])(?:capital|upper[ -]?case|lower[ -]?case|small|big)\s+(?:letter\s+)?"
    r"[\"'“‘]?[a-z](?![a-z'’-])|(?:大写|小写)(?:的|字母)?\s*[A-Za-z]{1,4}(?![A-Za-z]))"
    r"|(?P<digits>(?<![A-Za-z0-9_.,/:-])\d{2,8}(?![A-Za-z0-9_.,/:-]|\s*(?:位|个|字符|次|天|小时|分钟|秒)))"
    r"|(?P<symbol>(?<![a-z])(?:exclamation\s+(?:mark|point)|dollar\s+sign|at\s+sign|hash(?:tag)?"
    r"|pound\s+sign|underscore|asterisk|ampersand|question\s+mark|percent\s+sign|tilde|caret"
    r"|plus\s+sign)(?![a-z])|感叹号|叹号|井号|星号|下划线|美元符号|百分号|艾特|@符号)"
)
_PART_HINT = Lazy(
    r"capital|upper|lower|small|big|exclamation|dollar|at sign|hash|pound|underscore|asterisk"
    r"|ampersand|question mark|percent|tilde|caret|plus sign|大写|小写|叹号|井号|星号|下划线|美元"
    r"|百分号|艾特|@符号"
)
_UNIT = Lazy(r"(?i)\s*(?:characters?|chars?|digits?|letters?|symbols?|numbers?|times|days?|hours?)")
_SEQUENCE = Lazy(
    r"(?i)(?<![a-z])(?:then|followed\s+by|ends?\s+with|starts?\s+with)(?![a-z])|然后|接着|最后|再|后面|加上"
)
_RULES = Lazy(  # what passwords must contain: a policy, not one password
    r"(?i)(?<![a-z])(?:must|should|needs?\s+to|require[sd]?|at\s+least|policy|rules?)(?![a-z])"
    r"|必须|需要|至少|要求|规则|策略|应该|不能"
)


def _composed(text: str, low: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if _PART_HINT.search(low) is None:
        return out  # every rule's set of parts holds a letter's case or a symbol named
    for noun in scan(_NOUN, text, low, "pass", "pw", "pin", "code", "密码", "口令"):
        start, end = sentence(text, noun.start())
        if out and noun.start() < out[-1][1] or _RULES.search(text, start, end):
            continue
        parts = [
            m
            for m in _PART.finditer(text, noun.end(), min(end, noun.end() + 200))
            if m.lastgroup != "digits" or not _UNIT.match(text, m.end())
        ]
        kinds = {m.lastgroup for m in parts}
        then = _SEQUENCE.search(text, noun.end(), end) is not None
        if len(kinds) >= 3 or (len(kinds) == 2 and "case" in kinds and then):
            out.append((parts[0].start(), parts[-1].end()))
    return out


# -- the parts first, the noun after: "it's Marigold, then 77, then an exclamation mark.
# That's the Sky password", 先是 Tianmi，然后 520，最后一个感叹号——淘宝密码就是这样
_ITEM = (
    r"(?:(?:a|an|one|the|一个|个)\s*)?(?:exclamation\s+(?:mark|point)|dollar\s+sign|at\s+sign"
    r"|question\s+mark|感叹号|叹号|井号|星号|下划线|美元符号|艾特|[A-Za-z0-9]{2,20})"
)
_ORDERED = Lazy(
    r"(?i)(?:(?<![a-z])(?:it['’]s|it\s+is|starts?\s+with|first)|先是|首先是?|开头是?)\s*"
    rf"(?P<v>{_ITEM}(?:\s*[,，]?\s*(?:(?:and\s+)?then|followed\s+by|and\s+finally|finally|last"
    rf"|然后是?|接着是?|再(?:加)?|最后(?:是|加)?)\s*{_ITEM}){{2,4}})"
)
_NOUN_NEAR = Lazy(  # the noun in the same sentence or the next one
    r"(?i)(?<![a-z])(?:pass(?:word|code|phrase)?|pw|pwd|pin)(?![a-z])|密码|口令"
)


def _parts_first(text: str, low: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if _NOUN_NEAR.search(text) is None:
        return out  # no password named anywhere: most texts
    for m in scan(_ORDERED, text, low, "then", "followed", "finally", "last", "然后", "接着", "再",
                  "最后"):  # fmt: skip
        digits = re.search(r"(?<![A-Za-z0-9])\d{2,8}(?![A-Za-z0-9])", m["v"]) is not None
        symbol = _PART.search(m["v"]) is not None  # a symbol or a letter's case named
        worded = re.search(r"^[A-Za-z]{3,}", m["v"]) is not None  # "Marigold", "Tianmi"
        if not digits or not (symbol or worded):
            continue
        _, end = sentence(text, m.end())
        _, after = sentence(text, end + 1) if end < len(text) else (end, end)
        noun = _NOUN_NEAR.search(text, m.start(), after)
        if noun is not None and not _RULES.search(text, m.start(), after):
            out.append(m.span("v"))
    return out


# -- the value first: "..., 0614rjk, thats the pin for the storage unit" -----------------
_VALUE_THEN = Lazy(
    r"(?i)(?<![^\s,;:(])(?P<v>[^\s,;:()]{4,40})\s*(?:[,;:—–]|\s-{1,2})\s*(?:that['’]?s|thats|that\s+is"
    r"|which\s+is|this\s+is)\s+(?:(?:my|the|our|his|her|their|your)\s+)(?:[\w'’-]+\s+){0,3}?"
    r"(?P<k>pin|password|passcode|pass\s+code|code|combo|combination|pw)(?![a-z])"
    r"(?=\s*(?:$|[.,;!?)]|\s(?:for|to|on|at|of|lol|btw|so|and)(?![a-z])))"
    r"|(?<![!-~])(?P<z>[!-~]{4,40})\s*[，,]\s*(?:这|那)(?:个)?(?:就)?是[^。，,！!\n]{0,12}?"
    r"(?:密码|口令|PIN码?|验证码|门禁码|开锁码)"
)


_CLAUSE_START = Lazy(  # the value opens its clause: not "Room 1402, that's the code for ..."
    r"(?i)(?:^|[,;:(—–，；：]|(?<![a-z])(?:it['’]?s|its|is|was|use|try|just|enter|type"
    r"|think|remember))\s*$"  # "think 1990, that's the code": a hint to recall it by
)


def _value_then(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_VALUE_THEN, text, low, "that", "which", "this", "是"):
        group = "v" if m["v"] is not None else "z"
        value = m[group].rstrip(".!?")
        if not _CLAUSE_START.search(text, max(0, m.start(group) - 12), m.start(group)):
            continue
        digits = value.isdigit() and 4 <= len(value) <= 10
        if digits or (strong(value) and any(c.isdigit() for c in value)):
            out.append((m.start(group), m.start(group) + len(value)))
    return out


# -- a card's security code, and a "social" by its number --------------------------------
_SECURITY_CODE = Lazy(  # "back code 881": the code on a card's back, by an expiry or a card
    r"(?i)(?<![a-z])(?:(?:security|sec|verification|back)\s+(?:code|number)|cvv2?|cvc2?|csc|cid)"
    r"\s*(?:is\s+|[:：=#]\s*)?(?P<v>\d{3,4})(?![\d/])"
)
_CARD_CUE = Lazy(
    r"(?i)(?<![a-z])(?:card|visa|mastercard|amex|discover|exp(?:iry|ires|iration)?|expir(?:y|es))"
    r"(?![a-z])|(?<!\d)(?:0[1-9]|1[0-2])/\d{2}(?!\d)|卡"
)
_SOCIAL = Lazy(  # "my social is 412 66 0938": the Social Security number by its short name
    r"(?i)(?<![a-z])(?:social|soc\s+sec)(?:\s+(?:number|no\.?|#))?(?:['’]s|\s+(?:is|was)|\s*[:#=])"
    r"\s*(?P<v>\d{3}[ -]?\d{2}[ -]?\d{4})(?![\d-])"
)


# A card's security code by its own name ("CVV 772", 安全码是 321: moved from
# `remem.secrets_cues`), or as the digits on the back of a card
_CVV_SAID = Lazy(
    r"(?i)(?<![a-z])(?:cvv2?|cvc2?|csc|card\s+security\s+code)(?![a-z])\s*(?:is\s+|[:：=]\s*)?"
    r"(?P<v>\d{3,4})(?!\d)|安全码\s*(?:是|为|[:：])?\s*(?P<z>\d{3,4})(?!\d)"
)
_CVV = Lazy(
    r"(?i)(?:on\s+the\s+back|back\s+of\s+(?:the|my|your)\s+card|背面|背后)[^.。\n\d]{0,24}?"
    # not "0800 numbers" (a word after it makes it a kind), nor "0800 056 0572" (a phone's)
    r"(?<!\d)(?P<v>\d{3,4})(?![ -]?\d)"
    r"(?!\s+(?!(?:and|then|but|so|for|on|in|to|exp\w*|is|was)(?![a-z]))[a-z])"
)
_CARD_WORD = Lazy(r"(?i)card|visa|amex|mastercard|卡")


def card_code_spans(text: str, low: str, digits: bool) -> list[tuple[int, int]]:
    """A card's security code: named (CVV, 安全码), or the digits on the back of a card."""
    hints = ("cvv", "cvc", "csc", "security code", "安全码")
    out = [m.span("v" if m["v"] is not None else "z") for m in scan(_CVV_SAID, text, low, *hints)]
    if _CARD_WORD.search(text):
        out += [m.span("v") for m in scan(_CVV, text, low, *(("back", "背") if digits else ()))]
    return out


# A password told by how it is made: 就是拼音guangbo加2021 (a word's pinyin, then digits), or
# a phrase's pinyin alone: 密码是百鸟朝凤的拼音bainiaochaofeng (three syllables or more)
_PINYIN = Lazy(
    r"(?:拼音|全拼|首字母)\s*(?P<v>[A-Za-z]{2,24}\s*(?:再?加上?|\+|后面跟|后面加)\s*\d{2,8})(?!\d)"
    r"|(?:拼音|全拼)(?:是|就是|[:：])?\s*(?P<p>[A-Za-z]{8,40})(?![A-Za-z0-9])"
)
_PINYIN_CUE = Lazy(r"(?i)密码|口令|pass|pwd")


# A code told by its count, as one known already, after what it opens or pays: "the card
# machine app, the usual six: 604913" (as many digits as said; "six digits: 203040" alone is
# a format)
_USUAL_COUNT = Lazy(
    r"(?i)(?<![a-z])(?:usual|same|old|regular|those|that)\s+(?P<n>four|five|six|seven|eight|[4-8])"
    r"(?:\s+(?:digits?|numbers?))?(?:\s+as\s+(?:always|ever|before))?\s*(?:[:=—–-]\s*|,\s*|\s+)"
    r"(?P<v>\d(?: ?\d){3,7})(?![\d.,:/-]?\d)"
)
_USUAL_CUE = Lazy(
    r"(?i)(?<![a-z])(?:apps?|log-?ins?|sign-?ins?|pins?|passcodes?|tills?|cards?|unlock|doors?"
    r"|locks?|safes?|alarms?|banking|wallets?|pay(?:ment)?)(?![a-z])"  # not a sort or phone no.
)
_COUNTS = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def _usual_count(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_USUAL_COUNT, text, low, "usual", "same", "old", "regular", "those", "that"):
        n = int(m["n"]) if m["n"].isdigit() else _COUNTS[m["n"].lower()]
        start, _ = sentence(text, m.start())
        if len(m["v"].replace(" ", "")) == n and _USUAL_CUE.search(text, start, m.start()):
            out.append(m.span("v"))
    return out


# A code told as a date someone keeps, by a lock or a code named before it: "the container
# combo is Dave's birthday, 1207, he won't mind", 存皮影的柜子，老团长生日0917 (the digits a
# date's, MMDD or DDMM, YYMMDD, YYYYMMDD; the date ends its clause: not "生日0917那天")
_DATE_CODE = Lazy(
    r"(?i)(?:(?<![a-z])(?:birthday|birth\s*(?:day|date)|anniversary|wedding\s+day)(?![a-z])"
    r"(?:\s*[,:—–(-]\s*|\s+)(?:which\s+is\s+|i\.e\.\s*|so\s+)?"  # not "birthday is 1207", a date
    r"|(?:生日|出生日期|纪念日|结婚纪念日)(?:是|为|[:：，,])?\s*)"
    r"(?P<v>\d{4}(?:\d{2}){0,2})(?![\d/.:-])(?=\s*(?:[,，。.;；!！、—–]|$))"
)
_DATE_CUE = Lazy(
    r"(?i)(?<![a-z])(?:combo|combination|code|pin|passcode|password|(?:pad)?lock|safe|locker"
    r"|keypad|lock\s?box|key\s?(?:box|safe)|alarm|gate|door|cabinet|cupboard)s?(?![a-z])"
    r"|密码|锁|柜|箱|保险|门禁"
)


def _a_date(v: str) -> bool:
    """Digits of a day of the year: MMDD or DDMM, with a year before or after for six or eight."""
    day = v[-4:] if v[:2] in ("19", "20") and len(v) == 8 else v[2:6] if len(v) == 6 else v[:4]
    a, b = int(day[:2]), int(day[2:])
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)


def _date_codes(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    hints = ("birth", "anniversary", "wedding", "生日", "出生", "纪念日")
    for m in scan(_DATE_CODE, text, low, *hints):
        start, _ = sentence(text, m.start())
        if _DATE_CUE.search(text, start, m.start()) and _a_date(m["v"]):
            out.append(m.span("v"))
    return out


# The part of an ID or a login kept back, named as the secret part: "the operator ID is
# GBR-OP-X and the secret bit you don't print is k7f", "the secret digits of it are 4471"
_SECRET_PART = Lazy(
    r"(?i)(?<![a-z])secret\s+(?:part|bit|piece|digits|characters|letters|suffix|ending)"
    r"(?:\s+(?!(?:is|are|was|were)\s)[\w'’-]+){0,10}?(?:\s+(?:is|are|was|were)|,?\s+it['’]s)\s+"
    r"(?P<v>[A-Za-z0-9-]{3,12})(?![\w-])"
)


def _secret_parts(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_SECRET_PART, text, low, "secret"):
        v = m["v"]
        mixed = re.search(r"\d", v) and re.search(r"[A-Za-z]", v)
        if mixed or re.fullmatch(r"\d{4,12}", v):  # not "the secret bit is the sauce"
            out.append(m.span("v"))
    return out


# -- a word with what is added to it, then the whole: 'it's "tulip" plus her birth year, so
# tulip1986' (the whole starts with the word and adds to it: a password worked out aloud)
_WORKED = Lazy(
    r"(?i)(?<![\w-])[\"'“‘]?(?P<w>[a-z]{3,20})[\"'”’]?\s+(?:plus|and\s+then|then|with|followed\s+by)"
    r"\s+(?:the|my|our|his|her|their|a|an)\s+[^,.;:!?\n]{1,40}?,?\s*(?:so|i\.e\.|which\s+makes\s+it"
    r"|making\s+it|giving|=)\s*[:：]?\s*(?:it['’]s\s+)?[\"'“‘]?(?P<v>[a-z][\w!@#$%&*.-]{3,40})"
)


def _worked_out(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_WORKED, text, low, " so ", "i.e.", "makes it", "making it", "giving", "="):
        value = m["v"].rstrip(".,!?")
        extra = value[len(m["w"]) :]
        if value.lower().startswith(m["w"].lower()) and re.search(r"[\d\W_]", extra):
            out.append((m.start("v"), m.start("v") + len(value)))
    return out


def described_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the values these rules find in `text` (`low`: it lower-cased)."""
    out = _composed(text, low) + _value_then(text, low) + _parts_first(text, low)
    out += _usual_count(text, low) + _date_codes(text, low) + _secret_parts(text, low)
    out += _worked_out(text, low)
    hints = ("security", "sec ", "verification", "back ", "cvv", "cvc", "csc", "cid")
    codes = [m.span("v") for m in scan(_SECURITY_CODE, text, low, *hints)]
    out += codes if codes and _CARD_CUE.search(text) else []
    out += [m.span("v") for m in scan(_SOCIAL, text, low, "social", "soc sec")]
    if _PINYIN_CUE.search(text):
        for m in scan(_PINYIN, text, low, "拼音", "全拼", "首字母"):
            if m["v"] is not None or pinyin_phrase(m["p"]):
                out.append(m.span("v" if m["v"] is not None else "p"))
    return out
