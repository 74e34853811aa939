"""A value that ended, then what came instead, in two clauses: "思域卖了，换了辆 Model 3",
"一兆韦德退了，换成攀岩馆", "老马不当组长了，现在是阿莎带组", "Cancelled Planet Fitness, joined
a climbing gym instead", "I gave up Spanish and started learning Japanese".

Neither clause names the subject, so the rules by subject read nothing; but the first
says which value stopped (the thing sold, cancelled, finished, given up, or the one who
is "no longer" in a role) and the second that something new holds now. The memory that
held the stopped value is the one changed (`remem.truth.changes`).

    ended(tokens of "Finished Dune, now reading Hyperion")
    # ("Dune", [now, reading, Hyperion])
"""

from __future__ import annotations

from remem.truth import lexicon as lx
from remem.truth.segment import CLAUSE_PUNCT, SENTENCE_END, Tok, solid
from remem.truth.subject import read
from remem.truth.table import words
from remem.truth.values import span_text, value_ok
from remem.truth.verbs import predicate_at

# Verbs that end a thing the user or team had: the thing before them ("思域卖了") or after
# them ("退了一兆韦德"); 了, 掉 or 完 after them, or 已经 before, says it happened.
_ZH_END = words("ending verb", "zh")
_ZH_DONE = words("done particle", "zh")
# "老马不当组长了", "我不用 Notion 了": a value no longer in its role, or no longer used
_ZH_NOT = words("no longer", "zh")
# What says the second clause is the new state: a change verb, "now", "instead", or a verb
# of taking up something
_ZH_NEW = words("new state", "zh") | lx.ZH_CHANGE_ADVERBS
_EN_END = words("ending verb", "en")
_EN_END_PAIRS = frozenset(tuple(phrase.split()) for phrase in words("ending phrase", "en"))
_EN_GONE = words("gone", "en")
_EN_BE = words("be before gone", "en")
_EN_NEW = words("new state", "en") | lx.EN_CHANGE_ADVERBS
_EN_SPLIT = words("clause split", "en")
_MAX = 4  # tokens of the value that ended
_MARKS = frozenset("《》“”\"'「」")  # around a title or a name
# What one holds of a value, after its name: the value is the name
_HELD = words("held")
_CAUSE = words("cause")
# What a person leaves: then the one who left ended ("Leila left the company")
_PLACES = words("place left")
_LEADS = words("update lead")
# Who, before what ended: "儿子幼儿园毕业了" ended 幼儿园
_ZH_PEOPLE = words("person who ended", "zh")
# When it ended, after the value: "dropped Sentry last month"
_EN_WHEN = words("ended when", "en")
_EN_LAST = words("last", "en")
# "switched dentists, now seeing Dr. Alvarez", "换了牙医，现在找…": the kind that changed
_EN_SWITCH = words("switched kind", "en")
_ZH_SWITCH = words("switched kind", "zh")


def _clauses(toks: list[Tok]) -> tuple[list[Tok], list[Tok]] | None:
    """The two clauses: cut at the one comma or semicolon, else at "and" / "then"."""
    if len(toks) > 2 and toks[1].text in ":：" and toks[0].low in _LEADS:
        toks = toks[2:]  # "Correction: …"
    cut = [k for k, t in enumerate(toks) if t.text in CLAUSE_PUNCT]
    if len(cut) > 1:
        return None
    if not cut:
        cut = [k for k, t in enumerate(toks) if t.low in _EN_SPLIT and not t.is_han][:1]
    if not cut or cut[0] == 0:
        return None
    first, second = toks[: cut[0]], toks[cut[0] + 1 :]
    if second and second[0].low in _EN_SPLIT:
        second = second[1:]
    return (first, second) if second else None


def _bare(toks: list[Tok]) -> list[Tok] | None:
    """The value alone: no owner, determiner, book brackets or particle around it, nor
    the cause after it ("left LastPass after the breach")."""
    cut = next((k for k, t in enumerate(toks) if k and t.low in _CAUSE), None)
    toks = toks[:cut]
    drop = lx.EN_DETERMINERS | lx.EN_OWNERS_USER | lx.EN_OWNERS_WE | lx.ZH_OWNERS_USER
    out = [t for t in toks if t.low not in drop and t.low not in lx.ZH_OWNERS_WE]
    out = [
        t for t in out if t.text not in "《》“”\"'「」" and t.low not in ("把", "将", "已经", "的")
    ]
    while out and (
        out[-1].low in _ZH_DONE
        or out[-1].kind == "punct"
        or out[-1].low in _EN_WHEN
        or (out[-1].is_han and out[-1].tag == "t")
    ):
        out.pop()
    if len(out) > 2 and out[-2].low in _EN_LAST:  # "last month"
        out = out[:-2]
    if len(out) > 1 and out[-1].low in _HELD:  # "my Chase account", "招行的卡"
        out = out[:-1]
    return out if 0 < len(out) <= _MAX and value_ok(out, 1) else None


def _zh_ended(toks: list[Tok]) -> list[Tok] | None:
    for k, tok in enumerate(toks):
        after = toks[k + 1].low if k + 1 < len(toks) else ""
        not_done = len(tok.low) == 2 and tok.low[0] == "不" and after in _ZH_DONE  # 吉他不学了
        if tok.low in _ZH_NOT or not_done:
            after_not = [t for t in toks[k + 1 :] if t.low not in _ZH_DONE]
            if len(after_not) > 1 and len(after_not[0].low) == 1 and after_not[0].tag == "v":
                after_not = after_not[1:]  # "不再找奥塞医生了": who is no longer seen
            return _bare(toks[:k]) or _bare(after_not)
        done = after in _ZH_DONE or tok.low.endswith(("完", "坏"))  # 读完, 穿坏
        done = done or (k > 0 and toks[k - 1].low == "已经")
        if tok.low in _ZH_END and done:  # "儿子幼儿园毕业了": what ended is 幼儿园
            before = toks[:k][1:] if k > 1 and toks[0].low in _ZH_PEOPLE else toks[:k]
            return _bare(before) or _bare(toks[k + 1 :])
    return None


def _en_ended(toks: list[Tok]) -> list[Tok] | None:
    low = [t.low for t in toks]
    for k, word in enumerate(low):
        pair = (word, low[k + 1]) if k + 1 < len(low) else None
        if word in _EN_END or pair in _EN_END_PAIRS:
            skip = 2 if pair in _EN_END_PAIRS else 1  # "(My son) finished preschool"
            rest = toks[k + skip :]
            rest = rest[1:] if rest and rest[0].low in ("of", "on") else rest
            found = _bare(rest)
            if found is not None and found[-1].low in _PLACES and _bare(toks[:k]) is not None:
                return _bare(toks[:k])
            if found is not None:
                return found
        if (
            word in _EN_BE
            and k
            and (
                low[k + 1 : k + 3] == ["no", "longer"]
                or k + 1 < len(low)
                and low[k + 1] in _EN_GONE
            )
        ):
            return _bare(toks[:k])  # "Omar is no longer on billing", "Jenkins is gone"
    return None


def _states_new(toks: list[Tok]) -> bool:
    for k, tok in enumerate(toks):
        if tok.low in (_ZH_NEW if tok.is_han else _EN_NEW):
            return True
        if tok.is_han and len(tok.low) == 2 and tok.low[0] in "改换":  # 改学, 换去
            return True
        found = predicate_at(toks, k)
        if found is not None and found[0].change:
            return True
    return False


def _switched(first: list[Tok]) -> str | None:
    """The kind `first` says was switched: "(I) switched dentists", "换了牙医"."""
    owners = lx.EN_OWNERS_USER | lx.EN_OWNERS_WE | lx.ZH_OWNERS_USER | lx.ZH_OWNERS_WE
    toks = [t for t in first if t.low not in owners and t.low != "了"]
    if len(toks) not in (2, 3) or toks[0].low not in (_ZH_SWITCH if toks[0].is_han else _EN_SWITCH):
        return None
    kind = toks[1:]
    if any(t.tag[:1] != "n" if t.is_han else not t.low.isalpha() for t in kind):
        return None
    return span_text(kind) if kind[-1].is_han or kind[-1].low.endswith("s") else None


def switched(sent: list[Tok]) -> tuple[str, list[Tok]] | None:
    """The kind of thing the first clause of `sent` says was switched, and the second
    clause, which names the new one; None when `sent` is no such pair."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    parts = _clauses(toks)
    if parts is None or (kind := _switched(parts[0])) is None or not _states_new(parts[1]):
        return None
    return kind, parts[1]


def ended(sent: list[Tok]) -> tuple[str, list[Tok]] | None:
    """The value `sent`'s first clause says ended and the words of its second clause,
    which says what holds now; None when `sent` is not such a pair of clauses."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    parts = _clauses(toks)
    if parts is None:
        return None
    first, second = parts
    value = _ended_in(first)
    if value is None and (not_this := _corrected(second)) is not None:
        return not_this, first  # "I'm allergic to amoxicillin, not penicillin"
    if value is None and _states_new(first) and (value := _ended_in(second)) is not None:
        return span_text(value), first  # "We bought a house in Hackney and moved out of Camden"
    if value is None or not (_states_new(second) or read(span_text(second)) is not None):
        return None  # "Capistrano is gone, deploys run through Argo CD"
    return span_text(value), second


def _ended_in(clause: list[Tok]) -> list[Tok] | None:
    return _zh_ended(clause) if any(t.is_han for t in clause) else _en_ended(clause)


def _corrected(second: list[Tok]) -> str | None:
    """The value a trailing "not X" / "不是 X" corrects."""
    if second and second[0].low in ("not", "不是", "而不是"):
        found = _bare(second[1:])
        return span_text(found) if found is not None else None
    return None
