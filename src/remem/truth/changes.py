"""A stated change the subject grammar could not tie to the memory it changes.

"日志平台已换成 Loki" after "日志平台用的是 ELK", "Alerts now go to Opsgenie" after "Alerts
go to PagerDuty": the text says something changed (a change verb, "now", a
replacement) but the two sentences are not read as the same subject and value, so the
rules by subject see no relation. What the change is about is then the words before
its change marker (the topic); the memory it changes is the one current memory of the
domain that names every word of that topic, says no attribute of it the topic does not
(the owner of the logging platform is not the platform), and does not hold the new value
already. One such memory is superseded; several make it a question (a conflict).

    topic_of("The data warehouse now refreshes every hour")
    # Topic(words="data warehouse", rest="refreshes every hour")

A change may also restate the old sentence with only its value and verb changed
("季度规划会在 4B 会议室" -> "季度规划会改到 7A 会议室", "我每周去两次健身房" -> "我现在每周去
三次健身房"): `restated` tells, where the rules read a subject in neither.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from remem import text
from remem.entry import Entry
from remem.truth import keys as keymod
from remem.truth import lexicon as lx
from remem.truth.dedup import CONFLICT_TYPES, Match
from remem.truth.elliptic import shifted
from remem.truth.ending import ended, switched
from remem.truth.grammar import clause_end, strip_subject, subject_part
from remem.truth.markers import states_change
from remem.truth.replacement import replaced
from remem.truth.segment import (
    CLAUSE_PUNCT,
    SENTENCE_END,
    Tok,
    normal,
    sentences,
    solid,
    tokenize,
)
from remem.truth.subject import Claim, read
from remem.truth.table import words
from remem.truth.terms import shared_terms
from remem.truth.values import span_text
from remem.truth.verbs import predicate_at

# Key words that say where or when a thing is: a move states them, the old memory may not.
_WHERE = words("where or when concept", "en")
_ATTRIBUTES = lx.ATTRIBUTES - _WHERE


@dataclass(frozen=True, slots=True)
class Topic:
    """What a change is about (`words`, before its marker) and what it says now (`rest`);
    for a replacement ("replaced X with Y") no words, and the value that stopped."""

    words: str
    rest: str
    stopped: str | None = None


# Adverbs that say a state changed, when a verb follows ("现在用", "已经换成"); not 新
# ("新同学" is a new classmate, not a change)
_ZH_NOW = words("now before verb", "zh")
_MAX_TOKENS = 24  # a fact, not a story: a longer text is left to the rules
_MAX_CHARS = 300


def _marker(toks: list[Tok], i: int) -> int | None:
    """Where a change marker at toks[i] ends, or None: a change predicate, or a change
    adverb ("now", "现在", "已经") before the verb of the rest of the clause."""
    found = predicate_at(toks, i)
    if found is not None and (found[0].change or found[0].negation):
        return found[1]
    low, after = toks[i].low, toks[i + 1] if i + 1 < len(toks) else None
    if after is None:
        return None
    if low in _ZH_NOW and after.is_han and after.tag[:1] == "v":
        return i + 1
    if low in ("now", "instead") and not after.is_han:
        return i + 1
    return None


def _topic_words(toks: list[Tok]) -> bool:
    """Whether the words before a marker can name a topic: a noun phrase, no clause."""
    if any(
        t.low in lx.ZH_VALUE_STOPS or t.low in lx.ZH_COORD or t.low in lx.EN_COORD for t in toks
    ):
        return False
    last = toks[-1]  # a noun (or 前端, 线上: a place word), not a verb or a particle
    return not last.is_han or last.tag == "vn" or last.tag[:1] not in ("v", "d", "c", "u", "p", "r")


@lru_cache(maxsize=2048)
def topic_of(content: str) -> Topic | None:
    """The topic and the rest of the clause of `content` that states a change; None
    when it states none, or is more than one short sentence."""
    if len(content) > _MAX_CHARS:
        return None  # not worth segmenting: no short fact
    sents = [s for s in sentences(tokenize(normal(content))) if solid(s)]
    if len(sents) == 2 and sents[0][-1].text in ";；":  # "Omar is no longer on X; Lena …"
        semi = sents[0][-1]
        sents = [[*sents[0][:-1], Tok("，", "，", "punct", "x", semi.start, semi.end), *sents[1]]]
    if len(sents) != 1:
        return None
    sent = sents[0]
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    if len(toks) > _MAX_TOKENS:
        return None
    if (ending := ended(sent)) is not None:  # "思域卖了，换了辆 Model 3"
        return Topic("", span_text(ending[1]), ending[0])
    if sum(t.text in CLAUSE_PUNCT for t in toks) > 1:
        return None
    if (swap := replaced(sent)) is not None and swap.dropped:
        return Topic("", span_text(swap.value), swap.dropped)
    claim = read(content)  # "主库已经从 MySQL 换成了 TiDB": the old value is named
    if claim is not None and claim.change and claim.dropped and claim.value:
        return Topic("", claim.value, claim.dropped)
    if claim is None and (switch := switched(sent)) is not None:  # "换了牙医，现在找…"
        return Topic(switch[0], span_text(switch[1]))
    for i in range(1, len(toks)):
        end = _marker(toks, i)
        if end is None:
            continue
        said = strip_subject(subject_part(toks, 0, i))
        rest = toks[end : clause_end(toks, end)]
        if said.usable and said.subject and rest and _topic_words(said.subject):
            return Topic(span_text(said.subject), span_text(rest))
        return None
    return None


def _concepts(text: str) -> set[str]:
    return set(keymod.keys(text, None)[0].split()) if text.strip() else set()


def lookup_terms(topic: Topic) -> str:
    """The words to find the changed memory by: the stopped value, or the topic's words
    but those of where or when ("构建时间降到 7 分钟" of "构建大概要 12 分钟": 构建), which
    `changed_by` does not ask the old memory to say either (and a lookup of rare words
    would, however common they are in other projects' memories)."""
    if topic.stopped is not None:
        return topic.stopped
    words = [w for w in text.terms(topic.words) if not _concepts(w) <= _WHERE]
    return " ".join(words) or topic.words


def _holds(old: Entry, stopped: str) -> bool:
    """Whether `old` states `stopped` as its value (its subject's, else in its words: also
    where the rules read only part of it, "… are serviced by Halden Safety, contact is
    Greg" holding Greg as the contact's)."""
    if _states(old, stopped):
        return True
    if old.subject and old.value is not None:
        if (claim := read(old.content)) is not None and claim.whole:
            return False
    return bool(_concepts(stopped)) and _concepts(stopped) <= _concepts(old.content)


def _states(old: Entry, stopped: str) -> bool:
    """Whether `old`'s value, as the rules read it, is `stopped`."""
    if not old.subject or old.value is None:
        return False
    was, gone = keymod.keys(old.subject, old.value)[1], keymod.keys(old.subject, stopped)[1]
    # "traded in the Civic" of "a 2015 Civic": the name without its year or version
    return keymod.relation(gone, was) == "same" or bool(gone) and set(gone) < set(was)


def _is_subject(old: Entry, stopped: str) -> bool:
    """ "The VPN server was replaced by vpn2": what was replaced is the old memory's
    subject, and what replaced it its new value."""
    return bool(old.subject) and _concepts(stopped) == _concepts(old.subject or "")


def _about(old: Entry, topic: Topic, need: set[str]) -> bool:
    words = _concepts(old.content)
    if not need <= words and not _said_whole(topic.words, old.content):
        return False  # another topic
    # an attribute of the topic ("日志平台的负责人") is not the topic
    return not (words - need) & _ATTRIBUTES - _concepts(topic.rest)


def _said_whole(topic: str, content: str) -> bool:
    """Whether a Chinese topic is written out in `content`, however the tokenizer cut it
    there ("3月1号起蹄花汤卖28": 起蹄 / 花汤)."""
    return len(topic) >= 2 and _ALL_HAN.fullmatch(topic) is not None and topic in content


def changed_by(incoming: Entry, topic: Topic, candidates: Sequence[Entry]) -> list[Match]:
    """The memories among `candidates` the change `topic` can be of (see the module)."""
    need = _concepts(topic.words) - _WHERE
    new_words = _concepts(topic.rest) - _concepts(topic.words)
    if (not need and topic.stopped is None) or not new_words:
        return []
    if incoming.type not in CONFLICT_TYPES:
        return []
    moves = shifted(incoming.content)
    held = []
    for old in {c.id: c for c in candidates}.values():
        if old.id == incoming.id or old.type not in CONFLICT_TYPES or not old.is_current:
            continue
        if _holds(old, topic.rest) if topic.stopped else new_words <= _concepts(old.content):
            continue  # the new value is said there already
        if topic.stopped is not None and (
            _holds(old, topic.stopped) or _is_subject(old, topic.stopped)
        ):
            held.append(old)
        elif topic.stopped is None and _about(old, topic, need) and (not moves or _movable(old)):
            held.append(old)
    sure = held
    if topic.stopped is not None:
        held = _named_first(incoming, topic.stopped, held, candidates)
        sure = [old for old in sure if old in held]  # not where another names more
    what = topic.words or topic.stopped
    if len(held) == 1 and sure == held:
        return [Match(held[0], "supersede", f"the text states a change of {what}")]
    return [Match(old, "conflict", f"which one changed? ({what})") for old in held]


_ALL_HAN = re.compile(r"[\u4e00-\u9fff]+")


# An amount, a time or a day: what a move by an amount moves
_AMOUNT = re.compile(
    r"[0-9０-９]|[一二两三四五六七八九十百千万半俩仨]+[个块元毛角斤份碗锅杯次天周月年号点分人位张"
    r"条箱袋包盒瓶桶只台层楼排]"  # a count said in words, with its measure ("两锅"; not "一下")
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty"
    r"|forty|fifty|hundred|dozen|half|once|twice)\b",
    re.IGNORECASE,
)


def _movable(old: Entry) -> bool:
    """Whether `old` says something a move by an amount can move ("又涨两块" of "蹄花汤一碗
    25", not of "蹄花汤店的筷子消毒柜声音有点大": the topic's words alone do not tell)."""
    return bool(_AMOUNT.search(old.content) or DAYS.search(old.content.lower()))


def _names(incoming: Entry, old: Entry, stopped: str) -> bool:
    """Whether the text shares a word with `old` besides the value it says stopped: the
    value alone ("Thursday") is no sign of which memory ("Practise the set before
    Thursday" beside "Wasp nest job at 17 Larch Close, Thursday 10am")."""
    return bool(shared_terms(old.content, incoming.content) - _concepts(stopped))


def _named_first(
    incoming: Entry, stopped: str, held: list[Entry], candidates: Sequence[Entry]
) -> list[Entry]:
    """`held`, or, where some current memories say the stopped value and share another
    word with the text (the rules may read their value as another: "… is booked for
    Thursday 10am" as booked), those."""
    named = [old for old in held if _names(incoming, old, stopped)]
    seen = {old.id for old in held}
    for old in {c.id: c for c in candidates}.values():
        if old.id in seen or old.id == incoming.id or not old.is_current:
            continue
        if old.type in CONFLICT_TYPES and _concepts(stopped) <= _concepts(old.content):
            if _names(incoming, old, stopped):
                named.append(old)
                seen.add(old.id)
    return named or held


# Words a restatement may add or drop around its value: verbs of change and place,
# particles, articles, approximations (what is left on each side must be the value alone)
LINKS = words("restatement link")
_ZH_COUNT = re.compile(r"[每一二两三四五六七八九十百千万几半\d]+[次个天周月年岁号层楼点]?")


_BIG_COUNT = re.compile(
    r"([一二两三四五六七八九十\d]*[百千万][一二两三四五六七八九十百千万\d]*)(\w)"
)


DAYS = re.compile(
    r"(?:周|星期|礼拜)[一二三四五六日天]|[上下中]午|早上|晚上|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mornings?|afternoons?|evenings?"
    r"|noon|midday|midnight"  # a time said as a word: "opens at noon" -> "… 11am"
)


def valueish(word: str) -> bool:
    """A number, a count ("两次"), a code with a digit ("4B", "us-east-1"), a day or a
    part of one (周五, Friday, 下午)."""
    return (
        any(c.isdigit() for c in word)
        or bool(_ZH_COUNT.fullmatch(word))
        or bool(DAYS.fullmatch(word))
    )


@lru_cache(maxsize=4096)  # a new memory's text is weighed against each candidate's
def _words_of(content: str) -> tuple[str, ...]:
    toks = [t for t in solid(tokenize(normal(content))) if t.kind != "punct"]
    out: list[str] = []
    for i, tok in enumerate(toks):
        found = predicate_at(toks, i)
        if found is not None and (found[0].change or found[0].attr in ("location", "move")):
            continue  # 改到, 涨到, 在: how it is said, not what
        if tok.low in LINKS or tok.low in lx.ZH_CHANGE_ADVERBS or tok.low in lx.EN_CHANGE_ADVERBS:
            continue
        if tok.low in OWNERS:  # "我每天走 8000 步" -> "最近每天走一万步"
            continue
        glued = _BIG_COUNT.fullmatch(tok.low)  # 一万步: the number and its unit, as 8000 步
        out += glued.groups() if glued else [tok.low]
    return tuple(out)


@lru_cache(maxsize=4096)
def _word_counts(content: str) -> Counter[str]:
    """`_words_of`, counted (shared: never changed)."""
    return Counter(_words_of(content))


OWNERS = lx.ZH_OWNERS_USER | lx.ZH_OWNERS_WE | lx.EN_OWNERS_USER | lx.EN_OWNERS_WE


def _pair_stems(gone: Counter[str], came: Counter[str], kept: Counter[str]) -> None:
    """Count as kept a Chinese verb said shorter on one side (游 of 游泳, 跑 of 跑步)."""
    for one, other in ((came, gone), (gone, came)):
        for short in [w for w in one if len(w) == 1 and "\u4e00" <= w <= "\u9fff"]:
            long = next((w for w in other if len(w) == 2 and w[0] == short), None)
            if long is not None:
                del one[short], other[long]
                kept[short] += 1


def restated(old: str, new: str) -> bool:
    """Whether `new` says `old` again with only its value changed (see the module): the
    same words but one or two on each side, and those numbers, counts or codes."""
    if len(old) > _MAX_CHARS or len(new) > _MAX_CHARS:
        return False
    before, after = _word_counts(old), _word_counts(new)
    gone, came, kept = before - after, after - before, before & after
    _pair_stems(gone, came, kept)
    if not gone or not came or len(gone) > 2 or len(came) > 2:
        return False
    if sum(kept.values()) < max(2, sum(gone.values()) + sum(came.values())):
        return False  # the words kept must outweigh the words changed
    names = names_in(old) | names_in(new)  # "告警升级找 Maria" -> "以后告警升级找 Kenji"
    return all(valueish(w) or w in names for w in (*gone, *came))


_ZH_NAME_TAGS = words("name tag", "en")


@lru_cache(maxsize=4096)
def names_in(content: str) -> frozenset[str]:
    """The words of `content` that are names: capitalised Latin words but the first,
    and the words jieba tags as names."""
    toks = [t for t in solid(tokenize(normal(content))) if t.kind != "punct"]
    return frozenset(
        t.low
        for k, t in enumerate(toks)
        if (not t.is_han and k and t.text[:1].isupper()) or (t.is_han and t.tag in _ZH_NAME_TAGS)
    )


def restatement_terms(content: str, claim: Claim | None) -> str:
    """The words to find what a change without a subject restates by, its new value
    left out ("" when it states a subject, or no change)."""
    if claim is not None or len(content) > _MAX_CHARS or not states_change(content):
        return ""
    # 每周 may be the value, but also what says how often: a word to find the old by
    words = [w for w in _words_of(content) if not valueish(w) or w[0] == "每"]
    names = names_in(content)  # the new value may be a name: not a word to find the old by
    return " ".join([w for w in words if w not in names] or words)


_EN_THEN = words("then", "en")


def tail_claim(content: str) -> Claim | None:
    """The change the last clause states when the text leads with another that says
    none ("We voted and the mascot is an owl now", "搬家以后，通勤改成骑车了"); None
    when the whole text reads as a claim, or its last clause states no change."""
    if len(content) > _MAX_CHARS:
        return None
    sents = [s for s in sentences(tokenize(normal(content))) if solid(s)]
    if len(sents) != 1:
        return None
    toks = [t for t in solid(sents[0]) if t.text not in SENTENCE_END]
    cuts = [k for k, t in enumerate(toks) if t.text in CLAUSE_PUNCT or t.low in _EN_THEN]
    if not cuts or len(toks) - cuts[-1] < 4 or read(content) is not None:
        return None
    found = read(span_text(toks[cuts[-1] + 1 :]))
    return found if found is not None and found.change else None
