"""What a value can look like: short, a name, a number, a time or a place, never a
pronoun, a verb or a feeling ("so beautiful" is how something felt, not its value)."""

from __future__ import annotations

import re
from functools import lru_cache

from remem.truth import lexicon as lx
from remem.truth.segment import Tok
from remem.truth.table import ordered, words

_MAX_VALUE_TOKENS = 6


PRONOUNS = words("pronoun")


# Times that say when something happened once, not when it happens: "上个月搬到了深圳".
ONE_OFF = ordered("one off", "zh")

NEGATORS = words("negator")


def span_text(toks: list[Tok]) -> str:
    if not toks:
        return ""
    return "".join(
        t.text if i == 0 or not (t.start > toks[i - 1].end) else " " + t.text
        for i, t in enumerate(toks)
    ).strip()


def date_like(toks: list[Tok]) -> bool:
    return _date_like(span_text(toks))


# The grammar asks this of each head token and value span it tries (~2 a token read):
# the same short texts again and again.
@lru_cache(maxsize=8192)
def _date_like(text: str) -> bool:
    from remem import numbers

    if any(t.kind in ("date", "time") for t in numbers.number_tokens(text)):
        return True
    low = text.lower()
    return bool(_CLOCK.search(text)) or any(w in low for w in _WHEN_WORDS)


# "9am", "10 p.m.", "3点", "十点半", "5 o'clock": a time of day
_CLOCK = re.compile(
    r"\b\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.|o'clock)(?![a-z])|[\d一二三四五六七八九十两]+\s*[点時时]",
    re.IGNORECASE,
)
_WHEN_WORDS = ordered("when word")


_ROOM = re.compile(r"\d{1,4}[A-Za-z]{1,2}|(?![vV]\d)[A-Za-z]{1,2}\d{1,4}")  # 2A, B12; not v2


_POINTING = words("demonstrative", "zh")


def place_like(toks: list[Tok], located: bool) -> bool:
    if located or any(t.kind in ("path", "url", "word") for t in toks):
        return True
    if len(toks) == 1:  # a place's name, or a thing where things are kept ("钥匙在前台"), or
        # a room's or a bay's code ("is in 2A", "在B12"), not a number alone
        tok = toks[0]
        code = tok.kind == "num" and _ROOM.fullmatch(tok.text) is not None
        return tok.tag[:2] in ("ns", "s", "f", "nt", "nz") or tok.tag == "n" or code
    # a name the segmenter split ("七牛云" is 七 + 牛云): short, and no word of it a verb,
    # an adverb or a particle ("海边放风筝" is something done there, not a place)
    known = lx.concepts()
    # "红星菜市场北门那个角上": which part of the place, pointed at, no verb
    toks = [t for k, t in enumerate(toks) if not (k and t.low in _POINTING)]
    return len(toks) <= 3 + all(t.tag[:1] == "n" for t in toks) and all(
        t.is_han and (t.tag[:1] in ("n", "m", "q", "j") or t.low in known) for t in toks
    )


# Degree adverbs: "amazingly resilient", "so excited" describe how something is
_DEGREE = words("degree", "en")


def _described(toks: list[Tok]) -> bool:
    """ "so excited about summer break", "amazingly resilient": how it is, said with a
    degree adverb first, is a description, not a value."""
    if len(toks) < 2 or toks[0].is_han or toks[0].kind != "word":
        return False
    return toks[0].low in lx.EVALUATIVE or toks[0].low in _DEGREE


def value_ok(toks: list[Tok], items: int) -> bool:
    """A value: short, no pronoun or negation, no verb (but a time: "每周四晚上")."""
    if not toks or len(toks) > _MAX_VALUE_TOKENS * items or len(span_text(toks)) > 60:
        return False
    if all(t.low in lx.EVALUATIVE or t.kind == "punct" for t in toks) or _described(toks):
        return False  # "so beautiful": a feeling about it, not its value
    if date_like(toks):
        return not any(t.low in NEGATORS for t in toks)
    concepts = lx.concepts()
    for k, tok in enumerate(toks):
        if k and tok.low in _POINTING and k + 1 < len(toks) and nounish(toks[k + 1]):
            continue  # "北门那个角": which part of the place, no pronoun or verb
        if tok.low in PRONOUNS or tok.low in NEGATORS:
            return False
        verbish = tok.is_han and tok.tag[:1] in ("v", "d", "r", "p", "c") and tok.tag != "vn"
        if verbish and tok.low not in concepts and not tok.low.startswith("每"):  # 每天一次
            return False
    return True


def nounish(tok: Tok) -> bool:
    if tok.is_han:
        return tok.tag[:1] == "n" or tok.tag == "vn"
    return tok.kind == "word" and tok.low not in lx.UNITS and tok.low not in lx.EN_VALUE_STOPS
