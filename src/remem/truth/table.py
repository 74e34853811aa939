"""The words the truth rules are made of, read from one table (`words.tsv` beside this
module): a row per phrase per role, with its language and, where a role maps a phrase to
something (a concept, a unit, a predicate), that attribute. A phrase in several roles has
a row for each, so the table shows where the rules share a word.

The file is read once, when the first rule module asks (at its import, where the lists
were built before: ~3 ms for the whole table); the rules keep what they take as constants.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

_FILE = Path(__file__).with_name("words.tsv")
Row = tuple[str, str]  # phrase, attribute


@cache
def _table() -> dict[str, list[list[str]]]:
    """role -> its rows split into fields, in the table's order."""
    found: dict[str, list[list[str]]] = {}
    for line in _FILE.read_text(encoding="utf-8").splitlines()[1:]:
        fields = line.split("\t")
        found.setdefault(fields[2], []).append(fields)
    return found


@cache
def rows(role: str, lang: str | None = None) -> tuple[Row, ...]:
    """The rows of a role (in one language, or all), in the table's order."""
    if role not in _table():
        raise KeyError(f"no words of role {role!r} in {_FILE.name}")
    found = tuple(
        (fields[0], fields[3] if len(fields) > 3 else "")
        for fields in _table()[role]
        if lang is None or fields[1] == lang
    )
    if not found:
        raise KeyError(f"no words of role {role!r} in {lang} in {_FILE.name}")
    return found


def words(role: str, lang: str | None = None) -> frozenset[str]:
    """The phrases of a role."""
    return frozenset(phrase for phrase, _ in rows(role, lang))


def ordered(role: str, lang: str | None = None) -> tuple[str, ...]:
    """The phrases of a role in the table's order (where the first match wins)."""
    return tuple(phrase for phrase, _ in rows(role, lang))


def mapping(role: str, lang: str | None = None) -> dict[str, str]:
    """phrase -> attribute, for a role whose rows name one (a fresh dict)."""
    return dict(rows(role, lang))


def alternation(role: str, lang: str | None = None) -> str:
    """A regex alternation of a role's phrases (escaped), in the table's order: the
    first that matches wins, so a phrase comes before a shorter one it starts with."""
    return "|".join(re.escape(phrase) for phrase in ordered(role, lang))
