"""A small learned judge of a pair (an older memory, a new text): is the new text a
change of the same fact, a distinct fact, or a repeat?

The rules (`decide`, `changes`, `overlap`) know the phrasings someone listed; people
write others ("We bumped the gateway timeout by 15 seconds", "Vuex 已经被我们干掉了").
The judge is a small ensemble of networks (one hidden layer) over features of the pair:
how much of the wording the two share, what the grammar read of each (the same subject
key, the same value), whether the new text states a change, the numbers on each side, a
word saying *which* thing each is about, the new text's own words hashed into buckets
(the change words it learns from data instead of a list), and, when an embedder is
loaded, the cosine of the two texts. Its weights are trained by
`benchmarks/train_judge.py` from the data under `benchmarks/data/` and shipped as
`judge-<kind>.json`.

Three ship: `words` for keyword-only installs (plain Python: no numpy there), `embed`
with any embedder's cosine, and `vectors`, which reads the shipped embedder's vectors of
both texts dimension by dimension (numpy), averaged with `embed` (`mean`). The caller
(`truth.writes`) runs the judges only where the rules found nothing, on the few
candidates the store already found, and acts only when they are sure: a sure change
supersedes, a likely one is asked (a conflict naming the candidate), a sure repeat
refreshes.
"""

from __future__ import annotations

import base64
import json
import math
import re
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from importlib import resources
from itertools import repeat
from operator import add, mul
from typing import Any

from remem import numbers, text
from remem.truth import repeats
from remem.truth.terms import content_terms as content_terms
from remem.truth.terms import shared_terms as shared_terms
from remem.truth.terms import terms_of

CLASSES = ("change", "distinct", "repeat")
BUCKETS = 1024  # hashed words of the new text that the old one lacks
_DENSE = 45  # the hand-made features before the buckets
# The features saying the new text adds something (no repeat: `no_repeat`) and that the
# pair is read with the embedder's cosine
ADDS, COSINE = 29, 19

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
    # the judges' change before they were told the pair is no repeat (`no_repeat`; -1:
    # not told): a save supersedes unasked only on what they read themselves
    read: float = -1.0

    @property
    def own_change(self) -> float:
        """The change as the networks read it, before `no_repeat`."""
        return self.change if self.read < 0 else self.read

    @property
    def best(self) -> str:
        probs = {"change": self.change, "distinct": self.distinct, "repeat": self.repeat}
        return max(probs, key=probs.__getitem__)


def no_repeat(v: Verdict) -> Verdict:
    """`v` knowing the pair is no repeat: the new text says a change, or a number, name or
    weekday the old one lacks (`repeats.adds_nothing`, a feature they read, and what a
    save asks of a repeat anyway). The networks spread a pair over the three classes by
    how alike the texts read, and put most of it on "repeat" where one value is swapped
    for another in the same words ("Calor collect the gas bottles on Fridays" / "Gas
    bottle pick-up by Calor every Tuesday morning": 0.83 repeat, 0.16 change, 0.01
    distinct); what they hold between change and distinct still stands."""
    rest = v.change + v.distinct
    if rest <= 0.0:
        return Verdict(0.5, 0.5, 0.0, v.own_change)
    return Verdict(v.change / rest, v.distinct / rest, 0.0, v.own_change)


def mean(verdicts: Sequence[Verdict]) -> Verdict:
    """The average of several judges' verdicts on one pair."""
    n = len(verdicts)
    told = any(v.read >= 0 for v in verdicts)
    return Verdict(
        sum(v.change for v in verdicts) / n,
        sum(v.distinct for v in verdicts) / n,
        sum(v.repeat for v in verdicts) / n,
        sum(v.own_change for v in verdicts) / n if told else -1.0,
    )


def _bucket(word: str) -> int:
    return zlib.crc32(word.encode("utf-8")) % BUCKETS


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

    # the old text's reading counts only beside one of the new text's (a grammar
    # reading of each candidate is the judge's largest cost; most texts have none)
    b = read(new)
    a = read(old) if b is not None else None
    both = float(a is not None and b is not None)
    same_key = float(a is not None and b is not None and a.key == b.key)
    same_value = float(bool(same_key) and a is not None and b is not None and a.value == b.value)
    return both, same_key, same_value, float(states_change(new)), float(states_change(old))


def _said(old: str, new: str) -> tuple[float, ...]:
    """Which kind of change the rules read the new text saying, as features: a value moved
    by an amount ("Type 1 up £1.20/t", "涨两块"), a value taken back, a change from a date
    on ("套餐A下个月起4299"), something stopped; and whether the old text says something
    stopped. The rules act on these only with a subject they read; the judges learn how
    far they count without one."""
    return (*_says(new), _stopped(old))


@lru_cache(maxsize=4096)  # the text's, against each candidate
def _says(content: str) -> tuple[float, float, float, float]:
    from remem.truth import elliptic, when
    from remem.truth.stops import stops

    return (
        float(elliptic.shifted(content)),
        float(elliptic.retracted(content)),
        float(when.lead(content) is not None),
        float(stops(content)),
    )


@lru_cache(maxsize=4096)  # each candidate's: only whether it says something stopped
def _stopped(content: str) -> float:
    from remem.truth.stops import stops

    return float(stops(content))


def _number(word: str) -> bool:
    return word[:1].isdigit()


@lru_cache(maxsize=4096)
def _aligned(old: str, new: str) -> tuple[float, ...]:
    """Where the two texts' words differ, aligned in order: a look-alike swaps a word
    naming *which* thing early and goes on the same ("1号工位 ..." / "2号工位 ...",
    "North meadow gets cut" / "South meadow ..."); a change keeps the start and differs
    in the value, or drops the subject altogether ("普洗降两块"). On h11 and h12 (never
    trained on) the judges reading these caught 8 and 3 more changes at 2% of the
    distinct pairs a store finds, the words judge 8 and 14."""
    a, b = text.terms(old), text.terms(new)
    if not a or not b:
        return (0.0,) * 8
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    diff = [op for op in ops if op[0] != "equal"]
    swap_then_same = swap_numbers = 0.0
    for (tag, i1, i2, j1, j2), after in zip(ops, ops[1:], strict=False):
        short = i2 - i1 <= 2 and j2 - j1 <= 2
        if tag == "replace" and short and after[0] == "equal" and after[2] - after[1] >= 2:
            swap_then_same = 1.0  # a word or two swapped, then the same words again
            if any(map(_number, a[i1:i2])) and any(map(_number, b[j1:j2])):
                swap_numbers = 1.0
    equal = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
    first = diff[0] if diff else None
    return (
        first[3] / len(b) if first else 1.0,  # where in the new text they start to differ
        2 * equal / (len(a) + len(b)),
        swap_then_same,
        swap_numbers,
        float(bool(diff) and ops[-1][0] != "equal"),  # they differ at the end (a value)
        float(bool(diff) and ops[0][0] != "equal"),  # ... at the start (which thing)
        math.log1p(len(diff)) / 2,
        float(first is not None and first[0] == "insert" and first[3] == 0),  # words put before
    )


def _qualified(old: str, new: str) -> float:
    from remem.entry import Entry
    from remem.truth.overlap import two_things

    return float(two_things(Entry(content=old), new))


def features(old: str, new: str, cosine: float | None) -> tuple[list[float], list[int]]:
    """The dense features of a pair and the hashed buckets of the new text's own words."""
    a, b = terms_of(old), terms_of(new)
    shared = a & b
    union = a | b or {""}
    na, nb = _numbers(old), _numbers(new)
    canon_a, canon_b = text.canonicalize(old), text.canonicalize(new)
    both, same_key, same_value, change, old_change = _reading(old, new)
    han = len(_HAN.findall(new)) / max(len(new), 1)
    only_new, only_old = b - a - text.EN_STOPWORDS, a - b - text.EN_STOPWORDS
    va, vb = _values(old), _values(new)
    da, db = repeats.days(old), repeats.days(new)
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
        float(cosine is not None),  # COSINE
        cosine if cosine is not None else 0.0,
        (cosine if cosine is not None else 0.0) * (len(shared) / len(union)),
        len(only_new) / max(len(b), 1),
        len(only_old) / max(len(a), 1),
        float(not only_old),
        float(not only_new),
        float(bool(va - vb) and bool(vb - va)),  # a value swapped for another
        float(bool(va - vb) and not vb - va),  # a value gone, none new
        float(bool(va & vb)),
        # what one value of a kind swapped for another reads as: a change, never a repeat
        # ("周三到货 下午4点" / "到货 周三中午12点", "值周二周四" / "值班 周一 周三")
        float(not repeats.adds_nothing(new, old)),  # ADDS
        float(bool(da) and bool(db) and da != db),
        float(bool(na - nb) and bool(nb - na)),
        *_aligned(old, new),
        *_said(old, new),
    ]
    words = sorted({_bucket(w) for w in b - a} | {_bucket("=" + w) for w in shared})
    return dense, words


def pair_vector(u: Any, v: Any) -> Any:
    """What the network reads of two texts' unit vectors (numpy arrays): where they
    agree (u*v) and where they differ (|u-v|), dimension by dimension."""
    import numpy as np

    return np.concatenate([u * v, np.abs(u - v)])


class PairVectors:
    """A new text's vector and its candidates' (float32 bytes, by id, as the store keeps
    them): every candidate's exact cosine, and both vectors for the judge that reads
    them."""

    def __init__(self, mine: bytes, theirs: dict[str, bytes], model: str = "") -> None:
        import numpy as np

        self._np = np
        self.mine = np.frombuffer(mine, "<f4")
        self.theirs = theirs
        self.model = model  # the embedder's name

    def of(self, old_id: str) -> tuple[float, Any] | None:
        """(cosine, `pair_vector`) of the candidate `old_id`, None if it has no vector."""
        raw = self.theirs.get(old_id)
        if raw is None:
            return None
        old = self._np.frombuffer(raw, "<f4")
        if old.shape != self.mine.shape:
            return None
        return float(old @ self.mine), pair_vector(old, self.mine)


def _floats(raw: str, width: int) -> list[tuple[float, ...]]:
    """Rows of `width` float32 numbers from their base64 text."""
    data = base64.b64decode(raw)
    flat = struct.unpack(f"<{len(data) // 4}f", data)
    return [flat[i : i + width] for i in range(0, len(flat), width)]


class _Net:
    """One network of the ensemble: hashed words and dense features into `hidden`
    ReLU units, then the three classes. The dense features' standardisation is folded
    into the first layer by the training script."""

    def __init__(self, raw: dict[str, Any]) -> None:
        hidden = raw["hidden"]
        self.dense = _floats(raw["dense"], hidden)
        self.buckets = _floats(raw["buckets"], hidden) if raw.get("buckets") else None
        self._vectors: str | None = raw.get("vectors")  # decoded by numpy on first use
        self._vectors_np: Any = None
        self.b1: list[float] = raw["b1"]
        self.w2: list[list[float]] = raw["w2"]
        self.b2: list[float] = raw["b2"]

    def vectors_np(self) -> Any:
        """Its weights over `pair_vector` (numpy), decoded on first use."""
        if self._vectors_np is None and self._vectors is not None:
            import numpy as np

            flat = np.frombuffer(base64.b64decode(self._vectors), "<f4")
            self._vectors_np = flat.reshape(-1, len(self.b1))
        return self._vectors_np


class _Ensemble:
    """The first layers of a judge's networks side by side, one row of all their hidden
    units a feature: each unit gets the same sums and products in the same order as in
    its own network (the same floats to the last bit), in a third of the steps."""

    def __init__(self, nets: Sequence[_Net]) -> None:
        if len({(n.buckets is None, n._vectors is None) for n in nets}) > 1:
            raise ValueError("a judge's networks read different inputs")
        self.nets = nets
        self.b1 = [w for net in nets for w in net.b1]
        self.dense = _side_by_side([n.dense for n in nets])
        tables = [n.buckets for n in nets if n.buckets is not None]
        self.buckets = _side_by_side(tables) if tables else None
        self.read_vectors = any(n._vectors is not None for n in nets)

    def logits(self, dense: list[float], words: list[int], pair: Any) -> list[list[float]]:
        """Each network's logits. map(add, ...) and map(mul, ...) do each sum and product
        of a plain loop without a frame per element (~24 candidates a save)."""
        h = self.b1
        for x, row in zip(dense, self.dense, strict=True):
            if x == 1.0:  # a yes of a yes/no feature (most are): x * w is w to the bit
                h = list(map(add, h, row))
            elif x:
                h = list(map(add, h, map(mul, repeat(x), row)))
        if self.buckets is not None:
            for i in words:
                h = list(map(add, h, self.buckets[i]))
        if self.read_vectors:
            # tolist: each float32 as the Python float that float() would give, at once
            read = [w for net in self.nets for w in (pair @ net.vectors_np()).tolist()]
            h = list(map(add, h, read))
        h = [a if a > 0 else 0.0 for a in h]
        out, at = [], 0
        for net in self.nets:
            mine, at = h[at : at + len(net.b1)], at + len(net.b1)
            out.append(
                [b + sum(map(mul, row, mine)) for row, b in zip(net.w2, net.b2, strict=True)]
            )
        return out


def _side_by_side(tables: list[list[tuple[float, ...]]]) -> list[tuple[float, ...]]:
    """Row i of each table, joined: one row of every network's hidden units."""
    return [tuple(w for row in rows for w in row) for rows in zip(*tables, strict=True)]


class Judge:
    """An ensemble of small networks, their probabilities averaged, and (judges on
    words and the cosine) a logistic regression over the same features, averaged with
    them. `vectors`: the embedder whose vectors it reads (`pair_vector`), if any."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.nets = [_Net(m) for m in raw["members"]]
        self._ensemble = _Ensemble(self.nets)
        self.linear: list[list[float]] | None = raw.get("linear")
        # the features it was trained on: the first `width` (a judge trained before
        # features were added reads what it knows)
        self.width = len(self.nets[0].dense)
        # each class's bucket weights, indexed by bucket (a word's weight, looked up)
        self._tails = [row[self.width :] for row in self.linear or []]
        self.vectors: str | None = raw.get("embedder")

    def verdict(self, old: str, new: str, cosine: float | None = None, pair: Any = None) -> Verdict:
        """The verdict on (`old`, `new`); `pair`: `pair_vector` of their vectors, for a
        judge that reads them."""
        if self.vectors is not None and pair is None:
            raise ValueError("this judge reads the texts' vectors")
        return self.weigh(*features(old, new, cosine), pair)

    def weigh(self, dense: list[float], words: list[int], pair: Any = None) -> Verdict:
        """The verdict on a pair of these `features` (two judges of one pair and one
        cosine read the same features: computed once, `verdicts.ranked`)."""
        if self.vectors is not None and pair is None:
            raise ValueError("this judge reads the texts' vectors")
        dense = dense[: self.width]
        nets = mean([_softmax(each) for each in self._ensemble.logits(dense, words, pair)])
        if self.linear is not None:
            logits = [
                sum(map(mul, row, dense)) + sum(map(tail.__getitem__, words))
                for row, tail in zip(self.linear, self._tails, strict=True)
            ]
            nets = mean([nets, _softmax(logits)])
        return _knowing(dense, nets)


def _knowing(dense: list[float], v: Verdict) -> Verdict:
    """`v` once the rules' word that the pair is no repeat is taken (`no_repeat`), by the
    judges reading the embedder's cosine. On the pairs of h16-h18 it lifts the changes
    they read at 0.97 from 6 / 7 / 10 of 195 to 27 / 15 / 27 (look-alikes 1 / 0 / 0 of 70
    either way); end to end, asking on it, h16 / h17 / h18 115 / 108 / 101 -> 118 / 113 /
    110 changes handled. The words judge it only moves along its curve (at 0.8 h17 44
    changes and 4 look-alikes -> 57 and 7), and even where repeat is its likeliest class
    it turns the dev set's one-template look-alikes into changes ("预发环境的风控服务的开发
    语言是 Rust" / "测试环境的… Python": 0.96): not for it."""
    return no_repeat(v) if dense[ADDS] == 1.0 and dense[COSINE] else v


def _softmax(logits: list[float]) -> Verdict:
    top = max(logits)
    exp = [math.exp(v - top) for v in logits]
    norm = sum(exp)
    return Verdict(exp[0] / norm, exp[1] / norm, exp[2] / norm)


@lru_cache(maxsize=4)  # three kinds: two evicted the third on every save with USE
def load(kind: str) -> Judge | None:
    """The shipped judge for `kind`, None if none ships: "words" (keyword-only),
    "embed" (with any embedder's cosine) or "vectors" (reading the shipped embedder's
    vectors of both texts)."""
    try:
        raw = resources.files("remem.truth").joinpath(f"judge-{kind}.json").read_text("utf-8")
    except FileNotFoundError:
        return None
    return Judge(json.loads(raw))
