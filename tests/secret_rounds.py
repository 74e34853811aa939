"""What each round of secret-detector tests checks (tests/test_secrets_round*.py): every
kind of secret a round taught is found and redacted; its ordinary look-alikes pass."""

from __future__ import annotations

from remem.secrets import find_secrets, redact


def values(text: str) -> list[str]:
    """The secret values the detector finds in `text` (contacts are not secrets here)."""
    return [text[h.span[0] : h.span[1]] for h in find_secrets(text, contacts=False)]


def cases(kinds: dict[str, list[tuple[str, str]]]) -> list[tuple[str, str, str]]:
    """(kind, text, value) for each example of each kind."""
    return [(k, t, v) for k, rows in kinds.items() for t, v in rows]


def assert_found(kind: str, text: str, value: str) -> None:
    found = values(text)
    assert any(value in v or v in value for v in found), (kind, text, found)
    assert value not in redact(text, contacts=False), text


def assert_ordinary(text: str) -> None:
    assert values(text) == [], text
