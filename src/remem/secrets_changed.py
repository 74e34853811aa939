"""A code changed from one number to another, both said (issue 29; moved from
`remem.secrets_access`): "the padlock changed from 4-4-1 to 9-0-3", "keypad: went from 1990 to
2207", or said as what it was and what it is now ("POS operator 01 was 0000, now it's 2580",
收银员密码原来是0000，现在改成2580了), or the old one said dead and the new one given
("4410 is dead, use 9921"), or the new one given and the old one said to work no more
("the kiosk override is 3391 now, the old one no longer works", 现在是 4410，旧的不能用了), in
Chinese and English. The old one may still open a
spare, or be reused: both are secrets.

    changed_spans("changed the gate code from 4410 to 9921", ...)   # both numbers
    changed_spans("the gate fee went from 1500 to 1800", ...)       # []

Each rule wants a thing a code opens or works (`SET_CUE`: a lock, a code, a till) before the
numbers, and no price, hours, count or unit about them. Used by `remem.secrets_cues`.
"""

from __future__ import annotations

from remem.secrets_access_words import ACCESS, COUNTED, PUBLIC_BEFORE, SET_CUE, UNIT, VAL
from remem.secrets_access_zh import ZH_UNIT, ZH_WHEN
from remem.secrets_last import TIME, YEAR
from remem.secrets_shapes import Lazy, scan, sentence

__all__ = ["changed_spans"]

_CHANGED = Lazy(  # "changed the gate code from 4410 to 9921": what changed may be between
    r"(?i)(?<![a-z])(?:changed|switched|reset|went|gone|updated)(?:\s+(?!from\s)[\w'’-]+){0,5}?"
    rf"\s+from\s+(?P<a>{VAL})\s+to\s+(?P<b>{VAL})(?![\w/:]|[.,]\d)"
)
# what it was, then what it is now: "was 0000, now it's 2580", 原来是0000，现在改成2580了
_WAS_NOW = Lazy(
    rf"(?i)(?<![a-z])(?:was|used\s+to\s+be)\s+(?P<a>{VAL})\s*[,;—–]\s*(?:but\s+)?"
    rf"(?:it['’]s\s+)?now\s+(?:it['’]s\s+|is\s+)?(?P<b>{VAL})(?![\w/:]|[.,]\d)"
    r"|(?:原来|以前|之前|本来)(?:是|为)\s*(?P<c>\d{3,8})\s*[，,]\s*(?:现在|后来|如今)(?:是|为|改成"
    r"|改为|换成|设成)了?\s*(?P<d>\d{3,8})(?!\d)"
)
# the old one said dead, then the one to use: "4410 is dead, use 9921 from Monday", "0000 no
# longer works, it's 4417 now"
_DEAD_USE = Lazy(
    rf"(?i)(?<![\w.])(?P<a>{VAL})\s+(?:is|'s|’s)\s+(?:now\s+)?(?:dead|gone|retired|void|scrapped"
    r"|cancell?ed|out|finished|no\s+(?:longer\s+)?(?:good|valid|active|working))\s*[,;—–]\s*"
    rf"(?:so\s+|and\s+)?(?:use|try|(?:it['’]s|the\s+new\s+one\s+is)(?:\s+now)?)\s+(?P<b>{VAL})"
    r"(?![\w/:]|[.,]\d)"
)
# the new one given and the old one said to be dead, either way round: "the kiosk override is
# 3391 now, the old one has been cancelled", "the old pin doesn't work any more, it's 4471 now",
# 现在是 4471，旧的不能用了 (the new one alone is said: a code works, a price does not)
_DEAD = (
    r"(?:(?:has\s+|had\s+)?stopped\s+working|(?:doesn['’]?t|does\s+not|won['’]?t|will\s+not|no\s+longer"
    r"|isn['’]?t\s+going\s+to)\s+work(?:s|ing)?(?:\s+any\s?more)?|(?:is|was|has\s+been|got)\s+(?:now\s+)?"
    r"(?:dead|cancell?ed|disabled|blocked|deactivated|void|expired|wiped)|expired|died)"
)
_OLD = (
    r"(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?(?:old|previous|former|original)\s+"
    r"(?:one|code|pin|number|combo)"
)
_ZH_OLD = r"(?:旧的|原来的?|以前的?|之前的?|老的)(?:那个|那组)?(?:密码|号码?|码)?(?:已经|都|就)?"
_ZH_DEAD = r"(?:不能用|用不了|失效|作废|不管用|不好使|没用)了?"
_NEW_OLD_DEAD = Lazy(
    rf"(?i)(?<![a-z])(?:is|['’]s)\s+(?:now\s+)?(?P<a>{VAL})(?:\s+now)?\s*[,;—–]\s*"
    rf"(?:and\s+|as\s+|because\s+|since\s+|so\s+)?{_OLD}\s+{_DEAD}(?![a-z])"
    rf"|(?<![a-z]){_OLD}\s+{_DEAD}\s*[,;—–]\s*(?:so\s+)?(?:use|try|(?:now\s+)?it['’]s|it\s+is"
    rf"|the\s+new\s+one\s+is|now)\s+(?:now\s+)?(?P<b>{VAL})(?![\w/:]|[.,]\d)"
    rf"|(?:现在|新的)(?:是|为|改成了?|换成了?)?\s*(?P<c>\d{{3,8}})(?!\d)\s*[，,；;]\s*{_ZH_OLD}{_ZH_DEAD}"
    rf"|{_ZH_OLD}{_ZH_DEAD}\s*[，,；;]\s*(?:现在|新的)(?:是|为|改成了?|换成了?|用)\s*(?P<d>\d{{3,8}})(?!\d)"
)
# what such a code works: a lock, a till's role (a manager's, a supervisor's number), a machine
_WORKS = Lazy(
    r"(?i)(?<![a-z])(?:till|register|kiosk|terminal|manager|supervisor|admin|override|staff"
    r"|operator|cashier)s?(?![a-z])|主管|店长|管理员"
)
_PHONE_WORD = Lazy(  # a phone's number stops working too: "my number is ... now, the old one died"
    r"(?i)(?<![a-z])(?:phone|mobile|cell|extension|ext|landline|line|fax|whats\s?app|call|ring"
    r"|text)(?![a-z])|电话|手机|分机|座机|热线"
)
_CODE_NAMED = Lazy(  # the noun right before "is": a number, a code, or a thing that locks
    rf"(?i)(?<![a-z])(?:numbers?|no\.?|codes?|pins?|passcodes?|overrides?|combos?|combinations?"
    rf"|log-?ins?|{ACCESS})\s*$"
)
_PRICED = Lazy(
    r"(?i)(?<![a-z])(?:fees?|prices?|costs?|rent|charges?|fares?|rates?|tolls?|budget|pay|wages?"
    r"|salary|total)(?![a-z])|[£$€¥]|价|费|元|块"
)
_HOURS = Lazy(  # "the gate changed from 1100 to 1300 opening hours": times, not codes
    r"(?i)(?<![a-z])(?:hours?|opening|opens|closing|closes|times?|shifts?|starts|finish(?:es)?"
    r"|deliver(?:y|ies)|a\.?m|p\.?m|o['’]clock|schedule)(?![a-z])"
)
_AMOUNT = Lazy(  # "the gate fee went from 1500 to 1800", "locker number changed ...": no code
    r"(?i)(?<![a-z])(?:fees?|prices?|costs?|rent|charges?|fares?|rates?|tolls?|budget|pay|wages?"
    r"|salary|capacity|limit|size|height|width|weight|total|(?<!pin\s)numbers?)(?![a-z])|[£$€¥]"
)


def changed_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Both numbers of each code `text` says was changed (`low`: it lower-cased)."""
    out = []
    said = [*scan(_CHANGED, text, low, " from "), *scan(_WAS_NOW, text, low, "now", "现在", "后来")]
    said += scan(_DEAD_USE, text, low, "dead", "gone", "retired", "void", "scrapped", "cancel",
                 " out", "finished", "no ")  # fmt: skip
    for m in said:
        a, b = ("a", "b") if m["a"] is not None else ("c", "d")
        start, end = sentence(text, m.start())
        cue = SET_CUE.search(text, start, m.start(a))
        public = cue and PUBLIC_BEFORE.search(text, max(0, cue.start() - 24), cue.start())
        amount = _AMOUNT.search(text, start, end) or ZH_WHEN.search(text, start, end)
        if cue is None or public or amount:
            continue  # "the zip code changed from 94110 to 94117", 价格原来是…
        times = TIME.fullmatch(m[a]) and TIME.fullmatch(m[b])
        wake = times and (cue[0].lower().startswith("alarm") or _HOURS.search(text, start, end))
        kind = YEAR.fullmatch(m[a]) and YEAR.fullmatch(m[b]) and COUNTED.match(text, m.end())
        if not (wake or kind or UNIT.match(text, m.end()) or ZH_UNIT.match(text, m.end())):
            out += [m.span(a), m.span(b)]  # not "from 1998 to 2005 style": years of a kind
    return out + _new_not_old(text, low)


def _new_not_old(text: str, low: str) -> list[tuple[int, int]]:
    """The new code of a thing that works by one, the old one said to be dead."""
    out = []
    for m in scan(_NEW_OLD_DEAD, text, low, "work", "dead", "cancel", "disabled", "blocked",
                  "deactivated", "void", "expired", "wiped", "died", "不能用", "用不了", "失效",
                  "作废", "不管用", "不好使", "没用"):  # fmt: skip
        group = next(g for g in "abcd" if m[g] is not None)
        start, end = sentence(text, m.start())
        cued = SET_CUE.search(text, start, end) or _WORKS.search(text, start, end)
        other = _PHONE_WORD.search(text, start, end) or _PRICED.search(text, start, end)
        digits = sum(c.isdigit() for c in m[group])
        if group == "a":  # "the staff discount is 2500 now", "the order number": no code
            named = _CODE_NAMED.search(text, max(start, m.start() - 40), m.start())
            if named is None or PUBLIC_BEFORE.search(text, start, named.start()):
                continue
        if cued and not other and digits <= 8 and not YEAR.fullmatch(m[group]):
            if not (_HOURS.search(text, start, end) or UNIT.match(text, m.end(group))):
                out.append(m.span(group))
    return out
