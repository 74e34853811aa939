"""Named things with a number for a value, read from jieba's tagged words: "项目使用 JDK 17"
-> {"jdk": "17"}, "预算从 5 万调整为 8 万" -> {"预算": "8万"}. A memory keeps them as its
facts; the truth rules compare them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from remem.text import EN_STOPWORDS, ZH_STOPWORDS, tagged

__all__ = ["named_values"]

_NUMBER = re.compile(r"v?\d+(?:[.,:/\-]\d+)*[a-z%]{0,3}")
_ANY_DIGIT = re.compile(r"\d")
# Tokens that link a named thing to its value ("预算调整为 8 万", "budget changed to 80k").
_LINK_WORDS = frozenset(
    """使用 用 采用 为 是 改成 改为 定为 设为 设置 设置为 调整 调整为 升级 升级到
    降级 降级到 换成 换到 到 版本 版本号 目前 当前 现在 大约 约 有 保持 保持为
    还是 仍然 依然 都 也 要 需 需要 等于 达到 增加 减少
    改 定 设 调 升 至 从 由 将 把 version ver is are was were be to set changed change uses use
    using used of at = : now currently still about approx around moved bumped upgraded downgraded
    remains stays 提高 提升 降低 上调 下调 增至 降至 调到 改到 raised lowered increased
    decreased reduced""".split()
)
_FROM = frozenset({"从", "由", "from"})
_KEY_TAGS_REJECT = ("r", "p", "c", "u", "q", "m", "x", "d", "y", "e", "o", "w")


def named_values(text: str) -> dict[str, str]:
    """Named things with a numeric value: "项目使用 JDK 17" -> {"jdk": "17"}.

    The key is the nearest meaningful word before the number, skipping linking
    words ("调整为", "changed to"); the value keeps its unit ("8万", "50k").
    """
    return dict(_named_values(text))


@lru_cache(maxsize=1024)  # a save asks it of its content twice (its facts, its index)
def _named_values(text: str) -> tuple[tuple[str, str], ...]:
    if not _ANY_DIGIT.search(unicodedata.normalize("NFKC", text)):
        return ()  # every value is a number: no digit, no value (and no jieba to load)
    tokens = _clock_units(tagged(text))
    found: dict[str, str] = {}
    last: tuple[str, int] | None = None  # the key of the previous number, and where it was
    for i, (word, _tag) in enumerate(tokens):
        if not _NUMBER.fullmatch(word):
            continue
        value = (word.removeprefix("v") + _unit_after(tokens, i)).replace(",", "")
        key = _key_before(tokens, i)
        if key and key not in found:
            found[key] = value
            last = (key, i)
        elif key is None and last and _only_links_between(tokens, last[1], i):
            # "预算从 5 万调整为 8 万": the later value is the value; "9点到21点": both
            found[last[0]] = _later(found[last[0]], value, tokens[last[1] + 1 : i])
            last = (last[0], i)
    return tuple(found.items())


# jieba reads "6点到11点" as 6 / 点到 / 11 / 点 ("5万到8万": 万到): after a number, its
# unit and 到 are two words
_UNIT_TO = re.compile(r"(\w)([到至])")
_CLOCK_UNITS = "点时号日"


def _clock_units(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for word, tag in tokens:
        if out and _NUMBER.fullmatch(out[-1][0]) and (m := _UNIT_TO.fullmatch(word)):
            out += [(m[1], "q"), (m[2], "p")]
        else:
            out.append((word, tag))
    return out


def _later(was: str, value: str, between: list[tuple[str, str]]) -> str:
    """The value a second number gives: a range of clock times ("9点到21点") is both."""
    if was[-1:] in _CLOCK_UNITS and [w for w, _t in between][-1:] in (["到"], ["至"]):
        return f"{was}-{value}"
    return value


def _only_links_between(tokens: list[tuple[str, str]], start: int, end: int) -> bool:
    between = tokens[start + 1 : end]
    return bool(between) and all(
        w in _LINK_WORDS or (t in ("m", "q") and not w[:1].isdigit()) or w in _FROM
        for w, t in between
    )


def _unit_after(tokens: list[tuple[str, str]], i: int) -> str:
    if i + 1 < len(tokens):
        word, tag = tokens[i + 1]
        if tag in ("m", "q") and not word[:1].isdigit() and len(word) <= 2:
            return word
        if word.isascii() and word.isalpha() and word in {"k", "m", "g", "gb", "mb", "ms", "s"}:
            return word
    return ""


def _key_before(tokens: list[tuple[str, str]], i: int) -> str | None:
    j = i - 1
    while j >= 0:
        word, tag = tokens[j]
        w = word.strip().lower()
        if not w or w in _LINK_WORDS or w in _FROM or (tag == "x" and not w.isalnum()):
            j -= 1
            continue
        rejected_tag = tag != "eng" and tag.startswith(_KEY_TAGS_REJECT)
        if _NUMBER.fullmatch(w) or rejected_tag or w in ZH_STOPWORDS:
            return None
        if w in EN_STOPWORDS or (len(w) < 2 and not w.isascii()):
            return None
        return w
    return None
