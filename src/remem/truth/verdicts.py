"""The last pass of a save: the learned pair judge (`truth.judge`) on the memories the
store found for a new text, where no rule found anything.

It acts only when it is sure, and never silently on a memory the text may not be
about: a change it is sure of, and sure of for that one memory alone, supersedes; a
likely change is asked (a conflict naming the memory: the caller settles it, as with
`remem save --replace`); a sure repeat refreshes the memory it repeats. Conversation
turns, events and tool output are never judged (only facts, preferences, decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from remem.entry import Entry
from remem.truth import judge
from remem.truth.dedup import CONFLICT_TYPES, Match
from remem.truth.overlap import talk

# Measured on each dev set of blind writers (truth_h1-h3) left out of training: at 0.97
# 2-5% of their changes and no look-alike read as changes; at 0.8 a quarter of their
# changes and 1 of 241 look-alikes (at 0.75: 9 of 241)
SURE = 0.97  # a change superseded without asking
MARGIN = 0.3  # ... when no other candidate is nearly as likely to be the one changed
ASK = 0.8  # a change asked about (a conflict)
# ... where the grammar did not read the text whole but it says something changed: at
# 0.95 a twentieth of those changes, none of MADial's 83 events (at 0.9: a quarter, and 3
# of MADial's events asked, each a story the judge took for a change of another)
ASK_UNREAD = 0.95
REPEAT = 0.9  # a repeat (0.3% of look-alikes read so) ...
# ... and as close in meaning: on words alone, 38 of 300 random 12-word sentences drawn
# from one word list read as repeats
REPEAT_COSINE = 0.85
_MAX_CHARS = 400  # a fact, not a story
# Asked of the referee: on the held-out h1 set the memory a missed change was of had a
# change probability of 0.05 or more in 97 of 119 pairs; most texts share words with few
# memories, so this stays one call with a handful of lines
REFER = 0.05
REFER_AT_MOST = 4


class Referee(Protocol):
    """A second opinion on the pairs the judge leaves unsure (with a model configured:
    `remem.extract.referee`): the matches it rules for `incoming` among `candidates`
    (most likely first), checked; [] when it rules the text about something else; None
    when it gave no usable answer (the judge's own verdict stands then)."""

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match] | None: ...


def ranked(
    incoming: Entry,
    candidates: Sequence[Entry],
    cosines: dict[str, float] | None,
    dropped: str | None = None,
    *,
    strict: bool = True,
) -> list[tuple[judge.Verdict, Entry]]:
    """The judge's verdict on each candidate that may be the one `incoming` changes,
    the likeliest change first. `cosines`: with an embedder loaded, the new text's
    cosine with its nearest memories by id (a candidate without one is judged by the
    keyword-only weights). `dropped`: the value the text says stopped, when the grammar
    read one: only a memory holding it can be the one that stopped ("We no longer use
    Travis CI" is not of "CI 用 GitHub Actions"). Not `strict` (for a referee, which reads
    talk and a garbled grammar reading better than the judge): talk is ranked too."""
    gone = judge.content_terms(dropped) if dropped else frozenset()
    if incoming.type not in CONFLICT_TYPES or len(incoming.content) > _MAX_CHARS:
        return []
    if strict and talk(incoming.content):
        return []  # a question or several sentences: talk, not a fact that changed
    words, embed = judge.load("words"), judge.load("embed")
    if words is None or embed is None:
        return []
    scored = []
    for old in dict((c.id, c) for c in candidates).values():
        if old.type not in CONFLICT_TYPES or not old.is_current or old.id == incoming.id:
            continue
        if len(old.content) > _MAX_CHARS or not gone <= judge.content_terms(old.content):
            continue
        cos = cosines.get(old.id) if cosines is not None else None
        if cos is None:  # keyword-only, or found by its words and not among the nearest
            scored.append((words.verdict(old.content, incoming.content), old))
        else:
            scored.append((embed.verdict(old.content, incoming.content, cos), old))
    scored.sort(key=lambda vo: -vo[0].change)
    return scored


def judged(
    incoming: Entry,
    scored: Sequence[tuple[judge.Verdict, Entry]],
    cosines: dict[str, float] | None,
    *,
    silent: bool = True,
    apart: frozenset[str] = frozenset(),
) -> list[Match]:
    """The judge's match for `incoming` among its `ranked` candidates, if it is sure
    enough of one. Not `silent` (the grammar did not read the text whole): a change is
    asked, never superseded without asking, of a memory sharing two words with the text
    ("Back to two-week sprints" is no change of "We relocated to the 12th floor"), and a
    repeat is not dropped. `apart`: the
    ids of candidates the grammar read as another subject (a change of one is asked
    only when the judge is as sure as of a text the grammar could not read)."""
    if not silent:  # the judge is erratic on pairs sharing a word and a change said
        words = judge.content_terms(incoming.content)
        scored = [(v, o) for v, o in scored if len(words & judge.content_terms(o.content)) >= 2]
    if not scored:
        return []
    (top, old), runner_up = scored[0], (scored[1][0].change if len(scored) > 1 else 0.0)
    if silent and top.change >= SURE and top.change - runner_up >= MARGIN:
        return [Match(old, "supersede", f"judged a change of it ({top.change:.2f})")]
    if top.change >= (ASK if silent and old.id not in apart else ASK_UNREAD):
        return [Match(old, "conflict", f"judged a likely change of it ({top.change:.2f})")]
    if cosines is None or not silent:
        return []  # a repeat drops the new text: never on words alone
    repeat, old = max(scored, key=lambda vo: vo[0].repeat)
    if repeat.repeat >= REPEAT and cosines.get(old.id, 0.0) >= REPEAT_COSINE:
        return [Match(old, "duplicate", f"judged a repeat ({repeat.repeat:.2f})")]
    return []


def doubtful(scored: Sequence[tuple[judge.Verdict, Entry]]) -> list[Entry]:
    """The few candidates worth a second opinion: those the judge gives some chance of
    being the one changed or repeated, likeliest first."""
    near = [old for v, old in scored if v.change >= REFER or v.repeat >= REFER]
    return near[:REFER_AT_MOST]
