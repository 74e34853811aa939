"""The predicates that link a subject to its value, Chinese and English: copulas and
verbs of use, place, name, ownership, preference, change and stop, with the attribute
each implies ("listens on" -> port, 搬到 -> a move). The verbs are rows of the word
table (`remem.truth.table`, role "predicate"), each with its flags and attribute spelled
"change,attr=move": a closed class of verbs, never a sentence or a sample of the data."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from remem.truth.table import mapping, words


@dataclass(frozen=True, slots=True)
class Predicate:
    """How a verb links subject and value.

    `change`: the text says the value changed (改用, switched to); `negation`: it says
    the value stopped (不再用, no longer uses); `attr`: the attribute it implies
    ("location" for 在 / lives in, "port" for listens on); `pref`: a preference verb
    (its subject is the user's choice of a kind); `inverse`: the value comes first
    ("Redis 用于缓存": subject 缓存); `transitive`: "moved X to Y", "把 X 改成 Y" —
    the subject may stand between the verb and `to`."""

    change: bool = False
    negation: bool = False
    attr: str | None = None
    pref: bool = False
    inverse: bool = False
    transitive: bool = False
    links: frozenset[str] = frozenset({"to", "into", "onto"})  # where a transitive object ends
    numeric: bool = False  # a predicate only before a number ("门槛提到了 80%", not 提到了他)


CHANGE = Predicate(change=True)


@cache
def _predicate(spelling: str) -> Predicate:
    """A predicate as the table spells it: its flags and attribute, "change,attr=move";
    "plain" for a verb that only links ("is", "用")."""
    flags, attr = set(), None
    for part in spelling.split(","):
        name, _, value = part.partition("=")
        if name == "attr":
            attr = value
        else:
            flags.add(name)
    return Predicate(
        change="change" in flags,
        negation="negation" in flags,
        attr=attr,
        pref="pref" in flags,
        inverse="inverse" in flags,
        transitive="transitive" in flags,
        numeric="numeric" in flags,
    )


def _predicates(role: str, lang: str) -> dict[str, Predicate]:
    return {verb: _predicate(spelling) for verb, spelling in mapping(role, lang).items()}


# Chinese predicates, matched over consecutive jieba tokens joined without spaces.
ZH_PREDICATES = _predicates("predicate", "zh")
# English predicates, matched over words joined by one space; longest match wins.
EN_PREDICATES = _predicates("predicate", "en")
# "moved the deploy script to tools/", "set the timeout to 60s", "replaced X with Y".
EN_TRANSITIVE = words("transitive verb", "en")
EN_TRANSITIVE_LINKS = words("transitive link", "en")
# "we keep the wiki on Confluence", "host the docs at …": where the object is
EN_PLACING = words("placing verb", "en")
EN_PLACING_LINKS = words("placing link", "en")
# "we send our logs to Loki", "deploy the frontend to Vercel": where the object goes
EN_SENDING = _predicates("sending verb", "en")
EN_SENDING_LINKS = words("sending link", "en")
# "We rebuilt the docs site with MkDocs", "rewrote the CLI in Rust": what it is built with now
EN_REBUILDING = words("rebuilding verb", "en")
EN_REBUILDING_LINKS = words("rebuilding link", "en")
# "I drink coffee in the morning", "我早上喝咖啡": what one drinks or eats is a habit of a
# time or a meal, a value only with that time (coffee and wine are both drunk)
HABITS = words("habit concept", "en")
HABIT_WHEN = words("habit when", "en")
# "We relicensed the repo under Apache 2.0"
EN_RELICENSING = words("relicensing verb", "en")
EN_RELICENSING_LINKS = words("relicensing link", "en")
# "cut the loop down to 3 rounds": a particle of the verb before its link, no object word
EN_PARTICLES = words("particle", "en")
