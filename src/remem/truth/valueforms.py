"""A value said one way, however it was written: "8pm" and "20:00", "12th" and "12",
"3,000" and "3000", "10.30" and "10:30", "November" and "nov" (the comparisons of
`remem.truth.overlap` and `remem.truth.headed`).

    said_as("8pm") == said_as("20:00")   # True
"""

from __future__ import annotations

import re

from remem.numbers import spoken_zh

__all__ = ["core", "said_as"]

_CLOCK = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?(am|pm)")
_MON3 = frozenset("jan feb mar apr may jun jul aug sep oct nov dec".split())


def said_as(form: str) -> str:
    """A value's form, said one way: "8pm" and "20:00" as "20:00", "12th" as "12",
    "3,000" as "3000", "10.30" as "10:30", "November" as "nov"."""
    form = re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", form.replace(",", ""))
    if clock := _CLOCK.fullmatch(form):
        hour = int(clock[1]) % 12 + (12 if clock[3] == "pm" else 0)
        return f"{hour}:{clock[2] or '00'}"
    form = re.sub(r"^(\d{1,2})\.(\d{2})$", r"\1:\2", form)
    return form[:3] if form.isalpha() and form[:3] in _MON3 else form


_NUMBER = re.compile(r"\d+(?:[.:]\d+)?")


def core(form: str) -> str:
    """What a value says, without how it is written or counted: its number ("1.5kw" and
    "1.5", "8小时" and "八个", "七点" and "7点", "20:00" and "8pm"), else `said_as`."""
    said = said_as(form)
    if (number := _NUMBER.search(said)) is not None:
        return number[0]
    spoken = sorted(spoken_zh(said))
    return spoken[0] if spoken else said
