"""Statements with no linking verb: "预算 5 万", "端口：9090", "Editor: vim", counts ("集群有
5 个节点"), "X 由 Y 负责", and the one part of a sentence cut at commas that states one
("12月起改6点开门，冬天人少": the rest says why)."""

from __future__ import annotations

from remem.truth import lexicon as lx
from remem.truth.grammar import Clause, implied_attrs, promote_attrs, strip_subject
from remem.truth.predicates import Predicate
from remem.truth.schedule import en_rate, rate, scheduled
from remem.truth.segment import SENTENCE_END, Tok, solid
from remem.truth.table import words
from remem.truth.values import nounish, value_ok


def owner_noun(part: list[Tok]) -> list[Tok]:
    """The first owner noun of `part` (项目, team, 公司) as a subject, or none."""
    return [t for t in part if t.low in lx.OWNER_NOUNS][:1]


_COUNTING = words("counting verb", "zh")
_MONEY = words("money unit", "zh")
_PRICED = words("price verb", "zh")


_EVENT_PARTICLES = words("event particle", "zh")


def _by_owner(sent: list[Tok]) -> Clause | None:
    """ "X 由 Y 负责": Y is X's owner."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    cut = next((k for k, t in enumerate(toks) if t.low in lx.ZH_BY), None)
    if cut is None or not toks or toks[-1].low not in lx.ZH_OWNER_VERBS:
        return None
    value = toks[cut + 1 : -1]
    owner, subject, change, _, usable = strip_subject(toks[:cut])
    if not usable or not subject or not 0 < len(value) <= 3 or not value_ok(value, 1):
        return None
    change = change or toks[cut].low != "由"  # "改由小周负责"
    return Clause(owner, subject, value=value, attrs=["owner"], change=change)


def _amount_part(tok: Tok) -> bool:
    """A number, or a unit or scale word after one ("5 万", "30 秒", "50k")."""
    if tok.kind == "num" or tok.low in lx.UNITS or tok.low in _MONEY:
        return True  # "4块": the tokenizer tags 块 a morpheme, no measure word
    return tok.is_han and tok.tag in ("m", "q")


# jieba tags "人多" / "好多" a number: one is a number only with a numeral in it
_NUMERALS = frozenset("零〇一二两三四五六七八九十百千万亿半几")


def _counted(value: list[Tok]) -> bool:
    """Whether a value jieba tagged a number says one ("多 3 个", "三顿"; not "人多")."""
    return (
        value[0].is_han
        and value[0].tag == "m"
        and any(t.kind == "num" or any(c in _NUMERALS for c in t.text) for t in value)
    )


def _bare(sent: list[Tok], alone: bool = True) -> Clause | None:
    """A statement with no linking verb: "预算 5 万", "端口：9090", "Editor: vim" (`alone`:
    the text's only sentence), and counts ("X 部署 3 个副本", "集群有 5 个节点": the count
    of X's 副本 is 3)."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    cut = next((k for k, t in enumerate(toks) if t.text in ":："), None)
    if cut is None:
        end = len(toks)
        while end > 0 and end > len(toks) - 2 and nounish(toks[end - 1]):
            end -= 1  # "个副本": the counted thing after the number
        k = end
        while k > 0 and _amount_part(toks[k - 1]):
            k -= 1
        if 0 < k < end and toks[k - 1].is_han and toks[k - 1].low.startswith("每"):
            k -= 1  # a rate: "每天一次", "每周 2 次"
        first = toks[k] if k < end else None
        if first is None or not (
            first.kind == "num" or first.low.startswith("每") or _counted(toks[k:end])
        ):
            return None
        subject, value = toks[:k], toks[k:]
        if any(t.text in "，," for t in subject) and any(t.is_han for t in subject):
            return None  # "改5点开门，早市人多": a clause before, not one subject
        verb = subject[-1] if subject else None
        if (
            end < len(toks)
            and verb
            and verb.is_han
            and (verb.tag[:1] == "v" or verb.low in _COUNTING)
        ):
            subject = subject[:-1]  # the verb of a count: 部署 / 有 / 跑
        elif verb and verb.low in _PRICED:
            subject = subject[:-1]  # "小份卖14": its price
    else:
        subject, value = toks[:cut], toks[cut + 1 :]
        if value and (value[0].low in lx.SPEECH or not alone):
            return None  # "Melanie: Hey Caroline! …": a line of a conversation, not a value
    if any(t.low in _EVENT_PARTICLES or t.low.startswith("每") for t in subject):
        return None  # "Bart获得了第 1 名": an event; "每天跑步一次": a habit, not a value
    named = subject
    owner, subject, _, _, usable = strip_subject(subject)
    subject = subject or owner_noun(named)  # "团队有 8 个人"
    if not usable or not subject or not 0 < len(value) <= 4:
        return None
    last = subject[-1]
    if last.is_han and not (nounish(last) or last.low in lx.concepts()):
        return None
    attrs: list[str] = []
    value = promote_attrs(value, attrs)
    if not value_ok(value, 1):
        return None
    attrs += implied_attrs(Predicate(), value, False) or []
    return Clause(owner, subject, value=value, attrs=attrs)


def bare_of(sent: list[Tok], alone: bool) -> Clause | None:
    bare = en_rate(sent) or _bare(sent, alone) or _by_owner(sent) or scheduled(sent)
    return bare or rate(sent)


def one_part(sent: list[Tok]) -> Clause | None:
    """The one of a sentence's two parts (cut at its comma) that states a fact with no
    linking verb, where the other states none: the first, a reason after it; the second
    where it says "now"."""
    parts: list[list[Tok]] = [[]]
    for tok in sent:
        if tok.text in "，,":
            parts.append([])
        else:
            parts[-1].append(tok)
    if len(parts) != 2 or not any(t.is_han for t in sent):
        # "Job 5531, Mrs Fenwick, 4 windows, fit date 12 May": a record; an English note's
        # comma parts name its thing ("costume fittings - room 6, mrs akande")
        return None
    first, then = (bare_of(p, False) if solid(p) else None for p in parts)
    if first is not None:
        return first if then is None else None
    # the second only where it says it holds now ("脚又长了，鞋码现在 36"); else the first
    # may name whose it is ("大锅卤荤菜，早上10点开火": the big pot's, not any)
    return then if then is not None and any(t.low in _NOW for t in parts[1]) else None


_NOW = words("now before verb", "zh") | frozenset({"now"})
