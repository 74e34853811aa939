"""The last look for what a stated change changes: the words the two sentences share.

The grammar reads a subject and a value where it knows the phrasing; people say a
change in ways it does not ("I take the 8:15 train" -> "I now catch the 7:50 train
instead", "缓存过期时间是 10 分钟" -> "缓存过期时间减半，改成 5 分钟", "Our SSO provider is
Okta" -> "SSO is handled by Azure AD now"). When a text states a change (a change verb,
"now", 现在, a correction) and every rule has found nothing, the memory it changes is a
current one of the same domain that shares its words of topic, leaves out a word the
new text brings and says something the new text no longer does. Three things keep it
from touching another fact that looks alike:

- a shared word qualified differently on each side is another thing ("the auth service"
  and "the billing service", "我哥住在" and "妹妹现在住在");
- an old memory whose value the new text says again is not what changed ("Our engineering
  manager is Omar" after "…; Omar is our PM now");
- several memories that fit make it a question (conflicts), never a guess.

    changed_by_words(incoming, candidates)
    # [Match(entry=<I take the 8:15 train>, relation="supersede", reason="…")]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from remem import text
from remem.entry import Entry
from remem.truth import lexicon as lx
from remem.truth.changes import DAYS as _DAY
from remem.truth.changes import LINKS, OWNERS, names_in, valueish
from remem.truth.dedup import CONFLICT_TYPES, Match
from remem.truth.markers import states_change
from remem.truth.people import LATIN as _LATIN
from remem.truth.people import first_name as _first_name
from remem.truth.people import later_people as _people
from remem.truth.segment import CLAUSE_PUNCT, SENTENCE_END, Tok, normal, solid, tokenize
from remem.truth.table import mapping, words
from remem.truth.talk import chatty as chatty
from remem.truth.talk import talk as talk
from remem.truth.terms import no_numbers
from remem.truth.valueforms import core, said_as
from remem.truth.verbs import predicate_at

_MAX_CHARS = 300
_MAX_UNITS = 9
# Verbs and words so common that sharing them says nothing of a topic
_WEAK = words(
    "weak"
)  # and words of when, and of how sure: "As of next week", "Actually", "从下个月开始"
# How long or how often: "a month" says no topic, but "during the day" may say which one
_PERIODS = words("period stem")
_NO_TOPIC = _WEAK | _PERIODS
_SKIP = LINKS | OWNERS | lx.EN_DETERMINERS | lx.ZH_TRAILING | text.EN_STOPWORDS
# and the words saying an earlier note was wrong ("其实", "actually"): how, not which
_CHANGE_WORDS = lx.ZH_CHANGE_ADVERBS | lx.EN_CHANGE_ADVERBS | words("correction")
_OPENERS = words("opener")
_AFTERWARDS = words("afterwards", "zh")
_NP_START = lx.EN_DETERMINERS | words("possessive start", "en")
# A measure said after an amount is part of it: "£9.49 a kilo" is "8.99/kg" with another
# price, not a word of which thing ("kilo" said by one text only)
_MEASURES = mapping("measure")
_PER = re.compile(r"(\d[\d.,]*)/([a-z]+)\.?")


@dataclass(frozen=True, slots=True)
class Unit:
    """A word of a sentence as the comparison reads it: its form (stemmed English, a
    Chinese word), whether it is a value (a number, a name, a code, a day), and whether
    it is shared with the other sentence (set by the comparison)."""

    form: str
    value: bool
    verb: bool  # a one-character Chinese verb (开, 坐, 吃): how a thing is done, not which
    cut: bool  # a clause or a change verb ends before it
    clause: int  # which clause of the text it stands in
    after_for: bool = False  # "for" before it: "the freeze for 4.3" says which freeze
    lead: bool = False  # in a leading "since …" / "… 之后" phrase: when, not which


@lru_cache(maxsize=4096)
def units(content: str) -> tuple[Unit, ...]:
    """The words of `content` that can say what it is about or what it states."""
    toks = [t for t in solid(tokenize(normal(content))) if t.kind != "space"]
    names = names_in(content)
    han = any(t.is_han for t in toks)
    out: list[Unit] = []
    cut, clause, after_for = False, 0, False
    lead = False
    for i, tok in enumerate(toks):
        if tok.text in SENTENCE_END or tok.text in CLAUSE_PUNCT:
            cut, clause, lead = True, clause + bool(out), False
            continue
        if tok.low in _AFTERWARDS:  # "换了 CDN 之后…": what came before is when
            out = [replace(u, lead=True) if u.clause == clause else u for u in out]
            lead = False
            continue
        if tok.low in _OPENERS:  # "… since we added seats": when, from here on
            lead = True
            continue
        if lead and out and out[-1].lead and tok.low in _NP_START:
            lead = False  # "After the OOM incidents | the order service's max heap …"
        if tok.kind == "punct":  # "$", "%", quotes: inside the clause
            continue
        found = predicate_at(toks, i)
        if found is not None and (found[0].change or found[0].negation):
            cut = True  # a change verb: what follows is what holds now
            continue
        low = _DAY_SHORT.get(tok.low, tok.low)
        if out and out[-1].value and out[-1].form[:1].isdigit() and low in _MEASURES:
            out[-1] = replace(out[-1], form=out[-1].form + _MEASURES[low])
            continue
        acronym = len(tok.text) > 1 and tok.text.isupper()  # "US" is not "us"
        if not acronym and (low in _SKIP or low in _CHANGE_WORDS or low in text.ZH_STOPWORDS):
            after_for = low == "for"
            continue
        value = (
            valueish(low)
            or (low[:1] == "每" and valueish(low[1:]))  # 每周五 as 周五
            or low in names
            or tok.kind in ("path", "url")
            or (han and tok.kind == "word")  # a Latin word in Chinese: a name or code
            or ("." in low and any(c.isalpha() for c in low))  # a host: app.acme.io
        )
        value = value or _nth_day(low, toks[i + 1 : i + 2])
        verb = tok.is_han and len(tok.text) == 1 and tok.tag == "v"
        form = _form(tok)
        if (per := _PER.fullmatch(form)) is not None and per[2] in _MEASURES:
            form = per[1] + _MEASURES[per[2]]  # "8.99/kg"
        out.append(Unit(form, value, verb, cut, clause, after_for, lead))
        cut = after_for = False
    return tuple(out)


_NTH = frozenset("first second third fourth last".split())


def _nth_day(low: str, after: Sequence[Tok]) -> bool:
    """Whether `low` says which of a month's days: "the first Friday", "last friday"."""
    return low in _NTH and bool(after) and bool(_DAY.fullmatch(after[0].low))


def story(content: str) -> bool:
    """Whether `content` runs longer than a fact (MADial's diary events run to 6-28 words,
    the facts of the probes to 1-9): a story of its own, which a guess never replaces
    another by."""
    return len(units(content)) > _MAX_UNITS


# A weekday as a note shortens it ("fri nights", "Weds", "Thurs mags"), said whole; not
# "sat" or "sun", ordinary words too
_DAY_SHORT = mapping("day short", "en")


def _form(tok: Tok) -> str:
    low = tok.low.removesuffix("'s").removesuffix("’s")  # "the service's" is the service
    if tok.is_han or not low.isalpha():
        return low
    low = _DAY_SHORT.get(low, low)
    return terms[0] if (terms := text.terms(low)) else low


def _same(a: str, b: str) -> bool:
    """One word, or a Chinese word inside another ("进程" of "进程池")."""
    if a == b:
        return True
    han = "\u4e00" <= a[:1] <= "\u9fff" and "\u4e00" <= b[:1] <= "\u9fff"
    if not han:
        return False
    if min(len(a), len(b)) == 1:  # a verb said shorter: 游 of 游泳, 跑 of 跑步
        return max(len(a), len(b)) == 2 and a[0] == b[0]
    return a in b or b in a


def _shared(one: Sequence[Unit], other: Sequence[Unit]) -> list[bool]:
    """Whether each word of `one` is `_same` as one of `other`: a word by equality, a
    Chinese one also against the other's Chinese words (asked of every candidate)."""
    forms = {v.form for v in other}
    han = [f for f in forms if _han(f)]
    return [u.form in forms or (bool(han) and _han(u.form) and _inside(u.form, han)) for u in one]


def _inside(form: str, han: list[str]) -> bool:
    """`any(_same(form, f) for f in han)` of a Chinese `form` and Chinese words `han`
    (none equal to it), without a call a word: asked of every candidate's words."""
    for f in han:
        if len(form) == 1 or len(f) == 1:
            if len(form) + len(f) == 3 and form[0] == f[0]:
                return True
        elif form in f or f in form:
            return True
    return False


def _han(form: str) -> bool:
    return "\u4e00" <= form[:1] <= "\u9fff"


def _qualifiers(
    units_: Sequence[Unit],
    other: Sequence[Unit],
    subject: set[str],
    *,
    codes: bool = True,
    shared: list[bool] | None = None,
) -> set[str]:
    """The words naming which thing a sentence is about that the `other` lacks: the
    words of its subject (`subject`: the stored subject's, where the rules read one) and
    those before its first value (leading values aside: "每月交通预算 500 块"), a word the
    other says only part of ("家庭医生" of "医生"), and a name or code right before a
    shared word ("P99 latency", "the iOS app"; not a number or time: "the 7:50 train"),
    unless `codes` is false (where a name may as well be the value: "Java 代码").
    `shared`: `_shared(units_, other)`, when the caller has it."""
    shared = _shared(units_, other) if shared is None else shared
    # a clause that shares no word of topic with the other is context: "Heads up:",
    # "磁盘扛不住，…", "…; 6 GB starved the sidecars"
    topical = {
        u.clause
        for u, s in zip(units_, shared, strict=True)
        if s and not u.value and u.form not in _NO_TOPIC
    }
    # what follows the last value is context ("… since the upgrade", "… to save costs");
    # with no value, every word may say which thing it is
    last = max((i for i, u in enumerate(units_) if u.value), default=len(units_))
    first = next((i for i, s in enumerate(shared) if s and not units_[i].value), 0)
    out = set()
    for i, (unit, same) in enumerate(zip(units_, shared, strict=True)):
        if unit.form in _WEAK or unit.verb or (unit.form in _PERIODS and unit.form not in subject):
            continue
        if same and not _partly(unit.form, other):
            continue
        if (topical and unit.clause not in topical) or (unit.lead and i < first):
            continue  # another clause, or "since the refactor" before what they share
        if not unit.value or unit.form in subject:  # "Shipping to Canada" read as subject
            if unit.form in subject or i < last:
                out.add(unit.form)
        elif not codes:
            continue
        elif i + 1 < len(units_) and shared[i + 1] and not units_[i + 1].value:
            if not valueish(unit.form) or (_code(unit.form) and not _when(unit.form)):
                out.add(unit.form)  # "P99 latency", "the iOS app"; not "Monday the backup"
        elif unit.after_for and i and shared[i - 1] and not units_[i - 1].value:
            out.add(unit.form)
    return out


@lru_cache(maxsize=1)
def people() -> frozenset[str]:
    """The people nouns as words and subject keys spell them (stemmed: "parents" is
    `parent`, "classmates" `classmat`)."""
    return frozenset(t for w in lx.PEOPLE for t in (text.terms(w) or [w]))


def _when(form: str) -> bool:
    """A day, a month or a part of a day: when, never which ("Monday", "April")."""
    return bool(_DAY.fullmatch(form)) or form in _MONTHS


# the month names and the stems text.terms makes of them ("january" -> "januari")
_MONTHS = frozenset(mapping("month", "en")) | words("month stem", "en")


def _code(form: str) -> bool:
    """A name or code that says which one ("p99", "ios", "a100"), not an amount or a day."""
    return not form[:1].isdigit() and any(c.isascii() and c.isalpha() for c in form)


def _partly(form: str, other: Sequence[Unit]) -> bool:
    """Whether `other` holds only part of the word `form` ("医生" of "家庭医生")."""
    return not any(u.form == form for u in other) and any(u.form in form for u in other)


def _subject_words(old: Entry) -> set[str]:
    return {u.form for u in units(old.subject)} if old.subject else set()


def _fit(new: tuple[Unit, ...], old: Entry) -> str | None:
    """How `old` fits the change `new` states: "supersede", "conflict" (it may be the
    one: a word of which thing it is is said on one side only) or None."""
    was = units(old.content)
    new = without_asides(new, was)
    shared_new = _shared(new, was)
    topic = [u for u, s in zip(new, shared_new, strict=True) if s and not u.value]
    if not any(u.form not in _NO_TOPIC for u in topic) or not _covers(new, shared_new):
        return None
    shared_old = _shared(was, new)
    if all(shared_new) or all(shared_old):
        return None  # nothing new, or nothing of the old gone
    if old.value is not None and _restates(old.value, new):
        return None  # the old value is said again: another fact
    # every value of the old one said again: another fact ("Omar is our PM now" of "Our
    # engineering manager is Omar"), a number naming which one aside ("3号蚕房")
    held = [s for i, (u, s) in enumerate(zip(was, shared_old, strict=True)) if _held(was, i)]
    if not old.value and held and all(held):
        return None
    if _slots(new, shared_new) >= 2 and _slots(was, shared_old) >= 2:
        return None  # two values differ on each side: "to the UK … $29" / "to Canada … $18"
    if _two_people(new, was):
        return None  # "李阿姨周三做B超" / "李叔叔周三做心电图，不用空腹": each about another person
    mine = _qualifiers(new, was, set(), shared=shared_new)
    theirs = _qualifiers(was, new, _subject_words(old), shared=shared_old)
    if (mine and theirs) or (mine | theirs) & people():
        return None  # "the billing service" / "the auth service"; the kids' room: two things
    if _premodifies(new, shared_new, mine):
        return None  # the new one is narrower: "the worker's base image", "退货快递"
    if mine:
        return "conflict"  # "I now catch the 7:50 train": it may be the one
    if theirs:  # the old one is narrower: it may be the one, if they share enough
        return "conflict" if len({u.form for u in topic} - _NO_TOPIC) >= 2 else None
    # one word in common is a sign, not proof ("… I mixed up the booking sheets" of "…
    # don't book anything"): asked
    return "supersede" if len({u.form for u in topic} - _NO_TOPIC) >= 2 else "conflict"


def _held(units_: Sequence[Unit], i: int) -> bool:
    """Whether word `i` is a value the note holds, not a number naming which thing ("3号
    蚕房", "2号机": a number before 号)."""
    after = units_[i + 1].form if i + 1 < len(units_) else ""
    return units_[i].value and not (units_[i].form.isdigit() and after.startswith("号"))


def _two_people(new: Sequence[Unit], was: Sequence[Unit]) -> bool:
    """Whether each text names a person the other does not (a value or not: jieba tags
    阿姨 a name after 李)."""
    mine, theirs = {u.form for u in new} & people(), {u.form for u in was} & people()
    return bool(mine - theirs) and bool(theirs - mine)


def _covers(new: Sequence[Unit], shared: list[bool]) -> bool:
    """Whether the text is a fact's length (MADial's events run to 6-28 words, the facts
    of the probes to 1-9) and the shared words a third of what their clauses say ("Bart
    felt lonely about moving" shares only "Bart" with "Bart and Jimmy had a great time")."""
    if len(new) > _MAX_UNITS:
        return False
    topical = {
        u.clause
        for u, s in zip(new, shared, strict=True)
        if s and not u.value and u.form not in _NO_TOPIC
    }
    said = [
        s
        for u, s in zip(new, shared, strict=True)
        if u.clause in topical and not u.value and u.form not in _NO_TOPIC
    ]
    return 3 * sum(said) >= len(said)


def _slots(units_: Sequence[Unit], shared: list[bool]) -> int:
    """How many values of a text the other does not say."""
    return sum(u.value and not s for u, s in zip(units_, shared, strict=True))


def _premodifies(units_: Sequence[Unit], shared: list[bool], words: set[str]) -> bool:
    """Whether one of `words` stands right before a shared word of topic, in its clause:
    it says which one of them ("the infra team's retro", "前端那边的 Node 版本")."""
    return any(
        unit.form in words
        and shared[i + 1]
        and not after.cut
        and not (after.value and valueish(after.form))
        for i, (unit, after) in enumerate(zip(units_, units_[1:], strict=False))
    )


def two_things(old: Entry, content: str) -> bool:
    """Whether `content` and `old` each name which thing they are about by a word the
    other lacks (the surface rules' guard: "生产服务器的 IP" / "测试服务器换了新 IP")."""
    if len(content) > _MAX_CHARS or len(old.content) > _MAX_CHARS:
        return False
    new, was = units(content), units(old.content)
    mine = _qualifiers(new, was, set(), codes=False)
    theirs = _qualifiers(was, new, _subject_words(old), codes=False)
    # "My wife picks the kids up at 3:15" is not "I take the kids at 8:10": another person
    return bool(mine and theirs) or bool((mine | theirs) & people())


def _restates(value: str, new: Sequence[Unit]) -> bool:
    forms = [u for u in units(value) if u.form not in _NO_TOPIC]
    return bool(forms) and all(any(_same(f.form, u.form) for u in new) for f in forms)


def changed_by_words(incoming: Entry, candidates: Sequence[Entry]) -> list[Match]:
    """The memories among `candidates` that `incoming`'s stated change can be of, by
    the words they share (see the module); [] when its text states no change."""
    content = incoming.content
    if incoming.type not in CONFLICT_TYPES or len(content) > _MAX_CHARS:
        return []
    if not states_change(content) or talk(content):
        return []
    new = units(content)
    fits = {}
    for old in _open(incoming, candidates):
        if (how := _fit(new, old)) is not None:
            fits[old.id] = (old, how)
    if len(fits) == 1 and (only := next(iter(fits.values())))[1] == "supersede":
        return [Match(only[0], "supersede", "the text states a change of what it shares with this")]
    return [
        Match(old, "conflict", "which one changed? (the words they share)")
        for old, _ in list(fits.values())[:3]
    ]


def without_asides(new: tuple[Unit, ...], was: Sequence[Unit]) -> tuple[Unit, ...]:
    """`new` without its later clauses that share no word with `was` and hold no number:
    why it changed, said after it ("subs are £32 a month, I forgot the licence bit", "摊位
    挪到C口了，B口在修路") is no word of which thing it is."""
    said = {u.form for u in was}
    # a clause with a number in it may be the value itself ("scratch that, Heron 2-9 July")
    keep = {0} | {u.clause for u in new if u.form in said or any(c.isdigit() for c in u.form)}
    kept = tuple(u for u in new if u.clause in keep)
    return kept if kept and any(not u.value for u in kept) else new


def swaps_a_value(new: str, old: str) -> bool:
    """Whether each text says a value (a number, a day, a time, a code) the other does
    not, values said another way counted the same: "thursdays, back room" of "Wednesday
    in the back room" (another night, however many words they share)."""
    mine = {core(u.form) for u in units(new) if u.value}
    theirs = {core(u.form) for u in units(old) if u.value}
    if bool(mine - theirs) and bool(theirs - mine):
        return True
    # a person named first in one ("Amira does the stock-take") and another named later
    # in the other ("stock-take - Becky"): names_in leaves a first word out
    first_new, first_old = _first_name(new, old), _first_name(old, new)
    if not (first_new or first_old) or len(_shared_words(new, old)) < 2:
        return False  # "Screen 2 in the shop …" / "Grand National sweepstake at the shop"
    return bool(
        (first_old and _people(new) - {w.lower() for w in _LATIN.findall(old)})
        or (first_new and _people(old) - {w.lower() for w in _LATIN.findall(new)})
    )


def _shared_words(a: str, b: str) -> set[str]:
    """The terms two texts share that are no numbers."""
    return no_numbers(set(text.terms(a)) & set(text.terms(b)))


def says_again(value: str, old: str) -> bool:
    """Whether every word of `value` is in `old`, a value said another way counted the
    same ("March 12th, 18:00" of "… on 12 March at 6pm")."""
    held = {said_as(u.form) for u in units(old)}
    said = [said_as(u.form) for u in units(value)]
    return bool(said) and all(form in held for form in said)


def _open(incoming: Entry, candidates: Sequence[Entry]) -> list[Entry]:
    """The current facts among `candidates` (once each) that `incoming` may change: of a
    type that conflicts, short enough to compare, not `incoming` itself."""
    return [
        old
        for old in {c.id: c for c in candidates}.values()
        if old.id != incoming.id
        and old.type in CONFLICT_TYPES
        and old.is_current
        and len(old.content) <= _MAX_CHARS
    ]


def lookup_terms(content: str) -> list[str]:
    """The words to find the changed memory by: what the text says but its values."""
    return [u.form for u in units(content) if not u.value and u.form not in _NO_TOPIC]
