"""Duplicates and conflicts between two entries of one domain (SPEC LT8, LT10).

Semantic dedup (LT9) plugs in as a `SimilarityCheck`: given the incoming entry
and the keyword/rule candidates, it may name more duplicates or conflicts. None
is configured until an embedder exists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol

from remem import text
from remem.entry import Entry
from remem.glossary import GLOSSARY
from remem.named_values import named_values
from remem.truth import lexicon as lx

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
    sure: float = 1.0  # how likely the judge read it (a rule's match: 1)


class SimilarityCheck(Protocol):
    """The seam for semantic dedup: extra matches beyond the rules below."""

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match]: ...


def _keys(entry: Entry) -> dict[str, str]:
    return {k.lower(): v for k, v in entry.facts.items()}


# The head of a note: its first words, or what comes before a colon near its start
COLON_WITHIN = 10
_LABEL = re.compile(r"[a-z]?\d+[a-z]?")
_LETTER = re.compile(r"[a-z]")  # a letter naming a Chinese noun's which: A班, B区, C栋
_HAN_WORD = re.compile(r"[\u4e00-\u9fff]+")


def labels(content: str) -> dict[str, str]:
    """The numbers that name which thing a note is about, at its head: "Flat 2A smoke
    alarm ...", "Row 12 of the orchard ...", "bug #88：...", "302房空调..." -> {flat: 2a},
    {row: 12}, {bug: 88}, {房: 302}; a letter before a Chinese noun too ("A班" -> {班: a}),
    or a capital right after one ("冷柜A" -> {冷柜: a}).
    Two notes whose heads differ there are about two things, not one thing's two values.
    A number with a point ("Python 3.12"), a unit ("timeout 30 s", "10 mg", "3 天") or
    four digits without a "#" ("Budget 5000") is a value, and so is a known technology's
    ("JDK 17", `remem.glossary`)."""
    return dict(_labels(content))


@lru_cache(maxsize=4096)  # the text's and each candidate's, asked of every pair
def _labels(content: str) -> tuple[tuple[str, str], ...]:
    tagged = text.tagged(content)
    words = [w for w, _ in tagged]
    colon = colon_at(words)
    # without a colon, only a note's first word names it by number ("Hive 2 ..."): "iOS
    # 端用 Xcode 15 打包" uses a tool, "Xcode 16 出来以后" is about one
    lead = 3 if words[:1] and words[0] in ("#", "the", "our", "my") else 2
    if _noun_words(words[:2]):  # "Trestle row 12 ...", "Lever harp 1 ...": a noun's number
        lead = 3
    head = words[:lead] if colon is None else words[:colon]
    named = named_values(content)
    out = dict(_lettered_en(content))
    for i, word in enumerate(head):
        prev = head[i - 1] if i else ""
        if i <= 1 and _LETTER.fullmatch(word) and (noun := _lettered(tagged, i + 1)):
            out[noun] = word  # "A班 周六上午英语" / "B班英语 周日上午": two classes
            continue
        if i == 1 and _LETTER.fullmatch(word) and _HAN_WORD.fullmatch(prev):
            # "冷柜A放蔬菜" / "冷柜B放丸子": a noun's letter, more said of it after (not a
            # value ending its clause: "血型O，…")
            if re.search(rf"{re.escape(prev + word.upper())}(?:[\u4e00-\u9fff]| \S)", content):
                out[prev] = word
            continue
        if not _LABEL.fullmatch(word) or (len(word) > 3 and word.isdigit() and prev != "#"):
            continue
        after, tag = tagged[i + 1] if i + 1 < len(tagged) else ("", "")
        if prev == "#":
            out[head[i - 2] if i > 1 else "#"] = word
        elif prev and named.get(prev, "").removeprefix("v") == word and not _unit(after, tag):
            if prev not in GLOSSARY:  # a technology's number is its version: "JDK 17"
                out[prev] = word
        elif i == 1 and after == "号" and _HAN_WORD.fullmatch(prev):
            out[prev] = word  # "腊肠1号烘房" / "腊肠2号烘房" (jieba tags what follows 号 at will)
        elif i <= 1 and (noun := _noun_after(tagged, i + 1)):
            out[noun] = word  # "302房", "3号楼", "2号机房"
        elif i == 0 and after == "号":
            out["号"] = word  # "1号磨浆机", "3号炉": whatever jieba made of the noun
    return tuple(out.items())


def _noun_words(words: list[str]) -> bool:
    """Whether `words` are English words that may name a thing (no stopword)."""
    return (
        bool(words)
        and all(w.isascii() and w.isalpha() for w in words)
        and not (set(words) & text.EN_STOPWORDS)
    )


# a capital letter between English words at a note's head: "Studio A barre height ...",
# "Finishing line B sprays ..." (not an article: lower case, or the note's first word;
# not "Plan A is to fly": no word after it that says more of the thing)
_EN_LETTERED = re.compile(r"^(?:[A-Za-z]+ )?([A-Za-z]{2,}) ([A-Z]) ([a-z]+)\b")


_NOT_AFTER_LETTER = frozenset({"and", "or", "to", "of", "for", "with", "in", "on", "at"})


def _lettered_en(content: str) -> list[tuple[str, str]]:
    m = _EN_LETTERED.match(content)
    # "Bay C door", "Blast freezer A is set to -40°C" (a verb after the letter too)
    if m is None or m[1].lower() in text.EN_STOPWORDS or m[3] in _NOT_AFTER_LETTER:
        return []
    if m[2] == "I":
        return []  # "Yesterday I went ...": the speaker
    return [(text.terms(m[1])[0] if text.terms(m[1]) else m[1].lower(), m[2].lower())]


def _noun_after(tagged: list[tuple[str, str]], at: int) -> str | None:
    if at < len(tagged) and tagged[at][0] == "号":
        at += 1
    if at < len(tagged) and tagged[at][1].startswith("n") and not tagged[at][0].isascii():
        return None if tagged[at][0] in lx.UNITS else tagged[at][0]
    return None


def _lettered(tagged: list[tuple[str, str]], at: int) -> str | None:
    """The Chinese noun a letter names one of (A班, B组, C栋: jieba tags 组 and 栋 zg)."""
    word, tag = tagged[at] if at < len(tagged) else ("", "")
    named = len(word) <= 2 and _HAN_WORD.fullmatch(word) and tag[:1] in ("n", "z", "q")
    return word if named and word not in lx.UNITS else None


def _unit(word: str, tag: str) -> bool:
    """A measure after a number: a unit word, a short one ("mg", "km"), %, a 量词."""
    if word in lx.UNITS or word == "%" or tag in ("m", "q"):
        return True
    return word.isascii() and word.isalpha() and len(word) <= 3 and word not in text.EN_STOPWORDS


def named_apart(left: str, right: str) -> bool:
    """Whether the two notes' heads name two things: by number (see `labels`), or one
    template's head with one word swapped before its colon ("Candidate Priya Nair: ..." /
    "Candidate Priya Naik: ...", "Truck 41: ..." / "Trailer 41: ...")."""
    a, b = labels(left), labels(right)
    if any(a[k] != b[k] for k in a.keys() & b.keys()):
        return True
    x, y = _head(left), _head(right)
    if not x or len(x) != len(y):
        return False
    return sum(p != q for p, q in zip(x, y, strict=True)) == 1


@lru_cache(maxsize=4096)
def _head(content: str) -> tuple[str, ...]:
    """The words before a colon near the start (none without one)."""
    words = [w for w, _ in text.tagged(content)]
    return tuple(words[: colon_at(words) or 0])


def colon_at(words: list[str]) -> int | None:
    """Where a colon near the start ends a note's head (not one inside a time, "9:30")."""
    for i, w in enumerate(words[:COLON_WITHIN]):
        after = words[i + 1] if i + 1 < len(words) else ""
        if w in (":", "：") and i and not (words[i - 1].isdigit() and after.isdigit()):
            return i
    return None


_HAN_PAIR = re.compile(r"(?=([\u4e00-\u9fff])([\u4e00-\u9fff]))")


def han_pairs(content: str) -> set[str]:
    """Its pairs of adjacent Chinese characters: what two texts share however jieba cut
    them ("上乐高" / "乐高")."""
    return {m[1] + m[2] for m in _HAN_PAIR.finditer(content)}


def open_to(incoming: Entry, candidates: Sequence[Entry], max_chars: int) -> list[Entry]:
    """The current facts among `candidates` (once each) that `incoming` may change: of a
    type that conflicts, not longer than `max_chars`, not `incoming` itself, and not
    named apart from it (see `named_apart`). The readings after the judges start here."""
    return [
        old
        for old in {c.id: c for c in candidates}.values()
        if old.id != incoming.id
        and old.is_current
        and old.type in CONFLICT_TYPES
        and len(old.content) <= max_chars
        and not named_apart(old.content, incoming.content)
    ]


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
