"""Statements that one value replaced another, with no subject named: "We replaced
Datadog with Grafana", "Datadog was replaced by Grafana", "用 Grafana 替换了 Datadog",
"Datadog 被 Grafana 取代了". What changed is whatever the old value was the value of:
the claim's subject is the kind the two values share (Grafana and Datadog are
monitoring), and the old value is kept as the one that stopped, so a decision can find
the memory that held it (`remem.truth.decide`).

    replaced(tokens of "We swapped Jenkins for GitHub Actions")
    # Clause(subject=[], value=[GitHub, Actions], dropped="Jenkins", change=True, ...)
"""

from __future__ import annotations

from remem.truth import keys as keymod
from remem.truth import lexicon as lx
from remem.truth.grammar import Clause
from remem.truth.predicates import Predicate
from remem.truth.segment import SENTENCE_END, Tok, solid
from remem.truth.table import ordered, words
from remem.truth.values import span_text, value_ok

_EN_VERBS = words("replacing verb", "en")
# "dropped X in favour of Y", "ditched X for Y": the old value first, then the new one
_EN_LEAVING = words("leaving verb", "en")
_EN_LINKS = words("replacing link", "en")
_EN_PASSIVE = words("passive auxiliary", "en")
# "(we've) gone from X to Y", "moved from X to Y": the old value, then the new one
_EN_FROM_VERBS = words("from verb", "en")
_ARROWS = ordered("arrow", "any")
_ROLE = words("replacing role")  # "Envoy as the API gateway"
_ZH_VERBS = words("replacing verb", "zh")
_ZH_USE = words("replacing use", "zh")
_ZH_PASSIVE = words("passive auxiliary", "zh")
_CHANGE = Predicate(change=True)
_MAX = 4  # tokens of a value


# The owner and discourse words before a statement ("We", "我们已经"), skipped by `_lead`.
_LEADING = frozenset[str]().union(
    lx.EN_OWNERS_WE,
    lx.ZH_OWNERS_WE,
    lx.EN_DISCOURSE,
    lx.ZH_DISCOURSE,
    lx.ZH_CHANGE_ADVERBS,
    lx.EN_CHANGE_ADVERBS,
    lx.EN_OWNERS_USER,
    lx.ZH_OWNERS_USER,
    ("have", "has", "had", "just", "finally", "已经", "刚"),
)


def _lead(toks: list[Tok]) -> list[Tok]:
    """Without the owner and discourse words before the statement ("We", "我们已经")."""
    k = 0
    while k < len(toks) and toks[k].low in _LEADING:
        k += 1
    return toks[k:]


def _value(toks: list[Tok]) -> list[Tok] | None:
    cut = next(
        (k for k, t in enumerate(toks) if t.low in ("as", "for", "作为", "做", "来做")), None
    )
    toks = toks[:cut]  # "Envoy as the API gateway": the role is not the value
    out = [t for t in toks if t.low not in lx.EN_DETERMINERS and t.low not in lx.ZH_TRAILING]
    while out and (out[-1].low in lx.EN_TRAILING or out[-1].kind == "punct"):
        out.pop()
    if out and out[-1].low == "out":  # "swapped Jenkins out for …"
        out.pop()
    return out if 0 < len(out) <= _MAX and value_ok(out, 1) else None


def _kind(value: list[Tok]) -> str | None:
    return keymod.value_kind(keymod.value_terms(span_text(value)))


def _split(toks: list[Tok], at: int, links: frozenset[str]) -> tuple[list[Tok], list[Tok]] | None:
    """The words after the verb at `at`, cut at the first link word into (old, new)."""
    rest = [t for t in toks[at + 1 :] if t.low != "out"]
    if rest and rest[0].low == "in" and toks[at].low.startswith("trad"):
        rest = rest[1:]  # "traded in the Civic for a Model 3"
    cut = next((k for k, t in enumerate(rest) if t.low in links), None)
    return None if cut is None else (rest[:cut], rest[cut + 1 :])


def _favour(toks: list[Tok]) -> list[Tok]:
    """ "in favour of" / "in favor of" as the one link word "for"."""
    out: list[Tok] = []
    for tok in toks:
        if tok.low == "of" and [t.low for t in out[-2:]] in (["in", "favour"], ["in", "favor"]):
            out[-2:] = [Tok("for", "for", "word", "eng", out[-2].start, tok.end)]
        else:
            out.append(tok)
    return out


def _english(toks: list[Tok]) -> tuple[list[Tok], list[Tok]] | None:
    """(old, new) of "replaced X with Y", "X was replaced by Y", "Y replaced X",
    "dropped X in favour of Y"."""
    toks = _favour(toks)
    start = next(
        (
            k
            for k, t in enumerate(toks[:-1])
            if t.low in _EN_FROM_VERBS and toks[k + 1].low == "from"
        ),
        None,
    )
    if start is not None and not [t for t in toks[:start] if t.low not in lx.EN_DETERMINERS]:
        return _split(toks, start + 1, frozenset({"to"}))
    leaving = next((k for k, t in enumerate(toks) if t.low in _EN_LEAVING), None)
    if leaving is not None and not [t for t in toks[:leaving] if t.low not in lx.EN_DETERMINERS]:
        return _split(toks, leaving, frozenset({"for"}))
    at = next((k for k, t in enumerate(toks) if t.low in _EN_VERBS), None)
    if at is None:
        return None
    before = [t for t in toks[:at] if t.low not in lx.EN_DETERMINERS]
    if before and before[-1].low in _EN_PASSIVE:  # "X was replaced by Y"
        old = [t for t in before if t.low not in _EN_PASSIVE]
        new = toks[at + 2 :] if at + 1 < len(toks) and toks[at + 1].low in _EN_LINKS else None
        return (old, new) if new else None
    if not before:  # "(We) replaced X with Y", "swapped X out for Y"
        return _split(toks, at, _EN_LINKS)
    return toks[at + 1 :], before  # "GitHub Actions replaced Jenkins"


def _chinese(toks: list[Tok]) -> tuple[list[Tok], list[Tok]] | None:
    """(old, new) of "用 Y 替换了 X", "X 被 Y 取代了", "Y 取代了 X"."""
    at = next((k for k, t in enumerate(toks) if t.low in _ZH_VERBS), None)
    if at is None:
        return None
    before, after = toks[:at], [t for t in toks[at + 1 :] if t.low not in ("了", "掉")]
    passive = next((k for k, t in enumerate(before) if t.low in _ZH_PASSIVE), None)
    if passive is not None:  # "X 被 Y 取代了"
        return before[:passive], before[passive + 1 :]
    if before and before[0].low in _ZH_USE:  # "用 Y 替换了 X"
        return after, before[1:]
    return after, before  # "Y 取代了 X"


def _arrow(toks: list[Tok]) -> Clause | None:
    """ "内存上限 4G → 8G", "CI: Jenkins -> GitHub Actions": the subject, the old value
    (the words right before the arrow) and the new one."""
    text = [t.text for t in toks]
    at = next(
        (
            k
            for k in range(len(toks))
            if text[k] in _ARROWS or text[k : k + 2] in (["-", ">"], ["=", ">"])
        ),
        None,
    )
    if at is None:
        return None
    new = _value(toks[at + (1 if text[at] in _ARROWS else 2) :])
    before = toks[:at]
    colon = next((k for k in range(len(before) - 1, -1, -1) if before[k].text in ":："), None)
    if colon is not None:
        subject, old = before[:colon], before[colon + 1 :]
    else:
        k = len(before)
        while (
            k > 0 and not before[k - 1].is_han and (k == len(before) or before[k - 1].kind == "num")
        ):
            k -= 1  # the last word, or a run of numbers ("30 s")
        subject, old = before[:k], before[k:]
    old_value = _value(old)
    if new is None or old_value is None:
        return None
    return Clause(None, subject, pred=_CHANGE, value=new, change=True, dropped=span_text(old_value))


def replaced(sent: list[Tok]) -> Clause | None:
    """The replacement `sent` states, as a clause whose subject is left to the value's
    kind; None when it states none, or its values are not short names of one kind."""
    toks = _lead([t for t in solid(sent) if t.text not in SENTENCE_END])
    if not toks:
        return None
    if (arrow := _arrow(toks)) is not None:
        return arrow
    found = _chinese(toks) if toks[0].is_han or any(t.is_han for t in toks) else _english(toks)
    if found is None:
        return None
    old, new = _value(found[0]), _value(found[1])
    if old is None or new is None:
        return None
    # What changed is what the old value was: its kind names the subject ("replaced
    # Elasticsearch with OpenSearch"), else the new value's; neither known, no claim.
    kind = _kind(old)
    attrs = [kind.replace("_", " ")] if kind is not None and kind != _kind(new) else []
    return Clause(
        None, [], pred=_CHANGE, value=new, attrs=attrs, change=True, dropped=span_text(old)
    )
