"""A correction that names the value it takes back: "Sunday long run is 32km, not 28",
"Not the T14 - it's the T14s", "装货是5号门不是3号门", "物业费是3.2元/平米，不是2.8". The value
after "not" / 不是 is the wrong one, so the memory that holds it is the one corrected,
however else the two are worded. Where the passes before found nothing and exactly one
current memory holds that value (and shares another word with the text), the text
replaces it: the user named what was wrong.

    taken_back("Client wants 23.976, not 25 - I misread the brief")   # ["25"]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from remem.entry import Entry
from remem.truth.dedup import CONFLICT_TYPES, Match, han_pairs, open_to
from remem.truth.elliptic import shift_verbs
from remem.truth.markers import states_change
from remem.truth.overlap import talk
from remem.truth.table import words
from remem.truth.terms import content_terms

_MAX_CHARS = 240
# the value after "not" / 不是, up to what ends it; "not the T14", "not 28"
_EN_NOT = re.compile(r"\bnot (?:the |a |an )?([£$€]?[\w][\w.:/%-]*)", re.I)
_ZH_NOT = re.compile(r"(?:不是|而不是|并非)\s*([^\s，,。；;！!？?、\-—]{1,12})")
# words after "not" that take back no value ("not sure", "not yet", "not anymore")
_EN_NO_VALUE = frozenset(
    "sure yet anymore really only just so too very quite always ever all any every much "
    "many enough available ready working needed allowed possible true right".split()
)
# a text owning a mistake ("I misread the brief", "my bad", "actually")
_EN_CUE = re.compile(
    r"\b(?:mistake|mis-?(?:read|heard|typed|counted|remembered|spoke|spelt|spelled|wrote)"
    r"|my bad|wrong|mixed (?:them|it) up|flipped|typo|actually"
    r"|correction|sorry|i meant|oops|whoops|my mistake)\b"
    r"|^\s*(?:no|nope)\s*[,.!:—–-]",  # "no, the uniforms went to the cleaner on Mill Rd not …"
    re.I,
)
# what ends a Chinese value without being of it: particles, "there" and what follows it
# ("不是石板那边进的" takes back 石板, which the memory holds as 石板批发点)
_ZH_TAIL = re.compile(r"(?:那边|这边|那里|这里|那儿|这儿|那家|这家).*$|[了的啊呀吧呢]+$")
# the wrong value as what was written down ("I put 2pm by mistake", "we wrote 40 in
# error", "上次写成了5号", "我记成周三了")
_EN_PUT = re.compile(
    r"\b(?:i|we|you|someone)\s+(?:put|wrote|typed|entered|said|listed|had)\s+(?:down\s+)?"
    r"(?:the\s+)?([£$€]?[\w][\w.:/%-]*)\s+(?:by\s+mistake|in\s+error|wrongly|by\s+accident)",
    re.I,
)
_ZH_PUT = re.compile(r"(?:写成|记成|打成|说成|填成|听成)了?\s*([^\s，,。；;！!？?、\-—]{1,12})")


_LAST_WORD = re.compile(r"([£$€]?\w[\w.:/%-]*)\s*$")


def _set_against(before: str, value: str) -> bool:
    """Whether the word right before "not" is a value of the shape of the one after it:
    two numbers ("pitch is 41 not 14", "9:30 not 9"), set one against the other."""
    m = _LAST_WORD.search(before)
    return m is not None and any(c.isdigit() for c in m[1]) and any(c.isdigit() for c in value)


def taken_back(content: str) -> list[str]:
    """The values `content` says were wrong: what follows "not" where it sets one value
    against another ("32km, not 28", "Not the T14 - it's the T14s") or the text owns a
    mistake ("I misread it"), and what follows 不是."""
    contrast = _EN_CUE.search(content) is not None
    out = [
        m[1].rstrip(".:-")
        for m in _EN_NOT.finditer(content)
        if contrast
        or not content[: m.start()].strip()
        or content[: m.start()].rstrip()[-1] in ",;-–—"
        or _set_against(content[: m.start()], m[1])
    ]
    out = [v for v in out if v and v.lower() not in _EN_NO_VALUE]
    out += [m[1].rstrip(".:-") for m in _EN_PUT.finditer(content)]
    said = (*_ZH_NOT.finditer(content), *_ZH_PUT.finditer(content))
    out += [_ZH_TAIL.sub("", m[1]) for m in said]
    if _owns_mistake(content):  # the wrong value given back to what it was of
        out += [
            m[1].strip() for m in (*_EN_THEIRS.finditer(content), *_ZH_THEIRS.finditer(content))
        ]
    return [v for v in out if v]


# In a text owning a mistake, a number said to be another thing's: "oops, the chains are in
# locker 8, 6 is PL-11's", "记错了，一碗是10块，9块是小杯的"
_EN_THEIRS = re.compile(
    r"(?:^|[,;.]\s*|\s[–—-]\s+)(\d[\w.:/%-]*)\s+(?:is|was)\s+(?:the\s+)?(?:[\w-]+\s+)?[\w-]+['’]s\b",
    re.I,
)
_ZH_THEIRS = re.compile(
    r"(?:^|[，,。；;\s])(\d+(?:\.\d+)?\s*[^\s\d，,。；;是]{0,2})是[^，,。；;是]{1,10}的"
)


def holds(old: str, value: str) -> bool:
    """Whether `old` states `value`: as a whole word or number, or for Chinese as it is."""
    if re.search(r"[\u4e00-\u9fff]", value):
        return len(value) >= 2 and value in old
    # bounded by letters and digits of the Latin script: "在302教室" holds 302
    edge = "A-Za-z0-9"
    # an hour or a time taken back bare is held with its am / pm: "not 9" of "Tuesday
    # 9am", "from 4:30 to 5:15" of "shuts at 4:30pm"; a number with its unit: "不是1000" of
    # "1000ml的盒子"
    after = ""
    if _CLOCK.fullmatch(value):
        after = r"(?:\s?[ap]\.?m\b\.?)?"
    elif _PLAIN_NUMBER.fullmatch(value):
        after = r"(?-i:[a-z]{1,3}(?![a-z]))?"  # a unit is lower case: "1000B" is a label
    found = re.search(rf"(?<![{edge}.]){re.escape(value)}{after}(?![{edge}]|\.\d)", old, re.I)
    return found is not None


_CLOCK = re.compile(r"\d{1,2}(?:[:.]\d{2})?")
_PLAIN_NUMBER = re.compile(r"\d{3,}(?:\.\d+)?")  # three digits or more: no hour


# The value a change moves away from: "Swapped the opener from Mr Brightside to September",
# "外卖平台从美团换成饿了么了", "兰寿从7号池挪到温室11号缸了"
_EN_FROM = re.compile(r"\bfrom\s+(?:the\s+)?([^,;.]{1,40}?)\s+to\s+\S", re.I)
_ZH_FROM = re.compile(
    # (the one it came from, and where: "从老韩那换到刘记", "从我妈那又换回我媳妇")
    r"从\s*([^\s，,。；;！!？?]{1,10}?)\s*(?:那里|那儿|那边|那|这里|这儿|这边|这)?\s*(?:又|再)?"
    r"(?:换成|改成|改为|换到|换回|改回|挪到|搬到|换给|改到|调到|转到|变成|交给|移到)"
    # no longer got from someone: "不从老周那拿了", "芋圆不从阿珍那进了"
    r"|不(?:再)?从\s*([^\s，,。；;！!？?]{1,8}?)\s*(?:那里|那儿|那边|那|这|家)?\s*(?:拿|进|订|买|要|采购|进货)"
    # what was used swapped for another: "金龙鱼换成鲁花花生油", "把旧秤换成电子秤"
    # (not after a word and a space: "VPN 服务器换成了 vpn2" names the server, no value)
    r"|(?:^|(?<=[，,。；;！!把]))([^\s，,。；;！!？?从把]{2,8}?)\s*(?:换成|换为)"
)


# ... or that a change now holds in its place: "12 yolks per kilo now instead of 10"
_EN_INSTEAD = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+)?([£$€]?\w[\w.:/%-]*)", re.I
)


@cache
def _moving() -> frozenset[str]:
    # a value pushed, cut or raised from one to another is moved too ("pushed the deadline
    # back from 20 March to 27 March")
    return words("from verb", "en") | words("replacing verb", "en") | shift_verbs()


def moved_from(content: str) -> list[str]:
    """The values `content` says a change moved away from (in English, a change said:
    "runs from 9 to 5" is a range; "instead of 10" as well)."""
    said = set(re.findall(r"[a-z]+", content.lower()))
    changed = bool(said & _moving()) or states_change(content)
    en = (*_EN_FROM.finditer(content), *_EN_INSTEAD.finditer(content)) if changed else ()
    return [next(g for g in m.groups() if g).strip() for m in (*en, *_ZH_FROM.finditer(content))]


def moved_from_of(incoming: Entry, candidates: Sequence[Entry]) -> list[Match]:
    """The one current memory among `candidates` holding the value `incoming` says a change
    moved from and sharing another word with it, or holding it alone where it names one
    thing (two characters, two digits, a name: "从B区16号调到C区3号"), asked about."""
    found = _holding(incoming, candidates, moved_from(incoming.content), alone=True)
    return [Match(found, "conflict", "moved from a value this one holds?")] if found else []


def corrected_of(incoming: Entry, candidates: Sequence[Entry]) -> list[Match]:
    """The one current memory among `candidates` holding a value `incoming` takes back
    and sharing another word with it, replaced by it."""
    content = incoming.content
    if incoming.type not in CONFLICT_TYPES or len(content) > _MAX_CHARS or "?" in content:
        return []
    if talk(content) and not re.search(r"[\u4e00-\u9fff]", content):
        return []  # several English sentences: a story, not a note (Chinese runs on)
    alone = _owns_mistake(content) or _CONTRASTED.search(content) is not None
    found = _holding(incoming, candidates, taken_back(content), alone=alone)
    return [Match(found, "supersede", "the text corrects a value this one holds")] if found else []


# Chinese words owning a mistake ("说错了", "我记反了", "不好意思，是17，不是18"), not those
# that only contrast ("其实")
_ZH_OWNED = (
    *(w for w in words("correction", "zh") if w.endswith("了")),
    *words("apology", "zh"),
)
_SPECIFIC = re.compile(r"[\u4e00-\u9fff]{2}|\d.*\d|[A-Z][a-z]{2}")


# "不对，是小黎，不是小李": a note opening on "wrong," owns a mistake, as "no, ..." does
# (not "不对外开放": no comma after it)
_ZH_NO = re.compile(r"^\s*(?:不对|不是的|错了)\s*[，,。！!：:]")


# A number set against another right before "not" / 不是 ("是350不是300", "14, not 12"): the
# text says which value is wrong, as owning a mistake does
_CONTRASTED = re.compile(
    r"\d(?:[\d.]*\d)?\s*[^\d\s，,。;；]{0,2}\s*[，,]?\s*(?:不是|not)\s*\d", re.I
)


def _owns_mistake(content: str) -> bool:
    return (
        _EN_CUE.search(content) is not None
        or _ZH_NO.search(content) is not None
        or any(w in content for w in _ZH_OWNED)
    )


def _holding(
    incoming: Entry, candidates: Sequence[Entry], values: list[str], *, alone: bool = False
) -> Entry | None:
    """The one current memory among `candidates` holding one of `values` and sharing
    another word with `incoming`; or, `alone` (the text owns a mistake: "说错了，不是潮州，
    是在钦州订的"), holding a value specific enough to name it (two characters, two digits,
    a name)."""
    if not values:
        return None
    mine = content_terms(incoming.content)
    named, by_value = {}, {}
    values = [*values, *(n for v in values if (n := _bare_number(v)))]
    for old in open_to(incoming, candidates, _MAX_CHARS):
        held = [v for v in values if holds(old.content, v)]
        others = mine - content_terms(" ".join(held))
        if not held:
            continue
        if others & content_terms(old.content) or _han_beyond(incoming.content, old.content, held):
            named[old.id] = old
        elif alone and any(_SPECIFIC.search(v) for v in held):
            by_value[old.id] = old
    # one memory the text also names by another word, else the one holding the value
    found = named or by_value
    return next(iter(found.values())) if len(found) == 1 else None


# a number said with its ordinal ending or a measure word ("not the 3rd", "不是8个"), held
# by a memory as the bare number ("on 3 October", "每场8人")
_NUMBER_SAID = re.compile(r"(\d+(?:\.\d+)?)(?:st|nd|rd|th|个|位|名)", re.I)


def _bare_number(value: str) -> str | None:
    m = _NUMBER_SAID.fullmatch(value)
    return m[1] if m else None


def _han_beyond(new: str, old: str, held: list[str]) -> bool:
    """Whether the two texts share two Chinese characters in a row beside the values held:
    jieba cuts a word one way in one text and another way in the other ("打药定在" /
    "打药不是")."""
    chars = set("".join(held))
    return any(not chars & set(p) for p in han_pairs(new) & han_pairs(old))
