"""A fact said again with another value and no change word ("Elmhurst re-inspection 22
Nov" after "Elmhurst School re-inspection due 15 Nov"): the last look of a save, on the
words the two notes share (`remem.truth.overlap` reads the words).

A memory that is itself a change ("subs going up 50p", "公章涨了20") holds the values of
its thing but not always its words: those are in the version it replaced. The note
after it ("uke subs are £4 a night", "明年1月起公章收120") is read against that version
too, as of the memory now current.

    restated_by_words(incoming, candidates, earlier=lambda e: versions.earlier(store, e))
    # [Match(entry=<subs going up 50p>, relation="conflict", reason="…")]
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence

from remem.entry import Entry
from remem.truth import when
from remem.truth.dedup import CONFLICT_TYPES, Match
from remem.truth.markers import states_change
from remem.truth.overlap import (
    _MAX_CHARS,
    _MAX_UNITS,
    _NO_TOPIC,
    _WEAK,
    Unit,
    _code,
    _han,
    _open,
    _slots,
    _two_people,
    _when,
    talk,
    units,
    without_asides,
)
from remem.truth.table import words
from remem.truth.valueforms import said_as

_SHORT = 4  # words of a note that names its thing in one
# the hour words after a number: "6点开门" opens with a time, not a label ("3号船")
_CLOCK = words("clock", "zh")
# a part of the day before its hour: one time where the other note names no part of day
# ("豆浆店早上5点半开门" of "6点开门"), two where it does (the morning and the afternoon bus)
_PART = words("part of day")
_EACH = re.compile(r"(?:每|一)(个)?(天|日|周|星期|礼拜|月|年|晚|次)|天天")
# an English jotting of a thing and its amount, no verb between ("mince £9.49 a kilo")
_JOTTING = re.compile(r"\W*[A-Za-z]+\s+[£$€]?\d")

Earlier = Callable[[Entry], Sequence[Entry]]


def restated_by_words(
    incoming: Entry, candidates: Sequence[Entry], earlier: Earlier | None = None
) -> list[Match]:
    """The one memory among `candidates` that `incoming` says again with another value and
    no change word: every word of topic it says the memory says too, one value it says the
    memory does not and one of the memory's it no longer says. `earlier(memory)`: the
    versions it replaced, newest first, each read as the memory when the memory itself
    does not fit. Asked, never replaced: the text may be of another thing the memory's
    words also fit."""
    content = incoming.content
    if incoming.type not in CONFLICT_TYPES or len(content) > _MAX_CHARS or talk(content):
        return []
    # a start said at its head or end is when the value holds, not which thing it is of
    # ("9月起托管费每个月1300", "… from January")
    bare = when.lead(content) or content
    whole = units(bare)
    if len(whole) > _MAX_UNITS or states_change(content):
        return []
    fits, again = [], False
    for old in _open(incoming, candidates):
        if _says_again(whole, bare, old.content):
            fits.append(old)
        elif earlier is not None and any(
            _says_again(whole, bare, e.content) and not _kept_apart(whole, old, e)
            for e in earlier(old)
            if len(e.content) <= _MAX_CHARS
        ):
            fits.append(old)
            again = True
    if len(fits) != 1:
        return []
    why = "said again of what it replaced" if again else "said again with another value"
    return [Match(fits[0], "conflict", f"a new value of it? ({why})")]


def _kept_apart(whole: tuple[Unit, ...], old: Entry, replaced: Entry) -> bool:
    """Whether the memory and the version it replaced both say a word of which thing the
    note does not ("The staging image resizer …" in each version: not of "The image
    resizer listens on port 8870")."""
    now = units(old.content)
    said = _matched(now, whole)
    mine = {u.form for u, s in zip(now, said, strict=True) if not s and not u.value}
    return bool((mine - _WEAK) & {u.form for u in units(replaced.content)})


def _says_again(whole: tuple[Unit, ...], bare: str, said: str) -> bool:
    """Whether the note (`whole`, its units; `bare`, its text without a start) says the
    fact `said` again with one value changed."""
    was = units(said)  # words said alike, not inside another ("服务" of "用户服务")
    new = without_asides(whole, was)
    shared_new, shared_old = _matched(new, was), _matched(was, new)
    # a code both say names the thing as a word does ("SB-4471 drawer 15"), and so does a
    # name ("tombola - Dev and Ayesha" of "Tombola is run by Sheila and Dev"); an amount
    # or a day does not
    topic = {
        u.form
        for u, s in zip(new, shared_new, strict=True)
        if s and (not u.value or _names(u.form))
    }
    # a day both say says which one too ("We close at 1pm on Saturdays" of "Shop closes
    # 5.30 on Saturdays"), beside a word of the thing
    days = any(s and u.value and _when(u.form) for u, s in zip(new, shared_new, strict=True))
    named = len(topic - _NO_TOPIC)
    # or a short Chinese note opening with its one word of the thing ("缝线用0.65的"; an
    # English one may open with a verb: "We deploy to GKE")
    opens = len(new) <= _SHORT and new[0].form in topic - _NO_TOPIC
    opens = opens and (_han(new[0].form) or _JOTTING.match(bare) is not None)
    if not named or named + max(days, opens) < 2 or _gone(new, shared_new, was) != 1:
        return False  # the thing said in two words at least, one value new
    # a word of which thing the memory does not say ("for juniors"); a weak word after the
    # value is a comment on it ("一天做20碗就够"), one before it may say which ("日志平台用的是
    # ELK" is not "日志平台的负责人是老王")
    first = next((i for i, u in enumerate(new) if u.value), len(new))
    if any(
        not s and not u.value and (u.form not in _WEAK or i < first)
        for i, (u, s) in enumerate(zip(new, shared_new, strict=True))
    ):
        return False
    if _gone(was, shared_old, new) != 1 or _two_people(new, was):
        return False  # one value of it gone: not a repeat, not two things' values
    at = next(i for i, s in enumerate(shared_new) if new[i].value and not s)
    was_at = next(i for i, s in enumerate(shared_old) if was[i].value and not s)
    after = [u.form for u, s in zip(new[at:], shared_new[at:], strict=True) if s and not u.value]
    before = any(s and not u.value for u, s in zip(new[:at], shared_new[:at], strict=True))
    timed = at + 1 < len(new) and new[at + 1].form in _CLOCK
    if after and not timed and (not before or set(after) - {u.form for u in was[was_at:]}):
        return False  # the new value names which one ("Flat 2B smoke alarm ...",
        # "ClickHouse 集群有 5 个节点"): a label
    # the value said another way: "8pm" / "20:00", "12 March" / "12th" (words after it
    # in both: "… 1pm on concert days")
    return said_as(new[at].form) != said_as(was[was_at].form)


def _matched(one: Sequence[Unit], other: Sequence[Unit]) -> list[bool]:
    """Whether each word of `one` is said in `other`, each of `other`'s words matching
    once ("开发环境的…开发语言" says 开发 twice, "本地环境的…开发语言" once); a Chinese word
    also inside a longer one of `other` ("票" of "票价", "收" of "收费") where no equal one
    is left (not the other way: "测试环境" says more than "测试")."""
    left = Counter(_each(u.form) for u in other)
    han = [u.form for u in other if _han(u.form)]
    out = []
    for u in one:
        if left[_each(u.form)] > 0:
            left[_each(u.form)] -= 1
            out.append(True)
            continue
        inside = next((f for f in han if left[f] > 0 and _within(u.form, f)), None)
        if inside is not None:
            left[inside] -= 1
        out.append(inside is not None)
    return out


def _each(form: str) -> str:
    """A period said as each of it: 一天 and 天天 as 每天, 一次 as 每次 ("龟苓膏一天做20碗"
    of "龟苓膏每天做30碗")."""
    m = _EACH.fullmatch(form)
    return f"每{m[2] or '天'}" if m else form


def _within(form: str, longer: str) -> bool:
    """Whether the Chinese word `form` is part of the longer `longer`."""
    return _han(form) and len(form) < len(longer) and form in longer


def _names(form: str) -> bool:
    """Whether a value both notes say names which thing: a code ("sb-4471") or a name
    ("dev", "香云纱"), not an amount or a day."""
    digits = any(c.isdigit() for c in form)
    return (_code(form) and digits) or (not digits and not _when(form))


def _gone(units_: Sequence[Unit], shared: list[bool], other: Sequence[Unit]) -> int:
    """How many values of a text the other does not say (`_slots`), a part of the day and
    the hour after it counted once where `other` names no part of the day."""
    count = _slots(units_, shared)
    if any(u.form in _PART for u in other):
        return count
    for (u, s), (v, t) in itertools.pairwise(zip(units_, shared, strict=True)):
        if u.form in _PART and u.value and not s and v.value and not t and v.form[:1].isdigit():
            count -= 1
    return count
