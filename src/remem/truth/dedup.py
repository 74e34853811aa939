"""Duplicates and conflicts between two entries of one domain (SPEC LT8, LT10).

Semantic dedup (LT9) plugs in as a `SimilarityCheck`: given the incoming entry
and the keyword/rule candidates, it may name more duplicates or conflicts. None
is configured until an embedder exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from remem import text
from remem.entry import Entry

# Events may legitimately differ in numbers ("v1.2 released", "v1.3 released");
# statements of how things are may not.
CONFLICT_TYPES = frozenset({"fact", "preference", "decision"})
DICE_THRESHOLD = 0.8

Relation = Literal["duplicate", "conflict", "supersede"]


@dataclass(frozen=True, slots=True)
class Match:
    entry: Entry
    relation: Relation
    reason: str


class SimilarityCheck(Protocol):
    """The seam for semantic dedup: extra matches beyond the rules below."""

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match]: ...


def _keys(entry: Entry) -> dict[str, str]:
    return {k.lower(): v for k, v in entry.facts.items()}


def same_canon(existing: Entry, incoming: Entry, left: str | None = None) -> bool:
    """The same content once canonicalised (SPEC LT8); `left`: the stored canonical form
    of `existing`, when known."""
    left = text.canonicalize(existing.content) if left is None else left
    return bool(left) and left == text.canonicalize(incoming.content)


def _qualifiers(content: str, key: str) -> set[str]:
    """The words that say whose `key` it is: the noun phrase right before it
    ("主库的备份保留" -> 主库, 备份; "the staging DB pool size" -> staging, db, pool)."""
    low = content.lower()
    at = low.find(key)
    out: set[str] = set()
    for word, tag in reversed(text.tagged(low[:at]) if at > 0 else []):
        if tag == "uj" or word == "'s":
            continue  # 的, 's: the phrase goes on
        english = tag == "eng"
        if english and word in text.EN_STOPWORDS or not (english or _modifier(tag)):
            break  # a verb, preposition or article ends the phrase
        out.update(text.terms(word))
    return out


def _modifier(tag: str) -> bool:
    return tag[:1] in ("n", "f", "s", "a", "b") or tag == "vn"


def _same_thing(left: str, right: str, key: str) -> bool:
    """Whether `key` names the same thing in both texts: the qualifiers of one include
    the other's ("项目使用 JDK 17" / "JDK 21"), not each its own (主库 / 从库)."""
    a, b = _qualifiers(left, key), _qualifiers(right, key)
    return a <= b or b <= a


def relation(
    existing: Entry,
    incoming: Entry,
    *,
    dice_threshold: float = DICE_THRESHOLD,
    left: str | None = None,
) -> Match | None:
    """How `incoming` relates to `existing` of the same domain by surface alone (the
    fall-back where either states no subject the rules can read), or None. `left`: the
    stored canonical form of `existing`, when known."""
    left = text.canonicalize(existing.content) if left is None else left
    right = text.canonicalize(incoming.content)
    if not left or not right:
        return None
    if left == right:
        return Match(existing, "duplicate", "same content once canonicalised")
    if incoming.type not in CONFLICT_TYPES:
        return None
    old_keys, new_keys = _keys(existing), _keys(incoming)
    changed = sorted(
        k
        for k in old_keys.keys() & new_keys.keys()
        if old_keys[k] != new_keys[k] and _same_thing(existing.content, incoming.content, k)
    )
    if changed:
        detail = ", ".join(f"{k}: {old_keys[k]} -> {new_keys[k]}" for k in changed)
        return Match(existing, "conflict", f"different value for the same thing ({detail})")
    left_skeleton = text.skeleton(left)
    if left_skeleton and left_skeleton == text.skeleton(right):
        return Match(existing, "conflict", "same statement with different numbers")
    if _dice_at_most(left, right) < dice_threshold:
        return None  # lengths too far apart to reach it: not worth counting bigrams
    score = text.dice(left, right)
    if score >= dice_threshold:
        return Match(existing, "conflict", f"nearly the same wording (bigram Dice {score:.2f})")
    return None


def _dice_at_most(left: str, right: str) -> float:
    """The highest `text.dice` two canonical forms of these lengths can have (each
    shares at most all of its bigrams), in the same arithmetic."""
    a, b = max(len(left.replace(" ", "")) - 1, 0), max(len(right.replace(" ", "")) - 1, 0)
    return 2 * min(a, b) / (a + b) if a + b else 1.0


def classify(
    incoming: Entry,
    candidates: Sequence[Entry],
    *,
    semantic: SimilarityCheck | None = None,
    dice_threshold: float = DICE_THRESHOLD,
) -> list[Match]:
    """Every duplicate and conflict of `incoming` among `candidates`, duplicates first."""
    matches = [m for c in candidates if (m := relation(c, incoming, dice_threshold=dice_threshold))]
    if semantic is not None:
        seen = {m.entry.id for m in matches}
        matches += [m for m in semantic(incoming, candidates) if m.entry.id not in seen]
    return sorted(matches, key=lambda m: m.relation != "duplicate")
