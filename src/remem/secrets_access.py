"""Codes that open things (issue 29): a number said with a thing it opens ("locked with
1250", "the cold room opens on 2214", "the defib cabinet opens with C4718"), a verb of
entering ("punch in 4821"), a dial ("right 14, left 30, right 2", 顺时针到 15，逆时针到 42:
`remem.secrets_dial`), a number that ends a sentence about an alarm ("Alarm at the framers,
it's their year backwards, so 8991": `remem.secrets_last`), a thing then "it's" or "which
is" its code ("the key safe, which is 5546"), a thing and a colon or a dash ("hay bale store
— 3846", "gate: star 5502"; its remote's code named: "gate remote by the yard: code 7741"; an
alarm's for setting and unsetting both: "alarm set and unset: 1342"), in Chinese and English,
with no secret noun needed (a lock that "is" or "takes" its code: `remem.secrets_lock_is`;
Chinese locks and their digits:
`remem.secrets_access_zh`; a code keyed a digit at a time: `remem.secrets_pieces`; a code
changed from one number to another: `remem.secrets_changed`; a note that is a lock and its
code: `remem.secrets_notes`; the words of things that lock: `remem.secrets_access_words`).

    access_spans("I set the hotel room safe to 0619", ...)   # the span of 0619
    access_spans("set the thermostat to 2100", ...)           # []

Each rule wants a number of a code's shape and a cue that it opens something, so a
thermostat, a zip code or a flight stays ordinary. Used by `remem.secrets_cues`.
"""

from __future__ import annotations

import re

from remem.secrets_access_words import (
    ACCESS,
    ACCESS_RE,
    CONFIRM_KEY,
    COUNTED,
    DOOR_IS,
    HOLDS,
    HOURS_RANGE,
    KEPT_ROOM,
    NUM,
    PREMISES,
    PUBLIC_BEFORE,
    RATE,
    SET_CUE,
    UNIT,
    VAL,
    VAL_DIAL,
    WORD_DIGITS,
)
from remem.secrets_access_zh import ZH_UNIT, ZH_WHEN, zh_open_spans
from remem.secrets_answers import PUBLIC_CODE
from remem.secrets_dial import dial_spans
from remem.secrets_last import HEDGE, TIME, YEAR, last_number
from remem.secrets_lock_is import lock_is_spans
from remem.secrets_notes import NOT_DOOR as _NOT_DOOR
from remem.secrets_notes import ROOM_OWN_NUMBER, lock_note_spans
from remem.secrets_shapes import (
    KEYED,
    SPOKEN,
    SPOKEN3,
    SPOKEN_DIAL,
    ZH_DIGITS,
    Lazy,
    scan,
    sentence,
    spelled_end,
)

__all__ = ["access_spans", "opens_with_word"]

# The bare word "code" is an access code only when it opens one of these.
_CODE_FOR = Lazy(
    r"(?i)(?<![a-z])(?:(?:code|combo|combination|pin)\s+(?:for|to|of|on)"
    r"|number\s+to\s+(?:get\s+(?:in|into|through|past)|open|unlock))"  # not "number for", a phone's
    rf"\s+(?:[\w'’-]+\s+){{0,6}}?"
    rf"(?:{ACCESS}|{PREMISES}|building|apartment|lobby|lift|elevator)(?![a-z])"
    r"[^.;:!?\n]{0,40}?(?:\s(?:is|was|are)\s+|\s*:\s*)(?:now\s+|still\s+|just\s+)*"
    rf"(?:(?P<v>{VAL_DIAL})"
    # what the number is, then it: "... is the year the mill was built, 1887"
    r"|(?:the|my|our|his|her|their)\s+(?:[\w'’-]+\s+){0,5}?[\w'’-]+\s*[,:—–]\s*"
    r"(?P<y>\d{4,8})(?=\s*(?:[,.;!—–]|$)))"
)
# a thing said to need a code as well as a key, then the code: "the loft needs a code too, 4417"
_NEEDS_CODE = Lazy(
    r"(?i)(?<![a-z])(?:needs|takes|wants|has)\s+(?:a|its\s+own|another)\s+(?:code|pin|combination)"
    r"(?:\s+as\s+well|\s+too|\s+of\s+its\s+own)?\s*[,:—–]\s*"
    r"(?P<v>[*#]?\d{4,8}[A-Za-z]?#?)(?![\w/-]|[.,:]\d|\s*(?:[a-z]{2,}|%))"
)
_SET_TO = Lazy(  # "I set the hotel room safe to 0619"
    rf"(?i)(?<![a-z])(?:set|change|changed|reset|programmed|switched)\s+(?:the\s+|my\s+|our\s+|his\s+"
    rf"|her\s+|their\s+)?(?:[\w'’-]+\s+){{0,3}}?(?P<o>{ACCESS}|pin|passcode|pass\s*code)"
    r"(?:(?:\s+[\w'’-]+){0,2}?\s+code)?"  # "the alarm panel installer code to 7425"
    r"(?:\s+(?:in|at|on|of|by)\s+[\w'’-]+(?:\s+[\w'’-]+){0,2})?"  # "the safe in room 1214"
    rf"\s+(?:to|as)\s+(?P<v>{VAL})"
)
_UNLOCK = Lazy(  # "the safe opens with 36-12-48", "punch in 4821"
    r"(?i)(?<![a-z])(?:punch(?:es|ed)?\s+in|key(?:s|ed)?\s+in|tap(?:s|ped)?\s+in"
    r"|(?:opens?|unlocks?|disarms?|opened|unlocked|disarmed)\s+(?:it\s+|up\s+)?(?:with|using|by)"
    r"(?:\s+(?:typing|entering|punching|pressing|dialing|dialling|keying))?(?:\s+in)?"
    r"|disarm(?:s|ed)?\s+(?:it\s+)?on"  # an alarm "disarms on 0440": keyed, not a date's "opens on"
    # set or arm with a number: keyed in (a wake-up alarm is set "for" or "to" a time)
    r"|(?:(?:un)?set|(?:dis)?arm)(?:s|ted|ed|ting)?\s+(?:the\s+|my\s+|our\s+|your\s+)?"
    r"(?:[\w'’-]+\s+){0,2}?(?:alarm|(?:pad)?lock|safe|keypad|panel)s?\s+(?:with|using)"
    r"|buzz(?:es)?\s+(?:you\s+|me\s+|us\s+)?in\s+with|get(?:s|ting)?\s+(?:you\s+|me\s+|us\s+)?in"
    # "get in the side gate with 1066": the thing got into named between
    rf"(?:side)?(?:\s+(?:the|by|at|through)\s+(?:[\w'’-]+\s+){{0,3}}?(?:{ACCESS}))?\s+with"
    r"|let\s+(?:yourself|yourselves|me|us|them|him|her)\s+in\s+with)"
    r"\s*:?\s*(?:(?:the|my|our)\s+(?:usual\s+|same\s+|new\s+|old\s+)?(?:code|pin|number)\s+"
    r"|the\s+(?:usual|same|new|old)\s+)?"  # "opens with the usual 4471"
    # a year named, then it: "opens with the year we moved in, 1994" (not "the spring show, 2025")
    r"(?:(?:the|my|our|his|her|their)\s+(?=[^,:—–]*?\b(?:year|birth\w*|anniversary|number)\b)"
    r"(?:[\w'’-]+\s+){0,3}?[\w'’-]+\s*[,:—–]\s*(?=\d{4,8}\s*(?:[,.;!—–]|$)))?"
    rf"(?P<v>{NUM}|(?P<w>{SPOKEN})|(?P<k>{KEYED.pattern})|{WORD_DIGITS}|(?P<d>[A-Za-z0-9]))"
)  # or "C4718"
# A quoted word a thing opens with, by a thing said to be locked or one that locks: 'the rota
# file is locked, it opens with "flourpower"' (not 'the show opens with "Hamlet"')
_OPENS_WORD = Lazy(
    r"(?i)(?<![a-z])(?:opens?|unlocks?|opened|unlocked)\s+(?:it\s+|up\s+)?(?:with|using|by)"
    r"(?:\s+(?:typing|entering|putting\s+in))?\s*:?\s*(?:the\s+(?:word|password|passphrase)\s+)?"
    r"[\"“‘'](?P<q>[^\s\"“”‘’']{4,40})[\"”’']"
)
_LOCKED = Lazy(r"(?i)(?<![a-z])(?:locked|password[- ]protected|protected|encrypted)(?![a-z])")


def opens_with_word(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the quoted words things said to be locked open with (no digit needed)."""
    out = []
    for m in scan(_OPENS_WORD, text, low, "open", "unlock"):
        start, _ = sentence(text, m.start())  # the thing locked named first
        if _LOCKED.search(text, start, m.start()) or ACCESS_RE.search(text, start, m.start()):
            out.append(m.span("q"))
    return out


_WAKE = Lazy(
    r"(?i)(?<![a-z])(?:wake|waking|woken|morning|snooze|get\s+up|a\.?m\.?|o['’]clock)(?![a-z])"
)
# "the kiln controller is locked with 1250", 用 0417 锁着: a thing kept shut by a number
_LOCKED_WITH = Lazy(
    r"(?i)(?<![a-z])(?:(?:locked|secured|protected|locks|secures)\s+(?:it\s+)?(?:with|using"
    rf"|by)\s+(?:the\s+(?:code|pin|number)\s+)?)(?P<v>{NUM})"
    r"|用\s*(?P<z>\d{4,8})\s*(?:锁着|锁住|锁了|锁上|上锁|加锁|加密)"
)
_MONTHS = r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
_OPENS_ON = Lazy(  # "the safe opens on 19-4-33": a combination, said of the thing, or of
    # one of them after a pause: "lockers by the gym, the spare one opens on 3-1-4"
    rf"(?i)(?<![a-z])(?:{ACCESS}|{KEPT_ROOM})"
    r"(?:\s+[\w'’-]+|,\s+(?:the\s+)?[\w'’-]+\s+(?:one|it)){0,6}?"
    r"\s+(?:opens|unlocks|opened|unlocked)\s+"
    r"(?:(?:on|to|at|with)\s+(?P<v>\d{1,2}(?:-\d{1,2}){2,4}|\d(?: \d){2,4})(?![\d-])"  # 3 1 4
    # or in words (not a month's days: "opened on twenty, twenty-one and twenty-two May")
    rf"|(?:on|with)\s+(?P<w>{SPOKEN_DIAL})(?![\w-]|\s+(?:of\s+)?{_MONTHS})"
    # "opens on 6093", ", the bags are in there" after it (not "1,200", "0900-1700")
    r"|(?:on|with)\s+(?P<n>\d{4,8})(?![\d:-]|[.,]\d|\s*(?:am|pm|a\.m|p\.m))"
    # a lock of three wheels: "opens on 505", ending the clause (not a round "on 100")
    r"|(?:on|with)\s+(?P<t>(?!\d00)\d{3})(?=\s*(?:[.;!]|,\s|$))"
    # the code another lock shares, or whose it is, then it: "opens on the same four as the back
    # door, 4266", "opens on the manager's four, 8150" (not "on the hour, 0800": when)
    r"|(?:on\s+(?:the|my|our|his|her|their)|with\s+the\s+same)\s+"
    r"(?![^,:—–]*?\b(?:time|hour|day|date|week|weekend|month|morning|evening|night|season"
    r"|shift|bell|dot)s?\b)[^.;:!?\n\d]{1,40}?[,:—–]\s*(?P<s>\d{4,8}|\d{1,2}(?:-\d{1,2}){2,4})"
    r"(?=\s*(?:[,.;!]|[—–](?!\s*\d)|$))"
    # what the number is, then it: "the shed opens with her birth year, 1958"
    r"|with\s+(?:the|my|our|his|her|their)\s+(?![^,:—–]*?\b(?:bell|time|hour|season|shift|day)s?\b)"
    r"(?:[\w'’-]+\s+){0,3}?[\w'’-]+\s*[,:—–]\s*(?P<y>\d{4,8})(?=\s*(?:[,.;!—–]|$)))"
)
_HOURS = Lazy(  # what a time after "opens on" is said with: when, not how ("till" after
    # "the", "her" ... is a cash register, not "until": "borrow her till login, it's 2245")
    r"(?i)[^.;!?\n]*?(?<![a-z])(?:clos\w*|shuts?|until|daily|hours|weekdays?"
    r"|(?<!the\s)(?<!his\s)(?<!her\s)(?<!my\s)(?<!our\s)(?<!your\s)(?<!their\s)(?<!a\s)"
    r"(?<!this\s)(?<!that\s)(?<!each\s)(?<!every\s)till)(?![a-z])"
)
_ENTER = Lazy(  # "press 1234# at the gate": needs a thing it opens nearby
    r"(?i)(?<![a-z])(?:enter|type|press|dial|input|hit|tap|push|punch|key"
    r"|entering|typing|pressing|dialling|dialing|tapping|punching|keying)\s+(?:in\s+)?"
    rf"(?:(?:star|hash|pound|\d{{1,3}})\s+(?:then\s+|and\s+)?)?(?P<v>{NUM})"  # "press 00 then 5566"
)
# a till's or a bank's key asks for a code too: "voids need authorising, key in 5588"
_AUTHORISE = Lazy(r"(?i)(?<![a-z])(?:authori[sz]\w*|dongle|(?:usb|security)\s+key)(?![a-z])")
_EMERGENCY = ("911", "112", "999", "000", "110", "119", "120", "122")  # "dial 911 from the panel"
_OPENS = Lazy(r"(?i)(?<![a-z])(?:unlock|open|disarm)|开|解锁|进(?:小区|院|屋|家|单元|大门)")
_ACCESS_COLON = Lazy(  # "garage: 8421", "staff locker at the ice rink: 7441", "key cabinet - 7734"
    rf"(?i)(?<![a-z])(?:{ACCESS}"
    # a store or a room named by what it keeps ("hay bale store", "feed room"): kept locked
    rf"|{KEPT_ROOM})(?:\s+(?:code|combo|combination|pin|passcode))?"  # not "number": its own
    # the remote or the fob that opens it has the code: "the gate remote by the yard: code 7741"
    r"(?:\s+(?:remote(?:\s+control)?|fob|opener|clicker|zapper|transmitter)s?(?![a-z]))?"
    # how it is keyed: "alarm unset at the kiosk: 1357 then OFF" (set or armed at a time wakes;
    # set and unset both is a panel's code: a clock's alarm is not unset)
    r"(?:\s+(?:(?P<both>(?:set|arm|on)\s*(?:and|&|/)\s*(?:unset|disarm|off))"
    r"|(?P<key>unset|disarm(?:ed)?|(?:re)?set|arm(?:ed)?|off))(?![a-z]))?"
    # where it is, or what it keeps: "the safe where the float lives: ..."
    r"(?:\s+(?:at|in|on|by|of|for|behind|under|where|which|that|near|beside|next\s+to)"
    r"\s+[^.;:!?\n\d]{1,30}?)?"
    # who it is given for and why: "... so the fitters can get the boards in: 4471"
    r"(?:,?\s+(?:so(?:\s+that)?|for|to\s+let)\s+[^.;:!?\n\d]{1,60}?)?"
    r"(?:\s*[:：]|\s+[-–—]"  # then 3 8 # 1 1, or 1-9-7-3-star (the key that ends it)
    # or a pause and the code's noun: "engineer menu at the garage, code 2277"
    r"|(?P<cd>\s*,\s*(?:code|pin|combo|combination|passcode)(?:\s+is)?\s*[:：]?)"
    r"|(?P<cm>\s*,))\s*"  # or a pause alone, the number a clause of its own ("van lock, 8205,")
    rf"{HEDGE}?(?:(?:star|hash|pound)\s+)?"  # "the server cage - I think 3114", "star 5502"
    # the code named, by how it is keyed perhaps: "gate: code 7741", "alarm: set code 2096"
    r"(?:(?:(?:(?:un)?set|(?:dis)?arm|entry|exit|master|user|main)\s+)?(?:code|pin)\s+(?:is\s+)?)?"
    # three digits with the key that ends them, spaced as on the pad: "1 4 7 #"
    rf"(?P<v>[*#]?\d(?:[ -]?\d|\s?#\s?\d){{3,7}}#?(?!\d|-\d)|\d(?:[ -]?\d){{2}}\s?#"
    rf"|{SPOKEN_DIAL}|{SPOKEN3})"
)
# the number between commas names the thing the sentence goes on about: its model ("the
# printer, 4200, is jammed again"), not its code
_NAMES_IT = Lazy(
    r"(?i)\s*,\s*(?:is|was|are|were|has|had|needs|got|broke|keeps|went|jams|stopped)(?![a-z])"
)
_CLAUSE_END = Lazy(r"\s*(?:[,.;!?—–]|$)")
# or a short aside in brackets ends it: "code 4417 (honestly)" (a year's shape: "code 2024 (new
# uniform)" is its edition)
_ASIDE_END = Lazy(r"\s*[(（][^()（）\d\n]{1,30}[)）]\s*(?:[,.;!?]|$)")
_FOR_ACCESS = Lazy(  # "it's 8 4 2 1 for the garage", "use 0000 for the guest door"
    rf"(?i)(?<![a-z])(?:it['’]s|it\s+is|use|try|enter|punch\s+in|type|press|key\s+in|tap)\s+"
    rf"(?P<v>{NUM})\s+(?:for|on|at)\s+(?:the\s+|my\s+|our\s+)?(?:[\w'’-]+\s+){{0,2}}?"
    rf"(?:{ACCESS})(?![a-z])"
)
_CODE_THEN = Lazy(  # "keycode 8816 for the side entrance"
    rf"(?i)code\s+(?P<v>{NUM})\s+(?:for|to|at|on)\s+(?:the\s+|my\s+|our\s+)?"
    rf"(?:[\w'’-]+\s+){{0,2}}?(?:{ACCESS})(?![a-z])"
    # "service code 5150, opens the till drawer": what the code opens, said after it
    r"|code\s+(?P<o>[*#]?\d{4,8}#?)\s*[,—–-]?\s*(?:it\s+|that\s+|which\s+)?(?:opens|unlocks|disarms)"
    r"\s+(?:the|a|my|our|its|their|both)\s"
    # a code read out in words is keyed in ("the kiosk code is nineteen ninety-two, simple",
    # "gate code forty-one oh six");
    # a zip or area code said so is public (checked by the word before)
    rf"|(?<![a-z])code(?:\s*[:：]|(?:\s+for(?:\s+[\w'’-]+){{1,5}}?)?\s+(?:is|was))?\s+"
    rf"(?:now\s+|still\s+)?(?P<s>{SPOKEN}"
    # or a code's shape ending the note ("code for the lockers is 550 121"): padded ("0412"),
    # in pairs ("47 89 12") or threes, as a screen shows it, not a count
    r"|0\d{3,7}|\d\d(?:\s\d\d){2,3}|\d{3}\s\d{3})(?=\s*(?:[,.;!—–]|$))"
    # or keyed, then a key to confirm it: "the studio code is 2290 then the green button"
    rf"|(?<![a-z])code(?:\s*[:：]|\s+(?:is|was))?\s+(?:now\s+|still\s+)?(?P<k>\d{{3,8}}){CONFIRM_KEY}"
)
_TO_OPEN = Lazy(  # "4455 to disarm", "2580 开门", "5521 gets you in (the back door)"
    rf"(?i)(?P<v>{NUM})\s+(?:to\s+(?:disarm|unlock|open|get\s+in)|(?:就能|就)?(?:开门|开锁|解锁)"
    r"|(?:gets|will\s+get|lets)\s+(?:you|me|us|them)\s+in(?:to)?(?:\s*(?:[.,;!]|$)"
    rf"|\s+(?:the\s+|my\s+|our\s+)?(?:[\w'’-]+\s+)?(?:{ACCESS})(?![a-z])))"
)
# a number called to get a thing unlocked is a phone line, no code: "call 0800 … to unlock it",
# 打 400-… 解锁 (a service desk's number)
_CALLED = Lazy(
    r"(?i)(?:(?<![a-z])(?:call|ring|phone|contact)(?:\s+(?:us|them|him|her|support|the\s+[\w'’-]+))?"
    r"(?:\s+on)?|拨打?|致电|打(?:电话)?(?:给[\u4e00-\u9fff]{1,6})?)\s*$"
)
# 1470#, *7392, #6173*; not "#7713", an issue's number
_KEYPAD = Lazy(r"(?<![\w#*])(?:[#*]?\d{3,8}[#*]|\*\d{3,8})(?![\w#*])")
_LOCK_WORDS = ("lock", "keypad", "safe", "panel", "alarm", "keybox", "key box")
_UNLOCK_WORDS = ("punch", "key", "tap", "open", "unlock", "arm", "set", "buzz", "get", "let")
_ENTER_WORDS = ("enter", "typ", "press", "dial", "input", "hit", "tap", "push", "punch", "key")
_FOR_WORDS = ("it's", "it’s", "it is", *"use try enter punch type press key tap".split())


# "I set it to 4471" after the thing it opens; 设成了零八二六 after the lock
_SET_IT = Lazy(
    r"(?i)(?<![a-z])(?:set|changed|reset|programmed|switched)\s+(?:it|that|this|them|the\s+code"
    rf"|the\s+combo|the\s+pin)\s+(?:to|as)\s+(?P<v>{VAL})"
    r"|(?:设成|设为|设置成|设置为|改成|改为|换成|设的是|设的)了?\s*"
    rf"(?P<z>[*#]?\d(?:[ -]?\d){{2,11}}#?(?!\d)|[{ZH_DIGITS}]{{3,}})"
)
# "Codes for the cabin: front door 4821, garage 1107": things and their codes, listed
_THING_NUM = Lazy(rf"(?i)(?<![a-z])(?:{ACCESS})\s+(?P<v>[*#]?\d{{4,8}}#?)(?![\w#*-]|[.,]\d)")
_CODES_NAMED = Lazy(r"(?i)(?<![a-z])(?:codes?|pins?|combos?|passcodes?)(?![a-z])|密码")
_FOUR_DIGITS = Lazy(r"\d{4}")
_CONFIRM = Lazy(r"(?i)" + CONFIRM_KEY)
_SPAN = Lazy(r"(?i)\s*(?:to|till|until|[-–])\s*\d")  # "0800 to 1700": hours
_TWO_TIMES = Lazy(r"(?i)\s*(?:and|&|to|till|until|[-–])\s*\d{3,4}(?!\d)")
_NOUN_AFTER = Lazy(  # a word a number names: "1500 Main St" (not "8866 now", "2580 because")
    r"(?i)\s+(?!(?:now|because|since|as|after|and|but|so|then|when|until|till|for)(?![a-z]))[a-z]"
)


def _set_and_doors(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_SET_IT, text, low, "set", "chang", "program", "switch", "设", "改", "换"):
        start, _ = sentence(text, m.start())
        group = "v" if m["v"] is not None else "z"
        cue = SET_CUE.search(text, start, m.start())
        alarm_time = (
            cue is not None and cue[0].lower().startswith("alarm") and TIME.fullmatch(m[group])
        )
        unit = (
            UNIT.match(text, m.end()) or ZH_UNIT.match(text, m.end()) or RATE.match(text, m.end())
        )
        if cue and not (alarm_time or unit or ZH_WHEN.search(text, start, m.start())):
            out.append(m.span(group))
    four = _FOUR_DIGITS.search(text) is not None  # both rules below want 4+ digits
    for m in scan(_THING_NUM, text, low, *(("code", "pin", "combo") if four else ())):
        start, _ = sentence(text, m.start())
        if _CODES_NAMED.search(text, start, m.start()) and not _NOT_DOOR.search(
            text, start, m.end()
        ):
            out.append(m.span("v"))
    for m in scan(DOOR_IS, text, low, *(("door", "gate", "entrance", "门") if four else ())):
        start, end = sentence(text, m.start())
        group = "v" if m["v"] is not None else "z"
        unit = UNIT.match(text, m.end()) or ZH_UNIT.match(text, m.end())
        if (m["on"] or m["went"]) and _NOUN_AFTER.match(text, m.end()):
            continue  # "the gate is on 1500 Main St", "went to 2019 rules": not its code
        if not (_NOT_DOOR.search(text, start, m.start(group)) or unit):
            out.append(m.span(group))
    return out


def _opening_hours(text: str, m: re.Match[str]) -> bool:
    """ "The gate opens on 0900, closes at 1730", "opens on 0730, then ...": when, not how (a
    time on the quarter hour before a comma, or with a word of hours after it)."""
    quarter = m["n"][2:] in ("00", "15", "30", "45") and text[m.end() : m.end() + 1] == ","
    return TIME.fullmatch(m["n"]) is not None and bool(quarter or _HOURS.search(text, m.end()))


def _when(value: str) -> bool:
    """A year, or a time on the quarter hour: when a thing opens, not what it opens on."""
    quarter = TIME.fullmatch(value) is not None and value[2:] in ("00", "15", "30", "45")
    return quarter or YEAR.fullmatch(value) is not None


def _opening(text: str, low: str) -> list[tuple[int, int]]:
    """A number set on, opening, locking or entered into a thing ("set the safe to …",
    "opens with …", "locked with …", "punch in …", "locker at the rink: …")."""
    out: list[tuple[int, int]] = []
    for m in scan(_SET_TO, text, low, "set", "chang", "program", "switch"):
        bare_alarm = m["o"].lower().startswith("alarm") and TIME.fullmatch(m["v"])
        if not bare_alarm:
            out.append(m.span("v"))
    out += _unlocked_with(text, low)
    for m in scan(_OPENS_ON, text, low, "open", "unlock"):
        if m["kept"] is not None and ROOM_OWN_NUMBER.fullmatch(m["kept"]):
            continue  # "the meeting room opens on ...": a room of its own number
        if m["s"] is not None and "same" not in m[0].lower() and _when(m["s"]):
            continue  # "opens on the anniversary of the club, 1987", "on the ground floor, 0730"
        if m["n"] is None or not _opening_hours(text, m):
            out.append(m.span(next(g for g in "vwnyst" if m[g] is not None)))
    for m in scan(_LOCKED_WITH, text, low, "lock", "secur", "protect", "锁", "加密"):
        group = "v" if m["v"] is not None else "z"
        after = text[m.end() :]
        if not (UNIT.match(after) or COUNTED.match(after) or RATE.match(after) or after[:1] == "-"):
            out.append(m.span(group))  # not "protected by 256-bit keys", "locked with 100 ties"
    out += [
        m.span("v")
        for m in scan(_TO_OPEN, text, low, "disarm", "unlock", "open", "get", "let", "开")
        if not ZH_WHEN.search(text, *sentence(text, m.start()))  # 营业时间改成 0900 开门
        and not _CALLED.search(text, max(0, m.start() - 30), m.start())
    ]
    for m in scan(_ENTER, text, low, *_ENTER_WORDS):
        start, end = sentence(text, m.start())
        cue = ACCESS_RE.search(text, start, end) or (
            _AUTHORISE.search(text, start, m.start()) and not YEAR.fullmatch(m["v"])
        )  # "the authorised dealer said to enter 2024 as the year": a year keyed is no code
        if cue and m["v"] not in _EMERGENCY:
            out.append(m.span("v"))
    out += _after_colon(text, low)
    return out


def _unlocked_with(text: str, low: str) -> list[tuple[int, int]]:
    """A number a thing unlocks or opens with ("opens with C4718", "unlocks with tile1234")."""
    out: list[tuple[int, int]] = []
    for m in scan(_UNLOCK, text, low, *_UNLOCK_WORDS):
        if m["p"] is not None:  # a word and digits: what a thing that unlocks takes, or a lock
            around = sentence(text, m.start())
            if "unlock" in m[0].lower() or ACCESS_RE.search(text, *around):
                out.append(m.span("v"))
        elif m["w"] is not None or m["k"] is not None:  # "opens with C4718" or said, by a lock
            around = sentence(text, m.start())
            if ACCESS_RE.search(text, *around) or HOLDS.search(text, *around):
                out.append(m.span("v"))
        elif m["d"] is None:
            if not (TIME.fullmatch(m["v"]) and _WAKE.search(text, *sentence(text, m.start()))):
                out.append(m.span("v"))  # not "set the alarm with 0700 as the wake-up time"
        elif (end := spelled_end(text, m.start("v"))) is not None:
            out.append((m.start("v"), end))  # "opens with p as in papa, 4, x ..."
    return out


def _after_colon(text: str, low: str) -> list[tuple[int, int]]:
    """A thing that locks, then a colon, a dash or a pause and its code ("locker at the
    rink: 4471", "the immobiliser, 8205, ...")."""
    out: list[tuple[int, int]] = []
    colon = (":", "：", " -", " –", " —", ",", "code", "pin", "combo")
    for m in scan(_ACCESS_COLON, text, low, *colon):
        # not "locker at the gym: 2024 membership renewed", a store's year or hours
        own = m["store"] and ROOM_OWN_NUMBER.fullmatch(m["kept"])
        store = m["store"] and (YEAR.fullmatch(m["v"]) or _SPAN.match(text, m.end()) or own)
        hours = HOURS_RANGE.fullmatch(m["v"])  # "the waiting room: 0900-1700": when it is open
        woken = bool(m["key"]) and m["key"].lower().startswith(("set", "reset", "arm", "off"))
        woken = woken and not _CONFIRM.match(text, m.end())  # "off: 1357 then UNSET": keyed
        wake = woken and TIME.fullmatch(m["v"]) is not None  # "alarm set at the flat: 0630"
        # "alarm set and unset: 2200 and 0600": the times it is set at, not its code
        wake = wake or bool((m["key"] or m["both"]) and _TWO_TIMES.match(text, m.end()))
        aside = _ASIDE_END.match(text, m.end()) and not YEAR.fullmatch(m["v"])
        if (m["cd"] or m["cm"]) and not (_CLAUSE_END.match(text, m.end()) or aside):
            continue  # ", code 2024 for the uniform": a code of something else
        if m["cm"] and (
            not (m["v"][0] in "*#" or m["v"][0].isdigit())
            or _when(m["v"])
            or _NAMES_IT.match(text, m.end())
        ):
            continue  # "the gate, 1998, ...", "the door, 0800, ...", "the printer, 4200, is"
        if not (
            COUNTED.match(text, m.end()) or UNIT.match(text, m.end()) or store or hours or wake
        ):
            out.append(m.span("v"))
    return out


# A thing opened by a code, then its code said as what it is or how it is set: "the key safe,
# which is 5546", "keypad got reset, it's 4471 now", "alarm: set with 2214 and A"
_IT_IS = Lazy(
    r"(?i)(?<![a-z])(?:it['’]?s|it\s+is|which\s+is|which['’]s|(?:the\s+)?new\s+one\s+is"
    r"|(?:which|that|so\s+that)\s+makes\s+it|making\s+it"  # "his year backwards, which makes it"
    r"|(?:un)?set(?:\s+it)?\s+(?:with|using)"
    r"|(?:dis)?arm(?:ed|s)?(?:\s+it)?\s+(?:with|using)|unset)\s+(?:now\s+|still\s+|just\s+)?"
    rf"(?:(?P<s>[A-Za-z](?=\s+(?:as\s+in|for)\s+[a-z]))|(?P<v>[*#]?\d(?:[ -]?\d){{3,7}}#?|{SPOKEN})"
    r"(?![\w/:]|[.,]\d))"  # or spelled: "it's C for clear then 19 then 52"
    r"(?!\s+(?!(?:now|then|and|to|for|on|at|but|so|or|plus|if|followed|hash|star|enter|ok)"
    r"(?![a-z]))[a-z])"  # not "which is 2400 mm", "it's 1200 years old"
)
_IT_IS_CUE = Lazy(
    r"(?i)(?<![a-z])(?:keypads?|(?:pad)?locks?|lockers?(?!\s+rooms?)|safes?|key\s?(?:safe|box)"
    r"|lock\s?box|(?P<a>(?:burglar\s+|house\s+|shop\s+|security\s+)?alarms?)|alarm\s+panel"
    # a thing that holds and locks, or a way in: "the tool cage, it's 7734" (a size or a year
    # after "it's" is ruled out below, as for a safe)
    r"|(?P<h>cages?|cabinets?|cupboards?|vaults?|sheds?|gates?|doors?)|immobili[sz]ers?"
    # a login to a machine, lent or shared: "borrow her kiosk login, it's 4482" (the noun:
    # "log in, it's ..." is a verb, a time perhaps)
    r"|(?P<l>log-?ins?|log-?ons?|sign-?ins?))(?![a-z])"
    # an alarm in or at a place guards it: its code, not a time to wake up ("the alarm in
    # the boat shed, it's 0 six 3 0")
    r"(?P<p>\s+(?:in|at)\s+(?:the|our|my|his|her|their)\s+(?!morning|evening|afternoon|night)[a-z])?"
)


_NOW = Lazy(r"(?i)\s+(?:now|already|o['’]clock)(?![a-z])")
_RESET = Lazy(r"(?i)(?<![a-z])(?:chang|reset|new)")


def _it_is(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_IT_IS, text, low, "it", "which", "set", "arm", "new one"):
        start, _ = sentence(text, m.start())
        if m["s"] is not None:  # spelled, by any thing a code opens (a gate, a door)
            end = spelled_end(text, m.start("s"))
            if end is not None and ACCESS_RE.search(text, start, m.start()):
                out.append((m.start("s"), end))
            continue
        cue = _IT_IS_CUE.search(text, start, m.start())
        v, keyed = m["v"], re.search(r"(?i)with|using|unset", m[0]) is not None
        wake = cue is not None and cue["a"] and not (keyed or cue["p"]) and TIME.fullmatch(v)
        if cue is None or YEAR.fullmatch(v) or wake:
            continue  # "the safe, it's 1998 vintage"; an alarm "it's 0630" wakes someone
        if (cue["h"] or cue["l"]) and TIME.fullmatch(v) and _HOURS.search(text, start, m.end() + 4):
            continue  # "the gate shuts at six, it's 1745 now": the hour, not its code
        clock = TIME.fullmatch(v) and _NOW.match(text, m.end())  # "it's 1130 now": the time,
        if cue["l"] and clock and not _RESET.search(text, start, m.start()):  # unless it changed
            continue  # "the login page timed out, it's 1130 now"
        if not (UNIT.match(text, m.end()) or RATE.match(text, m.end())):
            out.append(m.span("v"))
    return out


def access_spans(text: str, low: str) -> list[tuple[int, int]]:
    out = [
        m.span("v" if m["v"] is not None else "y")
        for m in scan(_CODE_FOR, text, low, "code", "combo", "combination", "pin", "number")
        if not PUBLIC_BEFORE.search(text, max(0, m.start() - 24), m.start())
    ]
    out += [m.span("v") for m in scan(_NEEDS_CODE, text, low, "code", "pin", "combination")]
    out += _set_and_doors(text, low) + last_number(text, low)
    out += _opening(text, low) + _it_is(text, low)
    for m in scan(_CODE_THEN, text, low, "code"):
        before = text[max(0, m.start() - 24) : m.start()]
        word = before.split()[-1] + " " if before.split() else ""  # "error code 4040 opens ..."
        if not (PUBLIC_BEFORE.search(before) or PUBLIC_CODE.match(word)):
            out.append(m.span(next(g for g in ("v", "o", "s", "k") if m[g] is not None)))
    out += lock_note_spans(text, low)
    out += [m.span("v") for m in scan(_FOR_ACCESS, text, low, *_FOR_WORDS)]
    out += lock_is_spans(text, low)
    for m in scan(_KEYPAD, text, low, "#", "*"):
        start, end = sentence(text, m.start())
        if ACCESS_RE.search(text, start, end) or _OPENS.search(text, start, end):
            out.append(m.span())
    out += zh_open_spans(text, low)
    return out + dial_spans(text, low)
