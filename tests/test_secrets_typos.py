"""A secret's noun typed one slip off ("combinaton", "credentails") is read as spelled:
the rules that read the noun read the value after it. Words a slip away from no secret
noun, or another English word, stay ordinary text."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets
from remem.secrets_typos import typed_nouns


def found(text: str) -> list[str]:
    return [text[h.span[0] : h.span[1]] for h in find_secrets(text, contacts=False, model=False)]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("Chemical store combinaton is 31-15-48", "31-15-48"),  # a letter missing
        ("passowrd: hunter-Gate-22", "hunter-Gate-22"),  # two letters swapped
        ("the combinnation for the kit locker is 4417", "4417"),  # a letter extra
        ("the verifcation code is 884213", "884213"),
        ("the passcide for the depot tablet is 5590", "5590"),  # a letter wrong
    ],
)
def test_a_noun_typed_one_slip_off_is_read(said: str, value: str) -> None:
    assert found(said) == [value]


@pytest.mark.parametrize(
    "said",
    [
        "combinations of colours are on the chart, 12 of them",  # the plural, no code
        "the passport photos are in drawer 3",  # another word
        "the tussock grass needs 4 cuts",
        "the credential check is booked for 14 May",  # a spelling, no value
    ],
)
def test_ordinary_words_are_not_read_as_typos(said: str) -> None:
    assert found(said) == []


def test_a_reading_maps_back_to_the_text() -> None:
    text = "the combinaton is 2-7-9"
    read = typed_nouns(text)
    assert read is not None
    plain, where = read
    assert plain == "the combination is 2-7-9"
    assert len(where) == len(plain) and where[plain.index("2-7-9")] == text.index("2-7-9")
    assert typed_nouns("the door is blue") is None
