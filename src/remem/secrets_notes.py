"""A note that is a thing that locks and its code, with no link between them (issue 29;
moved from `remem.secrets_access`): "Pinsetter pit door 6924" (the code ends the note), 放钱的
那个A12柜子，1194 (a locker's label, a pause, the code; or its number after it: 更衣柜 5 号：
2 6 0 4), 钥匙盒，老周说是三一四一; and a room named by what it holds or is for, then its code,
as the whole note ("boot drying room 2290"); lockers or locks, then each person's code
("padlocks: Tom 418, Priya 227", 储物柜：阿明 418，阿芳 227).

    lock_note_spans("Pinsetter pit door 6924", ...)      # the span of 6924
    lock_note_spans("tack room 4471", ...)               # the span of 4471
    lock_note_spans("Room 12 door 1204", ...)            # []: a room's own number
    lock_note_spans("meeting room 1204", ...)            # []: a room one is sent to by number

A door, a flight's gate or a room has a number of its own (`NOT_DOOR`, which
`remem.secrets_access` shares), so a number is a code only where nothing else claims it.
Used by `remem.secrets_access`.
"""

from __future__ import annotations

from remem.secrets_last import TIME, YEAR
from remem.secrets_shapes import SPOKEN, ZH_DIGITS, Lazy, scan, sentence

__all__ = ["NOT_DOOR", "ROOM_OWN_NUMBER", "lock_note_spans"]

NOT_DOOR = Lazy(  # a door or gate with a number of its own: a flight's, a room's (a hotel
    # room's or "room 12", not a "back room door", which is where it leads from)
    r"(?i)(?<![a-z])(?:flight|boarding|terminal|airport|platform|apartment|apt|suite|unit"
    r"|hotel\s+room|room(?!\s+door)|room(?=\s+(?:no\.?\s*|number\s+|#\s*)?[A-Za-z]?\d)"
    r"|floor|house|street|number|no\.)(?![a-z])|航班|登机|房间|号"
)

_ZH_LOCKER = r"(?:储物柜|更衣柜|柜子|柜|箱子|箱|格子)"
# A note that is a lock and its code, no link: "Pinsetter pit door 6924" (the code ends the
# note), 放钱的那个A12柜子，1194 (a locker's label, a pause, the code), 钥匙盒，老周说是三一四一
_LOCK_NOTE = Lazy(
    r"(?i)^(?:[\w'’-]+\s+){0,4}(?:door|padlock|keypad|key\s?safe|lock\s?box|cupboard|shed|cage"
    r"|(?<!fire\s)(?<!smoke\s)(?P<a>alarm))"
    # ... or in words, then an aside or what to do: "Stockroom alarm 4471, panel by the till"
    rf"\s+(?P<v>[#*]?\d{{4,6}}#?|{SPOKEN})(?:\s*[.!]?\s*$|\s*[,;—–]\s|\s+then\s)"
    rf"|(?:(?<![A-Za-z])[A-Z]\d{{1,3}}号?\s*{_ZH_LOCKER}"
    # or numbered after it, the code spaced or said perhaps: 更衣柜 12 号：3 8 2 9
    # (or with no pause when the code is spaced, keyed a digit at a time: 工具柜 2 号 9 4 4 1)
    rf"|(?<![冰书货电]){_ZH_LOCKER}\s*[A-Z]?\d{{1,3}}\s*号)"
    r"(?:\s*[，,：:]\s*|\s+(?=\d(?: \d){3,5}\s*[。！!]?\s*$))"
    rf"(?P<z>\d{{4,6}}|\d(?: \d){{3,5}}|[{ZH_DIGITS}]{{4,6}})\s*[。！!]?\s*$"
    r"|(?:钥匙盒|钥匙箱|保险柜|保险箱|密码锁|挂锁|门锁|柜子|门禁)[^。！？\n]{0,12}?说(?:过)?是\s*"
    rf"(?P<s>[{ZH_DIGITS}]{{4,8}}|\d{{4,8}})(?![\d{ZH_DIGITS}])"
)
_LOCK_NOTE_WORDS = ("door", "lock", "keypad", "safe", "box", "cupboard", "shed", "cage", "alarm",
                    "柜", "箱", "说")  # fmt: skip

# A room named by a word or three for what it holds or what is done in it, then four to six
# digits, and nothing else: "boot drying room 2290". A room's own number is three digits, or
# follows a room one is sent to by it (a hotel's, a meeting's, a class's), or a place said
# in the note ("interview in room 4127"): those words keep the note ordinary.
_ROOM_NOTE = Lazy(
    r"(?i)^\s*(?P<w>[a-z'’-]+(?:\s+[a-z'’-]+){0,2})\s+room\s+(?P<v>\d{4,6})\s*[.!]?\s*$"
)
ROOM_OWN_NUMBER = Lazy(
    r"(?i)(?<![a-z])(?:hotel|guest|double|single|twin|family|deluxe|standard|executive|meeting"
    r"|conference|board|class|lecture|seminar|exam|lab|tutorial|study|ward|bed|dorm|hospital"
    r"|interview|consulting|treatment|court|in|at|to"
    r"|my|our|your|his|her|their|booked|book|moved|move|go|went|see|meet|room)(?![a-z])"
)


# Lockers or locks, then each person's code: 储物柜：阿明 418，阿芳 227; "padlocks: Tom 418, Priya
# 227" (a name, then three to six digits, two people or more; a locker's own number has 号 or
# "no." with it, or is said as one: "locker numbers", 编号, "allocated")
_NAME_ZH = r"(?!第)[\u4e00-\u9fff]{1,3}(?<![楼层号区排栋间室组门])"
_NAME_EN = r"(?!(?:Room|Floor|Level|Block|Row|Bay|Unit|No|Locker|Box)\b)[A-Z][a-z]{1,15}"
_DIGITS_EACH = r"\d{3,6}(?![\d.,:/-]?\d|\s*(?:[号元块个楼层位米]|[A-Za-z%]))"
_EACH = Lazy(
    rf"(?:{_ZH_LOCKER}|挂锁|密码锁|锁)[\u4e00-\u9fff]{{0,6}}?\s*[:：]\s*"
    rf"(?P<z>{_NAME_ZH}\s*{_DIGITS_EACH}(?:\s*[，,、；;]\s*{_NAME_ZH}\s*{_DIGITS_EACH})+)"
    r"|(?i:(?<![a-z])(?:lockers?|padlocks?|locks|lock\s?box(?:es)?|cabinets?)(?![a-z])"
    r"(?:\s+(?:on|at|in|by)\s+[^.;:\n\d]{1,30}?)?)\s*[:,—–]\s*"
    rf"(?P<v>{_NAME_EN}\s+{_DIGITS_EACH}(?:\s*[,;]\s*(?:and\s+)?{_NAME_EN}\s+{_DIGITS_EACH})+)"
)
_OWN_NUMBERS = Lazy(
    r"(?i)(?<![a-z])(?:numbers?|no\.|nos\.|assigned|allocated|allocation|rooms?)(?![a-z])|#|编号|号码|分配"
)
_EACH_DIGITS = Lazy(r"\d{3,6}")


def _each_person(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_EACH, text, low, "柜", "锁", "箱", "lock", "cabinet"):
        group = "z" if m["z"] is not None else "v"
        if _OWN_NUMBERS.search(text, sentence(text, m.start())[0], m.end()):
            continue  # "locker numbers: Tom 418, ...": their own numbers, no code
        out += [n.span() for n in _EACH_DIGITS.finditer(text, m.start(group), m.end(group))]
    return out


def lock_note_spans(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_LOCK_NOTE, text, low, *_LOCK_NOTE_WORDS):
        group = next(g for g in ("v", "z", "s") if m[g] is not None)
        wake = m["a"] and (TIME.fullmatch(m[group]) or YEAR.fullmatch(m[group]))
        if group == "z" and YEAR.fullmatch(m[group]):
            continue  # 储物柜 3 号：2019, when it was put in
        if group != "v" or not (NOT_DOOR.search(text, 0, m.start(group)) or wake):
            out.append(m.span(group))  # not "Room 12 door 1204", "alarm 0630, coffee"
    for m in scan(_ROOM_NOTE, text, low, "room"):
        if not (ROOM_OWN_NUMBER.search(m["w"]) or YEAR.fullmatch(m["v"])):
            out.append(m.span("v"))  # not "music room 1999": a year names an era
    return out + _each_person(text, low)
