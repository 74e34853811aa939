"""A change that names nothing the store holds, only how the value moved ("面基推迟一周",
"开饭提前半小时", "加到120ml了", "Reception lunch is ten minutes earlier now", "and another
15p on top after Christmas") or that it was wrong ("记错了，是第13排"). Said after the fact
it moves, as people say it, it is of what was said last: where no pass found anything
and no memory shares two of its words,
the newest memory of its domain that holds a number (a time, a price, a count) is
asked about, unless another memory shares two of its words (which of the two, then?).
Never replaced without the user's word: the text does not say which.

    shifted("面基推迟一周")   # True: a value moved by an amount
    shifted("面基在20号")     # False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from remem import text
from remem.entry import Entry
from remem.truth.dedup import CONFLICT_TYPES, Match
from remem.truth.table import words
from remem.truth.terms import content_terms, shared_terms

_MAX_CHARS = 80  # a note; a diary's event runs longer and moves many things
_SHARED = 2  # a memory sharing this many of its words: the text names it (other passes)
_ZH_AMOUNT = r"[0-9０-９一二两三四五六七八九十百千万半几俩仨]"
_EN_NUMBERS = (
    "a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|half"
    "|fiver|tenner"
)
_EN_AMOUNT = rf"(?:\d|\b(?:{_EN_NUMBERS}|couple|few|fortnight|another)\b)"
_DONE_MORE = "订买做演开收派送进招排要拿备烧煮炒"  # the verbs of ordering, making, serving
_ANY_DIGIT = re.compile(r"[0-9０-９一二两三四五六七八九十百千半]")


@cache
def _zh() -> re.Pattern[str]:
    verbs = sorted(words("shift", "zh"), key=len, reverse=True)
    # the verb, at most one character (了, 到, 开), then the amount: 推迟一周, 涨20, 多开一小时;
    # not 参加, 至少, 差不多
    either = "|".join(map(re.escape, verbs))
    # or more (less) of what is done: 加订了3张, 多买20斤, 加演两场, 少收8块
    done = f"(?:加|多|少)[{_DONE_MORE}]了?"
    # or any verb after 多 / 少, or again (又, 再) and done: 每批多打10口, 多腌一个礼拜, 又挂了500斤
    more = "(?:多|少)(?![少多大久了个些点的])[\u4e00-\u9fff]了?|(?:又|再)[\u4e00-\u9fff]{1,2}了"
    # or the amount right after 多 / 少: 一份少两片, 每锅多半勺 (not 最少3个, 至少: a bound)
    bare = "(?:多|(?<!多)少)了?"  # (多少3个 asks how many)
    # or a direction and a verb of moving: 往前提半小时, 往后排一周, 往上调两度 (not 往前走三步)
    way = "往[前后早晚上下][提推挪调排移延放]了?"
    return re.compile(
        f"(?<![参更附至不差最])(?:{done}|{more}|{bare}|{way}|(?:{either})[了到开个]?){_ZH_AMOUNT}"
    )


def inflected(verb: str) -> set[str]:
    """An English verb's forms: "drop" -> drop, drops, dropped, dropping; "shave" ->
    shaves, shaved, shaving; "cut" -> cuts, cutting (its past the same)."""
    stem, forms = verb, {verb, verb + ("es" if verb.endswith(("sh", "ch", "s")) else "s")}
    if verb.endswith("e"):
        stem = verb[:-1]
    elif len(verb) <= 4 and re.fullmatch(r"[a-z]*[^aeiou][aeiou][bdgklmnprt]", verb):
        stem = verb + verb[-1]  # a short verb ending consonant-vowel-consonant doubles it
    if verb not in _SAME_PAST:
        forms.add(stem + "ed")
    forms.add(stem + "ing")
    return forms


_SAME_PAST = frozenset({"cut", "put", "set"})


@cache
def shift_verbs() -> frozenset[str]:
    """Every form of the verbs of moving a value ("pushed", "knocking", "adds")."""
    return frozenset(f for v in words("shift verb", "en") for f in inflected(v))


@cache
def _shift_words() -> frozenset[str]:
    """The words saying a value moved: the table's, and every form of its verbs of moving
    one ("knocking", "adds", "trimmed")."""
    return words("shift", "en") | shift_verbs()


@cache
def _en() -> re.Pattern[str]:
    shifts = sorted(_shift_words(), key=len, reverse=True)
    # not "went up to $1,950", "bumped to 60 seconds": a new value said whole, not a move
    either = "|".join(map(re.escape, shifts))
    return re.compile(rf"\b(?:{either})\b(?!\s+to\b)", re.IGNORECASE)


def shifted(content: str) -> bool:
    """Whether `content` says a value moved by an amount (later, earlier, up, more ...)."""
    if len(content) > _MAX_CHARS:
        return False
    if _zh().search(content) or _EN_OFF.search(content) or _SIGNED.search(content):
        return True
    return bool(_en().search(content) and re.search(_EN_AMOUNT, content, re.IGNORECASE))


# an amount with its sign and unit: "+65g this week", "+2kg", "+10%" (not "+44 20 …": a phone)
_SIGNED = re.compile(r"(?<![\w+])\+\s?\d+(?:\.\d+)?\s?(?:%|[a-z]{1,3}\b)", re.IGNORECASE)


# A correction that names nothing but its value is a few words: "记错了，是第13排",
# "sorry, 9:30 not 9"; a longer one names what it corrects (the other passes read it)
_CORRECTION_TERMS = 4


@cache
def _corrections() -> re.Pattern[str]:
    zh = sorted(words("correction", "zh"), key=len, reverse=True)
    en = sorted(words("correction", "en"), key=len, reverse=True)
    either = "|".join([*map(re.escape, zh), *(rf"\b{re.escape(w)}" for w in en)])
    return re.compile(either, re.IGNORECASE)


def retracted(content: str) -> bool:
    """Whether `content` takes back what was said and gives only the right value
    ("记错了，是第13排"): said after the fact it corrects, like a move."""
    if len(content) > _MAX_CHARS or not _ANY_DIGIT.search(content):
        return False
    return bool(_corrections().search(content)) and len(content_terms(content)) <= _CORRECTION_TERMS


# A move said after the fact names little besides the move: "开饭提前半小时", "Fuel charge
# up 8p a litre" (three words of its own); a sentence naming more is a fact of its own
# with a particle or a count in it ("Frame repairs take 5 working days to come back from
# the lab", "每周五加开一班去温泉镇的车": 7), which a guess must not ask of what came last
# (h21-h29: 10 of 23 first notes asked about an unrelated memory so)
_MOVE_TERMS = 4
_AMOUNT_TERM = re.compile(r"[\d.,:£$€%-]+|\d+[a-z]{0,3}")


@cache
def _moves() -> frozenset[str]:
    return _shift_words() | words("shift", "zh")


def _names_little(content: str) -> bool:
    """Whether `content` names at most `_MOVE_TERMS` words besides the move's."""
    moves = _moves()
    own = [t for t in content_terms(content) if t not in moves and not _AMOUNT_TERM.fullmatch(t)]
    return len(own) <= _MOVE_TERMS


def names(subject: str, content: str) -> bool:
    """Whether the subject the grammar read says a word of `content` (not only the kind
    of its value: a time, a price)."""
    return bool(content_terms(subject) & content_terms(content))


def last_said(
    incoming: Entry, newest: Sequence[Entry], sharing: Sequence[Entry], *, named: bool
) -> Entry | None:
    """The memory `incoming` may move: the newest current one (of `newest`, newest
    first) if it holds a number, when `incoming` says a value moved and names none of
    the memories `sharing` its words. `named`: the grammar read the text whole, a
    subject of its own and its value ("My rent went up by $50": the rent, whatever was
    said last)."""
    content = incoming.content
    said_how = (shifted(content) and _names_little(content)) or retracted(content)
    if named or incoming.type not in CONFLICT_TYPES or not said_how:
        return None
    said = content_terms(incoming.content)
    if any(len(said & content_terms(e.content)) >= _SHARED for e in sharing):
        return None  # it names a memory: the passes that read words had their say
    for old in newest:
        if old.id == incoming.id or not old.is_current or old.type not in CONFLICT_TYPES:
            continue
        # the last thing said holds no amount to move: no guess further back
        return old if _ANY_DIGIT.search(old.content) else None
    return None


def moved_of(incoming: Entry, old: Entry, its_kin: Sequence[Entry]) -> list[Match]:
    """`old` asked about, unless another current memory shares two of its words (`its_kin`:
    the memories sharing its words): "Hive 2 requeened in May" said last, beside "Hive 3
    requeened in June", leaves "pushed back a week" without a guess of which."""
    words = content_terms(old.content)
    for kin in its_kin:
        if kin.id not in (old.id, incoming.id) and kin.is_current:
            if len(words & content_terms(kin.content)) >= _SHARED:
                return []
    return [Match(old, "conflict", "a value moved, said after this memory; of it?")]


_EN_COUNT = (
    rf"(?:[£$€]?\d[\d.,:]*[a-z%]*|{_EN_NUMBERS}|a\s+couple\s+of|a\s+few|a\s+tenner|a\s+fiver)"
)
# the amount right by the move: "up a tenner", "cut by 3 points", "pushed back a week",
# "half an hour earlier", "30 more invites"; not "raised the limit to 300" (the value
# itself, said whole)
# money off a price: "knocked £20 off the weekend rate", "taking £25 off the course"
_EN_OFF = re.compile(
    r"\b(?:knock(?:ed|ing|s)?|tak(?:e|es|en|ing)|took|giv(?:e|ing)|gave|shav(?:e|es|ed|ing))\s+"
    r"(?:[£$€]\d[\d.,]*|\d[\d.,]*\s?(?:p|pence|cents?|%))\s+off\b",
    re.IGNORECASE,
)


@cache
def _en_by() -> re.Pattern[str]:
    verbs = "|".join(sorted(_shift_words() - _NOT_VERBS, key=len, reverse=True))
    return re.compile(
        rf"\b(?:up|down|back|forward|{verbs})"
        rf"\s+(?:by\s+)?(?:another\s+)?{_EN_COUNT}\b{_NO_MONTH}|\bby\s+(?:another\s+)?{_EN_COUNT}\b"
        rf"|\b(?:another\s+)?{_EN_COUNT}(?:\s+[a-z]+){{0,2}}\s+(?:earlier|later|sooner|more|less"
        r"|fewer|longer|shorter|extra)\b"
        # more of the same on top: "needs another 5 days", "slips another week" (not
        # "another firm")
        rf"|\banother\s+(?:{_EN_COUNT}\s+[a-z]+|(?:day|week|fortnight|month|hour|year|night)s?\b)",
        re.IGNORECASE,
    )


# a day of a month is a date, not an amount: "due back 19 Feb"
_NO_MONTH = r"(?!\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"


# the shift words that are no verb: the amount comes before them ("an hour earlier")
_NOT_VERBS = frozenset(
    "another earlier later sooner more less fewer longer shorter extra up down back forward".split()
)
_TO_VALUE = re.compile(
    r"\bto\s+[£$€]?\d|(?:改成|改为|变成|到了?|成了?)\s*[0-9一二两三四五六七八九十百千]"
)


def moves_by(content: str) -> bool:
    """Whether `content` says a value moved by an amount it names, not the value it moved
    to: "swarm collection fee up a tenner", "画工费每个涨10块"; not "We raised the rate limit
    to 300", "学费涨到一学期 3500", "My wife picks the kids up at 3:15"."""
    if not shifted(content) or _TO_VALUE.search(content):
        return False
    if _zh().search(content) or _EN_OFF.search(content):
        return True
    return bool(_en_by().search(content))


def _shared_needed(content: str, old: str) -> int:
    """Words `old` must share with the move `content`: two, or one where the move opens
    with it, its thing said first and only its amount after ("oven on half an hour earlier"
    of "Bread oven goes on at 4am", "和面提前半小时" of "每天凌晨4点半起来和面")."""
    shared = shared_terms(old, content)
    first = next((w for w in text.terms(content) if w in content_terms(content)), None)
    return 1 if first is not None and first in shared else _SHARED


def _names_it(content: str, old: Entry, earlier: Callable[[Entry], Sequence[Entry]] | None) -> bool:
    """Whether the move `content` shares enough words with `old`, or with a version `old`
    replaced."""
    said = [old.content]
    said += [e.content for e in earlier(old)] if earlier is not None else []
    return any(len(shared_terms(t, content)) >= _shared_needed(content, t) for t in said)


def moved_named(
    incoming: Entry,
    sharing: Sequence[Entry],
    earlier: Callable[[Entry], Sequence[Entry]] | None = None,
) -> list[Match]:
    """The one current memory among `sharing` that `incoming`'s move names: it shares two
    of the text's words and holds an amount to move ("swarm collection fee up a tenner"
    after "Call-out fee for a swarm collection is £65"; "场地费每人加5块" after "…场地费每人
    15元"). Asked, never replaced: the text does not say the value it moved to. Several
    such: no guess (which of them?). `earlier(memory)`: the versions it replaced, whose
    words are its thing's too ("玉米粒多买20斤" of "记错了，一次买30斤", which replaced
    "玉米粒一次买50斤")."""
    content = incoming.content
    if incoming.type not in CONFLICT_TYPES or not moves_by(content):
        return []
    fits = {
        old.id: old
        for old in sharing
        if old.id != incoming.id
        and old.is_current
        and old.type in CONFLICT_TYPES
        and len(old.content) <= _MAX_CHARS * 3
        and _ANY_DIGIT.search(old.content)
        and _names_it(content, old, earlier)
    }
    if len(fits) != 1:
        return []
    (old,) = fits.values()
    return [Match(old, "conflict", "a value of it moved by an amount?")]
