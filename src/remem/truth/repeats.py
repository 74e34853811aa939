"""Whether a new text may repeat a memory: what the judge reads as a repeat is dropped
(the memory it repeats refreshed), so a text that brings anything new must not read as
one, however alike the two sound. Something new is a change said, or a value the memory
lacks: a number, a name, a day of the week.

    adds_nothing("3C's rent has to be paid by the 1st each month.",
                 "Rent for 3C is due on the first of the month.")         # True
    adds_nothing("Priya handed the coordinator role to Marcus.",
                 "Priya coordinates volunteers at the shelter.")          # False: Marcus
    adds_nothing("透析安排：每周一、三、五上午。", "透析安排是每周二、周五。")  # False: 一, 三
    adds_nothing("My doctor took me off lisinopril.", "I take lisinopril daily.")  # False: off
"""

from __future__ import annotations

import difflib
import os
import re
from functools import lru_cache

from remem import numbers
from remem.text import EN_STOPWORDS, ZH_STOPWORDS, tagged, terms
from remem.truth import when
from remem.truth.markers import states_change
from remem.truth.table import words
from remem.truth.terms import no_numbers, zh_people

# A capitalised word or an acronym inside a sentence (its first word may be any word)
_NAME = re.compile(r"(?<![\w'’])([A-Z][A-Za-z]+|[A-Z]{2,})\b")
_OPENS = '.!?:;—–-("“'
_ZH_DAYS = re.compile(
    r"(?:周|星期|礼拜)([一二三四五六日天])((?:\s*[、，,和及与/]\s*(?:周|星期|礼拜)?[一二三四五六日天])*)"
)
_EN_DAYS = re.compile(r"(?i)\b(mon|tue|wed|thu|fri|sat|sun)(?:day|s|\.)?s?\b")
_ZH_DAY = re.compile(r"[一二三四五六日天]")
# Words that turn a fact around ("My doctor took me *off* lisinopril", "不再", "quit"): a
# text holding one its memory lacks is not a repeat of it, however alike the two read
_EN_TURNS = words("negator", "en") | words("ending verb", "en") | words("gone", "en")
_EN_TURNS |= words("turning word", "en")
_ZH_TURNS = words("negator", "zh") | words("ending verb", "zh") | words("no longer", "zh")
_ZH_TURNS |= words("turning word", "zh")


def adds_nothing(new: str, old: str) -> bool:
    """Whether `new` may repeat `old`: it says no change ("午休缩短到一小时"), and names
    no number, name or weekday `old` lacks where `old` names any of that kind ("dentist
    on May 3" / "dentist on June 8": two visits). A number said in words is no clash
    ("first of the month" / "the 1st")."""
    if states_change(new) or _turns(new, old) or _swapped(new, old) or _reversed(new, old):
        return False
    if _place_swapped(new, old):
        return False
    # a start said ("从下周一起，午斋11点半开") is a change to come, whatever it repeats
    if when.lead(new) is not None and when.lead(old) is None:
        return False
    if held := numbers.number_tokens(old):
        spelled = _spelled(old)
        if not set(numbers.missing_numbers(new, old)) <= spelled:
            return False
        if not numbers.spoken_zh(new) <= {a for t in held for a in t.aliases} | spelled:
            return False  # "清运车十点半来收" of "每天晚上11点来收": 10, said in words
    elif (spelled := _spelled(old)) and not _spelled(new) | set(
        numbers.missing_numbers(new, old)
    ) <= spelled:
        return False  # "three glasses of water a day" of "two coffees a day"
    if _recounted(new, old) or not _clock_held(new, old):
        return False
    said = old.lower()
    # a name's first five letters: "Thursdays" / "Thursday", "Freightliner's"
    if any(not re.search(r"\b" + re.escape(name[:5]), said) for name in names(new)):
        return False
    # another person ("早班刘姐跟阿斌" / "… 刘姐和小杨"), another title ("《花开富贵》系列")
    if zh_people(new) - zh_people(old) or titles(new) - titles(old):
        return False
    mine, theirs = days(new), days(old)
    return not (mine and theirs and not mine <= theirs)


_EN_NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve".split(),
    "- first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(),
)
_ZH_NUMBERS = "零一二三四五六七八九十"


def _spelled(text: str) -> set[str]:
    """The numbers up to twelve `text` says in words, as digits ("the first" -> 1)."""
    words = set(re.findall(r"[a-z]+", text.lower()))
    found = set()
    for i, (cardinal, ordinal) in enumerate(zip(*_EN_NUMBERS, strict=True)):
        if cardinal in words or ordinal in words:
            found.add(str(i))
    found |= {str(i) for i, c in enumerate(_ZH_NUMBERS) if c in text}
    return found


# Two things said from one template ("The search service listens on port 9223" / "The
# reporting service ..."): what the two texts share at their start and end holds at least
# this share of the longer, and each has something of its own in between. Repeats in
# other words share far less there (h5: at most a fifth)
TEMPLATE = 0.5
_WORDY = re.compile(r"[^\W\d_]")  # a letter of any script


def _swapped(new: str, old: str) -> bool:
    """Whether the two are one template with a word of one in the other's place ("The
    search service ..." / "The scheduler ...", "本地环境的…" / "开发环境的…")."""
    a, b = new.lower(), old.lower()
    head = len(os.path.commonprefix([a, b]))
    tail = len(os.path.commonprefix([a[head:][::-1], b[head:][::-1]]))
    if head + tail < TEMPLATE * max(len(a), len(b)):
        return False
    return bool(_WORDY.search(a[head : len(a) - tail]) and _WORDY.search(b[head : len(b) - tail]))


_HAN_WORD = re.compile(r"[\u3400-\u9fff]{2,}")
_PLACE_TAGS = frozenset({"s", "ns"})  # jieba's: a place word (路口, 门口), a place name


def _place_swapped(new: str, old: str) -> bool:
    """Whether the two name two places the Chinese way: one place word after another word
    in each ("和平路口" / "建设路口"), or one word before another place word in each ("公园东门"
    / "公园西门"), neither said in the other: another place, not a repeat. On h1-h57's
    pairs: 4 of 2,850 repeats said in other words read so ("市区" / "市里上门"), 30 of
    10,946 changes and 38 of 3,990 look-alikes."""
    theirs = _before_places(old)
    return any(
        (w == v and p != q and p not in old and q not in new)
        or (p == q and w != v and w not in old and v not in new)
        for p, w in _before_places(new)
        for q, v in theirs
    )


def _before_places(content: str) -> set[tuple[str, str]]:
    """(word, place word) for each Chinese place word and the Chinese word before it."""
    tags = tagged(content)
    return {
        (a, b)
        for (a, _), (b, tag) in zip(tags, tags[1:], strict=False)
        if tag in _PLACE_TAGS and _HAN_WORD.fullmatch(a) and _HAN_WORD.fullmatch(b)
    }


def _recounted(new: str, old: str) -> bool:
    """Whether `new` says in Chinese numerals another number of something `old` counts
    so ("每班多加一次" of "每班两次"; "一周" and "七天" count different things)."""
    theirs = numbers.spoken_zh_units(old)
    counted = {unit for _, unit in theirs}
    return any(
        unit in counted and (n, unit) not in theirs for n, unit in numbers.spoken_zh_units(new)
    )


def _clock_held(new: str, old: str) -> bool:
    """Whether each Chinese time of day `new` says, to the minute, `old` says too, where
    `old` says any ("午斋11点半开" of "午斋11点开始": another time)."""
    theirs = numbers.zh_clock(old)
    return not theirs or numbers.zh_clock(new) <= theirs


# A range of two values, "19:00-07:00", "9 to 5", "8点到12点"
_RANGE = re.compile(r"(\d+(?:[:.]\d+)*)\s*(?:-|–|—|~|～|to|till|until|到|至)\s*(\d+(?:[:.]\d+)*)")


def _reversed(new: str, old: str) -> bool:
    """Whether `new` names a range `old` names the other way round ("nights 19:00-07:00" /
    "days 07:00-19:00"): the same numbers, another value."""
    mine, theirs = set(_RANGE.findall(new)), set(_RANGE.findall(old))
    return any((b, a) in theirs and (a, b) not in theirs and a != b for a, b in mine)


def _turns(new: str, old: str) -> bool:
    """Whether `new` holds a word that turns a fact around and `old` does not."""
    mine, theirs = (
        set(re.findall(r"[a-z']+", new.lower())),
        set(re.findall(r"[a-z']+", old.lower())),
    )
    if (mine - theirs) & _EN_TURNS:
        return True
    return any(w in new and w not in old for w in _ZH_TURNS)


def names(text: str) -> set[str]:
    """The capitalised words and acronyms of `text` that open no sentence, lowercased;
    one opening a sentence counts where a capitalised word follows it and it is no
    function word ("Green Watch for me": a name, where "The Red Watch" opens with "the")."""
    found = set()
    for m in _NAME.finditer(text):
        before = text[: m.start()].rstrip()
        if before and before[-1] not in _OPENS:
            found.add(m.group(1).lower())
        elif _CAPITAL_NEXT.match(text, m.end()) and m.group(1).lower() not in EN_STOPWORDS:
            found.add(m.group(1).lower())
    return found


_CAPITAL_NEXT = re.compile(r" [A-Z][a-z]")


_TITLE = re.compile(r"《([^》]+)》|“([^”]+)”|\"([^\"]+)\"")


def titles(text: str) -> frozenset[str]:
    """What `text` quotes or names as a work (《花开富贵》, “老街饺子”, "Blue Lagoon")."""
    return frozenset("".join(m) for m in _TITLE.findall(text))


def _worded(text: str) -> bool:
    """Whether `text` has a function word ("the", "in", 的, 是): a sentence, not a list."""
    if re.search(r"[\u4e00-\u9fff]", text):
        return any(w in ZH_STOPWORDS for w, _ in tagged(text))
    return any(w in EN_STOPWORDS for w in re.findall(r"[a-z]+", text.lower()))


def reworded(new: str, old: str) -> bool:
    """Whether `new` may say `old` in other words: no word of it stands where `old` has
    another, between words the two share ("Upper field gate at Birks needs a new latch" /
    "Lower field gate at Birks …"; "抽水泵每月中旬保养" / "柴油发电机每月初保养"). Two
    look-alike facts are one sentence with a word swapped; a repeat says it again its own
    way (the words judge reads both as repeats: on the pairs of h21-h38 saved alone, of
    those it read 0.9 or more and `adds_nothing` passed, this keeps 150 of 900 repeats,
    no look-alike and 2 changes)."""
    mine, theirs = terms(new), terms(old)
    held, said = set(mine), set(theirs)
    # a note is a sentence saying its words once or so: strings of one list's words, no
    # function word between them or said over and over, are none (the words judge reads
    # two such strings a repeat at 0.98)
    if len(mine) - len(held) > 1 or len(theirs) - len(said) > 1:
        return False
    # a repeat is about what the memory is about: one word in common of five is not
    # ("Screen 2 in the shop shows the greyhounds" / "Grand National sweepstake at the
    # shop, £2 a head": 0.92 to the words judge)
    common = no_numbers(held & said)
    if len(common) < 2 and 4 * len(common) < min(len(held), len(said)):
        return False
    if not (_worded(new) or _worded(old)):
        return False
    steps = difflib.SequenceMatcher(None, theirs, mine, autojunk=False).get_opcodes()
    for i, (tag, a0, a1, b0, b1) in enumerate(steps):
        gone, put = theirs[a0:a1], mine[b0:b1]
        if tag != "replace":
            continue
        if any(t in held for t in gone) or any(t in said for t in put):
            continue  # a word moved, not swapped
        if any(steps[j][0] == "equal" for j in (i - 1, i + 1) if 0 <= j < len(steps)):
            return False
    return True


@lru_cache(maxsize=4096)  # the text's and each candidate's, asked of every pair
def days(text: str) -> frozenset[str]:
    """The days of the week `text` names ("每周一、三、五" -> 一 三 五; "Tue" -> tue)."""
    days = set()
    for m in _ZH_DAYS.finditer(text):
        days |= {m.group(1), *_ZH_DAY.findall(m.group(2))}
    days |= {m.group(1).lower() for m in _EN_DAYS.finditer(text)}
    return frozenset(days)
