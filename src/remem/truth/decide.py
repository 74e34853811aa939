"""What a new memory is to the ones already there, decided by what each is about.

Same subject and the same value: a duplicate. Same subject, another value: a
supersede where the new text states the change (改用, switched to, 不再…, a
correction), else a conflict for the caller to settle (replace or keep both).
Different subjects never conflict, however alike the sentences. Where either memory
has no subject the rules read, the surface rules of SPEC LT10 decide (`dedup`), and a
conflict the text calls a change becomes a supersede.

    matches = classify(incoming, candidates, semantic=check)
    # [Match(entry=<old>, relation="supersede", reason="same subject, changed value …")]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence, Set
from dataclasses import replace
from functools import lru_cache

from remem import text
from remem.entry import Entry
from remem.store.protocol import Near
from remem.truth import changes, dedup, keys, overlap, when
from remem.truth import lexicon as lx
from remem.truth.dedup import CONFLICT_TYPES, Match, SimilarityCheck
from remem.truth.markers import states_change
from remem.truth.subject import Claim, read
from remem.truth.table import words
from remem.truth.terms import content_terms, shared_terms

_HAN = re.compile(r"[\u4e00-\u9fff]")

Reader = Callable[[str], Claim | None]
_ORDER = {"duplicate": 0, "supersede": 1, "conflict": 2}


def claim_of(
    entry: Entry, *, full: bool = False, key: str | None = None, near: Near | None = None
) -> Claim | None:
    """The claim an entry makes: its stored subject and value, else what the rules read.
    `full` (a new entry): also whether its text states a change, and what stopped; a
    stored entry's claim leaves them out (nothing asks them of an older memory).
    `key`: its stored subject key, "" when the rules read no subject in it (not again);
    `near`: what the store keeps of it (its subject key and value terms, overriding `key`)."""
    terms = None
    if near is not None:
        key, terms = near.subject_key, near.value_terms
    if not entry.subject:
        return None if key == "" else read(entry.content)
    if not full:
        return _stored(entry.subject, entry.value, key, terms)
    found = read(entry.content)
    if found is None or found.subject != entry.subject:
        return Claim(entry.subject, entry.value, via="stored")
    return replace(found, value=entry.value, via="stored")


@lru_cache(maxsize=8192)  # a candidate's claim, save after save (a claim is frozen)
def _stored(
    subject: str, value: str | None, key: str | None, terms: tuple[str, ...] | None
) -> Claim:
    return Claim(subject, value, via="stored", stored_key=key, stored_terms=terms)


def _whole(entry: Entry, claim: Claim) -> bool:
    """Whether the claim is all the entry says (read when it was only stored)."""
    if claim.via != "stored":
        return claim.whole
    found = read(entry.content)
    return found.whole if found is not None and found.subject == claim.subject else True


def _alike(left: str, right: str) -> bool:
    a, b = text.canonicalize(left), text.canonicalize(right)
    return a == b or text.dice(a, b) >= dedup.DICE_THRESHOLD


def _same_value(dropped: str | None, claim: Claim) -> bool:
    if dropped is None or claim.value is None:
        return False
    return keys.relation(keys.keys(claim.subject, dropped)[1], claim.value_terms) == "same"


def by_subject(old: Entry, new: Claim, was: Claim, content: str | None = None) -> Match | None:
    """How a claim relates to an older one about the same subject (`content`: the text
    the new claim was read from)."""
    shown = f"{was.subject}: {was.value or '-'} -> {new.value or '-'}"
    if new.value is None:  # "不再用 X": X stopped
        if _same_value(new.dropped, was):
            return Match(old, "supersede", f"the value stopped ({shown})")
        return None
    if was.value is None:
        return None  # the old one said only that a value stopped; the new one fills it
    relation = keys.relation(was.value_terms, new.value_terms)
    if relation == "same":
        if new.whole or not _whole(old, was):
            if not new.whole and content is not None and not _alike(old.content, content):
                return None  # both say more than this fact, and the rest differs: two memories
            return Match(old, "duplicate", f"same subject and value ({was.subject}: {was.value})")
        return Match(old, "supersede", f"same subject and value, more detail ({was.subject})")
    if relation == "generalises":
        return Match(old, "duplicate", f"already known more precisely ({shown})")
    if relation == "refines":
        return Match(old, "supersede", f"a more precise value ({shown})")
    if new.change or _same_value(new.dropped, was):
        return Match(old, "supersede", f"same subject, changed value ({shown})")
    if not new.whole and keys.named_product(new.value) not in (None, keys.named_product(was.value)):
        return None  # "项目使用 JDK 17、Maven 3.9" lists a stack beside "Python 3.12": no change
    return Match(old, "conflict", f"same subject, different value ({shown})")


# Words of a subject key that say where a thing is: a stated move from one to another
# ("stored in Docker Hub" -> "moved to GHCR") is a change of the same subject.
_WHERE = words("where concept", "en")
_ENVIRONMENTS = words("environment concept", "en")


def without_where(claim: Claim) -> str | None:
    """The subject key of a stated change without its words of where or whose ("moved
    payments to Adyen": payment; "We relocated to the 12th floor": floor), to find the
    memory that named another where or owner (`akin`); None when nothing to drop."""
    words = claim.key.split()
    rest = [w for w in words if w not in _WHERE and w not in _owner_keys() and w != "name"]
    return " ".join(rest) if claim.change and rest and len(rest) < len(words) else None


def akin(new: Claim, was: Claim) -> bool:
    """Whether two claims are about one subject: the same key, or keys that differ only
    in an owner word ("项目的 Python 版本" / "项目使用 Python"), or, where the new text
    states a change, only in how (or whether) they say where the thing is. Subjects
    naming two products ("Python 版本", "Node 版本") are two, whatever their key."""
    # the old subject's product is read only when the new one names one (reading a
    # candidate's subject the first time is most of a decision's cost)
    named = keys.named_product(new.subject)
    if named and (other := keys.named_product(was.subject)) and named != other:
        return False
    if not named and new.value and (other := keys.named_product(was.subject)):
        # "Node 版本是 18" -> "已经升级到 Python 3.11": the value names another product
        if (said := keys.named_product(new.value)) is not None and said != other:
            return False
    if new.key == was.key:
        return True
    a, b = _key_words(new.key), _key_words(was.key)
    if (a ^ b) <= lx.KINDS and a - lx.KINDS and not (a & lx.KINDS and b & lx.KINDS):
        # the key names the kind of a value the glossary knows ("Error tracking goes to
        # Sentry": monitoring) and not of one it does not ("... to Rollbar"): one subject
        return True
    nouns = _owner_keys()
    owners = a & nouns, b & nouns
    if all(owners) and owners[0] != owners[1]:
        return False  # 公司 and 仓库 are two owners
    if a - nouns == b - nouns and a - nouns:
        return True
    # "接口文档用 Swagger" -> "接口文档迁移至 Apifox", "Our office is on the 5th floor" ->
    # "We relocated to the 12th floor": one side may say no where, or no whose, at all
    # "We send our logs to Elasticsearch" -> "Logs now go to Loki": kinds of value too
    # "We renamed the Slack workspace to acme-dev": what it is called is what it is
    a, b = a - _WHERE - nouns - {"name"}, b - _WHERE - nouns - {"name"}
    # a kind word names what the value is ("logs go to Loki"), never a number's owner:
    # "the CI timeout" and "the deploy timeout" are two timeouts
    kinds = frozenset() if _quantity(new) else lx.KINDS
    return new.change and bool(a - kinds) and a - kinds == b - kinds


def _quantity(claim: Claim) -> bool:
    return any(t[:1].isdigit() for t in claim.value_terms)


@lru_cache(maxsize=8192)  # the same candidates' keys, save after save
def _key_words(key: str) -> frozenset[str]:
    return frozenset(key.split())


@lru_cache(maxsize=1)
def _owner_keys() -> frozenset[str]:
    """The owner nouns as subject keys spell them (stemmed: "office" is `offic`)."""
    return frozenset(t for w in lx.OWNER_NOUNS for t in (text.terms(w) or [w]))


def relation(
    existing: Entry, incoming: Entry, claim: Claim | None, near: Near | None = None
) -> Match | None:
    """How `incoming` (whose claim is `claim`) relates to `existing` of the same domain
    (`near`: what the store keeps of it, its subject key and canonical form)."""
    key, canon = (near.subject_key, near.canon) if near is not None else (None, None)
    if dedup.same_canon(existing, incoming, canon):
        return Match(existing, "duplicate", "same content once canonicalised")
    if incoming.type not in CONFLICT_TYPES:
        return None
    was = claim_of(existing, key=key, near=near)
    if claim is not None and was is not None:
        return by_subject(existing, claim, was, incoming.content) if akin(claim, was) else None
    found = dedup.relation(existing, incoming, left=canon)
    changed = claim.change if claim is not None else states_change(incoming.content)
    if found is None and changed and changes.restated(existing.content, incoming.content):
        found = Match(existing, "supersede", "the same statement, its value changed")
    if found is None or found.relation == "duplicate":
        return found
    if overlap.two_things(existing, incoming.content):
        return None  # "清理任务凌晨 3 点跑" / "备份改到凌晨 4 点跑": another thing's time
    if found.relation != "conflict":
        return found
    return (
        Match(existing, "supersede", f"{found.reason}; the text states a change")
        if changed
        else found
    )


# The question a change of a broader subject asks when it can mean several narrower ones:
# each is listed, none vetoed by a guess (the user says which)
WHICH = "which one changed?"


def _broader(incoming: Entry, claim: Claim, candidates: Sequence[Near]) -> list[Match]:
    """A change stated of a broader subject ("Budget changed to 80k") applies to the one
    narrower subject it can mean ("the API budget"); several make it a question."""
    want = set(claim.key.split())
    named = keys.named_product(claim.subject)
    # "We migrated everything to AWS" for "Our cloud is Azure": a product of the kind said
    valued = claim.value is not None and keys.named_product(claim.value) is not None
    narrower = []
    for near in candidates:
        old, was = near.entry, claim_of(near.entry, near=near)
        if was is None or was.value is None or not want < (words := set(was.key.split())):
            continue
        if (words - want) & overlap.people():
            continue  # "my parents' home" is not the user's
        if named and keys.named_product(was.subject) != named:
            continue  # "the Redis cache TTL" is not "the CDN cache TTL"
        if claim.dropped and not content_terms(claim.dropped) <= content_terms(old.content):
            continue  # "We renamed FLAGS_URL to …" is no new name of "家里的狗叫豆豆"
        if not (valued or shared_terms(old.content, incoming.content)):
            continue  # "从下周起改成每天早上练声" names no word of "Open day leaflets …"
        narrower.append((old, was))
    if len(narrower) == 1:
        old, was = narrower[0]
        return [
            Match(old, "supersede", f"a change of {was.subject} ({was.value} -> {claim.value})")
        ]
    # asked in one order whatever order the store found them in (PostgreSQL's ties vary)
    narrower.sort(key=lambda ow: (ow[0].created_at, ow[0].content))
    return [
        Match(old, "conflict", f"{WHICH} ({was.subject}: {was.value})") for old, was in narrower
    ]


def classify(
    incoming: Entry,
    candidates: Sequence[Near],
    *,
    claim: Claim | None = None,
    semantic: SimilarityCheck | None = None,
) -> list[Match]:
    """Every duplicate, supersede and conflict of `incoming` among `candidates` (what
    `Store.same_domain` found), in that order (duplicates first). `claim` is the incoming
    entry's (default: `claim_of`)."""
    claim = claim if claim is not None else claim_of(incoming, full=True)
    matches = [m for c in candidates if (m := relation(c.entry, incoming, claim, c))]
    if semantic is not None:
        seen = {m.entry.id for m in matches}
        found = semantic(incoming, [c.entry for c in candidates])
        matches += [m for m in found if m.entry.id not in seen]
    if (
        claim is not None
        and claim.change
        and incoming.type in CONFLICT_TYPES
        and not any(m.relation in ("supersede", "duplicate") for m in matches)
    ):
        seen = {m.entry.id for m in matches}
        matches += _broader(incoming, claim, [c for c in candidates if c.entry.id not in seen])
    return sorted(matches, key=lambda m: _ORDER[m.relation])


def read_apart(
    claim: Claim | None, olds: Sequence[Entry], content: str = ""
) -> tuple[frozenset[str], frozenset[str]]:
    """The memories the grammar read whole as a subject other than `claim`'s ("Node
    版本是 18" for "已经升级到 Python 3.11"), none unless `claim` is whole too; and of
    them, those read apart surely: whose subject names another product ("MySQL 版本是
    8.0" for "PostgreSQL 版本是 16"), which the text's (`content`) narrows by a word it
    says and the memory does not ("The team retro ..." / "The infra team's retro ..."), or
    each names itself by a word ("测试环境的用户服务 ..." / "... 通知服务 ...")."""
    if claim is None or not claim.whole:
        return frozenset(), frozenset()
    apart, surely = set(), set()
    named = keys.named_product(claim.subject)
    claims = [(old, claim_of(old)) for old in olds]
    # a subject said shorter is the same thing only where no memory names it just so
    # ("the image resizer" beside "the staging image resizer" is the other one)
    exact = any(was is not None and was.key == claim.key for _, was in claims)
    for old, was in claims:
        if was is None or not was.whole or akin(claim, was):
            continue
        if not exact and _shorter(claim, was):
            continue
        apart.add(old.id)
        if named and (other := keys.named_product(was.subject)) and other != named:
            surely.add(old.id)
        elif _narrowed(claim, was, old.content, content) or _each_names(
            claim, was, old.content, content
        ):
            surely.add(old.id)
    return frozenset(apart), frozenset(surely)


def _shorter(claim: Claim, was: Claim) -> bool:
    """Whether `claim`'s key is `was`'s less a word: the text names the thing shorter
    ("nitrox fills" for "Club nitrox fills"), which says it is no other thing (the
    judge decides, at the bar of a text read whole)."""
    a, b = _key_words(claim.key), _key_words(was.key)
    # a word the text leaves out that names an attribute says which of the thing's values
    # the memory holds ("日志平台的负责人" is no "日志平台用的是 ELK")
    # (or whose it is: "My wife is on the Basic plan" is no "I upgraded to the Team plan"),
    # and a text naming only an attribute names no thing ("We renamed FLAGS_URL ...")
    # and an environment the memory names is another deployment of it ("开发环境的计费模块")
    named = a - lx.ATTRIBUTES - lx.KINDS
    other = lx.ATTRIBUTES | lx.KINDS | _ENVIRONMENTS | _owner_keys()
    return bool(named) and a < b and not (b - a) & other


def said_shorter(incoming: Entry, claim: Claim | None, olds: Sequence[Entry]) -> list[Match]:
    """The one memory among `olds` whose subject the text names shorter, with another
    value of the same form ("From June locker rental goes to £6 a month" of "The club's
    locker rental is £5 a month"): asked, never replaced (where two memories' subjects
    hold the text's, "squad subs" of the junior and the senior squad's, neither is)."""
    if claim is None or not claim.whole or not claim.value_terms:
        return []
    found = {}
    for old in olds:
        was = claim_of(old)
        if was is not None and was.key == claim.key:
            return []  # a memory names it just so: the longer ones are other things
        if was is None or not was.whole or not was.value_terms or not _shorter(claim, was):
            continue
        if was.value_terms != claim.value_terms and _quantity(was) == _quantity(claim):
            found[old.id] = old
    if len(found) != 1:
        return []
    return [Match(next(iter(found.values())), "conflict", "a new value of it? (named shorter)")]


def _narrowed(claim: Claim, was: Claim, old: str, new: str) -> bool:
    """Whether `claim`'s key is `was`'s and a word more the new text says (`_names`)."""
    a, b = _key_words(claim.key), _key_words(was.key)
    return b < a and _names(a - b, new, old)


def _each_names(claim: Claim, was: Claim, old: str, new: str) -> bool:
    """Whether each subject has a Chinese word of its own ("测试环境的用户服务" / "测试环境的
    通知服务") or an acronym ("EU" / "US"): two things. (English subjects are read with
    words of the verb and said shorter, "Station Rd" for "Station Road": a word of one's
    own says less there.)"""
    a, b = ({t for t in content_terms(c.subject) if _HAN.search(t)} for c in (claim, was))
    if _names(a - b, new, old) and _names(b - a, old, new):
        return True
    # an acronym of each's own does name it ("The EU cluster …" / "The US cluster …")
    a, b = (set(_ACRONYM.findall(c.subject)) for c in (claim, was))
    return (
        bool(a - b)
        and bool(b - a)
        and not (a - b) & set(_ACRONYM.findall(old))
        and not ((b - a) & set(_ACRONYM.findall(new)))
    )


_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")


def _names(words: Set[str], own: str, other: str) -> bool:
    """Whether one of `words` is said in the text `own` and nowhere in `other`, not a
    number, not of when ("下个月15号起")."""
    own, other = own.lower(), other.lower()
    return any(
        w in own and w not in other and not w.isdigit() and not when.said_when(w) for w in words
    )
