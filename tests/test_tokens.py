from __future__ import annotations

import pytest

from remem import count_tokens, estimate_tokens
from remem.tokens import is_exact


def test_exact_tokenizer_is_available_offline() -> None:
    assert is_exact()
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    # Special-token text in content is counted as text, not refused.
    assert count_tokens("<|endoftext|>") > 1


def test_estimate_formula() -> None:
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
