"""A dial's combination (issue 29): its turns ("18 right, 32 left, 7 right", "left 24, right
11, left 36", "25 R, 10 L, 33 R", a turn taken more than once: "22 left twice, 41 right, 7 left",
26 左两圈，11 右，38 左; 左转 32，右转 15，顺时针到 15，先转到 22，再到 7，最后到 36;
two turns when it opens after them: 先左转到36，再右转到20就开了), or its numbers by a thing a
dial opens ("the gun safe, 12-34-56", "combination 12 34 56", "combination - six one two",
保险柜七十二、十八、五十五; a number, then each turn's way and number: "31 left 12 right 7",
保险箱 三十一 左 十二 右 七; said last, after what the safe holds: "the safe has the deeds,
37-14-62", or after a colon: "the office safe with the petty cash: 38-14-72"), or turned to
one number and then open (密码锁转到 606 就开, "turns to 309 and pops open"), in Chinese and
English; a letter dial's word ("the lock spells out BISCUIT4", 字母锁是 MAPLE: `word_lock_spans`).

    dial_spans("Gym locker combination: 18 right, 32 left, 7 right", ...)   # the turns
    dial_spans("left 2, right 3, left 1 at the junction", ...)               # [] (no lock)

Turns want a lock, a safe or a combination in their sentence, so directions stay
ordinary. Used by `remem.secrets_access`; `DIALED` is a dial's numbers, which its rules
read after a lock too ("the padlock is 17-33-5").
"""

from __future__ import annotations

from remem.secrets_nouns import COMBI
from remem.secrets_shapes import SPOKEN, SPOKEN3, SPOKEN_DIAL, Lazy, scan, sentence

__all__ = ["DIALED", "dial_spans", "word_lock_spans"]

DIALED = r"\d{1,2}(?:\s*[-–—,，、]\s*\d{1,2}){2,3}(?![\d-])"  # 17, 33, 5: a dial's numbers
DIALED_SPACED = r"\d{1,2}(?:\s+\d{1,2}){2,3}(?![\d-])"  # "12 34 56", by a combination only
# A dial: "18 right, 32 left, 7 right", "left 24, right 11, left 36", 左转 32，右转 15,
# 顺时针到 15，逆时针到 42, 左转三圈到 27, 左 12 右 40 左 7
# how many times a turn goes round, said after it: "18 left twice", "right 30 three times"
_LAPS = (
    r"(?:\s+(?:once|twice|thrice|(?:\d|two|three|four|five)\s+(?:full\s+)?(?:times|turns|laps"
    r"|rotations|revolutions)))?"
)
_TURN = (  # "left past it once to 7": words between the way and the number
    r"(?:(?:(?:turn|back|go)\s+){0,2}(?:left|right|clockwise|counter-?clockwise)\s+"
    r"(?:[a-z0-9]+\s+){0,5}?to\s+"  # "back left to 9": the last turn, reversed
    r"\d{1,3}(?![\w])|(?:turn\s+)?(?:left|right|clockwise|counter-?clockwise)\s+\d{1,3}(?![\w])"
    rf"{_LAPS}|\d{{1,3}}\s+(?:left|right){_LAPS}"
    r"|\d{1,3}\s*(?-i:[LR])(?![\w])|(?-i:[LR])\s*\d{1,3}(?![\w]))"  # 25 R
)
_ZH_N = "一二三四五六七八九十"
_ZH_TURN = (  # one turn: a way (or 先转到/再到/最后到), laps perhaps, then the number it stops
    # at, in digits or in words (左转三十八); not 5 号门, not 左转三圈 alone
    # 先到 15 (the dial named before: 拨盘先到15，再到40): the way and the verb unsaid
    r"(?:先|再|然后|最后)?(?:[向往朝]?(?:[左右]|顺时针|逆时针|反时针"
    # 顺三圈到 42, 逆到 7: 时针 unsaid, a lap count or 到 after it
    r"|[顺逆反](?=[转旋拧拨]?\s*(?:[一二三四五六七八九两\d]\s*圈|到)))"
    r"(?:转|旋|拧|拨)?|[转拨拧旋](?=到)"
    r"|(?<=[先再后])(?=到)|(?<=[先再后])[转拨拧旋](?=\s*\d)"  # 先转19 再转46: 到 unsaid
    # a later turn, its verb said once before: 先转到25再转到60最后11
    r"|(?:(?<=再)|(?<=然后)|(?<=最后))(?=\s*\d))"
    r"(?:\s*(?:[一二三四五六七八九两]|\d)\s*圈)?\s*(?:到|至|停在|停到|对准)?\s*"
    rf"(?:\d{{1,3}}|[{_ZH_N}]{{1,3}})(?![\d{_ZH_N}]|\s*[号楼层路栋米站个点圈块元万千百])"
)  # not a sum: 先转19块
# a lock's wheels by where they sit, a digit each: "left dial 6, middle 0, right 3", "top wheel
# 4, middle 1, bottom 9", 左边 6，中间 0，右边 3 (a wheel shows one digit: not "left 12")
_WHEEL = (
    r"(?:(?<![a-z])(?:left|middle|centre|center|right|top|bottom)(?:[- ]?(?:hand|most))?"
    r"(?:\s+(?:dial|wheel|ring|digit|tumbler|one))?|(?:左边|中间|右边|上面|下面|左|中|右)(?:的)?"
    r"(?:转轮|拨轮|轮子?|那个|一?位)?)\s*(?:is\s+|on\s+|at\s+|[:：=]\s*|是|为|在)?\s*"
    rf"(?:\d|[{_ZH_N[:9]}零])(?![\w:]|\.\d|\s*[号楼层路栋米站个点圈]|\s+(?!(?:then|and)\s)[a-z])"
)
# a dial's numbers by their order: 第一段36，第二段12，第三段07; "first 36, second 12, third 7"
_ORDINAL = (
    r"(?:第[一二三四1-4]\s*[段组个]?|(?<![a-z])(?:first|second|third|fourth|last)"
    r"(?:\s+(?:number|turn|wheel|dial|digit))?)"
    r"\s*(?:是|为|is|[:：])?\s*\d{1,2}(?![\d:]|\.\d|\s*[号楼层路栋米站个点圈公千岁%人分]|\s*[a-z])"
)
# a number, then the way to turn and the next number, in turn: "31 left 12 right 7", 三十一 左
# 十二 右 七 (where it starts, then each turn; numbers in digits or in words up to 99)
_N_ANY = (
    rf"(?<![A-Za-z0-9_.{_ZH_N}])(?:\d{{1,2}}|[{_ZH_N}]{{1,3}})"
    rf"(?![\d{_ZH_N}]|\s*[号楼层路栋米站个点圈块元万千百])"
)
_WAY = (
    r"(?:(?<![a-z])(?:left|right|clockwise|anti-?clockwise|counter-?clockwise)(?![a-z])"
    r"|(?-i:[LR])(?![A-Za-z])|[左右]转?|顺时针|逆时针)"
)
_ALTERNATING = (
    rf"{_N_ANY}(?:\s*[,，、]?\s*(?:then\s+)?{_WAY}\s*[,，、]?\s*(?:to\s+)?{_N_ANY}){{2,3}}"
)
_DIAL = Lazy(
    rf"(?i)(?<![a-z]){_TURN}(?:(?:\s*(?:,|;|then|and)\s*|\s+)(?:then\s+)?{_TURN}){{2,}}"
    r"|(?:再)?[左右]转?到?\s*\d{1,3}(?:\s*[，,、]\s*(?:再|然后)?[左右]转?到?\s*\d{1,3}){2,}"
    # the number first, then the way: 24右 08左 31右 (as "24 right, 8 left")
    # (a turn's laps after it: 26 左两圈，11 右，38 左)
    r"|\d{1,3}\s*[左右]转?(?:\s*[两一二三四\d]\s*圈)?"
    r"(?:\s*[，,、]?\s*\d{1,3}\s*[左右]转?(?:\s*[两一二三四\d]\s*圈)?){2,}(?![\u4e00-\u9fff])"
    r"|(?:(?:再|然后)?[左右]转?\s*(?:[一二三四五六七八九两]|\d{1,2})\s*圈\s*(?:到\s*)?\d{0,2}"
    r"\s*[，,、]?\s*){2,}"
    rf"|{_ZH_TURN}(?:\s*[，,、；;]?\s*{_ZH_TURN}){{2,}}"
    # two turns, then it opens: 先左转到36，再右转到20就开了; "left to 36, right to 20 and it opens"
    rf"|(?P<open>{_ZH_TURN}\s*[，,、；;]?\s*{_ZH_TURN}(?=\s*[，,]?\s*(?:就|才|便)?能?(?:开|打开|解锁))"
    rf"|{_TURN}(?:\s*(?:,|;|then|and)\s*|\s+)(?:then\s+)?{_TURN}"
    r"(?=\s*,?\s*(?:and\s+)?(?:it\s+)?(?:opens|unlocks|(?:pops|clicks|swings)\s+open)))"
    rf"|{_ORDINAL}(?:\s*[，,、；;]?\s*(?:then\s+|and\s+)?{_ORDINAL}){{2,3}}"
    rf"|{_WHEEL}(?:\s*[，,、；;]?\s*(?:then\s+|and\s+)?{_WHEEL}){{2,3}}"
    # turned to each number in turn, the way unsaid: "first turn to 27, then 91, then 05"
    r"|(?:first\s+)?(?:turn|spin|dial)\s+(?:it\s+|the\s+dial\s+)?to\s+\d{1,2}(?![\w:]|\.\d)"
    r"(?:\s*,?\s*(?:and\s+)?then\s+(?:(?:turn|spin|go)\s+)?(?:(?:back\s+)?to\s+)?"
    r"\d{1,2}(?![\w:]|\.\d)){2,3}"
    rf"|{_ALTERNATING}"  # the turns' numbers first: "18 right, 32 left, 7 right" read whole
)
_DIAL_WORDS = (
    rf"(?i:combination|combo|{COMBI}|(?<![a-z])(?:safe|(?:pad)?lock(?:er)?|vault|cabinet|dial|lock\s?box"
    r"|key\s?safe)(?:e?s)?(?![a-z]))"
    r"|密码|保险|锁|柜|转盘|拨盘"
)
_DIAL_CUE = Lazy(_DIAL_WORDS)
_NEAR_DIAL = Lazy(  # "单位保险柜转盘 27-14-63", "the gun safe, 12-34-56"
    rf"(?:{_DIAL_WORDS})[^\d.。;；!?\n]{{0,10}}?(?P<v>{DIALED})"
    rf"|(?i:combination|combo|{COMBI})s?(?!\s+of\s)[^\d.。;；!?\n]{{0,30}}?(?P<w>{DIALED}|{DIALED_SPACED})"
    # a safe's or a dial's numbers in spaces, ending the clause or before its turns: "the office
    # safe 55 18 92, it sticks", 保险柜 36 12 47 转三圈 (not a size: "safe 45 30 40 cm")
    rf"|(?i:(?<![a-z])(?:safe|vault|dial)s?(?![a-z])|保险[柜箱]|转盘|拨盘)[^\d.。;；!?\n]{{0,10}}?"
    rf"(?P<s>{DIALED_SPACED})(?=\s*(?:[,，.。;；!！—–]|$|转|(?i:turn)))"
    # a cash box or strongbox opens by a dial like a safe: "the shop's cash box = 27-04-61"
    r"|(?i:(?:cash|strong|money)[ -]?box(?:es)?(?:\s+(?:at|in|on|by|of|under|behind)\s+"
    rf"[^.;:=!?\n\d]{{1,30}}?)?)\s*(?:[:=：]|\s(?:is|was))\s*(?P<b>{DIALED})"
    # a safe named by what it holds or where it is, a colon, then its numbers ending the clause:
    # "the office safe with the petty cash: 38-14-72" (not "... the receipts: 12, 15, 20 bags")
    r"|(?i:(?<![a-z])(?:safe|vault|strongbox|(?:pad)?lock|lock\s?box|key\s?safe|cabinet)s?"
    r"\s+(?:with|holding|that\s+holds|for|where|at|in|on|by|of|under|behind|inside)\s+"
    # or no colon, the numbers ending the note: "the till safe under the counter 31-07-58"
    rf"[^.;:=!?\n\d]{{1,30}}?)(?:\s*[:：=]\s*|\s+)(?P<h>{DIALED})(?=\s*(?:[.;!。；]|,\s|$))"
    # a safe's numbers in words: 保险柜七十二、十八、五十五
    rf"|(?:保险柜|保险箱|密码锁|转盘)[^\d。；\n]{{0,6}}?(?P<c>[{_ZH_N}]{{1,3}}(?:、[{_ZH_N}]{{1,3}}){{2,3}})"
    r"(?![个把台只位层号格])"
    # turned to each number, the way unsaid, then it opens: 转到5、0、6就开了
    r"|转到\s*(?P<t>\d{1,2}(?:\s*[、，,]\s*(?:再|然后)?(?:转?到)?\s*\d{1,2}){2,3})(?!\d)"
    r"\s*(?:就|才|便)?能?(?:开|打开|解锁)"
    # or to one number, a lock's wheels all at once (by a lock: `dial_spans`): 转到606就开
    # (the wheels' digits spaced too: 拨到 1 2 0 8 就开)
    r"|(?:转到|拨到|拧到|调到|对到|对准)\s*(?P<n>\d(?: ?\d){2,7})(?!\d)"
    r"\s*(?:就|才|便)?能?(?:开|打开|解锁)"
    r"|(?i:(?<![a-z])(?:turn|roll|spin|dial|click)(?:s|ed|led)?\s+(?:it\s+|the\s+(?:wheels|dials?)\s+)?"
    r"to\s+)(?P<u>\d{3,8})(?!\d)\s*,?\s*(?i:and\s+(?:it\s+)?(?:(?:pops|springs|clicks|comes)\s+open"
    r"|opens|unlocks))"
)
# A letter dial's word: "the tank lock spells out BISCUIT4 on the letter dial", "word lock is
# set to FROG", 字母锁是 MANGO (capitals, or letters with a digit: not "spells trouble")
_WORD_LOCK = Lazy(
    r"(?i:(?<![a-z])(?:(?:pad)?locks?|dials?|combination|combo)(?![a-z])[^.;!?\n]{0,30}?"
    r"(?<![a-z])spells?(?:\s+out)?\s+"
    r"|(?<![a-z])(?:letter|word)\s+(?:(?:pad)?lock|dial)s?(?:\s+is\s+(?:set\s+to\s+|on\s+)?"
    r"|\s*[:：]\s*|\s+(?:opens|unlocks)\s+(?:on|with)\s+))"
    r"|字母(?:锁|密码|转盘)[^。；\n]{0,8}?(?:是|为|拼成?|[:：])\s*"
)
_WORD_VALUE = Lazy(r"(?=[A-Za-z]*[A-Z0-9])[A-Za-z][A-Za-z0-9]{2,11}(?![A-Za-z0-9])")
_COMBO = Lazy(  # "Combination: 10-20-30": a dial's numbers need no safe named
    r"(?i)(?<![a-z])(?:combination|combo)s?\s*(?:\sis\s|\swas\s|[:：=]|\s[-–—]\s)\s*"
    rf"(?P<v>\d{{1,2}}(?:\s*[-/ ]\s*\d{{1,2}}){{2,3}}(?![\d-])"  # 17-4-29, 17 / 04 / 29
    rf"|{SPOKEN}|{SPOKEN_DIAL}|{SPOKEN3})"  # or in words: "is one nine four"
    # "combo six-one-two"
    rf"|(?<![a-z])(?:combination|combo)\s+(?P<w>{SPOKEN}|{SPOKEN_DIAL}|{SPOKEN3})"
)
# A safe's or a lock's numbers said last, after a pause, once the sentence has said what it holds
# or where it is: "the safe in the back office has the takings and the keys, 44-12-70" (the
# numbers end the line; a date said so is when, not how: "the safe was serviced, 12-03-24")
_DIAL_LAST = Lazy(
    r"(?m)[,，][ \t]*(?P<v>(?P<a>\d{1,2})(?P<sep>[ \t]*[-–][ \t]*|[ \t]+)(?P<b>\d{1,2})"
    r"(?:(?P=sep)\d{1,2}){1,2})(?![\d-])[ \t]*[.!。]?[ \t]*$"
)
_DATE_LIKE = Lazy(r"(?:0?[1-9]|[12]\d|3[01])\D+(?:0?[1-9]|1[0-2])\D+\d{1,2}$")
_LAST_CUE = Lazy(
    r"(?i)(?<![a-z])(?:safes?|vaults?|(?:pad)?locks?|lockboxe?s?|key\s?(?:safe|box)|strongbox"
    r"|combination|combo)(?![a-z])|保险[柜箱]|密码锁|挂锁"
)
_TURN_HINTS = tuple(
    "left right clockwise 左 右 时针 转到 拨到 拧到 先到 再到 第 first turn middle top".split()
    + ["顺", "逆", "先转", "先拨", "先拧", "先旋"]
)
_LR = Lazy(r"\d\s?[LR](?![\w])|(?<![\w])[LR]\s?\d")  # a turn's way by its letter
_DIAL_HINTS = tuple(
    "combo combin safe lock vault cabinet dial box 密码 保险 锁 柜 转盘 转到".split()
    + "拨到 拧到 调到 对到 对准 open unlock".split()
)


_NUMBERS = Lazy(r"\d+")


def _dated(value: str) -> bool:
    """Whether a dial's numbers read as a date, day or month first ("12-03-24", "3-12-24")."""
    a, b, *_ = _NUMBERS.compiled.findall(value)
    return bool(_DATE_LIKE.fullmatch(value) or _DATE_LIKE.fullmatch(f"{b}-{a}-0"))


def dial_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Each dial's numbers: said near a thing a dial opens, or as turns in a sentence that
    names one."""
    out = [m.span(m.lastgroup or 0) for m in scan(_COMBO, text, low, "combo", "combin")]
    for m in scan(_NEAR_DIAL, text, low, *_DIAL_HINTS):
        if m["h"] is not None and _dated(m["h"]):
            continue  # "the safe in the office was serviced: 12-03-24": when, not how
        if (m["n"] or m["u"]) is None or _DIAL_CUE.search(text, *sentence(text, m.start())):
            out.append(m.span(next(g for g in "vwsbctnuh" if m[g] is not None)))

    for m in _DIAL_LAST.finditer(text) if "," in text or "，" in text else ():
        start, _ = sentence(text, m.start())
        if _LAST_CUE.search(text, start, m.start()) and not _dated(m["v"]):
            out.append(m.span("v"))
    turns = _TURN_HINTS if _LR.search(text) is None else ("",)  # "25 R, 10 L": any text
    for m in scan(_DIAL, text, low, *turns):
        start, end = sentence(text, m.start())
        if m["open"] is not None or _DIAL_CUE.search(text, start, end):  # turned, then open
            out.append(m.span())
    return out


def word_lock_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Each letter dial's word (no digit needed: `remem.secrets_cues` asks it of every text)."""
    out = []
    for m in scan(_WORD_LOCK, text, low, "spell", "letter", "word", "字母"):
        v = _WORD_VALUE.match(text, m.end())
        if v is not None and (v[0].isupper() or any(c.isdigit() for c in v[0])):
            out.append(v.span())
    return out
