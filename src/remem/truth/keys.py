"""What a subject and a value are once their wording is set aside: the subject key (a
set of concepts: "测试环境的数据库" and "test database" are both `database test`) and
the value key ("PostgreSQL 16" and "postgres 16" are both `postgresql 16`; "8 万"
and "80k" are both `80000`).

A subject that names a product and a value that is only its version is the product's
version: "Java 版本定为 17" is (language, java 17), like "项目使用 JDK 17".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from remem import numbers, text
from remem.truth import lexicon
from remem.truth.segment import Tok, normal, solid, tokenize
from remem.truth.table import mapping, words

_DROP = words("key filler")
# "王磊负责这个项目" is about the project; "日志会保存 7 天" is how long logs are kept
_NOT_SUBJECT = words("demonstrative", "zh") | words("not subject", "zh")
_NUMERIC = re.compile(r"v?\d+(?:[.,]\d+)*(?:-?(?:rc|alpha|beta|dev|pre|lts)[.\d]*)?", re.I)
ValueRelation = Literal["same", "refines", "generalises", "differs"]


def split_han(word: str) -> list[str]:
    """A Chinese word as known concepts where it is made of them ("测试环境" -> 测试, 环境)."""
    table = lexicon.concepts()
    if word in table or len(word) < 3:
        return [word]
    for cut in range(len(word) - 1, 0, -1):
        left, right = word[:cut], word[cut:]
        if left in table and (right in table or len(right) >= 2):
            return [left, *split_han(right)]
        if right in table and len(left) >= 2:
            return [*split_han(left), right]
    return [word]


def _english_concept(words: list[str], i: int) -> tuple[str | None, int]:
    """The concept at words[i] (two-word spellings first) and how many words it took."""
    table = lexicon.concepts()
    if i + 1 < len(words) and (hit := table.get(f"{words[i]} {words[i + 1]}")):
        return hit, 2
    word = words[i]
    plural = word[:-3] + "y" if word.endswith("ies") else word  # "replies", "policies"
    for form in (word, word.removesuffix("'s"), word.rstrip("s"), word.removesuffix("es"), plural):
        if form in table:
            return table[form], 1
    return None, 1


def _han_concepts(toks: list[Tok], i: int) -> tuple[list[str], int]:
    """The concepts of the Chinese words at toks[i], longest known compound first
    ("超时" + "时间" is 超时时间, timeout), and how many tokens they took."""
    table = lexicon.concepts()
    for n in (3, 2):
        run = toks[i : i + n]
        if len(run) == n and all(t.is_han for t in run):
            joined = "".join(t.low for t in run)
            if joined in table:
                return [table[joined]], n
    after = toks[i + 1] if i + 1 < len(toks) else None
    if after is not None and after.low == "人" and toks[i].tag[:1] == "v":
        return [table.get(toks[i].low, toks[i].low), "owner"], 2  # 审批人: who approves
    word = toks[i].low
    if len(word) > 2 and word[0] in "打踢" and word[-1] == "球":
        word = word[1:]  # 打网球 (jieba's one word) is about 网球, as 网球改到周六 says
    return [table.get(part, part) for part in split_han(word)], 1


def _subject_terms(toks: list[Tok]) -> list[str]:
    """A subject's concepts; the owner (I, my, the user's) is not part of what it is."""
    out: list[str] = []
    words = [t.low for t in toks]
    i = 0
    while i < len(words):
        tok, word = toks[i], words[i]
        if tok.kind == "punct" or word in _DROP or word in _OWNERS or word in _NOT_SUBJECT:
            i += 1
            continue
        if tok.is_han:
            found, used = _han_concepts(toks, i)
            out.extend(found)
            i += used
            continue
        if day := _SHORT_DAYS.get(word) or _SHORT_DAYS.get(tok.text):
            out.append(day)  # "Sat waitress" is the "Saturday waitress"
            i += 1
            continue
        concept, used = _english_concept(words, i)
        i += used
        bare = word.removesuffix("'s")
        if concept:
            out.append(concept)
        elif bare in lexicon.value_kinds() or bare in lexicon.ALIASES:
            out.append(bare)  # a product name is a name, never stemmed
        elif len(tok.text) >= 2 and tok.text.isupper():
            out.append(bare)  # an acronym ("US", "IT") is a name, not the stop word "us"
        elif "_" in bare.strip("_"):  # "max_connections" is "max connections"
            out.extend(_subject_terms(solid(tokenize(bare.replace("_", " ")))))
        elif bare and word not in lexicon.EN_DETERMINERS:
            stem = text.terms(bare)
            out.extend(stem or ([bare] if bare not in text.EN_STOPWORDS else []))
    return out


# a day's name cut short, as notes write them; "sat" and "sun" are words of their own too,
# a day only with a capital
_SHORT_DAYS = {
    "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday",
    "weds": "wednesday", "thu": "thursday", "thur": "thursday", "thurs": "thursday",
    "fri": "friday", "Sat": "saturday", "Sun": "sunday",
}  # fmt: skip
_OWNERS = lexicon.EN_OWNERS_USER | lexicon.ZH_OWNERS_USER | words("owner user possessive", "en")


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
# "the desk's top drawer" holds the value "top desk drawer": an owner's 's is no word
_POSSESSIVE = re.compile(r"(?<=[a-z])['’]s$")


def _is_numeric(word: str) -> bool:
    return bool(_NUMERIC.fullmatch(word))


@lru_cache(maxsize=8192)
def value_terms(value: str) -> tuple[str, ...]:
    """A value's words folded: aliases, units, numbers by their normal key."""
    raw = normal(value).strip(" \"'“”‘’「」`()（）[]【】。.,，!！")
    value = raw.lower()
    whole = lexicon.ALIASES.get(value)
    if whole:
        return (whole,)
    out: list[str] = []
    words = [t for t in solid(tokenize(value)) if t.kind != "punct" or t.text in "%$¥€£"]
    i = 0
    while i < len(words):
        word = words[i].low
        pair = f"{word} {words[i + 1].low}" if i + 1 < len(words) else ""
        if pair in lexicon.ALIASES:
            out.append(lexicon.ALIASES[pair])
            i += 2
            continue
        i += 1
        if word in _DROP or word in lexicon.EN_DETERMINERS or word in lexicon.ZH_TRAILING:
            continue
        if words[i - 1].kind == "path":
            out.append(word.removeprefix("./").rstrip("/"))
        elif _is_numeric(word):
            out.append(_THOUSANDS.sub("", word.removeprefix("v")))  # "1,000" is 1000
        elif (counted := _han_amount(word)) is not None:
            out.append(counted)  # 七天 is 7 天
        elif word in lexicon.UNITS and out and _is_numeric(out[-1]):
            out[-1] += lexicon.UNITS[word]
        else:
            out.append(lexicon.ALIASES.get(word, _POSSESSIVE.sub("", word)))
    return tuple(_amounts(out, raw))


_HAN_DIGITS = {k: int(v) for k, v in mapping("han digit", "zh").items()}
_HAN_TENS = {k: int(v) for k, v in mapping("han tens", "zh").items()}
_HAN_AMOUNT = re.compile(r"([零一二两三四五六七八九十百千万]+)(个小时|分钟|秒钟|周岁|\w?)")


def _han_number(numeral: str) -> int:
    """ "三百五十" -> 350, "十二" -> 12, "一万" -> 10000."""
    total, section, digit = 0, 0, 0
    for ch in numeral:
        if ch in _HAN_DIGITS:
            digit = _HAN_DIGITS[ch]
        elif ch == "万":
            total, section, digit = (total + section + digit) * 10000, 0, 0
        else:
            section, digit = section + (digit or 1) * _HAN_TENS[ch], 0
    return total + section + digit


def _han_amount(word: str) -> str | None:
    """A Chinese numeral and its unit as `value_terms` spells "7 天": "七天" -> "7d";
    None for words that only start like one (一起, 一致)."""
    found = _HAN_AMOUNT.fullmatch(word)
    if found is None or (found[2] and found[2] not in lexicon.UNITS):
        return None
    return f"{_han_number(found[1])}{lexicon.UNITS.get(found[2], '')}"


def _amounts(words: list[str], raw: str) -> list[str]:
    """A value that is one amount or date as its key: "8 万" / "80k" -> "80000",
    "6月30日" / "June 30" -> "06-30"."""
    found = numbers.number_tokens(raw)
    if len(found) == 1 and found[0].kind in ("amount", "date", "time", "percent"):
        if found[0].surface.replace(" ", "").lower() == raw.replace(" ", "").lower():
            return [found[0].key]
    return words


def _kind(word: str) -> str | None:
    return lexicon.value_kinds().get(word)


_TIMEZONE = re.compile(r"(?:utc|gmt)(?:[+-]\d{1,2}(?::?\d\d)?)?")


def value_kind(terms: tuple[str, ...] | list[str]) -> str | None:
    """The kind of a value from its leading words, longest name first ("github actions")."""
    if terms and _TIMEZONE.fullmatch(terms[0]):
        return "timezone"  # "UTC+8", "GMT-5"
    for n in range(min(3, len(terms)), 0, -1):
        if kind := _kind(" ".join(terms[:n])):
            return kind
    return None


@lru_cache(maxsize=8192)
def _concepts_of(subject: str) -> tuple[str, ...]:
    """A subject's concepts but the generic ones, in order. Kept apart from `keys`: a
    store's subjects repeat with many values ("billing service port"), and reading the
    subject is most of the cost of its keys."""
    toks = solid(tokenize(normal(subject)))
    terms = [t for t in _subject_terms(toks) if t not in lexicon.GENERIC]
    # "监控系统" is the monitoring, "the billing service port" the billing's port
    return tuple(t for k, t in enumerate(terms) if not (k and t in _SYSTEM))


_SYSTEM = words("system")


@lru_cache(maxsize=8192)
def keys(subject: str, value: str | None) -> tuple[str, tuple[str, ...]]:
    """(subject key, value terms): the subject's concepts, sorted and joined by spaces."""
    terms = list(_concepts_of(subject))
    vterms = list(value_terms(value)) if value else []
    has_kind = any(t in lexicon.KINDS for t in terms)
    products = [t for t in terms if _kind(lexicon.ALIASES.get(t, t))]
    attributes = [t for t in terms if t in lexicon.ATTRIBUTES]
    if (
        vterms
        and all(_is_numeric(v) or v[:1].isdigit() for v in vterms)
        and products
        and not attributes
    ):
        product = products[-1]  # "Java 版本" = 17: the value is Java 17
        terms.remove(product)
        name = lexicon.ALIASES.get(product, product)
        vterms = [name, *vterms]
        if not has_kind:
            terms.append(_kind(name) or "")
    elif vterms and not has_kind and (kind := value_kind(vterms)):
        terms.append(kind)
    if vterms and is_frequency(tuple(vterms)):
        # "Releases are weekly", "发版频率是每两周一次": how often, not when
        terms = [t for t in terms if t not in ("time", "frequency")] + ["frequency"]
    if "platform" in terms:  # "前端的部署平台", "frontend deployment": where it runs
        terms = [t for t in terms if t != "deployment"]
    key = " ".join(sorted({t for t in terms if t}))
    return key, tuple(vterms)


@lru_cache(maxsize=8192)  # asked of both sides of every candidate a save weighs
def named_product(subject: str) -> str | None:
    """The product a subject names ("Python 版本": python), which makes it that product's
    own: "Python 版本是 3.9" and "Node 版本是 18" are two facts, not one language."""
    products = [t for t in _concepts_of(subject) if _kind(lexicon.ALIASES.get(t, t))]
    return lexicon.ALIASES.get(products[-1], products[-1]) if products else None


FREQUENCIES = words("frequency", "en")
_FREQUENCY_LEADS = words("frequency lead", "en")
_FREQUENCY_PARTS = words("frequency part")


@lru_cache(maxsize=4096)
def is_frequency(terms: tuple[str, ...]) -> bool:
    """Whether a value (its terms) says only how often: "weekly", "every two weeks",
    "twice a day", "每两周一次", "每天" (never a time of day or a weekday)."""
    if len(terms) == 1 and terms[0] in FREQUENCIES:
        return True
    if len(terms) == 2 and _han_count(terms[0]) and _HAN_TIMES.fullmatch(terms[1]):
        return True  # "两周一轮", "一天三次"
    if not terms or not (terms[0] in _FREQUENCY_LEADS or terms[0].startswith("每")):
        return False
    rest = terms[1:] if terms[0] in _FREQUENCY_LEADS else (terms[0][1:], *terms[1:])
    return all(not t or t in _FREQUENCY_PARTS or t[:1].isdigit() or _han_count(t) for t in rest)


def _han_count(term: str) -> bool:
    """A Chinese count and unit ("两周", "三天", "2小时")."""
    return bool(_HAN_COUNT.fullmatch(term))


_HAN_COUNT = re.compile(r"[一二两三四五六七八九十半几\d]+个?(?:天|日|周|星期|月|年|小时|分钟|次)")
_HAN_TIMES = re.compile(r"[一二两三四五六七八九十几\d]+(?:次|轮|回|趟)")


def relation(old: tuple[str, ...], new: tuple[str, ...]) -> ValueRelation:
    """How a new value stands to an old one of the same subject: the same, a more
    precise form of it ("PostgreSQL" -> "PostgreSQL 16"), a vaguer one, or another."""
    if old == new:
        return "same"
    if len(new) > len(old) and new[: len(old)] == old and old:
        return "refines"
    if len(old) > len(new) and old[: len(new)] == new and new:
        return "generalises"
    if set(old) == set(new):
        return "same"  # the same list in another order: "React 和 Vue" / "Vue and React"
    return "differs"
