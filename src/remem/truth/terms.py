"""The words two texts share, as the truth passes and the judges count them: each text's
search terms (`remem.text.terms`) read once, without stopwords, a Chinese word of one
found whole in the other counted too. Below every pass that reads words, so none of them
needs the judge to count."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from remem import text, zh_names
from remem.truth.table import words

__all__ = ["content_terms", "no_numbers", "shared_terms", "terms_of", "zh_people"]

_HAN = re.compile(r"[\u3400-\u9fff]")


# A day's or a month's name cut short, as notes write them ("tue/fri", "due 3 sept"): the
# whole name's term, so that "Priya on the slicer tue/fri" shares its days with "... on
# Tuesdays and Fridays" ("sat", "sun", "mar" and "may" are words of their own too)
_SHORT_NAMES = {
    "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday",
    "thur": "thursday", "fri": "friday", "jan": "januari", "feb": "februari", "apr": "april",
    "jun": "june", "jul": "juli", "aug": "august", "sep": "septemb", "sept": "septemb",
    "oct": "octob", "nov": "novemb", "dec": "decemb",
}  # fmt: skip


@lru_cache(maxsize=4096)
def terms_of(content: str) -> frozenset[str]:
    """Every search term of `content`, stopwords too, a day's or a month's short name read
    as its whole name, and the people it names the Chinese way (`zh_people`: jieba cuts
    小陈 and 大刘 into characters, which are no terms, so "小陈改成4点半到了" shared no word
    with "帮工小陈每天早上5点到摊上")."""
    said = frozenset(_SHORT_NAMES.get(t, t) for t in text.terms(content))
    return said | zh_people(content) if _HAN.search(content) else said


@lru_cache(maxsize=1)
def _zh_person() -> re.Pattern[str]:
    """A person as Chinese speakers name one: 阿 and a name, 老 / 小 and a surname (老黄,
    小马), a surname and how they are called (刘姐, 吴老师, 马老板): jieba tags few of them."""
    surname = "".join(sorted(zh_names.SURNAMES))
    before = "".join(sorted(zh_names.BEFORE_SURNAME))
    after = "|".join(sorted(words("after a surname", "zh"), key=len, reverse=True))
    return re.compile(rf"阿(?!姨)[\u4e00-\u9fff]|[{before}][{surname}]|[{surname}](?:{after})")


@lru_cache(maxsize=4096)  # the text's and each candidate's, asked of every pair
def zh_people(text: str) -> frozenset[str]:
    """The people `text` names the Chinese way (`_zh_person`)."""
    return frozenset(_zh_person().findall(text))


@lru_cache(maxsize=4096)  # asked of the text and each candidate several times a save
def content_terms(content: str) -> frozenset[str]:
    """The words of `content` that say something (no stopwords)."""
    return terms_of(content) - text.EN_STOPWORDS - text.ZH_STOPWORDS


@lru_cache(maxsize=4096)  # each candidate against the text, in two of a save's passes
def shared_terms(old: str, new: str) -> frozenset[str]:
    """The words the two texts share (`content_terms`), a Chinese word of either found
    whole in the other's text counted too: jieba cuts one phrase two ways by what is
    around it ("美团团购69块的套餐" gives 团团 where "团购：79元" gives 团购; "老黄不来收了"
    gives 黄不来 where "鱼贩子老黄每周一来收鱼" gives 老黄)."""
    a, b = content_terms(old), content_terms(new)
    return frozenset(
        (a & b)
        | {t for t in a - b if len(t) >= 2 and _all_han(t) and t in new}
        | {t for t in b - a if len(t) >= 2 and _all_han(t) and t in old}
    )


def _all_han(word: str) -> bool:
    return all(_HAN.match(c) for c in word)


def no_numbers(terms: Iterable[str]) -> set[str]:
    """The terms that are words, not numbers ("12", "1.5"): what a text is about."""
    return {t for t in terms if not t.replace(".", "").isdigit()}
