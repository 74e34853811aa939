"""Number-like values in text: what must survive any rewrite of it (SPEC EX7).

A value is found as written and compared by a normal key: full-width digits and
thousands separators folded ("１２，５００" -> 12500), amounts scaled ("5 万", "50k",
"$1.5m", "1块2"), dates in any common form ("2024-05-01", "5月1日", "May 1, 2024"), times,
percentages, IDs ("ORD-7", "#42", commit hashes) and versions ("v1.2.3", "JDK17").

    number_tokens("预算 5 万")[0].key                     # "50000"
    missing_numbers("预算 5 万，3月15日", "预算 50000")    # ["3月15日"]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

__all__ = [
    "MONTHS",
    "NumberToken",
    "missing_numbers",
    "normalise",
    "number_tokens",
    "spoken_zh",
    "spoken_zh_units",
    "zh_clock",
]

_MON = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b\.?"
)
_TOKEN = re.compile(
    r"(?P<date_ymd>(?<![\d.])\d{4}[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?!\d|\.\d))"
    r"|(?P<date_ym>(?<![\d.])\d{4}[-/](?:0?[1-9]|1[0-2])(?![\d/-]|\.\d))"
    r"|(?P<date_cn>(?:\d{4}\s*年\s*)?\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?)"
    rf"|(?P<date_en>{_MON}\s+\d{{1,2}}(?:st|nd|rd|th)?(?!\d)(?:,?\s+\d{{4}})?|{_MON}\s+\d{{4}})"
    rf"|(?P<date_dm>(?<![\d.])\d{{1,2}}(?:st|nd|rd|th)?\s+{_MON}(?:,?\s+\d{{4}})?)"
    r"|(?P<time>(?<![\d.:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:]))"
    r"|(?P<amount>[$¥€£]\s?\d+(?:\.\d+)?\s?(?:bn|[mMbB])(?![A-Za-z])"
    r"|(?<![\w.])[$¥€£]?\s?\d+(?:\.\d+)?\s?(?:万亿|亿|千万|百万|万|千|k|K|w)(?![A-Za-z])"
    r"|(?<![\w.])\d+(?:\.\d+)?\s(?:thousand|million|billion)\b)"
    r"|(?P<percent>(?<![\w.])\d+(?:\.\d+)?\s?%)"
    # a price said in yuan and jiao: "1块2" is 1.2 ("10块2个" is two for 10)
    r"|(?P<yuan>(?<![\w.])\d+\s?[块元]\d(?![\d个斤件只瓶包盒份本条张次杯碗位双把支根箱袋])[毛角]?)"
    r"|(?P<id>(?<![\w#-])(?:#\d+|[A-Z][A-Za-z]*\d*(?:[-_][A-Za-z0-9]+)+|[A-Z]{2,}\d{3,}\w*)"
    r"|(?<!\w)(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?!\w)"
    r"|(?<!\w)(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{8,}(?!\w))"
    r"|(?P<num>(?<![\w.])[A-Za-z]*\d+(?:\.\d+)*(?:-(?:rc|alpha|beta|dev|pre)[.\d]*)?)",
    re.ASCII,
)
_CN_DATE = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?")
MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_SCALE = {"万亿": 10**12, "亿": 10**8, "千万": 10**7, "百万": 10**6, "万": 10**4, "千": 1000}
_SCALE |= {"k": 1000, "w": 10**4, "m": 10**6, "b": 10**9, "bn": 10**9, "thousand": 1000}
_SCALE |= {"million": 10**6, "billion": 10**9}


@dataclass(frozen=True, slots=True)
class NumberToken:
    """A number-like value as written, the key it is compared by ("5 万" -> 50000), its kind
    (date, time, amount, percent, id, version, number), and every key it covers (a full
    date also covers its year and its month-day)."""

    surface: str
    key: str
    kind: str
    aliases: frozenset[str]


def normalise(value: str) -> str:
    """Full-width to ASCII, thousands separators dropped: "１２，５００" -> "12500"."""
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", unicodedata.normalize("NFKC", value))


def _date(y: str | None, m: str | int, d: str | None) -> tuple[str, set[str]]:
    month = f"{int(m):02d}"
    md = f"{month}-{int(d):02d}" if d else f"m{month}"
    key = f"{y}-{md}" if y and d else (f"{y}-{month}" if y else md)
    return key, {key, md, f"m{month}", *([y, f"{y}-{month}"] if y else [])}


def _keys(kind: str, s: str) -> tuple[str, set[str]]:
    """The comparison key of one token and every key it covers."""
    nums = re.findall(r"\d+(?:\.\d+)?", s)
    if kind in ("date_ymd", "date_ym"):
        y, m, *d = re.findall(r"\d+", s)  # a month and day in range (the pattern)
        return _date(y, m, d[0] if d else None)
    # a date token was matched by these very shapes: the searches below always find
    if kind == "date_cn" and (cn := _CN_DATE.fullmatch(s)) is not None:
        return _date(*cn.groups())
    if kind in ("date_en", "date_dm") and (named := re.search(r"[A-Z][a-z]{2}", s)):
        month = MONTHS[named.group().lower()]
        year = next((n for n in nums if len(n) == 4), None)
        return _date(year, month, next((n for n in nums if len(n) <= 2), None))
    if kind == "amount":
        unit = re.sub(r"[\d.\s$¥€£]", "", s)
        value = Decimal(nums[0]) * _SCALE[unit if unit in _SCALE else unit.lower()]
        key = format(value.normalize(), "f")
    elif kind == "time":
        key = f"{int(s.split(':')[0])}:{s.split(':', 1)[1]}"
    elif kind == "yuan":
        key = f"{nums[0]}.{nums[1]}"
    elif kind == "percent":
        key = f"{nums[0]}%"
    elif kind == "id":
        key = s.lstrip("#").upper()
    else:  # integers, decimals, versions: "JDK17" -> 17, "v1.2.3" -> 1.2.3
        key = re.sub(r"^[A-Za-z]*", "", s).lower()
    return key, {key}


_ANY_DIGIT = re.compile(r"\d")


def number_tokens(source: str) -> list[NumberToken]:
    """Every number-like value in `source`, in order, repeats dropped."""
    if len(source) > _CACHED:
        return list(_number_tokens.__wrapped__(source))
    return list(_number_tokens(source))


# A save reads the numbers of the same short texts again and again (a value while its
# subject is read, when it is keyed, when its form is judged), and the scan by _TOKEN is
# the cost of a text with a digit: short texts are remembered (the tokens are frozen;
# each caller gets its own list).
_CACHED = 512


@lru_cache(maxsize=8192)
def _number_tokens(source: str) -> tuple[NumberToken, ...]:
    normal = normalise(source)
    if not _ANY_DIGIT.search(normal):
        return ()  # what every span below needs (most values name no number)
    spans = [(m.start(), m.lastgroup or "num", m.group()) for m in _TOKEN.finditer(normal)]
    spans = [s for s in spans if re.search(r"\d", s[2])]
    covered = {i for start, _, s in spans for i in range(start, start + len(s))}
    # A safety net: digits no pattern claims ("abc.5") are checked all the same.
    spans += [
        (m.start(), "num", m.group())
        for m in re.finditer(r"\d+", normal)
        if m.start() not in covered
    ]
    found: dict[str, NumberToken] = {}
    for _, group, surface in sorted(spans):
        key, aliases = _keys(group, surface)
        kind = "amount" if group == "yuan" else group.split("_")[0]
        if kind == "num":
            kind = "version" if re.match(r"[vV]\d|\d+\.\d+\.\d", surface) else "number"
        found.setdefault(key, NumberToken(surface.strip(), key, kind, frozenset(aliases)))
    return tuple(found.values())


def missing_numbers(source: str, *kept: str | Mapping[str, str]) -> list[str]:
    """The values of `source` (as written) that none of the `kept` texts keeps; a mapping
    (an entry's facts) counts by its values."""
    texts = [t for part in kept for t in ((part,) if isinstance(part, str) else part.values())]
    covered = {a for part in texts for t in number_tokens(part) for a in t.aliases}
    return [t.surface for t in number_tokens(source) if t.key not in covered]


_ZH_DIGIT = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2, "〇": 0}
# Chinese numerals said with what they count or when ("十点半", "两个人", "二十三号"): a
# bare numeral is mostly a word ("一起", "一直"), and "快一点" / "早一点" is "a bit"
_ZH_SPOKEN = re.compile(
    r"(?<![一二三四五六七八九十百两零〇])(?P<n>[一二三四五六七八九十百两零〇]{1,5})"
    r"(?P<unit>小时|钟头|[点个号人天块元次位名层楼栋周岁分斤台辆间张箱桶瓶格])"
)
_A_BIT = "快早晚多少好慢差有"  # "快一点" / "早一点": a bit, not one o'clock


def _zh_value(numeral: str) -> int | None:
    """ "二十三" -> 23, "十" -> 10, "一百零五" -> 105; None for "三五" (three or five)."""
    if "百" not in numeral and "十" not in numeral:
        return _ZH_DIGIT.get(numeral) if len(numeral) == 1 else None
    total, rest = 0, numeral
    for mark, scale in (("百", 100), ("十", 10)):
        if mark in rest:
            head, rest = rest.split(mark, 1)
            head = head.lstrip("零")
            if len(head) > 1 or (head and head not in _ZH_DIGIT):
                return None
            total += (_ZH_DIGIT[head] if head else 1) * scale
    rest = rest.lstrip("零")
    if len(rest) > 1 or (rest and rest not in _ZH_DIGIT):
        return None
    return total + (_ZH_DIGIT[rest] if rest else 0)


def spoken_zh(source: str) -> set[str]:
    """The numbers `source` says in Chinese numerals with a unit, as digits: "清运车十点半来"
    -> {"10"}, "两个人" -> {"2"}; `number_tokens` reads digits only."""
    return {value for value, _ in spoken_zh_units(source)}


def spoken_zh_units(source: str) -> set[tuple[str, str]]:
    """`spoken_zh`'s numbers with what each counts: "每班两次" -> {("2", "次")}."""
    found = set()
    for m in _ZH_SPOKEN.finditer(source):
        bit = m["n"] == "一" and m["unit"] == "点" and m.start() and source[m.start() - 1] in _A_BIT
        if not bit and (value := _zh_value(m["n"])) is not None:
            found.add((str(value), m["unit"]))
    return found


_ZH_CLOCK = re.compile(
    r"(?<![\d一二三四五六七八九十两零])(?P<h>\d{1,2}|[一二三四五六七八九十两零]{1,3})\s?[点點]"
    r"(?P<m>半|一刻|三刻|\d{1,2}分?)?"
)
_QUARTERS = {"半": 30, "一刻": 15, "三刻": 45}


def zh_clock(source: str) -> set[str]:
    """The times of day `source` says in Chinese, to the minute: "11点半" and "十一点半" ->
    {"11:30"}, "9点" -> {"9:00"}, "下午2点15分" -> {"2:15"} (`number_tokens` reads
    "11点半" as 11)."""
    found = set()
    for m in _ZH_CLOCK.finditer(source):
        hour = int(m["h"]) if m["h"].isdigit() else _zh_value(m["h"])
        if (
            hour is None
            or hour > 24
            or (m["h"] == "一" and m.start() and source[m.start() - 1] in _A_BIT)
        ):
            continue
        said = m["m"] or ""
        minutes = _QUARTERS.get(said, int(said.rstrip("分")) if said[:1].isdigit() else 0)
        found.add(f"{hour}:{minutes:02d}")
    return found
