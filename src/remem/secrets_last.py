"""A bare number that ends a sentence about a thing opened by a code, after some chatter
(issue 29): "Alarm at the framers, it's the year they opened backwards, so 8991", "the
cage opens with the shop's year backwards, so 8991", "the safe code hasn't changed, still
4417", "the boiler cage, think 3114, ok?" (a doubt before it, a tag after); a year is
no code; or a number told with how to remember it ("the shed opens on 7831, the year we
bought it backwards", 6102，倒过来就是开业那年). Used by `remem.secrets_access`.

    last_number("Side gate — it's the old one reversed, so 7241.", ...)  # the span of 7241
    last_number("The gate was rebuilt, 1998.", ...)                      # []
"""

from __future__ import annotations

import re

from remem.secrets_access_words import CONFIRM_KEY, ZH_DOOR
from remem.secrets_shapes import Lazy, scan, sentence

__all__ = ["HEDGE", "TIME", "YEAR", "last_number"]

TIME = Lazy(r"(?:[01]\d|2[0-3])[0-5]\d")  # "set the alarm to 0630" is a wake-up time
YEAR = Lazy(r"(?:19|20)\d\d")
_FOUR = Lazy(r"\d{4}")
_OPENS = Lazy(r"(?i)(?<![a-z])opens(?![a-z])")
# a code said with a doubt before it ("the stable alarm: maybe 6610", "I think it's 4471")
HEDGE = (
    r"(?:(?:i\s+)?(?:think|believe|reckon)\s+(?:it['’]?s\s+)?|(?:it\s+)?should\s+be\s+"
    r"|(?:probably|maybe|try)\s+)"
)
# ... and a word asking it be taken in after it: "..., 9921, ok?"
_TAG = r"\s*,?\s*(?:ok(?:ay)?|right|yeah|yes|cheers|thanks|ta|got\s+it)\s*[?!.]*\s*(?:$|\n)"

# A bare number that ends a sentence about a thing opened by a code, after some chatter:
# "Alarm at the framers — it's the year they opened backwards, so 8991."
_LAST = Lazy(
    r"(?i)(?:[,，:：—–]|(?<![a-z])(?:so|then|i\.e\.|namely)|就是|即|所以)\s*"
    rf"(?:(?:together|combined|in\s+full)\s*[,:]?\s*|(?:still|now)\s+|{HEDGE})?(?P<v>[*#]?\d{{4,8}}#?)"
    rf"(?=\s*(?:[.!。！]\s*)?(?:$|\n|(?<=[.!。！])\s)|\s+[—–]\s|{_TAG}"  # or an aside: "— 0714 —"
    rf"|{CONFIRM_KEY})"  # or the key that confirms it: "..., 5866, then SET"
)
_LAST_CUE = Lazy(
    r"(?i)(?<![a-z])(?P<a>(?:burglar\s+|house\s+|shop\s+|security\s+)?alarm)s?(?![a-z])"
    r"|(?<![a-z])(?:doors?|gates?|safes?|keypads?|(?:pad)?locks?|lock\s?box|key\s?safe"
    r"|lockers?(?!\s+rooms?)"  # a locker's own number comes before a pause: "locker 12, 6692"
    r"|(?:key\s+)?cabinets?|cages?|cupboards?|(?:cash\s+)?drawers?|pins?|passcodes?)(?![a-z])"
    r"|(?<![a-z])(?:opens|unlocks)\s+(?:with|using)(?![a-z])"  # "opens with ..., so 8991"
    r"|门禁|门锁|密码锁|保险箱|保险柜|警报|报警器"
)
# a code given in halves, then whole: "first half 44, second half 91, so together 4491"
_HALVES = Lazy(r"(?i)(?<![a-z])(?:first|second|other)\s+half(?![a-z])")
# a code said as the old one with a digit changed, then whole: "same as last year but ending 5
# not 4, so 2245", 跟去年一样，只是最后一位改成7：3417 (the digit before is a part, not a label)
_CHANGED = Lazy(
    r"(?i)(?<![a-z])(?:same|as\s+before|as\s+last)[^.!?\n]{0,40}?(?<![a-z])(?:ending|ends?\s+(?:in|with|on)"
    r"|starting|starts?\s+with|(?:last|first)\s+(?:digit|number|one))(?![a-z])"
    r"|(?:一样|不变|没变|老样子)[^。！？\n]{0,8}?(?:最后一位|第一位|末位|尾数)"
)
# a code said as worked out from another number, then given: "the code for the tank room is
# last year's plus one, so 4806", 密码是去年的加一，所以 4806 (the working names it a code)
_DERIVED = Lazy(
    r"(?i)(?<![a-z])(?<!zip\s)(?<!area\s)(?<!promo\s)(?<!error\s)(?<!discount\s)(?<!voucher\s)"
    r"(?:code|combo|combination)s?(?![a-z])[^.!?\n]{0,60}?"
    r"(?<![a-z])(?:plus|minus|add(?:ed)?|times|doubled|one\s+(?:more|less|up|down|higher|lower))"
    r"(?![a-z])|(?:密码|码)[^。！？\n]{0,16}?(?:加|减)[一二三四五六七八九十\d]"
)
_DERIVED_CODE = Lazy(r"(?i)(?<![a-z])(?:code|combo|combination|pin|passcode)(?![a-z])|密码|门禁")
_ZH_DOOR = Lazy(ZH_DOOR + r"(?![店诊票户面牌号口])|柜|箱")
# a code made from a date someone keeps in mind: "my birthday mmdd — 0714" is no wake-up time
_FROM_DATE = Lazy(r"(?i)(?<![a-z])(?:birthday|anniversary|mmdd|ddmm|born)(?![a-z])|生日")
_MONTH_DAY = Lazy(
    r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\s*,?\s*$"
)
_LAST_NOT = Lazy(  # the sentence says what else the number is: a price, an hour, a place
    r"(?i)(?<![a-z])(?:cost|costs|paid|pay|price|rent(?:al)?|fees?|yearly|monthly|closes"
    r"|opens(?!\s+(?:with|using))"
    r"|until|night|morning|evening|o['’]clock)(?![a-z])|[£$€¥]|费|价|租|元|点|营业|关门"
)
_NAMED_BEFORE = Lazy(  # "customer number, 88231", "level 3, then 1207", "gate B, then 4412"
    r"(?i)(?:(?<![a-z])(?:number|no\.?|ticket|order|room|suite|unit|level|floor|platform|route"
    r"|flight|account|customer|invoice|ref(?:erence)?|(?:gate|door)\s+\w)|#|\d|号)\W*$"
)
_LAST_HINTS = ("alarm", "door", "gate", "safe", "keypad", "lock", "key", "cage", "cupboard",
               "opens", "drawer", "pin", "passcode", "门", "锁", "保险", "警报", "报警",
               " half", "same", "一样", "不变", "没变", "老样子",
               "code", "combo", "码")  # fmt: skip


# A number told with how to remember it, in a sentence about a thing that opens: "Tool store
# opens on 2991, which is the planting year backwards so you won't forget", 4471，倒过来就是
# 他的生日 (a price or a count is never learnt backwards)
_MNEMONIC = Lazy(
    r"(?i)(?<![\d.,:/-])(?P<v>[*#]?\d{4,8}#?)(?![\d.,:/-]?\d)[^.;!?\n。；！？]{0,50}?"
    r"(?:(?<![a-z])(?:backwards|reversed|in\s+reverse|back\s+to\s+front|so\s+(?:you|we|i)\s+"
    r"(?:won['’]?t|don['’]?t|can['’]?t|never)\s+forget|easy\s+to\s+remember)(?![a-z])"
    r"|倒过来|反过来|倒着念|倒着写|倒序|好记)"
)
_MNEMONIC_CUE = Lazy(
    r"(?i)(?<![a-z])(?:opens|unlocks|opened|unlocked|(?P<c>(?<!zip\s)(?<!area\s)(?<!postal\s)code"
    r"|combo|combination|pin|passcode))"
    r"(?![a-z])|(?P<z>密码)"
)
_PRICE = Lazy(
    r"(?i)(?<![a-z])(?:cost|costs|paid|pay|price|rent(?:al)?|fees?)(?![a-z])|[£$€¥]|费|价|元"
)


def _remembered(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    hints = ("backwards", "revers", "back to front", "forget", "remember", "倒", "反过来", "好记")
    for m in scan(_MNEMONIC, text, low, *hints):
        start, end = sentence(text, m.start())
        named = _MNEMONIC_CUE.search(text, start, end)
        code = named is not None and (named["c"] or named["z"])
        hours = TIME.fullmatch(m["v"]) and not code  # "opens on 0900": when, not how
        cue = _LAST_CUE.search(text, start, end) or named
        if cue and not (hours or _PRICE.search(text, start, end)):
            out.append(m.span("v"))
    return out


# the number a code is built from, right before the link: "house number twice, 47 so 4747",
# and the working said of it (twice, reversed, a digit added at an end)
_BASE = Lazy(r"(?<![\d.,:/-])(?P<b>\d{2,6})\W*$")
_WORKING = Lazy(
    r"(?i)(?<![a-z])(?:twice|doubled?|repeated|back\s+to\s+back|reversed|backwards|plus|add(?:ed)?"
    r"|on\s+the\s+(?:end|front)|in\s+front|at\s+the\s+(?:end|front|start))(?![a-z])"
    r"|两遍|两次|重复|倒过来|反过来|加"
)


def _built_from(text: str, start: int, m: re.Match[str]) -> bool:
    """Whether the digits before a "so" are what the code is made of ("47 so 4747", "1887,
    reversed so 7881"): the working, not another number's label ("level 3, then 1207")."""
    base = _BASE.search(text, max(start, m.start() - 12), m.start())
    if base is None or re.match(r"(?i)so|所以|就是|即", m[0]) is None:
        return False
    value, b = m["v"].strip("*#"), base["b"]
    made = value.startswith((b, b[::-1])) or value.endswith((b, b[::-1]))
    return made and _WORKING.search(text, start, m.start()) is not None


# A code never said whole: a number, then a digit to add at one end of it ("think of the
# saw's model number, 261, then stick a zero on the end", 门禁是 261，后面加个 0); the number
# is the secret's body, in a sentence about a thing opened by a code
_DIGIT_WORD = r"(?:\d|zero|nought|oh|one|two|three|four|five|six|seven|eight|nine)"
_APPENDED = Lazy(
    r"(?i)(?<![\d.,:/-])(?P<v>\d{3,7})(?![\d.,:/-]?\d)\s*[,，]?\s*(?:(?:and\s+)?then\s+|and\s+|but\s+)?"
    r"(?:stick|put|add|tack|append|pop|whack|bung|write|type|with)\s+(?:on\s+)?(?:an?\s+|another\s+"
    rf"|one\s+more\s+|an\s+extra\s+)?{_DIGIT_WORD}(?:['’]?s)?\s+"
    r"(?:on\s+(?:the\s+)?(?:end|front|back)|at\s+the\s+(?:end|front|start|back)|in\s+front"
    r"|after\s+it|before\s+it|to\s+the\s+end)(?![a-z])"
    r"|(?<![\d.])(?P<z>\d{3,7})(?!\d)\s*[，,]?\s*(?:然后)?(?:后面|前面|末尾|最后|开头)(?:再)?"
    r"(?:加|添|补|跟)(?:上|一)?个?\s*[\d零〇一二三四五六七八九]"
)


def _appended(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    hints = ("end", "front", "back", "start", "after it", "before it", "加", "添", "补", "跟")
    for m in scan(_APPENDED, text, low, *hints):
        start, end = sentence(text, m.start())
        if _LAST_CUE.search(text, start, end) or _DERIVED_CODE.search(text, start, end):
            out.append(m.span(m.lastgroup or 0))
    return out


def last_number(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_LAST, text, low, *(_LAST_HINTS if _FOUR.search(text) else ())):
        start, _ = sentence(text, m.start())
        halves = _HALVES.search(text, start, m.start())  # the digits before are its halves
        if halves is None and (halves := _CHANGED.search(text, start, m.start())) is not None:
            halves = _LAST_CUE.search(text, start, halves.start()) or _ZH_DOOR.search(
                text, start, halves.start()
            )  # a door's, a lock's (机房门, 柜): no such noun, no code
        cue = _LAST_CUE.search(text, start, m.start()) or halves
        derived = cue is None and _DERIVED.search(text, start, m.start()) is not None
        cue = cue or _DERIVED.search(text, start, m.start())
        if cue is None or YEAR.fullmatch(m["v"]) or _MONTH_DAY.search(text, start, m.start()):
            continue  # "the gate was rebuilt, 1998": a year
        before = _NAMED_BEFORE.search(text, max(start, m.start() - 16), m.start())
        named = before is not None and not _built_from(text, start, m)  # "47 so 4747": its working
        if _LAST_NOT.search(text, start, m.start()) or (named and not halves):
            continue
        # an alarm at 0630 wakes someone; a door that "opens with the first bell, 0800" opens then
        wake = (
            not (halves or derived)
            and (cue["a"] or _OPENS.search(text, start, m.start()))
            and TIME.fullmatch(m["v"])
        )
        if not wake or _FROM_DATE.search(text, cue.end(), m.start()):  # "alarm is my birthday"
            out.append(m.span("v"))
    return out + _remembered(text, low) + _appended(text, low)
