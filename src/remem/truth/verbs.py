"""Where a predicate starts and ends in a clause's tokens: the longest listed verb
(`remem.truth.predicates`), a transitive verb and its object ("moved the deploy script
to tools/"), and verbs no list names, by their form — "-ed to" a number, "X到" a number
("throttled to 50", "砍到 3 轮"): a number set is a change, whatever the verb."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from remem.numbers import MONTHS
from remem.truth import predicates as pr
from remem.truth.predicates import Predicate
from remem.truth.segment import CLAUSE_PUNCT, Tok
from remem.truth.table import words
from remem.truth.values import PRONOUNS, date_like

# "it's" is one token: a pronoun subject and its copula
_PRONOUN_COPULAS = words("pronoun copula", "en")
_OBJECTPRONOUNS = words("object pronoun", "en")


@lru_cache(maxsize=1)
def _longest() -> int:
    return max(len(k.split()) for k in pr.EN_PREDICATES)


@lru_cache(maxsize=1)
def _verb_starts() -> frozenset[str]:
    """The first words of English predicates: "The staging deploys happen on Mondays" has
    a verb after "deploys", so "deploys" is a noun there, not a verb with an object."""
    firsts = frozenset(k.split()[0] for k in pr.EN_PREDICATES)
    return firsts - _ALSO_NOUNS


# first words of predicates that are as often nouns or adverbs inside an object
_ALSO_NOUNS = words("also noun", "en")


def predicate_at(toks: list[Tok], i: int) -> tuple[Predicate, int] | None:
    """The longest predicate starting at toks[i] (no spaces in `toks`) and where it ends."""
    first = toks[i]
    if first.is_han:
        return _zh_predicate_at(toks, i)
    if first.kind not in ("word", "punct"):
        return None
    opens = i == 0 or toks[i - 1].text in CLAUSE_PUNCT
    if first.low in _PRONOUN_COPULAS and i + 1 < len(toks) and opens:
        return Predicate(), i + 1  # "…; it's Lena now": the subject of the clause before
    best = None
    words: list[str] = []
    for j in range(i, min(i + _longest(), len(toks))):
        if toks[j].kind != "word":
            break
        words.append(toks[j].low)
        if (pred := pr.EN_PREDICATES.get(" ".join(words))) is not None:
            best = (pred, j + 1)
    if best is not None and words[0] in ("last", "lasts") and not _duration_at(toks, best[1]):
        return None  # "moved last month": last is no verb there
    if best is not None and best[0].numeric and not _number_at(toks, best[1]):
        return None  # "it's up to you": no number set
    return best if best is not None else _en_verb_at(toks, i)


def _zh_predicate_at(toks: list[Tok], i: int) -> tuple[Predicate, int] | None:
    best = None
    joined = ""
    for j in range(i, min(i + 4, len(toks))):
        if not toks[j].is_han:
            break
        joined += toks[j].low
        if joined in pr.ZH_PREDICATES:
            best = (pr.ZH_PREDICATES[joined], j + 1)
    after = toks[best[1]] if best and best[1] < len(toks) else None
    if best is None:
        return _zh_switched_verb(toks, i) or _zh_to_number(toks, i)
    if after is not None and after.low == "的":
        return None  # attributive: "喜欢的故事书" is a thing, not a statement
    if best[0].numeric and not _zh_number_at(toks, best[1]):
        return None  # "他提到了 Redis": a mention, no value set
    if best[0].attr in pr.HABITS and after is not None and after.low in "了过着":
        return None  # "一起吃了午饭": a meal once, no habit
    return best


def _zh_number_at(toks: list[Tok], i: int) -> bool:
    """A number at toks[i], or one word before it ("提到 iOS 16", "提到 v3")."""
    at = toks[i : i + 2]
    return bool(at) and (at[0].kind == "num" or len(at) == 2 and at[1].kind == "num")


def _zh_switched_verb(toks: list[Tok], i: int) -> tuple[Predicate, int] | None:
    """jieba's 改 and a verb, one word: a change to doing it another way ("改卖2块一个",
    "改收现金", "改走高速"), whatever the verb; not 改善 / 改进 / 改革 (making better)."""
    tok = toks[i]
    low = tok.low
    if len(low) != 2 or low[0] != "改" or tok.tag[:1] != "v" or low in _ZH_BETTER:
        return None
    if i + 1 < len(toks) and toks[i + 1].low in ("在", "到"):
        return None  # "改跑在 4090 上": where it runs, read with 在
    return _CHANGE, i + 1


_ZH_BETTER = frozenset({"改善", "改进", "改革", "改良", "改造", "改编", "改写"})


def _zh_to_number(toks: list[Tok], i: int) -> tuple[Predicate, int] | None:
    """Any verb "到" / "至" a number states the number it changed to: "砍到 3 轮", "压到
    200ms", "拉到 50" — a verb this lexicon may not list."""
    tok = toks[i]
    if not (tok.is_han and tok.tag[:1] == "v"):
        return None
    if i and toks[i - 1].kind == "num" and tok.low[0] in _ZH_UNITS:
        return None  # "从2点到10点": jieba's 点到 after a number ends a range of times
    end = i + 1
    if len(tok.low) == 1 and end < len(toks) and toks[end].low in ("到", "至"):
        end += 1  # jieba's 推迟 + 到
    elif len(tok.low) != 2 or tok.low[-1] not in "到至":
        return None
    end += end < len(toks) and toks[end].low == "了"
    return (_CHANGE, end) if end < len(toks) and toks[end].kind == "num" else None


_CHANGE = Predicate(change=True)
_ZH_UNITS = "点时号"  # a time or a day after a number, never a verb there
# verbs in -ed before "to" and a number that set nothing: "talked to 5 people"
_EN_NOT_SET = words("not setting verb", "en")
# a present copula before it: "the rig is rated to 150 kg" says what holds, not a change
_EN_PRESENT = words("copula short", "en")


def _en_verb_at(toks: list[Tok], i: int) -> tuple[Predicate, int] | None:
    """A verb this lexicon may not list, by its form: "-ed [down|up|back|over] to" and a
    number ("throttled to 50", "dialed back to 2") states a changed number; the listed
    transitive and placing verbs ("moved X to Y", "keep X in Y") take their object."""
    first = toks[i]
    if first.low in pr.EN_TRANSITIVE:
        return _transitive(toks, i)
    if first.low in pr.EN_SENDING:
        return _transitive(toks, i, pr.EN_SENDING_LINKS, pr.EN_SENDING[first.low])
    if first.low in pr.EN_PLACING:
        return _transitive(toks, i, pr.EN_PLACING_LINKS)
    if first.low in pr.EN_REBUILDING:
        return _transitive(toks, i, pr.EN_REBUILDING_LINKS, _REBUILT)
    if first.low in pr.EN_RELICENSING:
        return _transitive(toks, i, pr.EN_RELICENSING_LINKS, _RELICENSED)
    if len(first.low) < 5 or not first.low.endswith("ed") or first.low in _EN_NOT_SET:
        return None
    if i and toks[i - 1].low in _EN_PRESENT:
        return None
    end = i + 1
    end += end < len(toks) and toks[end].low in pr.EN_PARTICLES
    if end < len(toks) and toks[end].low == "to" and _number_at(toks, end + 1):
        return _CHANGE, end + 1
    # "tuned max connections down to 150": an object, then a number it was set to
    link = next((k for k in range(i + 2, min(i + 7, len(toks))) if toks[k].low == "to"), None)
    if link is not None and _number_at(toks, link + 1):
        return _transitive(toks, i)
    return None


_DURATION_WORDS = words("duration word", "en")


def _duration_at(toks: list[Tok], i: int) -> bool:
    """Whether a duration starts at toks[i]: "two weeks", "an hour", "90 minutes"."""
    return i < len(toks) and (toks[i].kind == "num" or toks[i].low in _DURATION_WORDS)


_PLACED = Predicate(transitive=True, attr="location")
_REBUILT = Predicate(change=True, transitive=True)
_RELICENSED = Predicate(change=True, transitive=True, attr="license")


def _number_at(toks: list[Tok], i: int) -> bool:
    """Whether a number starts at toks[i], after "about" or "around" at most."""
    i += i < len(toks) and toks[i].low in ("about", "around", "roughly", "only", "just")
    return i < len(toks) and toks[i].kind == "num"


def _when_at(toks: list[Tok], i: int) -> bool:
    """Whether a time starts at toks[i]: "March", "2021", "last year", "Q3"."""
    if i >= len(toks):
        return False
    low = toks[i].low
    year = toks[i].kind == "num" and len(low) == 4 and low[:2] in ("19", "20")
    return year or low[:3] in MONTHS or low in _WHEN_WORDS or date_like(toks[i : i + 2])


_WHEN_WORDS = words("when modifier", "en")


def _transitive(
    toks: list[Tok],
    i: int,
    links: frozenset[str] = pr.EN_TRANSITIVE_LINKS,
    placed: Predicate = _PLACED,
) -> tuple[Predicate, int] | None:
    """ "moved the deploy script to tools/", "changed the port from 8080 to 9090"; with
    `links` of place, "keep the wiki on Confluence" (where the object is, no change),
    and `placed` the predicate then ("send the logs to Loki": where they go)."""
    for j in range(i + 1, min(i + 9, len(toks))):
        if toks[j].text in CLAUSE_PUNCT:
            return None
        if links is not pr.EN_TRANSITIVE_LINKS and toks[j].low in links:
            obj = [t.low for t in toks[i + 1 : j]]
            if not obj or any(w in PRONOUNS or w in _OBJECTPRONOUNS for w in obj):
                return None  # "keep on pushing", "keep me at peace": no thing placed
            if any(w in _verb_starts() for w in obj):
                return None  # "deploys happen on Mondays": no object, another verb
            if placed is _REBUILT and _when_at(toks, j + 1):
                return None  # "redid the onboarding in March": when, not what with
            return replace(placed, links=links), i + 1
        if toks[j].low in pr.EN_TRANSITIVE_LINKS:
            attr = "move" if toks[i].low.startswith(("mov", "reloc")) else None
            attr = "name" if toks[i].low.startswith("renam") else attr
            return Predicate(change=True, transitive=True, attr=attr), i + 1
    return None


_S_VERBS = frozenset({"is", "was", "has", "does", "goes", "says"})


def noun_before_verb(toks: list[Tok], start: int, i: int, j: int) -> bool:
    """Whether the one-word predicate toks[i] is a plural noun ending the subject: a word
    before it, and another predicate right after it ("Van runs go out Mondays")."""
    low = toks[i].low
    if j != i + 1 or i == start or toks[i].is_han or not low.endswith("s") or low in _S_VERBS:
        return False
    return j < len(toks) and predicate_at(toks, j) is not None
