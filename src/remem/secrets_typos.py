"""A secret's noun typed in haste ("Chemical store combinaton is 31-15-48", "the
credentails for the portal", "passowrd: X"): a long noun one slip away from its spelling
read as spelled, so that every rule that reads the noun reads it (the value keeps its place
in the text). One slip of a long word: a letter missing, extra, wrong or two swapped; the
first two letters as written (a slip there makes another word more often than a typo).

    typed_nouns("Chemical store combinaton is 31-15-48")
    # ("Chemical store combination is 31-15-48", [0, 1, ...])
"""

from __future__ import annotations

from remem.secrets_shapes import Lazy, rewritten

__all__ = ["typed_nouns"]

# long enough that one slip does not make another English word of them
_NOUNS = ("password", "passcode", "passphrase", "combination", "credentials", "verification")
_WORD = Lazy(r"(?<![A-Za-z])[A-Za-z]{7,13}(?![A-Za-z])")


def typed_nouns(text: str) -> tuple[str, list[int]] | None:
    """`text` with each secret noun typed one slip off read as spelled, and the index in
    `text` of each character; None when there is none."""
    pieces = []
    for m in _WORD.finditer(text):
        word = m[0].lower()
        noun = next((n for n in _NOUNS if _one_slip(word, n)), None)
        if noun is not None:
            at = [m.start() + min(i, len(word) - 1) for i in range(len(noun))]
            pieces.append((m.start(), m.end(), noun, at))
    return rewritten(text, pieces)


def _one_slip(word: str, noun: str) -> bool:
    """Whether `word` is `noun` with one letter missing, extra, wrong, or two neighbours
    swapped (not `noun` itself, nor its plural)."""
    if word[:2] != noun[:2] or abs(len(word) - len(noun)) > 1 or word in (noun, noun + "s"):
        return False
    if noun.endswith("s") and word == noun[:-1]:
        return False  # "credential": a spelling, not a slip
    i = 0
    while i < min(len(word), len(noun)) and word[i] == noun[i]:
        i += 1
    if len(word) == len(noun):
        swapped = word[i + 2 :] == noun[i + 2 :] and word[i : i + 2] == noun[i : i + 2][::-1]
        return swapped or word[i + 1 :] == noun[i + 1 :]
    if len(word) < len(noun):
        return word[i:] == noun[i + 1 :]
    return word[i + 1 :] == noun[i:]
