"""A secret in disguise, unmasked for the detector: full-width letters ("ＰＩＮ") and
keypad symbols ("＊1306＃"), letters of another script that look Latin (Cyrillic "РIN"),
invisible characters ("P\u200bIN"), letters spelled apart ("p-i-n", "b.a.n.k") and digits
for letters inside a word ("P1N", "b4nk"). The detector reads the unmasked text when the
text as written holds no secret; `unmask` keeps, for each character it gives, where it
stood in the text, so a redaction still covers the characters as written.

    unmask("my bank Р\u200bIN is 7615")[0]   # "my bank PIN is 7615"
"""

from __future__ import annotations

import re
import unicodedata

# Letters of Cyrillic and Greek drawn like Latin ones (the confusables a person types
# to slip past a word list), folded to those
_LOOKALIKE = str.maketrans(
    "АВЕКМНОРСТХУаеорсухіјѕԁɡΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοιν",
    "ABEKMHOPCTXYaeopcyxijsdgABEZHIKMNOPTYXaoiv",
)
_INVISIBLE = frozenset("\u00ad\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\ufeff")
# Digits written for letters ("P1N", "b4nk"), and letters spelled apart ("p-i-n"), read
# so only where they spell a word that names a secret: "Party2025" and a commit hash stay
_LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
_NAMES = frozenset(
    "pin pins password passwd passcode pass bank code key secret login account card cvv "
    "ssn atm wifi token safe alarm".split()
)
# Full-width letters, digits and the keys of a keypad (＊＃＋－, U+FF03-FF5A); CJK
# punctuation ("，：") is left as typed: the rules read it as a clause's end
_WIDE = re.compile(r"[\uff03\uff0a\uff0b\uff0d\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
_LEET_WORD = re.compile(r"(?<![\w@$])(?=[\w@$]*[A-Za-z][\w@$]*)[A-Za-z0-9@$]{2,}(?![\w@$])")
# Three or more single letters joined by one hyphen, dot or space ("p-i-n", "b a n k")
_SPELLED = re.compile(r"(?<![A-Za-z])[A-Za-z]([-. ])[A-Za-z](?:\1[A-Za-z])+(?![A-Za-z])")


# Any character `unmask` would drop or fold: most texts hold none, and skip the walk
_MASKED = re.compile(
    "["
    + "".join(sorted(_INVISIBLE))
    + r"\uff03\uff0a\uff0b\uff0d\uff10-\uff19\uff21-\uff3a\uff41-\uff5a"
    + "АВЕКМНОРСТХУаеорсухіјѕԁɡΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοιν]"
)


def unmask(text: str) -> tuple[str, list[int]] | None:
    """The text unmasked, with the index in `text` of each of its characters; None when
    nothing was masked."""
    if not _MASKED.search(text) and _LEET_WORD.sub(_unleet, text) == text:
        if not any(m.group()[::2].lower() in _NAMES for m in _SPELLED.finditer(text)):
            return None
    chars: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            continue
        folded = unicodedata.normalize("NFKC", ch) if _WIDE.match(ch) else ch
        folded = folded.translate(_LOOKALIKE)
        chars.extend(folded)
        where.extend([i] * len(folded))
    out = "".join(chars)
    out, where = _joined(out, where)
    out = _LEET_WORD.sub(_unleet, out)
    return None if out == text else (out, where)


def _joined(text: str, where: list[int]) -> tuple[str, list[int]]:
    """Letters spelled apart joined ("p-i-n" -> "pin"), the index map kept."""
    keep = [True] * len(text)
    for m in _SPELLED.finditer(text):
        if m.group()[::2].lower() not in _NAMES:
            continue
        for k in range(m.start() + 1, m.end(), 2):
            keep[k] = False
    return "".join(c for c, k in zip(text, keep, strict=True) if k), [
        w for w, k in zip(where, keep, strict=True) if k
    ]


def _unleet(m: re.Match[str]) -> str:
    word = m.group()
    if not any(c in _LEET for c in word):
        return word
    plain = "".join(_LEET.get(c, c) for c in word)
    return plain if plain.lower() in _NAMES else word
