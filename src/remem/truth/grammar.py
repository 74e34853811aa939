"""The parts of the subject grammar (`remem.truth.subject`): the subject before a
predicate (`remem.truth.verbs` finds them), the value after it (its end, its tail: a role, a list,
the value that stopped), and what the value's form implies (a location, a time)."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import NamedTuple

from remem.truth import keys as keymod
from remem.truth import lexicon as lx
from remem.truth import predicates as pr
from remem.truth import when
from remem.truth.predicates import Predicate
from remem.truth.segment import (
    CLAUSE_PUNCT,
    QUOTES,
    Tok,
)
from remem.truth.table import words
from remem.truth.values import (
    PRONOUNS,
    date_like,
    nounish,
    place_like,
    span_text,
)
from remem.truth.verbs import predicate_at

_ZH_ROLE = words("role verb", "zh")


QUESTION = words("question", "zh")


_EN_QUESTION = words("question", "en")


_MAX_SUBJECT_TOKENS = 8


@dataclass(slots=True)
class Clause:
    """One clause read: whose (`owner`), about what (`subject`), linked how (`pred`) to
    which `value`; the attributes its form implies, whether it says the value changed,
    the value it says was dropped, and whether the reading is whole enough to use."""

    owner: str | None  # "user", "we" or None
    subject: list[Tok]
    _: KW_ONLY
    pred: Predicate = field(default_factory=Predicate)
    value: list[Tok] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)
    change: bool = False
    dropped: str | None = None
    complete: bool = True


def _lows(toks: list[Tok]) -> list[str]:
    return [t.low for t in toks]


_AFTER = words("after", "zh")


class Stripped(NamedTuple):
    """What `strip_subject` leaves of the words before a predicate."""

    owner: str | None  # "user", "we" or None
    subject: list[Tok]
    change: bool  # a change adverb was seen ("now", 现在)
    dropped: str | None  # the value it says was left ("from Jenkins")
    usable: bool


def _left(toks: list[Tok]) -> str | None:
    """The value a change left, said after "from" / 从 (`toks` start with it); None where
    the words say when the change starts ("£240 from the start of March")."""
    return None if when.starts(span_text(toks)) else span_text(toks[1:])


def strip_subject(toks: list[Tok]) -> Stripped:
    """The subject of the words before a predicate, with its owner and what they say
    besides (a change, a dropped value)."""
    owner: str | None = None
    change = False
    dropped = None
    for k, tok in enumerate(toks):
        if tok.low in lx.ZH_BA:  # "我们把部署脚本移到…": the subject follows 把
            toks = toks[k + 1 :]
            break
    for k, tok in enumerate(toks):
        if tok.low in lx.ZH_FROM or tok.low in lx.EN_FROM:
            dropped = _left(toks[k:])
            toks = toks[:k]
            break
    if len(toks) > 2 and toks[0].is_han and toks[0].tag[:1] == "v" and toks[1].low in _AFTER:
        toks, change = toks[2:], True  # "升级完现在是 K8s 1.29": when, then what is
    out: list[Tok] = []
    for k, tok in enumerate(toks):
        low = tok.low
        if low in lx.ZH_CHANGE_ADVERBS or low in lx.EN_CHANGE_ADVERBS:
            change = True
            if not out or (tok.is_han and tok.tag[:1] in ("t", "d")):
                continue  # "客户数据现在只保存 3 年": when it is said, not what of
        if out and tok.is_han and low in _ONLY:
            continue
        if tok.is_han and low in pr.ZH_PREDICATES and k + 1 < len(toks) and toks[k + 1].low == "的":
            continue  # "使用的端口": the port it uses is its port
        if tok.text in QUOTES or (tok.kind == "punct" and tok.text not in "-_/."):
            continue
        if not out and (
            low in lx.ZH_DISCOURSE
            or low in lx.EN_DISCOURSE
            or low in lx.EN_DETERMINERS
            or low == "的"
        ):
            continue
        if not out and _correction_word(low):
            continue
        if low in lx.ZH_OWNERS_USER or low in lx.EN_OWNERS_USER:
            owner = "user"
            continue
        if low in lx.ZH_OWNERS_WE or (low in lx.EN_OWNERS_WE and tok.text != "US"):
            owner = owner or "we"
            continue
        if low == "and" and _done_then_subject(out, toks[k + 1 : k + 2]):
            out = []  # "We voted and the mascot is …": what was done, then the subject
            continue
        out.append(tok)
    while out and _trailing_noise(out[-1].low):
        change = change or out[-1].low in ("now", *lx.ZH_CHANGE_ADVERBS)
        out.pop()
    if out and all(t.low in lx.OWNER_NOUNS for t in out):
        owner, out = owner or "we", []  # "项目使用 X": the project is the domain already
    content = [t for t in out if t.low not in ("的", "之", "of", "'s")]
    usable = _words(content) <= _MAX_SUBJECT_TOKENS and not any(t.low in PRONOUNS for t in out)
    usable = usable and not any(t.kind == "num" and t.low.isdigit() for t in out[:1])
    return Stripped(owner, out, change, dropped, usable)


_ONLY = words("only", "zh")  # "现在只保存 3 年"


def _done_then_subject(before: list[Tok], after: list[Tok]) -> bool:
    """Whether "and" between `before` and `after` ends a thing done ("voted") and starts
    the subject ("the mascot", "our office")."""
    return (
        bool(before and after)
        and before[-1].low.endswith("ed")
        and (after[0].low in lx.EN_DETERMINERS or after[0].low in lx.EN_OWNERS_WE)
    )


def _words(toks: list[Tok]) -> int:
    """How many words `toks` are, a run of single Chinese characters counting as one
    (the segmenter splits names it does not know: "美东" is 美 + 东)."""
    count, single = 0, False
    for tok in toks:
        one = tok.is_han and len(tok.text) == 1
        count += not (one and single)
        single = one
    return count


def _trailing_noise(low: str) -> bool:
    """Words that end a subject without belonging to it: adverbs, a dangling 的."""
    return (
        low in lx.ZH_DISCOURSE
        or low in lx.EN_DISCOURSE
        or low in ("的", "now")
        or low in lx.ZH_CHANGE_ADVERBS
    )


def _correction_word(low: str) -> bool:
    return low in lx.ZH_CORRECTIONS or low in {"correction", "actually", "sorry"}


def subject_part(toks: list[Tok], start: int, end: int) -> list[Tok]:
    """The tokens before a predicate that can be its subject: after the last comma or
    colon, or (nothing there) the nearest part before that says something."""
    parts: list[list[Tok]] = [[]]
    cut = ""
    for tok in toks[start:end]:
        if tok.text in CLAUSE_PUNCT:
            parts.append([])
            cut = tok.text
        else:
            parts[-1].append(tok)
    if not parts[-1] and cut in (":", "：") and len(parts) > 1:
        return parts[-2]  # "服务 A：用 pnpm": what comes before the colon is the topic
    return parts[-1]


# -- values ------------------------------------------------------------------------------
def _is_stop(tok: Tok) -> bool:
    if tok.is_han:
        return tok.low in lx.ZH_VALUE_STOPS or tok.low in _ZH_ROLE
    return tok.low in lx.EN_VALUE_STOPS or tok.text in lx.EN_COORD


def _leading(tok: Tok) -> bool:
    if tok.text == "A":  # a label ("工位在 A 区", "Block A"), not an article
        return False
    return tok.low in (lx.ZH_LEADING if tok.is_han else lx.EN_LEADING)


def clause_end(toks: list[Tok], k: int) -> int:
    while k < len(toks) and toks[k].text not in CLAUSE_PUNCT:
        k += 1
    return k


def _list_items(tail: list[Tok]) -> list[list[Tok]] | None:
    """ "和 Vue", "and Svelte": the further items of a list value, or None."""
    items: list[list[Tok]] = []
    for tok in tail:
        if tok.low in lx.ZH_COORD or tok.low in lx.EN_COORD:
            items.append([])
        elif not items or _is_stop(tok) or len(items[-1]) >= 3:
            return None
        elif tok.kind != "punct":
            items[-1].append(tok)
    return items if items and all(items) else None


@dataclass(slots=True)
class _Value:
    toks: list[Tok]
    end: int
    role: list[Tok]
    dropped: str | None
    change: bool
    complete: bool
    items: int = 1
    of: list[Tok] | None = None


def _tool(pred: Predicate, value: _Value) -> bool:
    """ "moved to uv for packaging": a move to a known kind of tool, and what for."""
    kind = keymod.value_kind(keymod.value_terms(span_text(value.toks)))
    return pred.attr == "move" and kind is not None


def _tail(tail: list[Tok], value: _Value, pred: Predicate) -> None:
    """What follows a value in its clause: a role ("做缓存", "for caching"), more items
    of a list, the value that stopped ("instead of X", "而不是 X"), trailing words."""
    lows = _lows(tail)
    first = lows[0]
    habit = pred.attr in pr.HABITS and first in pr.HABIT_WHEN
    if (
        habit
        or first in _ZH_ROLE
        or (first in ("as", "for") and (pred.attr is None or _tool(pred, value)))
    ):
        role = [t for t in tail[1:] if t.low not in lx.EN_DETERMINERS and t.kind != "punct"]
        value.role, value.complete = role, 0 < len(role) <= 3
    elif (items := _list_items(tail)) is not None:
        kinds = {keymod.value_kind(keymod.value_terms(span_text(i))) for i in [value.toks, *items]}
        value.toks = value.toks + [t for item in items for t in item]
        value.items += len(items)
        value.complete = len(kinds) == 1  # "JDK 17 和 Maven": two facts, not one list
    elif first == "of" and len(value.toks) == 1 and concept(value.toks[0].low) in _ATTR_OR_KIND:
        value.of = [t for t in tail[1:] if t.low not in lx.EN_DETERMINERS]  # "the owner of X"
    elif first == "from" and len(tail) > 1:
        value.dropped = _left(tail)
    elif " ".join(lows[:2]) in ("instead of", "rather than", "in place of") or first == "over":
        value.dropped = span_text(tail[2:] if first != "over" else tail[1:])
        value.change = value.change or first == "instead"
    elif first in ("而不是", "而非"):
        value.dropped = span_text(tail[1:])
    elif all(w in lx.EN_TRAILING or w in lx.ZH_TRAILING for w in lows):
        value.change = value.change or bool(lx.EN_CHANGE_TAILS & set(lows))
    else:
        value.complete = False


def read_value(toks: list[Tok], j: int, pred: Predicate) -> tuple[_Value, list[Tok]]:
    """The value after a predicate ending at j, and the object of a transitive verb."""
    obj: list[Tok] = []
    dropped = None
    if pred.transitive:
        link = next(k for k in range(j, len(toks)) if toks[k].low in pred.links)
        obj = toks[j:link]
        cut = next((k for k, t in enumerate(obj) if t.low == "from"), None)
        if cut is not None:  # before the link ("moved from May 3 to May 10"): the value left
            dropped, obj = span_text(obj[cut + 1 :]), obj[:cut]
        obj = [t for t in obj if t.low not in lx.EN_DETERMINERS and t.low not in lx.EN_OWNERS_WE]
        while obj and obj[-1].low in pr.EN_PARTICLES:
            obj = obj[:-1]  # "cut the loop down to 3 rounds"
        j = link + 1
    k = j
    while k < len(toks) and _leading(toks[k]):
        k += 1
    got: list[Tok] = []
    while k < len(toks):
        tok = toks[k]
        if tok.text in CLAUSE_PUNCT or (got and (_is_stop(tok) or _next_predicate(toks, k))):
            break
        if got and pred.attr in pr.HABITS and tok.low in pr.HABIT_WHEN:
            break  # "coffee in the morning": the time is the habit's
        if tok.kind != "punct" or tok.text in "%$¥€£#+-":
            got.append(tok)
        k += 1
    end = clause_end(toks, k)
    value = _Value(got, end, [], dropped, False, True)
    if toks[k:end] and got:
        _tail(toks[k:end], value, pred)
    return value, obj


def _next_predicate(toks: list[Tok], k: int) -> bool:
    """A predicate starts at toks[k] (a capitalised English word is a name: "Cloud Run")."""
    if not toks[k].is_han and toks[k].text[:1].isupper():
        return False
    return predicate_at(toks, k) is not None


def trim_value(value: list[Tok], pred: Predicate) -> tuple[list[Tok], bool, bool]:
    """The value without trailing particles and locatives; whether a locative ended it
    ("k8s 集群上"), and whether "now"/"instead" did."""
    located = change = False
    while len(value) > 2 and f"{value[-2].low} {value[-1].low}" in lx.EN_TRAILING:
        value = value[:-2]  # "moved to Lisbon last month": when, not where
    while value and (
        value[-1].low in lx.ZH_TRAILING
        or value[-1].low in lx.EN_TRAILING
        or value[-1].low in lx.ZH_LOCATIVE
    ):
        located = located or value[-1].low in lx.ZH_LOCATIVE
        change = change or value[-1].low in lx.EN_CHANGE_TAILS
        value = value[:-1]
    return value, located, change


# -- clauses -----------------------------------------------------------------------------
def promote_attrs(value: list[Tok], attrs: list[str]) -> list[Tok]:
    """An attribute word at either end of a value belongs to the subject: "port 9090",
    "9090 端口", "Redis 缓存", "PostgreSQL 数据库"."""
    concepts = lx.concepts()
    movable = lx.ATTRIBUTES | lx.KINDS
    for end in (0, -1):
        if len(value) >= 2 and concepts.get(value[end].low) in movable:
            attrs.append(value[end].text)
            value = value[1:] if end == 0 else value[:-1]
    # "部署 3 个副本", "runs 8 replicas": a count of something; the something is the subject's
    k = 0
    while k < len(value) and (value[k].kind == "num" or (k and value[k].low in lx.UNITS)):
        k += 1
    nouns = value[k:]
    rate = bool(nouns) and nouns[0].low in ("per", "a", "an", "every", "each", "每")
    known = bool(nouns) and lx.value_kinds().get(nouns[0].low) is not None  # "4 spaces"
    known = known or _model_year(value[:k], nouns)
    if k and 0 < len(nouns) <= 2 and not (rate or known) and all(nounish(t) for t in nouns):
        attrs.extend(t.text for t in nouns)
        value = value[:k]
    return value


def _model_year(nums: list[Tok], nouns: list[Tok]) -> bool:
    """ "a 2015 Civic", "2021 MacBook Pro": a year and a name, one value (not 2015 Civics)."""
    year = len(nums) == 1 and len(nums[0].low) == 4 and nums[0].low[:2] in ("19", "20")
    return year and bool(nouns) and nouns[0].text[:1].isupper()


def split_time(value: list[Tok]) -> tuple[list[Tok], Tok] | None:
    """A time and the verb it is the time of: "6月30日 上线", "下周三 发布"."""
    if len(value) >= 2 and value[-1].is_han and value[-1].tag[:1] in ("v", "n"):
        when = value[:-1]
        if date_like(when):
            return when, value[-1]
    return None


def implied_attrs(pred: Predicate, value: list[Tok], located: bool) -> list[str] | None:
    """Attributes the predicate and the value's form imply; None: not a statement
    this predicate can make ("Bart在海边放风筝" is no location)."""
    attr = pred.attr
    path = any(t.kind in ("path", "url") for t in value)
    kind = keymod.value_kind(keymod.value_terms(span_text(value))) if value else None
    if attr == "move" and value and all(t.kind == "num" for t in value) and not date_like(value):
        attr = None  # "Python 版本最终定在 3.11": a number is where it settled, not a place
    if attr == "destination" and amount_led(value):
        attr = None  # "Nitrox fills go to £9.50": what it becomes, not where it is sent
    if attr in ("move", "location", "deployment"):
        if path or date_like(value) and attr in ("move", "location"):
            attr = "location" if path else "time"
        elif kind is not None:
            attr = None  # "迁移到 CircleCI", "is hosted on Heroku": the value's kind says it
        elif not place_like(value, located):
            return None
        elif attr == "deployment" and not located:
            attr = "platform"
        else:
            attr = "location"
    elif attr is None and value and date_like(value) and not pred.inverse:
        attr = "time"  # "the release is on May 20"
    out = [attr] if attr else []
    if path and "location" not in out:
        out.append("location")
    return out


def amount_led(value: list[Tok]) -> bool:
    """Whether `value` opens with an amount: a number, perhaps after a currency sign or a
    minus ("£9.50 a cylinder", "-6°C", "12%"), not a date or a time."""
    lead = next((t for t in value if t.kind not in ("punct", "space")), None)
    return lead is not None and lead.kind == "num" and not date_like(value)


def without_purpose(value: list[Tok]) -> list[Tok]:
    """ "Vim 写代码", "Go 开发": the thing used, without what it is used for."""
    for k in range(1, len(value)):
        tok = value[k]
        if tok.is_han and tok.tag[:1] == "v" and not value[k - 1].is_han and len(value) - k <= 2:
            return value[:k]
    return value


def concept(word: str) -> str:
    return lx.concepts().get(word.lower(), word.lower())


_ATTR_OR_KIND = lx.ATTRIBUTES | lx.KINDS


_COPULAS = words("copula phrase")


def copula(pred: Predicate, words: list[Tok]) -> bool:
    return " ".join(t.low for t in words) in _COPULAS or "".join(t.low for t in words) in _COPULAS


def ends_with_attr(toks: list[Tok]) -> bool:
    if not toks:
        return False
    last = toks[-1].low
    if toks[-1].is_han:
        last = keymod.split_han(last)[-1]  # "项目经理": 项目 + 经理, an owner
    return concept(last) in lx.ATTRIBUTES or concept(last.rstrip("s")) in lx.ATTRIBUTES


_RELATIVE_OWNERS = words("relative owner", "en")


def relative_clause(toks: list[Tok], start: int, i: int, j: int) -> bool:
    """Whether the predicate toks[i:j] is in a relative clause ("X we use is Y")."""
    if i - start < 2 or toks[i - 1].low not in _RELATIVE_OWNERS or toks[i - 2].is_han:
        return False
    end = clause_end(toks, j)
    return any(t.low in ("is", "are") for t in toks[j:end])
