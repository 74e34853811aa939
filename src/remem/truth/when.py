"""Validity dates a memory states about itself: "从 2026-05-01 起…", "自 6 月 1 日起…",
"since March 2026 …" (when it became true), "until 2026-06-30 …", "到 6 月底为止"
(when it stops). The phrases are cut out, so the grammar reads the fact alone.

    validity("从 2026-05-01 起数据库改用 PostgreSQL", ref)
    # Validity(start=2026-05-01, end=None, rest="数据库改用 PostgreSQL")
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from remem.truth.table import alternation, mapping

_MONTHS = {name: int(number) for name, number in mapping("month", "en").items()}
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE = (
    r"(?P<ymd>\d{4})[-/.](?P<ymd_m>\d{1,2})(?:[-/.](?P<ymd_d>\d{1,2}))?"
    r"|(?:(?P<cn_y>\d{4})\s*年\s*)?(?P<cn_m>\d{1,2})\s*月(?:\s*(?P<cn_d>\d{1,2})\s*[日号])?"
    r"(?P<cn_end>底|末)?"
    r"|(?P<cn_year>\d{4})\s*年(?P<cn_yend>底|末)?"
    rf"|(?P<en_m>{_MON})\.?\s+(?:(?P<en_d>\d{{1,2}})(?:st|nd|rd|th)?,?\s*)?(?P<en_y>\d{{4}})?"
    rf"|(?P<dm_d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<dm_m>{_MON})\.?,?\s*(?P<dm_y>\d{{4}})?"
    r"|(?P<year>(?<!\d)\d{4}(?!\d))"
)
# "从 5 月 1 日起", "直到 6 月底", "到 6 月 30 日为止": the words around a date that say it
# starts or ends
_FROM = alternation("start before date", "zh")
_SINCE = alternation("start after date", "zh")
_UNTIL = alternation("end before date", "zh")
_BEFORE = alternation("end after date", "zh")
_START_ZH = re.compile(rf"(?:{_FROM})?\s*(?:{_DATE})\s*(?:{_SINCE})(?:，|,)?\s*", re.I)
# "直到 6 月底", "截至 2026-06-30", "到 6 月 30 日为止": a bare 到 needs its 为止 / 之前,
# or "改到 6月30日" (a change of date) would read as an end.
_END_ZH = re.compile(rf"(?:{_UNTIL})\s*(?:{_DATE})\s*(?:为止|前|之前|以前)?(?:，|,)?\s*", re.I)
_END_ZH_BARE = re.compile(
    rf"(?<![改推延提调挪移换])(?:到|至)\s*(?:{_DATE})\s*(?:{_BEFORE})(?:，|,)?\s*", re.I
)
_START_EN = re.compile(
    rf"\b(?:since|starting(?:\s+on|\s+from|\s+in)?|from|as\s+of|effective(?:\s+from|\s+on)?"
    rf"|beginning(?:\s+in|\s+on)?)\s+(?:{_DATE})\b(?:\s*on)?,?\s*",
    re.I,
)
_END_EN = re.compile(rf"\b(?:until|till|through|up\s+to)\s+(?:{_DATE})\b,?\s*", re.I)
# What each pattern cannot match without (its words around the date): a text lacking them
# is not searched with the date alternatives at every position (~5 us a pattern).
_CUES = (
    (_START_ZH, False, re.compile(_SINCE)),
    (_END_ZH, True, re.compile(_UNTIL)),
    (_END_ZH_BARE, True, re.compile(_BEFORE)),
    (_START_EN, False, re.compile(r"since|starting|from|as\s+of|effective|beginning", re.I)),
    (_END_EN, True, re.compile(r"until|till|through|up\s+to", re.I)),
)


@dataclass(frozen=True, slots=True)
class Validity:
    """When the text says it holds (None: it does not say), and the text without it."""

    start: datetime | None
    end: datetime | None
    rest: str


def _period(
    year: int, month: int, day: int | None, *, late: bool = False
) -> tuple[datetime, datetime] | None:
    """[first moment, first moment after) of a day, or of a month when `day` is None
    (its last day alone when `late`: "6 月底")."""
    if not 1 <= month <= 12:
        return None
    top = calendar.monthrange(year, month)[1]
    if day is not None and not 1 <= day <= top:
        return None
    if day is None and late:
        day = top
    first = datetime(year, month, day or 1, tzinfo=UTC)
    if day is not None:
        return first, first + timedelta(days=1)
    nxt = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return first, nxt


def _dates(m: re.Match[str], ref: datetime) -> tuple[datetime, datetime] | None:
    """The period a match names; a missing year is the reference's year."""
    g = m.groupdict()

    def num(name: str) -> int | None:
        return int(g[name]) if g[name] else None

    if g["ymd"]:
        return _period(int(g["ymd"]), int(g["ymd_m"]), num("ymd_d"))
    if g["cn_m"]:
        return _period(num("cn_y") or ref.year, int(g["cn_m"]), num("cn_d"), late=bool(g["cn_end"]))
    if g["cn_year"]:
        year = int(g["cn_year"])
        if g["cn_yend"]:
            return _period(year, 12, None, late=True)
        return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
    for prefix in ("en", "dm"):
        if g[f"{prefix}_m"]:
            month = _MONTHS[g[f"{prefix}_m"].lower()]
            return _period(num(f"{prefix}_y") or ref.year, month, num(f"{prefix}_d"))
    if g["year"] and 1900 <= int(g["year"]) <= 2200:
        year = int(g["year"])
        return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
    return None


_YEARS = ("ymd", "cn_y", "cn_year", "en_y", "dm_y", "year")


def _has_year(m: re.Match[str]) -> bool:
    g = m.groupdict()
    return any(g.get(name) for name in _YEARS)


def _next_year(moment: datetime) -> datetime:
    try:
        return moment.replace(year=moment.year + 1)
    except ValueError:  # 29 February
        return moment.replace(year=moment.year + 1, day=28)


def validity(text: str, ref: datetime) -> Validity:
    """The validity the text states (dates without a year fall in `ref`'s year, an end
    already past at `ref` in the next)."""
    start = end = None
    rest = text
    for pattern, is_end, cue in _CUES:
        m = pattern.search(rest) if cue.search(rest) else None
        if m is None:
            continue
        found = _dates(m, ref)
        if found is None:
            continue
        if is_end and end is None:
            end = found[1]  # "until June 30": through the end of that day
            if end <= ref and not _has_year(m):
                # "until June 30" said in September: the next June 30
                end = _next_year(end)
        elif not is_end and start is None:
            start = found[0]
        rest = (rest[: m.start()] + " " + rest[m.end() :]).strip()
    if start is not None and end is not None and end <= start:
        end = None  # "until" before "since": not a period we can use
    return Validity(start, end, rest)


# A change's start said relative to now, at the head or the end of the text ("From next
# week nursery moves Maya to one nap", "下个月起透析改为周二、四、六", "Labour goes to £74/hr
# from 1 January"): cut for a second reading of the change (`lead`); no date is computed
_UNIT_ZH = r"(?:周|星期|礼拜)(?:[一二三四五六日天]|末)?|月|季度|学期|年|轮|期"
# this, next: "这周起", "本周六起", "下个周末开始" (the first of the coming days: 明天, 后天)
_DEICTIC_ZH = r"(?:下|这|本)(?:个|一)?"
_SOON_ZH = r"明天|后天|大后天"
_NUM_ZH = r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})"
# the days a year turns on, by their names: holidays, terms, seasons ("国庆过后", "入秋后")
_TURNS_ZH = alternation("turn of the year", "zh")
_LEAD_ZH = re.compile(
    # who said it first, then when ("房东说下季度起房租每月4200")
    r"^\s*(?:[\u4e00-\u9fff]{1,4}(?:说|讲|通知)\s*[，,:：]?\s*)?"
    rf"(?:(?:从|自)\s*)?(?:{_DEICTIC_ZH}\s*(?:{_UNIT_ZH}|批)(?:\s*{_NUM_ZH}\s*[日号])?"
    rf"|{_SOON_ZH}|明年|今年|后年|下半年|年底|年后|节后|月底|月初"
    rf"|(?:明年|今年|后年)?\s*{_NUM_ZH}\s*月(?:份|中|底)?(?:\s*{_NUM_ZH}\s*[日号])?"
    rf"|{_NUM_ZH}\s*[日号]|{_TURNS_ZH})"
    r"\s*(?:起|开始|以后|之后|过后|后)\s*(?:就\s*)?[，,]?\s*"
)
# once a day of the year has passed, said before the fact ("过了元旦，6斤新被收140")
_PASSED_ZH = re.compile(
    rf"^\s*(?:等\s*)?(?:过了|到了)\s*(?:{_TURNS_ZH}|年)\s*(?:以后|之后|后)?\s*[，,]\s*"
)
_UNIT_EN = (
    r"week|month|quarter|year|term|season|semester|rotation|sprint|shift|cycle|release"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
)
_WHEN_EN = (
    r"(?:the\s+(?:start|beginning|middle|end)\s+of\s+(?:the\s+)?)?"  # "from the start of March"
    rf"(?:(?:the\s+)?(?:{_MON})\s+half[\s-]term"  # before the month alone: "from june half term"
    rf"|(?:next|this|the\s+next|the\s+following)\s+(?:\w+\s+)?(?:{_UNIT_EN})"
    rf"|(?:{_MON})\.?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MON})"
    # a season, the way a calendar of shows or terms runs: "from the autumn season"
    r"|(?:the\s+)?(?:next\s+)?(?:spring|summer|autumn|fall|winter)(?:\s+(?:season|term))?"
    # a day of the month ("from the 1st of next month", "from the 15th"), a weekday alone
    # ("from Monday"), a new period ("from the new season"), the breaks of a school year
    r"|the\s+\d{1,2}(?:st|nd|rd|th)(?:\s+of\s+(?:next|the|this)\s+month)?"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|(?:the\s+)?new\s+(?:season|term|year|school\s+year|financial\s+year|rota)"
    r"|(?:the\s+)?half[\s-]term|easter|christmas|new\s+year"
    r"|the\s+(?:summer|easter|christmas)\s+holidays|the\s+(?:easter|christmas)\s+weekend"
    # a public holiday ("from the bank holiday weekend", "from the May bank holiday")
    r"|(?:the\s+)?(?:\w+\s+)?bank\s+holiday(?:\s+weekend|\s+monday)?)"
)
_LEAD_EN = re.compile(
    rf"^\s*(?:from|starting(?:\s+from)?|beginning|as\s+of|effective)\s+(?:{_WHEN_EN})\b\s*[,:\-–—]?\s*",
    re.I,
)
_TAIL_EN = re.compile(
    # no leading space in the pattern: searched at every space of a long run it would
    # backtrack through the run each time (the caller trims what is left before it)
    rf"\b(?:from|starting(?:\s+from)?|as\s+of|effective)\s+(?:{_WHEN_EN})\b\s*(?=[.!]?\s*$)",
    re.I,
)


# the period a value holds for, said after it ("pitch 31 this season", "+65g this week"):
# when, not which thing
_NOW_TAIL_EN = re.compile(rf"\b(?:for\s+|during\s+)?this\s+(?:{_UNIT_EN})\b\s*(?=[.!]?\s*$)", re.I)


def _before(text: str, at: int) -> str:
    """`text` up to `at`, without the spaces and the comma before a tail."""
    return text[:at].rstrip().removesuffix(",").rstrip()


def present_tail(text: str) -> str:
    """`text` without the period it holds for said at its end ("... this season")."""
    if (m := _NOW_TAIL_EN.search(text)) is not None and (rest := _before(text, m.start())):
        return rest + text[m.end() :].strip()
    return text


def lead(text: str) -> str | None:
    """`text` without a start said relative to now at its head or end, or None when it
    has none (or nothing else)."""
    for pattern in (_LEAD_ZH, _PASSED_ZH, _LEAD_EN):
        if (m := pattern.search(text)) is not None and (rest := text[m.end() :].strip()):
            return rest[:1].upper() + rest[1:]
    if (m := _TAIL_EN.search(text)) is not None and (rest := _before(text, m.start())):
        return rest + text[m.end() :].strip()
    return None


_FROM_WHEN_EN = re.compile(rf"^\s*(?:from|since)\s+(?:{_WHEN_EN}|{_DATE})\b", re.I)
_FROM_WHEN_ZH = re.compile(
    rf"^\s*(?:从|自)\s*(?:{_DATE}|{_DEICTIC_ZH}\s*(?:{_UNIT_ZH})|{_SOON_ZH}|明年|下半年)"
)
_TO = re.compile(r"^\s*(?:to|until|till|through|[-–—~～]|到|至)", re.I)


def starts(text: str) -> bool:
    """Whether `text` ("from …") says when something starts ("from the start of March",
    "From 3 June the drills …", "从下月1号起"), not the value a change left ("from Jenkins"),
    and not a date moved to another ("from March 3 to March 10": the old date is the value)."""
    m = _FROM_WHEN_EN.match(text) or _FROM_WHEN_ZH.match(text)
    return m is not None and not _TO.match(text[m.end() :])


# A word of when, said alone: 下个月, 周三, 起, 15号, "next", "jan" (a key's words, a head)
_WHEN_WORD = re.compile(
    r"(?:从|自|每|这|下|上|本|明|今|后|前|去)?(?:个)?(?:周[一二三四五六日天末]?|星期[一二三四五六日天]?|月|年|天"
    r"|季度|学期|早上|上午|中午|下午|晚上|凌晨|初|底|开春|月初|月底)+(?:起|开始|以后|之后|的)?"
    r"|起|开始|\d{1,2}[号日月]|[号日]"
    rf"|(?:from|next|this|last|week|month|year|today|tomorrow|{_MON})",
    re.I,
)


def said_when(word: str) -> bool:
    """Whether `word` only says when ("下个月", "起", "15号", "next", "jan")."""
    return _WHEN_WORD.fullmatch(word) is not None
