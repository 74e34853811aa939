"""When and how often something happens, said with no linking verb (Chinese):

    每天早上九点站会          -> (站会 time, 每天早上九点)
    工作日早上 10 点上班       -> (上班 time, 工作日早上 10 点)
    每天下午 3 点同步一次数据   -> (同步数据 time, 每天下午 3 点)
    我们每两周发一次版         -> (发版 frequency, 每两周)

The event is the subject, so a later "上班时间提前到 9 点半" or "现在改成每周发一次版" is
a change of the same thing.
"""

from __future__ import annotations

from remem.truth import lexicon as lx
from remem.truth.grammar import Clause, strip_subject
from remem.truth.predicates import Predicate
from remem.truth.segment import SENTENCE_END, Tok, solid
from remem.truth.values import ONE_OFF, date_like, nounish, value_ok

# Days that are kinds of days, not dates: "工作日早上 10 点"
_DAY_KINDS = frozenset({"工作日", "周末", "节假日", "平时", "平日", "每个工作日", "假期"})
# "同步一次数据", "发一次版": how many times, between a verb and its object
_TIMES = frozenset({"一次", "一下", "一趟", "一回"})


def _when(head: list[Tok]) -> bool:
    words = all(
        t.tag[:1] in ("t", "m") or t.low.startswith("每") or t.low in _DAY_KINDS or date_like([t])
        for t in head
    )
    once = any(t.low.startswith(ONE_OFF) for t in head)
    return bool(head) and words and not once and date_like(head)


def _event(tail: list[Tok]) -> list[Tok] | None:
    """What happens: a noun ("站会"), a verb ("上班", "发版") or a verb and its object
    with a count between ("同步一次数据" is 同步 数据)."""
    if all(t.is_han and nounish(t) for t in tail):
        return tail
    if len(tail) == 1 and tail[0].is_han and tail[0].tag[:1] == "v":
        return tail
    if len(tail) == 3 and tail[1].low in _TIMES and tail[0].is_han and tail[0].tag[:1] in "vdn":
        return [tail[0], tail[2]] if tail[2].is_han and nounish(tail[2]) else None
    return None


def scheduled(sent: list[Tok]) -> Clause | None:
    """A time, then what happens at it (its subject): see the module. The owner may
    come first, and "现在" says it changed ("我现在每天 6 点起床")."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    owner = None
    if toks and (toks[0].low in lx.ZH_OWNERS_USER or toks[0].low in lx.ZH_OWNERS_WE):
        owner, toks = "user" if toks[0].low in lx.ZH_OWNERS_USER else "we", toks[1:]
    change = bool(toks) and toks[0].low in lx.ZH_CHANGE_ADVERBS
    toks = toks[1:] if change else toks
    for cut in (len(toks) - 1, len(toks) - 2, len(toks) - 3):
        head, tail = toks[:cut], toks[cut:]
        event = _event(tail) if cut > 0 and _when(head) else None
        if event is not None and value_ok(head, 1) and strip_subject(event)[4]:
            pred = Predicate(attr="time")
            return Clause(owner, event, pred, head, ["time"], change, None, True)
    return None


def rate_split(toks: list[Tok]) -> tuple[list[Tok], list[Tok]] | None:
    """(the event, how often) of "每两周发一次版", "每周发一次版"; None for other words."""
    k = 0
    while k < len(toks) and (toks[k].low.startswith("每") or (k and toks[k].tag[:1] in "mqt")):
        k += 1
    rest = toks[k:]
    if not k or not toks[0].low.startswith("每") or len(rest) != 3:
        return None
    verb, times, obj = rest
    if times.low not in _TIMES or not (verb.is_han and verb.tag[:1] == "v"):
        return None
    return ([verb, obj], toks[:k]) if obj.is_han and obj.tag[:1] in "nv" else None


def rate(sent: list[Tok]) -> Clause | None:
    """How often an owner does something: "我们每两周发一次版" -> (发版 frequency, 每两周)."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    start = next((k for k, t in enumerate(toks) if t.low.startswith("每")), None)
    if start is None:
        return None
    owner, before, _, _, usable = strip_subject(toks[:start])
    found = rate_split(toks[start:])
    if found is None or before or not usable:
        return None
    event, how_often = found
    return Clause(owner, event, Predicate(), how_often, ["frequency"], False, None, True)
