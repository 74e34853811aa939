"""Sentence shapes the linking-verb grammar (`remem.truth.subject`) would read wrong:

    负责运维的是老张                   -> (运维 owner, 老张): what is owned is in a 的 phrase
    I prefer answers in bullet points  -> (the user's answers, bullet points)
    我现在更喜欢详细一点的回答           -> (the user's 回答, 详细一点), a change

A preference of manner says how the user wants one kind of thing (answers, commits,
回答), so a later one of the same thing replaces it; a liking of things ("I like
pizza") is many values and is left to the grammar, which reads none from it.

A change of which thing, its new value said next, names the subject for the clause
after it: "I switched dentists; it's Dr. Kim now", "换了新电脑，现在用 ThinkPad X1".
"""

from __future__ import annotations

from remem.truth import keys as keymod
from remem.truth import lexicon as lx
from remem.truth import predicates as pr
from remem.truth.grammar import Clause, strip_subject
from remem.truth.segment import SENTENCE_END, Tok, solid
from remem.truth.table import words
from remem.truth.values import span_text, value_ok

# "in bullet points", "as short paragraphs": the form the thing is wanted in ("pizza with
# pineapple" is a thing liked, one of many)
_EN_MANNER = words("manner", "en")
_EN_PREFER = words("prefer verb", "en")
_ZH_PREFER = words("prefer verb", "zh")
_ZH_MORE = words("prefer degree", "zh")
_ZH_COPULA = words("copula short", "zh")
_DEMONSTRATIVES = words("demonstrative", "zh")


def _words(sent: list[Tok]) -> list[Tok]:
    return [t for t in solid(sent) if t.text not in SENTENCE_END and t.text not in ",，"]


def owner_first(sent: list[Tok]) -> Clause | None:
    """ "负责运维的是老张", "维护这个库的现在是小刘": OWNER-VERB X 的 [adverb] 是 Y."""
    toks = _words(sent)
    if len(toks) < 5 or toks[0].low not in lx.ZH_OWNER_VERBS:
        return None
    of = next((k for k, t in enumerate(toks) if t.low == "的"), None)
    if of is None or of < 2:
        return None
    k = of + 1
    change = False
    while k < len(toks) and toks[k].low in lx.ZH_CHANGE_ADVERBS:
        change, k = True, k + 1
    if k >= len(toks) - 1 or toks[k].low not in _ZH_COPULA:
        return None
    named = [t for t in toks[1:of] if t.low not in _DEMONSTRATIVES]  # "维护这个仓库的"
    owner, subject, _, _, usable = strip_subject(named)
    subject = subject or [t for t in named if t.low in lx.OWNER_NOUNS][:1]  # "维护仓库的"
    value = toks[k + 1 :]
    if not usable or not subject or not 0 < len(value) <= 3 or not value_ok(value, 1):
        return None
    return Clause(owner, subject, value=value, attrs=["owner"], change=change)


def _user_prefix(toks: list[Tok]) -> tuple[int, bool] | None:
    """Where the preference verb of a first-person sentence starts, and whether an
    adverb before it says the preference changed ("I now prefer", "我现在更喜欢")."""
    if not toks or toks[0].low not in ("i", "我", "我个人", "本人", "用户"):
        return None  # 用户: an agent's note of what the user prefers
    k, change = 1, False
    while k < len(toks) and (
        toks[k].low in lx.ZH_CHANGE_ADVERBS
        or toks[k].low in lx.EN_CHANGE_ADVERBS
        or toks[k].low in _ZH_MORE
        or toks[k].low in ("still", "really", "much", "generally", "usually")
    ):
        change = change or toks[k].low in lx.ZH_CHANGE_ADVERBS or toks[k].low == "now"
        k += 1
    return (k, change) if k < len(toks) else None


def manner_preference(sent: list[Tok]) -> Clause | None:
    """ "I prefer answers in bullet points", "我偏好简洁的回答": the user's preferred
    manner of one kind of thing."""
    toks = _words(sent)
    found = _user_prefix(toks)
    if found is None:
        return None
    k, change = found
    mine = k + 1 < len(toks) and toks[k + 1].low == "my"
    if mine and (toks[k].low in _EN_PREFER or toks[k].low in _EN_HAVE):
        return _mine(toks, k + 2, change)  # "I like my coffee black"
    if toks[k].low in _EN_PREFER:
        return _english(toks, k + 1, change)
    if toks[k].low in _ZH_PREFER:
        return _chinese(toks, k + 1, change)
    return None


def _english(toks: list[Tok], k: int, change: bool) -> Clause | None:
    """HEAD (in|as|with) MANNER, HEAD one or two plain words ("answers", "commit messages")."""
    cut = next((j for j in range(k, len(toks)) if toks[j].low in _EN_MANNER), None)
    if cut is None or not 1 <= cut - k <= 2:
        return None
    head, manner = toks[k:cut], toks[cut + 1 :]
    if any(t.kind != "word" or t.low in lx.EN_DETERMINERS for t in head):
        return None
    if manner and manner[-1].low in lx.EN_TRAILING:
        change = change or manner[-1].low in ("now", "instead")
        manner = manner[:-1]
    if not 1 <= len(manner) <= 4 or any(t.kind != "word" for t in manner):
        return None
    return _preference(head, manner, change)


_EN_HAVE = words("have verb", "en")
_NOT_MANNER = words("not manner", "en")


def _mine(toks: list[Tok], k: int, change: bool) -> Clause | None:
    """ "I like my coffee black", "I take my coffee with oat milk": how the user has
    one thing (a word after "my"), the manner after it."""
    head, manner = toks[k : k + 1], toks[k + 1 :]
    if manner and manner[-1].low in lx.EN_TRAILING:
        change = change or manner[-1].low in ("now", "instead")
        manner = manner[:-1]
    if not head or head[0].kind != "word" or not 1 <= len(manner) <= 4:
        return None
    if manner[0].low in _NOT_MANNER or any(t.kind != "word" for t in manner):
        return None  # "I take my kids to school": where, not how
    if manner[0].low in _EN_MANNER or manner[0].low == "with":
        manner = manner[1:]  # "in bullet points" as in "I prefer answers in bullet points"
    return _preference(head, manner, change) if manner else None


def _preference(head: list[Tok], manner: list[Tok], change: bool) -> Clause:
    """The subject is the style of HEAD ("answers in Chinese" is a reply language, "answers
    in bullet points" a style of answer: the two are different preferences)."""
    kind = keymod.value_kind(keymod.value_terms(span_text(manner)))
    attrs = [] if kind is not None else ["style"]
    return Clause("user", head, value=manner, attrs=attrs, change=change)


def _chinese(toks: list[Tok], k: int, change: bool) -> Clause | None:
    """MANNER 的 HEAD, MANNER an adjective ("简洁", "详细一点"), HEAD one or two words."""
    of = next((j for j in range(k, len(toks)) if toks[j].low == "的"), None)
    if of is None or not 1 <= of - k <= 3 or not 1 <= len(toks) - of - 1 <= 2:
        return None
    manner, head = toks[k:of], toks[of + 1 :]
    if manner[0].tag[:1] not in ("a", "z") or not all(t.is_han for t in (*manner, *head)):
        return None  # "喜欢红色的花": a colour is a thing liked, not a manner
    if any(t.low in pr.ZH_PREDICATES for t in head):
        return None
    return _preference(head, manner, change)


_EN_SWITCHED = words("switched kind", "en")
_ZH_SWITCHED = words("switched thing", "zh")


def switched_thing(sent: list[Tok]) -> Clause | None:
    """ "I switched dentists", "换了新电脑": which thing changed, with no value; the
    subject a next clause without one takes ("it's Dr. Kim now", "现在用 X")."""
    toks = _words(sent)
    owner, toks = _owner(toks)
    if not 2 <= len(toks) <= 4:
        return None
    head, thing = toks[0].low, toks[1:]
    if toks[0].is_han:
        if head == "换" and thing[0].low in ("了", "了新"):
            thing = thing[1:]
        elif head not in _ZH_SWITCHED:
            return None
        thing = thing[1:] if thing and thing[0].low in ("新", "个") else thing
    elif head not in _EN_SWITCHED or any(t.is_han for t in thing):
        return None
    if len(thing) != 1 or not strip_subject(thing)[4] or thing[0].kind not in ("word", "han"):
        return None
    return Clause(owner, thing, pred=pr.CHANGE, change=True, complete=False)


def _owner(toks: list[Tok]) -> tuple[str | None, list[Tok]]:
    if toks and (toks[0].low in lx.EN_OWNERS_USER or toks[0].low in lx.ZH_OWNERS_USER):
        return "user", toks[1:]
    if toks and (toks[0].low in lx.EN_OWNERS_WE or toks[0].low in lx.ZH_OWNERS_WE):
        return "we", toks[1:]
    return None, toks


def after_switch(sent: list[Tok]) -> tuple[Clause, list[Tok]] | None:
    """A first clause saying which thing changed, and the rest of the sentence."""
    comma = next((k for k, t in enumerate(sent) if t.text in ",，"), None)
    if comma is None or (which := switched_thing(sent[:comma])) is None:
        return None
    return which, sent[comma + 1 :]


def noted_user(subject: list[Tok]) -> bool:
    """ "用户偏好用 Tab 缩进": an agent's note of what the user prefers."""
    return [t.low for t in subject] in (["用户"], ["the", "user"], ["user"])
