"""A new value under a heading the memory holds: "记账软件：金蝶KIS云专业版" after "所里记账
软件用的用友T3", "A轮FA：汉能，对接人Grace" after "A轮FA是华兴", "PM panel: me, Dana and Rhea"
after "Interview panel for the PM role: me, Dana, Kofi". No change is said and the grammar
reads the two as different shapes, but a note headed "X:" states what X is now. Where the
passes before found nothing, the one current memory holding every word of the heading and
no more of the value than is new is asked about (never replaced: a heading is often
only a topic).

    heading("记账软件：金蝶KIS云专业版")   # ("记账软件", "金蝶KIS云专业版")
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from remem import text
from remem.entry import Entry
from remem.truth import when
from remem.truth.dedup import CONFLICT_TYPES, Match, colon_at, han_pairs, open_to
from remem.truth.overlap import says_again, talk
from remem.truth.terms import content_terms

_MAX_CHARS = 200


# A jotting's head set off by a spaced dash ("Route B - Fridays", "Plot 17 – Gary Pell"),
# not one between two numbers ("9 - 5")
_DASH = re.compile(r"\s[-–—]\s(?!\d)|(?<!\d)\s[-–—]\s")
_DASH_WITHIN = 40  # characters: a head is a few words


# A Chinese jotting's head set off by a space: "戚风 160度", "开门 5点半", "休息日 周一"
_SPACED = re.compile(r"([\u4e00-\u9fff]{2,8})[ \u3000]+([^\s，。,；;：:][^，。,；;]{0,15}?)[。.]?")

_AMOUNT = re.compile(
    r"\d|[一二三四五六七八九十两半百千万]+(?:块|元|毛|点|分|度|号|月|天|周|个|人|斤|次|小时|岁|年|层|楼|折|倍)"
    r"|周[一二三四五六日天]|星期|礼拜"
)


def heading(content: str) -> tuple[str, str] | None:
    """The heading and the value of a note headed "X: Y" (the colon near its start, not
    one inside a time), "X - Y", or in Chinese "X Y" (a few characters, a space, a short
    value), else None."""
    if spaced := _SPACED.fullmatch(content.strip()):
        return spaced[1], spaced[2].strip()
    words = [w for w, _ in text.tagged(content)]
    at = colon_at(words)
    if at is None:
        dash = _DASH.search(content, 0, _DASH_WITHIN)
        if dash is None or ":" in content[: dash.start()] or "：" in content[: dash.start()]:
            return None
        head, value = content[: dash.start()].strip(), content[dash.end() :].strip()
        return (head, value) if head and value else None
    before = sum(w in (":", "：") for w in words[:at])  # colons inside times ("9:30")
    cut = [i for i, ch in enumerate(content) if ch in ":："][before]
    head, value = content[:cut].strip(), content[cut + 1 :].strip()
    return (head, value) if head and value else None


def _holds(old: str, head: str, *, one: bool = False) -> bool:
    """Whether `old` holds every word of `head` (for Chinese, every pair of characters:
    its words may be cut another way there); of one word only where `one`."""
    terms = content_terms(head)
    if not terms:
        return False  # "我们 明天去北京": no word of a thing
    if not one and len(terms) < 2 and len(han_pairs(head)) < 3 and not _leads(old, head):
        return False  # one word ("晚上吃：…") is held by too many memories to say which
    theirs = content_terms(old)
    han = {t for t in terms if han_pairs(t)}
    return terms - han <= theirs and all(han_pairs(t) <= han_pairs(old) or t in theirs for t in han)


_NAME_CHARS = 4  # "小吴", "阿梅老师"
_LEAD_CHARS = 6  # "麻将馆的收银是…": a few characters of whose before the word


def _leads(old: str, head: str) -> bool:
    """Whether `old` is about the one word `head` says: it opens with it ("鼓手是阿强" for
    "鼓手：阿辉"), or with whose it is ("麻将馆的收银是我老婆" for "收银：表妹小丽"), in its
    first clause; not a word it mentions on the way ("晚上吃火锅" for "晚上吃：…")."""
    first = re.split(r"[，,。；;！!？?]", old.strip(), maxsplit=1)[0]
    if han_pairs(head):
        at = first.find(head)
        return at == 0 or (0 < at <= _LEAD_CHARS and first[at - 1] == "的")
    return False


def headed_change(incoming: Entry, candidates: Sequence[Entry]) -> list[Match]:
    """The one current memory among `candidates` that `incoming`'s heading is of and
    whose value it does not mostly repeat, asked as a conflict."""
    content = incoming.content
    if incoming.type not in CONFLICT_TYPES or len(content) > _MAX_CHARS or talk(content):
        return []
    if (split := heading(content)) is None:
        return []
    head, value = split
    # a spaced jotting names its one thing in a word ("戚风 160度"), said whole in the
    # memory, with a value of an amount, a time or a day, not a head of when ("下个月起 …")
    one = _SPACED.fullmatch(content.strip()) is not None
    if one and (when.said_when(head) or not _AMOUNT.search(value)):
        return []
    said = content_terms(value) - content_terms(head)
    if not said and han_pairs(value) and len(value) <= _NAME_CHARS:
        said = frozenset({value})  # a short name is no term ("送米：小吴"), but it is the value
    if not said:
        return []
    found = []
    for old in open_to(incoming, candidates, _MAX_CHARS):
        if (theirs := heading(old.content)) and content_terms(theirs[0]) == content_terms(head):
            continue  # one heading twice: two of its attributes ("home policy" / "car policy")
        # as much of the value new as held ("Dog walker: Tobias from Pawsome, weekdays"
        # after "… on weekdays is Maren"); a value the memory holds is a repeat
        held = said & content_terms(old.content)
        if one and (head not in old.content or not _AMOUNT.search(old.content)):
            continue  # the memory says the head whole and holds a value of the kinds too
        if says_again(value, old.content):
            continue  # the value it holds, said another way: a repeat
        fresh = len(said - held)
        if not fresh and _AMOUNT.search(value) and value not in old.content:
            fresh = 1  # "每周四" of "每周二…": jieba keeps 每周 and drops the day
        if _holds(old.content, head, one=one) and fresh >= max(len(held), 1):
            found.append(old)
    if len(found) != 1:
        return []
    return [Match(found[0], "conflict", f"a new value for {head!r}? (the text is headed by it)")]
