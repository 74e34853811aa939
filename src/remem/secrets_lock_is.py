"""A thing that locks said to be, take or want its code (issue 29; moved from
`remem.secrets_access`): "the shed padlock is 0-2-2-7", "the keypad takes 9091", "harness
locker 3 is 8062" (a locker's own number said first, then its code; or by where it is: "pool 4
locker is 718"), "the padlock's number is
4471", "the float tin lock is seven three three", "the alarm set 9214, unset the same", "my
locker at the gym is two eight eight zero"; a padlock's digits right after it ("feed bin
padlock two four seven"), any lock's after a pause ("the little lock on the tool bag, 538"); a
code a device asks for as it starts ("the app wants 5512 on startup").

    lock_is_spans("the shed padlock is 0-2-2-7", ...)    # the span of 0-2-2-7
    lock_is_spans("my locker is 12", ...)                # []: a locker's own number
    lock_is_spans("the alarm set 0630", ...)             # []: a wake-up time

A locker, a store or a cupboard has a number of its own, a size or a year; an alarm set to a
time wakes someone: those stay ordinary. Used by `remem.secrets_access`.
"""

from __future__ import annotations

import re

from remem.secrets_access_words import (
    ACCESS,
    CONFIRM_KEY,
    COUNTED,
    HOURS_RANGE,
    RATE,
    UNIT,
    VAL_DIAL,
)
from remem.secrets_described import said_again
from remem.secrets_dial import DIALED
from remem.secrets_last import TIME, YEAR
from remem.secrets_notes import ROOM_OWN_NUMBER
from remem.secrets_shapes import MONEY, SPOKEN, SPOKEN3, Lazy, excluded, scan, sentence, strong

__all__ = ["lock_is_spans"]

_LOCK_IS = Lazy(  # "the shed padlock is 0-2-2-7", "the keypad takes 9091"
    r"(?i)(?<![a-z])(?P<thing>(?:pad|smart\s+|bike\s+|combination\s+|door\s+)?locks?|padlocks?"
    r"|keypads?"
    r"|(?P<box>lockers?|stores?"  # a locker's or a store's own number is no code: "on" only
    # ... its own number said first, by where it is: "pool 4 locker is 718" (a word then a
    # number; not "the 2 lockers", a count)
    r"|(?<=[a-z]\s)(?<!the\s)(?<!my\s)(?P<pre>\d{1,3}[a-z]?\s+)locker)"
    r"|(?P<alarm>(?:burglar\s+|house\s+|security\s+)?alarm)"
    r"|(?:alarm|security|keypad|door)\s+panels?"
    r"|lockbox(?:es)?|lock\s+box|key\s*safe|key\s*box(?:es)?|safes?"
    r"|barriers?|containers?"  # a car park's barrier, a padlocked container: keyed too
    r"|(?P<held>cages?|cabinets?|cupboards?|vaults?"  # a thing that holds and locks: no year
    # a room named by what is kept or done in it: "the honey extraction room is 8841" (a
    # store "is" its own number, a meeting room too)
    r"|(?!(?:the|a|an|my|our|your|this|that)\s)(?P<kept>[a-z]+)\s+rooms?)"
    r"|(?:cash|strong|money)[ -]?box"  # "the cash box is 4471", like a safe
    # a way in "is" its code only as what its number is: "the back door is the year we
    # moved in — 2004" (not "the door is 2 metres")
    r"|(?P<entry>doors?|gates?|garages?|sheds?|entrances?))(?![a-z])"
    r"(?P<num>\s+(?:no\.?\s*|number\s+|#\s*)?[A-Za-z]?\d{1,3}[A-Za-z]?(?![\w-]))?"  # "locker 3"
    r"(?P<nw>(?:['’]s)?\s+(?:numbers?|digits))?"  # "the padlock's number is 4471"
    r"(?:\s+(?P<rb>unset|disarm))?"  # said before where: "the alarm unset at the shop is 2290"
    # where it is, then whose or what for: "the keysafe at the Hills' for Friday's job is 2204"
    # (a house's number before its street's name: "the key safe at 14 Rowan Drive is 3088")
    r"(?:\s+(?:on|at|by|of|for|in|under|behind|inside|beside|below|above|round|around|near"
    r"|outside)\s+(?!\d(?!\d{0,3}[a-z]?\s+(?-i:[A-Z])))[^.;:!?\n]{1,30}?){0,2}"
    r"(?:\s+(?:this|next|for\s+the)\s+(?:week|weekend|month|term|season|stay)|\s+today)?"  # when
    # "the fridge alarm reset is 7171", "the alarm unset is 2290": the code that resets it
    r"(?:\s+(?P<rs>reset|unset|disarm|set))?"  # "the alarm set is 2246, unset the same"
    r"\s*(?:\s(?:is|was)\s+(?:now\s+|still\s+)?(?:set\s+to\s+)?|\s(?:takes|uses|wants|needs|goes)\s+"
    r"(?:the\s+same\s+[^.;:!?\n\d]{1,40}?,\s*)?"  # "uses the same four as the van, 4266"
    r"|['’]s\s+(?:now\s+|still\s+)?"  # "the cash tin lock's seven three three"
    # a lock left on its numbers: "the lockers are all on 220", "the safe is on the same
    # numbers as the old one, 61-22-48"
    r"|\s(?:is|are|was|were)\s+(?:all\s+|still\s+|now\s+)?(?P<on>on)\s+"
    r"(?:the\s+same\s+[^.;:!?\n\d]{1,40}?,\s*)?"
    r"|\s(?:set|changed|reset)\s+to\s+"  # "hotel room safe set to 3810"
    # locks, all of them, set alike: "the hire locks are all set to 5120" (set: no own number)
    r"|\s(?:are|were|is|was)\s+(?:(?:all|now|still)\s+){0,2}(?P<st>set|changed|reset)\s+to\s+"
    # changed, when, then the new one: "the gate keypad changed today, now 5759"
    r"|\s(?:was\s+|got\s+)?(?:changed|reset)(?:\s+(?:today|again|yesterday|recently|this\s+\w+"
    r"|last\s+\w+))?\s*[,;—–]\s*(?:and\s+)?(?:it['’]s\s+|it\s+is\s+)?now\s+"
    r"|\s(?P<set>(?:un)?set|(?:dis)?arm)(?:\s*[:：]\s*|\s+)"  # "the alarm set 9214, unset 9214"
    r"|\s*[:：=]\s*)"  # "shed keypad = 4471", as a note's list of codes writes it
    rf"(?P<v>{DIALED}|{VAL_DIAL}|(?P<u>{SPOKEN3})"
    # a screen's or a smart lock's made-up word with digits: "the laptop lock is ennead-2241"
    r"|(?P<tw>(?=[^\s,;]*\d)[A-Za-z][^\s,;]{5,39})"
    # or what its number is, then it (`said_again`): "the strongbox is the year the bakery
    # opened — 1971", "the padlock is my birthday then 77, 110377"
    r"|(?P<said>(?=(?:the|my|our|his|her|their)\s)))"
)
_LOCK_IS_WORDS = (
    *"lock keypad safe panel alarm box store barrier container".split(),
    *"cage cabinet cupboard room vault door gate garage shed entrance".split(),
)
_PADDED = Lazy(r"0\d{3,7}")
# a lock's "number" is its code; a locker's, an alarm's or a barrier's is its own
_NUMBERED = Lazy(r"(?i)(?:pad|smart|bike|combination|door|\s)*lock(?!er)|keypad|safe|key|cash")
_PLACE = Lazy(
    r"\s+(?:[A-Z]|(?i:floor|street|st|road|rd|ave|level)(?![a-z]))|(?i:st|nd|rd|th)(?![a-z])"
)
_TAKES = Lazy(  # "the building door takes 3355", "the copier wants 00417 before ..."
    rf"(?i)(?<![a-z])(?:{ACCESS}|box(?:es)?"  # a box on a wall: a keypad's
    # a store or a room named by what it keeps, said "coded": its door's code (`_coded_room`)
    r"|(?P<kr>[a-z]+\s+(?:store|room)s?)"
    # an app or a device that asks for digits: its PIN ("the alarm app on the tablet wants 5126")
    r"|(?P<dev>apps?|tablets?|ipads?|phones?|handsets?|laptops?|computers?|pcs?|terminals?"
    r"|kiosks?|tills?|registers?|pos|devices?|consoles?|scanners?))(?![a-z])"
    r"(?:\s+(?:no\.?\s*|number\s+|#\s*)?\d{1,2}(?![\w.,-]))?"  # "terminal 2": one of several
    # where it is: "the bike store behind the hall is coded 2604"
    r"(?:\s+(?:on|at|by|of|for|in|behind|under|beside|near|next\s+to|inside|outside)"
    r"\s+[^.;:!?\n]{1,30}?)?"
    # "the locker combination goes twenty, five, thirty", "the door panel needs 4471"
    # or the part of it keyed or pressed: "the roller door remote wants 93002"
    r"(?:\s+(?:code|combination|combo|pin|panel|remote|fob|opener|keypad|controller|reader))?"
    r"(?:\s+|(?=['’]s\s+coded))(?:(?P<asks>wants|needs|asks\s+for)|takes|accepts|goes"
    # "is coded 4471", "the side door's coded 7390"
    r"|(?P<cod>(?:(?:is|are|was|were)\s+(?:now\s+)?|['’]s\s+)coded(?:\s+(?:to|with|as))?))"
    rf"\s+(?:the\s+code\s+|the\s+same\s+[^.;:!?\n\d]{{1,40}}?,\s*"
    # or a thing it takes instead, then its code: "wants a supervisor's badge or the code 4471"
    r"|(?P<or>(?:a|an|the|your|its)\s+[^.;:!?\n\d,]{1,30}?\s+or\s+(?:the|a|its|their|your)\s+"
    rf"(?:[\w'’-]+\s+)?(?:code|pin|passcode)\s+))?(?P<v>{DIALED}|{VAL_DIAL}"
    # or a made-up word, named as what it wants: "the lock wants the password Otter42"
    r"|(?<=\s)(?:the\s+)?(?:word|password|passphrase|pass|login|code)\s+(?P<t>[^\s,;]{6,40}))"
)
_IS_SPOKEN = Lazy(  # "my locker at the gym is two eight eight zero": keyed digit by digit
    rf"(?i)(?<![a-z])(?:{ACCESS})(?![a-z])(?:\s+[^.;:!?\n]{{1,30}}?)?\s+(?:is|was)\s+(?P<v>{SPOKEN})"
)

# A padlock or a combination lock, then its digits and nothing else in the clause: "feed bin
# padlock two four seven", "combination lock on the tool chest 904" (a lock of wheels has no
# number of its own; not a year, a round price: "padlock 100")
# An alarm, a keypad or a key safe has no number of its own either: four digits or more right
# after it, a pause then ("the cellar alarm 4481 — set it as you leave", "key cabinet 5620, the
# van keys on the left"; not a wake-up time)
_WHERE = (  # a place after a lock's digits, ending the clause ("at the florist's")
    r"\s+(?:just\s+)?(?:at|in|by|on|behind|inside|outside|beside|near|under|above|round"
    r"|around)\s+(?:the|our|my|their|his|her)\s+[^.,;:!?\n\d]{1,40}?"
)
_LOCK_DIGITS = Lazy(
    r"(?i)(?<![a-z])(?:padlock|(?:combination|combo|code|dial|wheel)\s+(?:pad)?lock"
    # a lock on a thing that holds, no pause: "the chest freezer lock 927" (not what it cost)
    r"|(?P<on>(?:cabinet|cupboard|drawer|chest|freezer|fridge|trunk|tin)\s+lock)"
    r"|(?P<a>(?:burglar\s+|intruder\s+|security\s+)?alarm(?:\s+panel)?|keypad|key\s?safe|key\s?box"
    r"|(?:door|gate)\s+lock"  # a keypad lock on a door has no number of its own either
    # a cabinet or a cupboard of keys is a key safe on a wall: its code, not a number of its own
    r"|key\s?(?:cabinet|cupboard|locker|press)|lock\s?box)"
    # any lock, where it is perhaps, then a pause: "the little lock on the tool bag, 538"
    r"|(?P<plain>lock(?=(?:\s+(?:on|at|by|of|for|in)\s+[^.;:!?\n\d]{1,30}?)?\s*,)))"
    r"(?:\s+(?:on|at|by|of|for|in)\s+[^.;:!?\n\d]{1,30}?)?\s*,?\s+"
    # or the key that confirms it: "the office alarm, 4471 then the tick button" (keyed), or
    # where it is, said after the digits: "shed keypad 5093 round the back of the depot"
    rf"(?P<v>\d{{3,8}}|{SPOKEN}|{SPOKEN3})(?=(?:{_WHERE})?\s*(?:[.,;!—–]|$)|(?P<ok>{CONFIRM_KEY}))"
)
# A code a device or an app asks for as it starts: "the card app wants 5512 on startup", "the
# scanner asks for 8831 when it boots", "at login the till wants 6610" (the moment of starting
# names it a PIN; a power, a speed or a heat has its unit after it)
_START = (
    r"(?:start(?:s|ing)?(?:[- ]?up)?|boot(?:s|ing)?(?:[- ]?up)?|launch(?:es|ing)?"
    r"|log(?:s|ging)?[- ]?(?:in|on)|sign(?:s|ing)?[- ]in|power(?:s|ing)?[- ]?(?:on|up)"
    r"|wak(?:e|es|ing)(?:\s+up)?"
    r"|(?:switch|turn)(?:es|s|ing)?\s+(?:it\s+)?on|reboot(?:s|ing)?|restart(?:s|ing)?)(?![a-z])"
)
_ASKS = r"(?:wants|asks\s+for|needs|takes|requires|prompts\s+(?:you\s+)?for|demands)"
_AT_START = Lazy(
    rf"(?i)(?<![a-z]){_ASKS}\s+(?P<v>\d{{4,8}})\s+(?:on|at|when|whenever|each\s+time|every\s+time"
    rf"|before)\s+(?:(?:it|you|we|the\s+\w+)\s+)?(?:first\s+)?{_START}"
    r"(?!\s+(?:costs?|fees?|capital|money|funds?|funding|loans?|budget|grants?|cash)(?![a-z]))"
    rf"|(?<![a-z])(?:on|at|when)\s+(?:(?:it|you)\s+)?{_START}\s*,?\s+(?:it|the\s+[\w\s]{{1,30}}?)\s+"
    rf"{_ASKS}\s+(?P<w>\d{{4,8}})(?![\w.,:/-]?\d)"
)

_CODE_DIGITS = Lazy(r"\d{4,8}")
_CODE3 = Lazy(r"\d{3}")
_WORD_DIGITS = Lazy(r"[A-Za-z]{3,}(?:[-_.][A-Za-z]+)*[-_.]?\d{2,6}")  # "ennead-2241", tulip_77
_OF_THING = Lazy(r"(?i)(?<![a-z])(?:on|of|in|inside|for|from)\s+(?:the\s+|my\s+|our\s+|a\s+)?$")
_FOR = Lazy(r"(?i)\sfor\s")
_CLAUSE_ENDS = Lazy(r"\s*(?:[.,;!—–]|$)")


# a date's word naming a kind, not a date: "the year's best", "year-round", "the anniversary
# gift" (not "my birthday then 77", "our anniversary twice")
_A_KIND = Lazy(
    r"(?i)(?<![a-z])(?:year(?:['’]s|-)|(?:birthday|anniversary)\s+(?!(?:then|plus|followed|twice"
    r"|backwards|reversed|with|and|in|date|digits|number)(?![a-z]))[a-z])"
)


def _sentence_end(text: str, pos: int) -> int:
    return sentence(text, pos)[1]


def _device_pin(text: str, m: re.Match[str]) -> bool:
    """An app or a device that wants, needs or asks for digits, ending the clause: its PIN, not
    a price it takes, a year, a round sum ("the laptop needs 1500"; "the till takes 1450")."""
    v = m["v"]
    digits = _CODE_DIGITS.fullmatch(v) and not (YEAR.fullmatch(v) or v.endswith("00"))
    return bool(m["asks"] and digits and _CLAUSE_ENDS.match(text, m.end()))


_MEASURE = Lazy(r"-[A-Za-z]")
# a number told with how to remember it is a code, not a wake-up time: "the alarm is 1944, the
# year the war ended", "..., that's how I remember it"
_RECALLED = Lazy(
    r"(?i)\s*[,—–-]\s*[^.;!?\n]{0,40}?(?<![a-z])(?:year|birthday|anniversary"
    r"|(?:how|easy\s+to|to|help\s+(?:me|you))\s+remember)(?![a-z])"
)
_DISARMED = Lazy(r"(?i)(?<![a-z])(?:unset|disarm(?:s|ed|ing)?|(?:un)?arm(?:ed|ing))(?![a-z])")


# one locker or store a group shares ("the cleaners' locker is 851"): opened by a code all of
# them know, not a number of one's own (their lockers, plural, are numbered: "mine's 212")
_GROUP_OWNS = Lazy(r"(?i)(?<![a-z])[a-z]+s['’]\s+$")


def _shared(text: str, m: re.Match[str]) -> bool:
    one = m["box"] is not None and not m["box"].lower().endswith("s") and m["num"] is None
    digits = m["v"].isdigit() and len(m["v"]) >= 3 and not YEAR.fullmatch(m["v"])
    group = _GROUP_OWNS.search(text, max(0, m.start() - 30), m.start()) is not None
    return bool(one and digits and group and not COUNTED.match(text, m.end()))


def _is_code(text: str, m: re.Match[str]) -> bool:
    """Whether the value after a lock's "is" is its code: not a wake-up time, its own
    number, a place, a measure or opening hours."""
    if m["nw"] and not _NUMBERED.match(m["thing"]):
        return False
    short = len(m["v"]) < 4 or m["u"] is not None
    # unset, armed: keyed, never a wake-up
    keyed = (m["set"] or m["rs"] or m["rb"] or "set").lower() not in ("set", "reset")
    # an alarm also unset or disarmed in the sentence is a burglar alarm's: never a wake-up
    disarmed = _DISARMED.search(text, *sentence(text, m.start())) is not None
    keyed = keyed or (m["alarm"] is not None and disarmed)
    wake = m["alarm"] is not None and not keyed and (TIME.fullmatch(m["v"]) or short)
    wake = wake and not _RECALLED.match(text, m.end())
    on = m["on"] is not None or m["st"] is not None
    # a locker "is" its own number, unless padded to a code's length ("is 0417"), or
    # its own number said first ("harness locker 3 is 8062": four digits, no year)
    # ... or what it is for ("the kit locker for the Lyon job is 2206": given for the job)
    purpose = m["num"] or m["pre"] or _FOR.search(text, m.end("thing"), m.start("v"))
    labelled = purpose and _CODE_DIGITS.fullmatch(m["v"]) and not YEAR.fullmatch(m["v"])
    # its own number said, a second one is its code: three digits will do ("locker 3 is 806")
    three = _CODE3.fullmatch(m["v"]) is not None and not m["v"].endswith("00")
    labelled = bool(labelled) or bool(m["num"] or m["pre"]) and three
    labelled = labelled and not COUNTED.match(text, m.end())  # "locker 3 is 1500 yen a day"
    # keyed, then the hash key ("the cold store is 7720#"): a code, no store's number ("is
    # #214": a number's sign before it)
    keyed_in = m["v"].startswith("*") or m["v"].endswith("#")
    labelled = labelled or _shared(text, m) or keyed_in
    own = m["box"] and not on and not _PADDED.fullmatch(m["v"]) and not labelled
    place = (on and _PLACE.match(text, m.end())) or own
    # "the vault uses 256-bit keys": a measure, not a code
    measured = COUNTED.match(text, m.end()) or _MEASURE.match(text, m.end())
    held = m["held"] and (YEAR.fullmatch(m["v"]) or measured)
    # a room's code has four digits or more (or a dial's); a meeting room's number is its own
    bare = m["v"].isdigit() and not _CODE_DIGITS.fullmatch(m["v"])
    room = m["kept"] and (bare or ROOM_OWN_NUMBER.fullmatch(m["kept"]))
    place = place or held or room
    hours = HOURS_RANGE.fullmatch(m["v"])  # "the waiting room: 0900-1700": when it is open
    return not (UNIT.match(text, m.end()) or wake or place or hours)  # an alarm at 0630 wakes


def _lock_is(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_LOCK_IS, text, low, *_LOCK_IS_WORDS):
        if m["said"] is not None:  # the lock "is" what its number is, then the number
            end = sentence(text, m.start())[1]
            said = said_again(text, m.end(), end, _sentence_end)
            # a cabinet or a room "is" a year's piece ("the vault is the year's best film")
            kind = m["held"] or _A_KIND.search(text, m.end(), said[0] if said else m.end())
            if said is not None and not kind:
                out.append(said)
            continue
        if m["entry"] is not None:
            continue
        if m["tw"] is not None:  # a word, by a lock, a keypad or a safe ("locker B12": its own)
            word = m["tw"].rstrip(".!?)")
            worded = _WORD_DIGITS.fullmatch(word) is not None and not excluded(word)
            of = _OF_THING.search(text, max(0, m.start() - 30), m.start())  # "serial on the safe"
            if (
                _NUMBERED.match(m["thing"])
                and (strong(word) or worded)
                and len(word) >= 6
                and not of
            ):
                out.append((m.start("tw"), m.start("tw") + len(word)))
            continue
        if _is_code(text, m):
            out.append(m.span("v"))
    return out


def lock_is_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the codes these rules find in `text` (`low`: it lower-cased)."""
    out = _lock_is(text, low)
    for m in scan(
        _TAKES, text, low, "takes", "wants", "needs", "accepts", "asks for", "goes", "coded"
    ):
        if m["t"] is not None:  # a word it wants: letters and digits, not a name or a part
            word = m["t"].rstrip(".!?")
            if strong(word) and re.search(r"\d", word) and re.search(r"[A-Za-z]", word):
                out.append((m.start("t"), m.start("t") + len(word)))
        elif m["kr"] and not (m["cod"] and _CODE_DIGITS.fullmatch(m["v"])):
            continue  # a room "takes" 40 people; "coded" and four digits or more: its door's
        elif not (UNIT.match(text, m.end()) or COUNTED.match(text, m.end())):
            if m["dev"] is None or _device_pin(text, m):
                out.append(m.span("v"))
    out += [m.span("v") for m in scan(_IS_SPOKEN, text, low, " is ", " was ")]
    for m in scan(_LOCK_DIGITS, text, low, "lock", "alarm", "keypad", "key"):
        if YEAR.fullmatch(m["v"]) or m["v"].endswith("00"):
            continue
        if (m["plain"] or m["on"]) is not None and MONEY.search(text, *sentence(text, m.start())):
            continue  # "bought a new lock, 450": what it cost
        if m["a"] is not None:  # four digits or more; an alarm's time only if it is keyed
            keyed = m["ok"] is not None or _DISARMED.search(text, *sentence(text, m.start()))
            # a keypad or a key safe wakes no one: a time is an alarm's alone
            wakes = "alarm" in m["a"].lower() and TIME.fullmatch(m["v"]) is not None
            if not m["v"].isdigit() or len(m["v"]) < 4 or (wakes and not keyed):
                continue
        out.append(m.span("v"))
    for m in scan(_AT_START, text, low, "wants", "asks", "needs", "takes", "requires", "prompts",
                  "demands"):  # fmt: skip
        group = "v" if m["v"] is not None else "w"
        unit = UNIT.match(text, m.end(group)) or RATE.match(text, m.end(group))
        if not (unit or m[group].endswith("00")):  # "takes 3000 on startup": a load, a speed
            out.append(m.span(group))
    return out
