"""A small learned judge of a pair (an older memory, a new text): is the new text a
change of the same fact, a distinct fact, or a repeat?

The rules (`decide`, `changes`, `overlap`) know the phrasings someone listed; people
write others ("We bumped the gateway timeout by 15 seconds", "Vuex 已经被我们干掉了").
The judge is a multinomial logistic regression over features of the pair: how much of
the wording the two share, what the grammar read of each (the same subject key, the
same value), whether the new text states a change, the numbers on each side, a word
saying *which* thing each is about, the new text's own words hashed into buckets (the
change words it learns from data instead of a list), and, when an embedder is loaded,
the cosine of the two texts. Its weights are trained by `benchmarks/train_judge.py`
from the data under `benchmarks/data/truth_train/` and shipped in `judge.json` (a few
ten KB): inference is a few dozen multiplications in plain Python, so keyword-only
installs (no numpy) have it too.

Two weight sets ship: one for keyword-only installs (`words`), one with the embedder's
cosine (`embed`). The caller (`truth.writes`) runs the judge only where the rules found
nothing, on the few candidates the store already found, and acts on it only when it is
sure: a sure change supersedes, a likely one is asked (a conflict naming the
candidate), a sure repeat refreshes.
"""

from __future__ import annotations

import json
import math
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from remem import numbers, text

CLASSES = ("change", "distinct", "repeat")
BUCKETS = 1024  # hashed words of the new text that the old one lacks
_DENSE = 29  # the hand-made features before the buckets

_HAN = re.compile(r"[\u3400-\u9fff]")
# A value as people write one: a number, a name with a capital or a digit in it, a
# Latin word inside Chinese ("Sentry", "IE11", "s1", "Vuex", "9:30", "JDK")
_VALUE = re.compile(r"[A-Za-z][\w.+#-]*|\d[\d.,:/%-]*")


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's probabilities for one pair."""

    change: float
    distinct: float
    repeat: float

    @property
    def best(self) -> str:
        probs = {"change": self.change, "distinct": self.distinct, "repeat": self.repeat}
        return max(probs, key=probs.__getitem__)


def _bucket(word: str) -> int:
    return zlib.crc32(word.encode("utf-8")) % BUCKETS


@lru_cache(maxsize=4096)
def _terms(content: str) -> frozenset[str]:
    return frozenset(text.terms(content))


def content_terms(content: str) -> frozenset[str]:
    """The words of `content` that say something (no stopwords)."""
    return _terms(content) - text.EN_STOPWORDS - text.ZH_STOPWORDS


@lru_cache(maxsize=4096)
def _values(content: str) -> frozenset[str]:
    han = bool(_HAN.search(content))
    out = set()
    for i, m in enumerate(_VALUE.finditer(content)):
        word = m.group().rstrip(".,:/-")
        low = word.lower()
        if not word or low in text.EN_STOPWORDS:
            continue
        named = any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:])
        # a capital inside a sentence is a name ("goes to Sentry"), not its first word
        inside = i > 0 and content[: m.start()].rstrip()[-1:] not in (".", "!", "?", "")
        if han or named or (word[0].isupper() and inside):
            out.add(low)
    return frozenset(out)


@lru_cache(maxsize=4096)
def _numbers(content: str) -> frozenset[str]:
    return frozenset(t.key for t in numbers.number_tokens(content))


def _reading(old: str, new: str) -> tuple[float, float, float, float, float]:
    """What the grammar read of each side: both read, the same subject key, the same
    value, whether the new text states a change, whether each names which thing it is."""
    from remem.truth.markers import states_change
    from remem.truth.subject import read

    a, b = read(old), read(new)
    both = float(a is not None and b is not None)
    same_key = float(a is not None and b is not None and a.key == b.key)
    same_value = float(bool(same_key) and a is not None and b is not None and a.value == b.value)
    return both, same_key, same_value, float(states_change(new)), float(states_change(old))


def _qualified(old: str, new: str) -> float:
    from remem.entry import Entry
    from remem.truth.overlap import two_things

    return float(two_things(Entry(content=old), new))


def features(old: str, new: str, cosine: float | None) -> tuple[list[float], list[int]]:
    """The dense features of a pair and the hashed buckets of the new text's own words."""
    a, b = _terms(old), _terms(new)
    shared = a & b
    union = a | b or {""}
    na, nb = _numbers(old), _numbers(new)
    canon_a, canon_b = text.canonicalize(old), text.canonicalize(new)
    both, same_key, same_value, change, old_change = _reading(old, new)
    han = len(_HAN.findall(new)) / max(len(new), 1)
    only_new, only_old = b - a - text.EN_STOPWORDS, a - b - text.EN_STOPWORDS
    va, vb = _values(old), _values(new)
    dense = [
        1.0,  # bias
        len(shared) / len(union),
        len(shared) / max(len(b), 1),
        len(shared) / max(len(a), 1),
        text.dice(canon_a, canon_b),
        float(canon_a == canon_b),
        float(bool(na)),
        float(bool(nb)),
        float(bool(na) and na == nb),
        float(bool(na) and bool(nb) and not (na & nb)),
        both,
        same_key,
        same_value,
        change,
        old_change,
        _qualified(old, new),
        math.log1p(len(b)) / 4,
        abs(math.log1p(len(a)) - math.log1p(len(b))),
        han,
        float(cosine is not None),
        cosine if cosine is not None else 0.0,
        (cosine if cosine is not None else 0.0) * (len(shared) / len(union)),
        len(only_new) / max(len(b), 1),
        len(only_old) / max(len(a), 1),
        float(not only_old),
        float(not only_new),
        float(bool(va - vb) and bool(vb - va)),  # a value swapped for another
        float(bool(va - vb) and not vb - va),  # a value gone, none new
        float(bool(va & vb)),
    ]
    words = sorted({_bucket(w) for w in b - a} | {_bucket("=" + w) for w in shared})
    return dense, words


class Judge:
    """Trained weights, one row per class: the dense features, then the buckets."""

    def __init__(self, weights: list[list[float]]) -> None:
        self.weights = weights

    def verdict(self, old: str, new: str, cosine: float | None = None) -> Verdict:
        dense, words = features(old, new, cosine)
        logits = [
            sum(w * x for w, x in zip(row, dense, strict=False))
            + sum(row[_DENSE + i] for i in words)
            for row in self.weights
        ]
        top = max(logits)
        exp = [math.exp(v - top) for v in logits]
        total = sum(exp)
        return Verdict(exp[0] / total, exp[1] / total, exp[2] / total)


@lru_cache(maxsize=2)
def load(kind: str) -> Judge | None:
    """The shipped judge for `kind` ("words" or "embed"), None if none ships."""
    try:
        raw = resources.files("remem.truth").joinpath("judge.json").read_text("utf-8")
    except FileNotFoundError:
        return None
    weights = json.loads(raw).get(kind)
    return Judge(weights) if weights else None
