"""Digits said aloud, read as digits for the detector (issue 29): "nine, nought, four,
one", "4 double 1 7", "seven seven, one nine, zero", "3 两个 8 6", "七、七、一、九、零",
"八 三 零 七" (one at a time, spaced), "19 then 84" (written numbers keyed in turn); up to
a card's nineteen digits (an ID said in Chinese numerals: 身份证 五一零一…).

    spoken_digits("Alarm is 4 double 1 7")[0]          # "Alarm is 4117"
    spoken_digits("警报是 3 两个 8 6")[0]                # "警报是 3886"
    spoken_digits("one of the two dogs")                 # None: no four digits said

The rules want a code's digits written; people say them one at a time, with commas
between, "nought" or "oh" for 0, "double 1" for 11 and 两个8 for 88. `remem.secrets`
reads the text with each run of four or more digits said this way written as one number
(the rules still want a cue of what it opens), and `where` gives, for each character,
where it stood in the text, so a redaction covers the words as written.
"""

from __future__ import annotations

import re

from remem.secrets_shapes import ZH_DIGITS, Lazy, Piece, rewritten

__all__ = ["spoken_digits"]

_WORDS = {
    "zero": "0", "oh": "0", "nought": "0", "naught": "0", "nil": "0", "one": "1", "two": "2",
    "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
}  # fmt: skip
_ZH = dict(zip(ZH_DIGITS, "001234567891207123456789", strict=True))  # 幺两洞拐: radio words
_TIMES = {"double": 2, "triple": 3, "两": 2, "二": 2, "三": 3, "2": 2, "3": 3}
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}  # "three nines then a two"
_PLURALS = {"zeroes": "0", "noughts": "0", "sixes": "6"} | {
    f"{w}s": d for w, d in _WORDS.items() if w not in ("oh", "nil", "six")
}
_WORD = r"(?:zero|oh|nought|naught|nil|one|two|three|four|five|six|seven|eight|nine)(?![a-z])"
_ONE = rf"(?:(?<![a-z]){_WORD}|\d|[{ZH_DIGITS}])"
# One item: a digit said, "double 1", 两个8; then items joined by a comma, 、, a space, a
# hyphen or a "then" (三个七再三个一). A run needs two items or more, and four digits or
# more (checked after).
_MANY = r"(?<![a-z])(?:two|three|four|five|six)\s+(?:" + "|".join(_PLURALS) + r"|\ds)(?![a-z])"
# two buttons pressed at once on a push-button lock: "2 and 8 together", one step of its code
_AT_ONCE = (
    r"\d\s*(?:and|&|\+)\s*\d\s+(?:together|at\s+once|at\s+the\s+same\s+time|simultaneously)"
    r"(?![a-z])"
)
_ITEM = rf"(?:{_AT_ONCE}|{_MANY}|(?:(?<![a-z])(?:double|triple)\s+|[两二三23]\s*个\s*)?{_ONE})"
_JOIN = (  # "then a one": the article before a digit said after "then"
    r"(?:\s*[,，、]?\s*(?:(?<![a-z])(?:and\s+)?then(?:\s+an?)?(?![a-z])|再|然后)\s*|\s*[,，、]\s*|\s+|-)"
)
_RUN = Lazy(  # Chinese runs may touch the words around them: 密码是三个七再三个一
    rf"(?i)(?<![A-Za-z0-9_.]){_ITEM}(?:{_JOIN}?{_ITEM})+(?![A-Za-z0-9_]|\.\d)"
)
_LISTED = Lazy(r"\d(?:,\s?\d){3,7}")  # "8, 0, 5, 2": written digits, one at a time
_SAID = Lazy(
    rf"(?i)(?<![a-z])(?:{_WORD}|double|triple)|[{ZH_DIGITS}]{{2}}|[{ZH_DIGITS}][、 ]"
    rf"|个\s*[{ZH_DIGITS}\d]|{_MANY}"
    r"|\d,\s?\d,"
    r"|\d\s*,?\s*(?:(?:and\s+)?then|再|然后)\s*\d"  # "4, then 7"
    r"|(?:together|at\s+once|same\s+time|simultaneously)\s*,?\s*(?:and\s+)?then\s+\d"
)
# written numbers keyed one after another: "19 then 84", "3 then 0 then 7 then 1", "41 and then 76"
_THEN = Lazy(r"(?i)\d\s*,?\s*(?:(?<![a-z])(?:and\s+)?then(?![a-z])|再|然后)\s*\d")
_PART = Lazy(
    rf"(?i)(?P<g>{_AT_ONCE})|(?P<m>{_MANY})|(?P<t>(?<![a-z])(?:double|triple)\s+|[两二三23]\s*个\s*)?(?P<d>{_ONE})"
)


# A year's shape said as words, a code people pick ("reset code nineteen ninety-one"):
# two pairs, "nineteen ninety-one", "twenty twenty", "nineteen oh five"
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_UNITS_W = "one two three four five six seven eight nine".split()
_YEAR = Lazy(
    rf"(?i)(?<![a-z-])(?P<h>{'|'.join(_TEENS)}|twenty)[\s-]+(?:(?P<t>{'|'.join(_TENS)})"
    rf"(?:[\s-]+(?P<u>{'|'.join(_UNITS_W)}))?|(?P<e>{'|'.join(_TEENS)})"
    rf"|(?:oh|o)[\s-]+(?P<o>{'|'.join(_UNITS_W)}))(?![a-z-])"
)


def _pair(word: str) -> str:
    low = word.lower()
    return str(10 + _TEENS.index(low)) if low in _TEENS else str(20 + 10 * _TENS.index(low))


def _year(m: re.Match[str]) -> str:
    if m["o"]:
        low = "0" + _WORDS[m["o"].lower()]
    elif m["e"]:
        low = _pair(m["e"])
    else:
        low = str(int(_pair(m["t"])) + (int(_WORDS[m["u"].lower()]) if m["u"] else 0))
    return _pair(m["h"]) + low


def _digit(said: str) -> str:
    return _WORDS.get(said.lower()) or _ZH.get(said) or said


# a card's security code has three digits: "CVV is five nine four", 安全码是五九四
_CVV = Lazy(r"(?i)(?<![a-z])(?:cvv2?|cvc2?|csc|card\s+security\s+code)(?![a-z])|安全码")


def _run_digits(run: str, least: int = 4) -> tuple[str, list[tuple[int, int]]] | None:
    """The digits a run says, with where each came from in `run`; None when it is no
    code said aloud (fewer than `least` digits, or digits only written, "2 3 4 5", but for
    single digits listed with commas)."""
    digits: list[str] = []
    where: list[tuple[int, int]] = []
    spoken = False
    for m in _PART.finditer(run):
        if m["g"] is not None:  # two buttons at once: both digits, in the order said
            pair = [c for c in m["g"] if c.isdigit()]
            digits += pair
            where += [m.span()] * 2
            continue
        if m["m"] is not None:  # "three nines": a count, then the digit in the plural
            count, plural = m["m"].lower().split()
            digits += [_PLURALS.get(plural) or plural[0]] * _COUNTS[count]
            where += [m.span()] * _COUNTS[count]
            spoken = True
            continue
        times = _TIMES[m["t"].strip().rstrip("个").strip().lower()] if m["t"] else 1
        spoken = spoken or times > 1 or not m["d"].isascii() or not m["d"].isdigit()
        digits += [_digit(m["d"])] * times
        where += [m.span()] * times
    spoken = spoken or _LISTED.fullmatch(run) is not None or _THEN.search(run) is not None
    if not spoken or len(digits) < least or len(digits) > 19:
        return None  # up to a card's 19: an ID (18) or a card said digit by digit is one too
    return "".join(digits), where


# a keypad's keys said by name at either end of a code said aloud: "star two nine seven two
# hash" is keyed as *2972# (read so, the rules take it as the keypad's code it is)
_KEY_BEFORE = Lazy(r"(?i)(?<![a-z])(?P<k>star|hash|pound)\s+$")
_KEY_AFTER = Lazy(r"(?i)\s+(?P<k>hash|star|pound)(?![a-z])")
_KEYS = {"star": "*", "hash": "#", "pound": "#"}


def _keyed(text: str, start: int, end: int, said: tuple[str, list[int]]) -> Piece:
    """The piece a run said aloud is read as, with the keypad's keys named before or after it."""
    digits, at = said
    before = _KEY_BEFORE.search(text, max(0, start - 8), start)
    if before is not None:
        start = before.start()
        digits, at = _KEYS[before["k"].lower()] + digits, [start, *at]
    after = _KEY_AFTER.match(text, end)
    if after is not None:
        digits, at, end = digits + _KEYS[after["k"].lower()], [*at, after.end() - 1], after.end()
    return start, end, digits, at


def spoken_digits(text: str) -> tuple[str, list[int]] | None:
    """`text` with each code said aloud written as its digits, and the index in `text` of
    each character; None when no run of four digits or more is said (three by a card's
    security code)."""
    years = list(_YEAR.finditer(text))
    if _SAID.search(text) is None and not years:
        return None
    least = 3 if _CVV.search(text) else 4
    runs = [(m, _run_digits(m[0], least)) for m in _RUN.finditer(text)]
    runs += [(y, (_year(y), [(0, len(y[0]))] * 4)) for y in years]
    pieces: list[Piece] = []
    last = 0
    for m, said in sorted(runs, key=lambda r: r[0].start()):
        if said is None or m.start() < last:
            continue
        digits, spans = said
        at = [m.start() + (s if k == 0 else e - 1) for k, (s, e) in enumerate(spans)]
        pieces.append(_keyed(text, m.start(), m.end(), (digits, at)))
        last = pieces[-1][1]
    return rewritten(text, pieces)
