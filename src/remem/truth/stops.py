"""A fact that stopped, said in words no rule reads whole: "14 Alder Close went under
offer, open house is cancelled", "Ellie has quit piano, no more Monday lessons",
"金宝贝的课不上了，太贵", "跟Zhang律所解约了". The text names what stopped by a word it
shares with the memory that held it (a name, a place, a thing), and says it stopped; it
does not say which slot. Where the passes before found nothing, the one current memory
sharing the most of its words is asked about: never replaced without the user's word,
since a stop often ends only a part of what the memory says.

    stops("Ellie has quit piano, no more Monday lessons")   # True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from remem import text
from remem.entry import Entry
from remem.truth.dedup import CONFLICT_TYPES, Match, han_pairs, open_to
from remem.truth.repeats import names  # a name the text gives ("Northgas") held by the memory
from remem.truth.table import words
from remem.truth.terms import content_terms

# "over" and "left" say other things as often ("over the weekend", "two left")
_EN_ENDING = (words("ending verb", "en") | words("gone", "en")) - {"over", "left"}
_EN_STOP = frozenset(w for w in _EN_ENDING if " " not in w)
# "stepped down", "called off": a verb of more than one word is read as a phrase
_EN_STOP_PHRASES = (
    words("ending phrase", "en")
    | {"no longer", "no more", "not anymore"}
    | {w for w in _EN_ENDING if " " in w}
)
_ZH_STOP = words("ending verb", "zh") - {"到期"}  # "保险下个月到期": a due date
_ZH_NO_LONGER = words("no longer", "zh")
_ZH_DONE = words("done particle", "zh")
# 不上了, 不放了, 不养了: no more of it; a clause opening on it says more between ("不自己打
# 辣椒面了")
_ZH_NOT_MORE = re.compile(
    r"不[\u4e00-\u9fff]{1,3}了|(?:^|[，。,；;！!])\s*不[\u4e00-\u9fff]{4,6}了"
)
_DEGREE = content_terms(" ".join(words("degree", "en")))
_MAX_CHARS = 120  # a note; a diary's event runs longer and may end many things
# What says the text also names what holds now ("Sofia 转岗了，现在我的经理是 Raj"): a
# replacement, read by `truth.ending` and the judges, not a stop
_EN_NOW = frozenset("now new started began switched joined replaced instead adopted".split())
_ZH_NOW = ("现在", "新的", "换成", "换了", "改成", "改为", "改用", "接任", "接手", "接替", "如今")
# A memory shares at least this many of the text's words, or one name ("Northgas")
_SHARED = 2
_PAIRS_A_WORD = 1.5  # 乐高编程课: 4 pairs, two or three words


# Someone who has left a place ("Kez has left the studio", "Kez has left."), not one who
# left a thing somewhere ("Sam has left a voicemail", "… left his keys on the desk")
_HAS_LEFT = re.compile(
    r"(?<!what)(?<!that)(?:\bha(?:s|ve|d)|['’]ve)\s+left\b(?!\s+(?:a|an|his|her|their|my|your|our|some|it|"
    r"them|me|him|us|you|this|that|these|those|\d)\b)"
    # "Kez's left the studio", "Kez's left.": not an owner's left ("her handler's left arm")
    r"|(?<!what)(?<!that)['’]s\s+left(?=\s+the\b|\s*[.,;!]|\s*$)"
)


# An end said around the thing rather than by a verb: "no beginners corner any more",
# "not doing friday nights anymore", "the cafe's shut for good", "juicing day is off this
# year", "no tombola this year" (a day off, "Dave's off on Fridays", is a schedule)
_EN_ENDED = re.compile(
    r"(?:\b(?:no|not|never)\b|n['’]t\b)[^.;!?]*\bany\s?more\b(?=\s*(?:[.,;!—–-]|$))"
    r"|\b(?:shut|closed|gone|finished|over|done)\s+for\s+good\b"
    r"|\b(?:is|are|['’]s)\s+off\b(?=\s*(?:[.,;!]|$|this\s+(?:year|season|time)|for\s+(?:good|now)))"
    r"|^\W*no\s+\w+(?:\s+\w+)?\s+this\s+(?:year|season|term|time)\b"
    # stopping or shutting for good ("shutting the showroom on Saturdays altogether"; not
    # "shutting at 5pm", "stopping at the depot first")
    r"|\b(?:stop(?:ping)?|shut(?:ting)?)\b(?:\s+down\b|[^.;!?]*\b(?:altogether"
    r"|for\s+good|completely|permanently)\b)"
)


def stops(content: str) -> bool:
    """Whether `content` says something stopped ("cancelled", "no longer", 取消, 不再,
    "不上了"), and not what holds instead ("…, now X") nor a question."""
    low = content.lower()
    if "?" in content or "？" in content:
        return False
    said = set(re.findall(r"[a-z]+", low))
    if said & _EN_NOW or any(w in content for w in _ZH_NOW):
        return False
    if said & _EN_STOP and not re.search(r"\bended up\b", low):
        return True
    if any(re.search(rf"\b{re.escape(p)}\b", low) for p in _EN_STOP_PHRASES):
        return True
    if _HAS_LEFT.search(low) or _EN_ENDED.search(low):
        return True
    # a Chinese stop happened: 了 (or 掉, 完) after it ("比赛取消了", "镇静停了"); a bare
    # "到期" or "不在范围内" states a date or a scope
    words_ = [w for w, _ in text.tagged(content)]
    for i, w in enumerate(words_):
        # jieba may cut the stop onto the thing's last character ("亲子扎染班停了": 班停)
        if len(w) > 1 and w[-1] in _ZH_STOP and words_[i + 1 : i + 2] == ["了"]:
            return True
        if w in _ZH_STOP or w in _ZH_NO_LONGER:
            # 不再, 停止 say it with no 了 ("入冬了，大棚停止喷水")
            if w in ("不再", "停止") or set(words_[i + 1 : i + 4]) & _ZH_DONE:
                return True
    return bool(_ZH_NOT_MORE.search(content))


def stopped_of(
    incoming: Entry,
    candidates: Sequence[Entry],
    dropped: str | None = None,
    earlier: Callable[[Entry], Sequence[Entry]] | None = None,
) -> list[Match]:
    """The one current memory among `candidates` whose fact `incoming` says stopped, by
    the words they share (the most, and no other memory as many; or one word, where no
    other memory shares any), asked as a conflict.
    `dropped`: the value the grammar read as stopped; only a memory holding it can be the
    one ("We no longer use Travis CI" is not of "CI 用 GitHub Actions").
    `earlier(memory)`: the versions it replaced, whose words are its thing's too ("no
    beginners corner any more" of "it's Gwen leading beginners, not Gareth", which
    replaced "Gareth is leading the beginners' corner")."""
    # how wholly it stopped is no word of the thing ("dropped the Thursday round altogether")
    gone = content_terms(dropped) - _DEGREE if dropped else frozenset()
    content = incoming.content
    if incoming.type not in CONFLICT_TYPES or len(content) > _MAX_CHARS or not stops(content):
        return []
    mine = content_terms(content)
    # what the text opens on is what stopped ("鱿鱼不卖了", "zumba's cancelled for good"):
    # one memory holding it is named, as a name is
    opening = next((t for t in text.terms(content) if t in mine), None)
    scored, alone = [], []
    for old in open_to(incoming, candidates, _MAX_CHARS):
        if not gone <= content_terms(old.content):
            continue
        # its words, a name or the opening word, said by the memory or a version it replaced
        # ("老杨今年不来挖了" of "挖笋工钱涨到230一天了", which replaced "请了老杨挖笋，一天200")
        kept = [old, *(earlier(old) if earlier is not None else ())]
        held = frozenset[str]().union(*(content_terms(v.content) for v in kept))
        said = " ".join(v.content for v in kept)
        shared = len(mine & held)
        named = len(people(content, said)) or float(opening in held)
        # Chinese words cut two ways ("上乐高" / "乐高"): what runs of characters share
        runs = len(han_pairs(content) & han_pairs(old.content)) / _PAIRS_A_WORD
        if max(shared, runs) >= _SHARED or named:
            scored.append((max(shared, runs) + named, old))
        elif shared:
            alone.append(old)
    scored.sort(key=lambda so: -so[0])
    if not scored and len(alone) == 1:  # "微信团购不搞了" of the one memory of 团购
        return [Match(alone[0], "conflict", "did this stop? (the one memory sharing a word)")]
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return []
    return [Match(scored[0][1], "conflict", "did this stop? (the text says something stopped)")]


_OPENING = re.compile(r"^\W*([A-Z][a-z]+)(?:['’]s)?\b")
_ZH_FAMILIAR = "老小阿"  # 老陈, 小何: jieba tags the surname alone


def people(content: str, old: str) -> set[str]:
    """The names `content` gives that `old` holds: its capitalised words and acronyms
    (`repeats.names`), the word opening it where it is no function word and `old` holds
    it capitalised too ("Kez has left the studio" / "Apprentice Kez works ..."), and the
    Chinese person names jieba tags (王磊, 老陈)."""
    found = names(content) & set(re.findall(r"[a-z]+", old.lower()))
    if (m := _OPENING.match(content)) and m[1].lower() not in text.EN_STOPWORDS:
        if re.search(rf"\b{m[1]}\b", old):
            found.add(m[1].lower())
    tagged = text.tagged(content)
    for i, (w, flag) in enumerate(tagged):
        name = w if len(w) > 1 else tagged[i - 1][0][-1:] + w if i else ""
        if flag == "nr" and len(name) > 1 and (len(w) > 1 or name[0] in _ZH_FAMILIAR):
            if name in old:
                found.add(name)
    return found
