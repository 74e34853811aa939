"""People as notes name them, for telling two people's facts from one fact changed: the
names a text writes ("Karen Larsen's ..."), who a note opens on ("高婷子在…", "小刘…"), a
capitalised first word the other text lacks ("Amira does the stock-take")."""

from __future__ import annotations

import re
from functools import lru_cache

from remem import text
from remem.truth.changes import DAYS as _DAY
from remem.truth.segment import tokenize
from remem.truth.table import words
from remem.truth.terms import zh_people


def later_people(content: str) -> set[str]:
    """The words after its first a text writes as a person's name: capitalised, then
    lower case ("Becky"; not "RW", "Thu", "May")."""
    return {
        w.lower()
        for w in LATIN.findall(content)[1:]
        if len(w) >= 3
        and w[0].isupper()
        and w[1:].islower()
        and w.isalpha()
        and w.lower() not in NOT_PEOPLE
        and not _DAY.fullmatch(w.lower())
    }


@lru_cache(maxsize=4096)  # each hit, against the others of a search
def people_named(content: str) -> frozenset[str]:
    """The words `content` writes as people's names, as index terms: capitalised, then
    lower case ("Karen Larsen's"), not a month, a day or a word of grammar; its first word
    only where the next is one too ("Karen Larsen owes me ..."; not "Moved #37 ...")."""
    said = [w.removesuffix("'s").removesuffix("’s") for w in LATIN.findall(content)]
    named = [_a_name(w) for w in said]
    out = {w.lower() for w, yes in zip(said[1:], named[1:], strict=True) if yes}
    if len(said) >= 2 and named[0] and named[1]:
        out.add(said[0].lower())
    return frozenset(t for name in out for t in text.terms(name))  # as terms: "wendi"


@lru_cache(maxsize=4096)  # each hit, against the others of a search
def head_person(content: str) -> frozenset[str]:
    """Who a note opens on: a full name ("Tina Choi's favourite dish ..."), or a Chinese
    person jieba tags a name or the rules read (高婷子在…, 小刘…); empty for anything else."""
    lead = content.lstrip()
    said = [w.removesuffix("'s").removesuffix("’s") for w in LATIN.findall(lead[:60])]
    if len(said) >= 2 and lead.startswith(said[0]) and _a_name(said[0]) and _a_name(said[1]):
        return frozenset({f"{said[0]} {said[1]}".lower()})
    first = next((t for t in tokenize(lead) if t.kind != "space"), None)
    if first is not None and first.tag in ("nr", "nrt") and len(first.text) >= 2:
        return frozenset({first.text})
    return frozenset(p for p in zh_people(lead[:8]) if lead.startswith(p))


def _a_name(word: str) -> bool:
    low = word.lower()
    return (
        len(word) >= 2
        and word.isalpha()
        and word[0].isupper()
        and word[1:].islower()
        and low not in NOT_PEOPLE | NOT_NAMES | text.EN_STOPWORDS
        and not _DAY.fullmatch(low)
    )


# a month's name, a day's cut short ("Thu"; whole, "Thursday", is `_DAY`)
NOT_PEOPLE = words("month", "en") | words("day short", "en") | {"sat", "sun"}


LATIN = re.compile(r"[A-Za-z][A-Za-z'-]*")


def first_name(content: str, other: str) -> str | None:
    """The capitalised first word of `content` where the other text lacks it in any case
    (so likely a name, not "Kitchen" of "the kitchen closes")."""
    m = LATIN.match(content.lstrip())
    if m is None or not m[0][:1].isupper() or m[0].isupper() or len(m[0]) < 3:
        return None
    said = {w.lower() for w in LATIN.findall(other)}
    return None if m[0].lower() in said or m[0].lower() in NOT_NAMES else m[0]


NOT_NAMES = words("determiner", "en") | words("discourse", "en")
