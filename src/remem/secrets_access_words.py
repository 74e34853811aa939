"""The words of things opened by a code and the shapes of their codes (issue 29; moved from
`remem.secrets_access`, which its rules and `remem.secrets_changed` share): a door, a gate, a
lock, a safe, a keypad, a room or a store kept locked ("the hay bale store", "the cold room"),
a code's digits (0619, *7392, 2 6 0 3) or words ("seven seven three one"), 门 as a door (a
roller shutter's 卷闸门 too, not a floodgate's 闸门), and what makes a number no code (a unit
after it, a count of things, a rate, a place's public code before it), a word-and-digits
password a thing unlocks with, and a door that "is" its keypad's number (`DOOR_IS`).

    ACCESS_RE.search("the side gate")    # a thing a code opens
    UNIT.match(" metres")                 # a size, not a code
"""

from __future__ import annotations

from remem.secrets_shapes import SPOKEN, SPOKEN_DIAL, Lazy

__all__ = [
    "ACCESS",
    "ACCESS_RE",
    "CONFIRM_KEY",
    "COUNTED",
    "DOOR_IS",
    "HOLDS",
    "HOURS_RANGE",
    "KEPT_ROOM",
    "NUM",
    "PREMISES",
    "PUBLIC_BEFORE",
    "RATE",
    "SET_CUE",
    "UNIT",
    "VAL",
    "VAL_DIAL",
    "WORD_DIGITS",
    "ZH_DOOR",
]

# 门 of a door, not of a department (部门), a throttle (油门) or a floodgate (闸门); a roller
# shutter (卷闸门) is a shop's door
ZH_DOOR = r"(?<![部专热油窍衙佛])(?<!(?<!卷)闸)门"

# Things opened by a code: the cue that a bare number is an access code.
ACCESS = (
    r"(?:front[ -]|back[ -]|side[ -]|garage[ -]|main[ -])?doors?|gates?|lock(?:box|er)?s?"
    r"|lock[ -]box|key[ -]?(?:box|safe)|padlocks?|safes?|alarms?|garages?|keypads?|cabinets?"
    r"|vaults?|mailbox(?:es)?|opener|entry|entrance|intercom|buzzer|suitcases?|luggage"
    r"|immobili[sz]ers?|roller[ -]?shutters?"  # a vehicle's lock, a unit's shutter (a camera's not)
    r"|briefcase|atm|sheds?|cages?|storage\s+units?|(?:photo)?copiers?|printers?"
    r"|(?:stock|store|strong|supply|storage|plant|server|comms?)[ -]?rooms?"  # rooms kept locked
    r"|cupboards?"  # a drug or key cupboard has a keypad
    # a shop's cash box or tin opens by a code like a safe
    r"|(?:cash|strong|money)[ -]?(?:box(?:es)?|tins?)"
    # a machine's menu or mode behind a code: "the service menu wants 5505"
    r"|(?:service|engineer(?:ing)?|admin|settings|setup|maintenance|programming|installer"
    r"|config(?:uration)?|manager|supervisor|technician)\s+(?:menus?|modes?)"
)
# Premises and rooms one goes into: the code "for" one of them lets one in ("the new code for
# the bakery is 2468"); not "unit" or "site", whose codes name a course or a job
PREMISES = (
    r"kitchens?|offices?|studios?|workshops?|warehouses?|depots?|cellars?|basements?|lofts?"
    r"|attics?|flats?|houses?|cabins?|huts?|barns?|stables?|yards?|compounds?|premises"
    r"|pavilions?|clubhouses?|changing\s+rooms?|back\s+rooms?|staff\s+rooms?|storerooms?"
)
ACCESS_RE = Lazy(
    rf"(?i)(?<![a-z])(?:{ACCESS}|(?:key)?pad|panel|get\s+in(?:to)?|let\s+(?:me|you|us|them)\s+in)(?![a-z])"
    r"|门|锁|保险柜|保险箱|柜|箱"
)
NUM = r"[*#]?\d(?:[ #*-]?\d){2,11}#?(?!\d)"  # 0619, 3-1-4-1-5, *7392, 4471#, 2 6 0 3
UNIT = Lazy(
    r"(?i)\s*(?:feet|ft|foot|meters?|m|km|miles?|yards?|cm|mm|inches|in\b|kg|lbs?|pounds"
    r"|dollars|bucks|years?|days?|hours?|minutes?|degrees|%|米|公斤|元|块|年|天|小时|分钟)"
)
# a code keyed, then the key that confirms it: "..., then the green button", "then hash"
CONFIRM_KEY = (
    r"(?:\s*,?\s+(?:and\s+)?(?:then|followed\s+by)\s+(?:press(?:ing)?\s+|hit(?:ting)?\s+)?(?:the\s+|a\s+)?"
    r"(?:(?:[\w#*]+\s+)?(?:button|key)s?|hash|star|enter|pound|ok|tick"
    # a panel's key by its label, in capitals as printed on it: "then SET", "then UNSET"
    r"|set|unset|arm|disarm|away|(?-i:[A-Z]{2,8}))(?![A-Za-z])"
    # or the hash or star key said with it: "6642 plus hash", "4471 and the hash key"
    r"|\s*,?\s+(?:plus|and|with)\s+(?:the\s+|a\s+)?(?:hash|star|pound|[#*])"
    r"(?:\s+(?:key|button|sign))?(?![A-Za-z]))"
)
VAL = rf"(?:{NUM}|{SPOKEN})"  # 4821, "seven seven three one", 四四七一
VAL_DIAL = rf"(?:{VAL}|{SPOKEN_DIAL})"  # 4821, or a dial's numbers in words
# a password of a word and digits a thing unlocks with: "unlocks with tile1234", "with 77harbour"
# (not a level, a version or a tier: "unlocks with level10", "windows11")
WORD_DIGITS = (
    r"(?P<p>(?!(?:level|lvl|version|ver|windows|win|ios|android|macos|rank|tier|stage|chapter"
    r"|act|season|xp|lv|v)\d)(?:[A-Za-z]{3,16}\d{2,8}|\d{2,8}[A-Za-z]{3,16})[A-Za-z!@#$]{0,3}"
    r"(?![\w-]|\.\w))"
)

PUBLIC_BEFORE = Lazy(  # "the zip code for the building is 10001": a place's code
    r"(?i)(?<![a-z])(?:zip|postal|post|area|country|dialling|dialing|promo|discount|coupon|tracking"
    r"|booking|reference|order|product|tax|sort|swift|bar|qr"
    r"|course|module|class|job|cost|project|nominal|budget|stock|item|dress)\s*$"  # a name's code
)
HOLDS = Lazy(  # a thing that holds and shuts: "the cash drawer opens with B5521"
    r"(?i)(?<![a-z])(?:drawers?|tins?|chests?|trunks?|hatch(?:es)?|lockers?|stores?|rooms?)(?![a-z])"
)
# a store or a room named by what it keeps ("hay bale store", "cold room"): kept locked, unless
# a room one is sent to by its number (`ROOM_OWN_NUMBER`: a meeting's, a class's)
KEPT_ROOM = (
    r"(?P<store>(?!(?:the|a|an|my|our|your|this|that)\s)(?P<kept>[a-z]+)\s+(?:store|room)s?)"
)
COUNTED = Lazy(  # "takes 1200 dpi scans", "needs 5000 sheets": a number of things
    r"(?i)\s+(?!(?:and|then|before|after|to|at|for|on|when|if|or|but|so|first|now|every|each"
    r"|plus|or|into|in)(?![a-z]))[a-z]"
)
SET_CUE = Lazy(
    rf"(?i)(?<![a-z])(?:{ACCESS}|pin|passcode|code|combo|combination)(?![a-z])"
    r"|门锁|密码锁|挂锁|车锁|锁|保险柜|保险箱|柜|箱|(?<![部专热])门(?![店诊票户面牌号口])|密码"
    # a till's operator code authorises what it does
    r"|收银|操作员|授权|(?<![a-z])(?:pos|operator|cashier|log-?in)(?![a-z])"
)
HOURS_RANGE = Lazy(r"(?:[01]\d|2[0-3])[0-5]\d\s*[-–]\s*(?:[01]\d|2[0-3])[0-5]\d")  # 0900-1700
RATE = Lazy(
    r"(?i)\s*(?:dpi|ppm|rpm|px|pt|hz|khz|mhz|ghz|watts?|w|volts?|v|k|lux|baud|[km]?bps)(?![a-z])"
)
# "the back door is 0852", 前门是 2580: a door or gate "is" a keypad's number
DOOR_IS = Lazy(
    # or its keypad or lock, said to have gone (back) to a number or to be "on" one now
    r"(?i)(?<![a-z])(?:doors?|gates?|entrances?)(?:\s+(?:keypad|(?:key)?pad|lock|panel))?"
    r"(?:\s+(?:to|for|on|at|of|in|by|behind|near|beside|off|opposite|past|(?:a)?round"
    r"|next\s+to)\s+[^.;:!?\n]{1,30}?)?"
    r"\s+(?:(?:is|was|['’]s)\s+(?:now\s+|still\s+|back\s+)*(?P<on>(?:on|to)\s+)?"
    r"|(?:chang(?:ed|es)|reset|switch(?:ed|es)|(?P<went>went|go(?:es|ne)?|revert(?:ed|s)?|moved))"
    r"\s+(?:back\s+)?(?:to|on)\s+)"
    # a keypad's letter key last: "is 2580X" (a push-button lock's X or C key)
    r"(?P<v>[#*]?\d{4,8}(?:[#*]|(?-i:[A-Z]))?)(?![\w#*]|[.,]\d|-[a-z])"
    r"|(?:前门|后门|侧门|大门|正门|边门|单元门|楼门|院门|车库门|家门|房门"
    # any door named by what it is (防火门), and its number as "that number": 那个数还是 6203
    r"|(?<=[\u4e00-\u9fff])" + ZH_DOOR + r"(?=那个数|的数|还是|就是))"
    r"(?:的|那个数字?|的数字?)?\s*(?:还是|仍是|就是|是|为)\s*"
    r"(?P<z>[#*]?\d{4,8}#?)(?!\d)"
)
