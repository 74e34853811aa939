"""Plain English tagged as jieba tags it, without loading jieba (its import is ~80 ms of a
one-shot save, and most English notes need nothing else of it).

    tags("Hive 2 requeened")   # [("Hive", "eng"), (" ", "x"), ("2", "m"), (" ", "x"), ...]
    tags("用户服务")             # None: not plain, ask jieba

jieba's tags of such text are words ("eng"; one . or - may join their parts), numbers ("m":
digits joined by . or -), and the rest ("x": a run of . and -, else one character).
Identical on the 30,205 plain texts of the benchmarks' and the shared data, and checked
against jieba by a property test; + # & _ % are left to jieba (its dictionary holds "c++",
"c#"; "A+." is one token there).
"""

from __future__ import annotations

import re

__all__ = ["tags"]

_PLAIN = re.compile(r"[\x20-\x22\x24\x27-\x2a\x2c-\x5e\x60-\x7e£€]*")
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[._\-][A-Za-z0-9]+)*%?|\s|[\-._+#&%]+|[^\sA-Za-z0-9]")
_NUMBER = re.compile(r"[\d.\-]*\d[\d.\-]*%?")


def tags(text: str) -> list[tuple[str, str]] | None:
    """jieba's (word, tag) pairs of `text` (NFKC already), or None when it is not plain."""
    if not _PLAIN.fullmatch(text):
        return None
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group()
        if word.isspace() or not word[0].isalnum():
            out.append((word, "x"))
        else:
            out.append((word, "m" if _NUMBER.fullmatch(word) else "eng"))
    return out
