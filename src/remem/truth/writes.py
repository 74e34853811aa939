"""How a save is decided and written (SPEC LT8-LT11): a duplicate refreshes the memory
it repeats, a stated change supersedes (a new version of the same chain), a conflict
writes nothing, anything else is added. `remem.memory.Memory.save` calls it inside one
write transaction."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from remem import text
from remem.entry import Entry, utcnow
from remem.errors import InvalidInput, NotFound
from remem.named_values import named_values
from remem.store.protocol import Domain, Filter, IndexFields, Store, Visibility
from remem.truth import (
    changes,
    corrected,
    decide,
    elliptic,
    headed,
    index,
    overlap,
    restated,
    stops,
    verdicts,
    versions,
    when,
)
from remem.truth.dedup import CONFLICT_TYPES, Match, SimilarityCheck, named_apart, open_to
from remem.truth.draft import Draft, as_heads, holding
from remem.truth.judging import by_judge, vetoed
from remem.truth.markers import states_change

SaveStatus = Literal["added", "duplicate", "conflict", "replaced", "superseded", "refused"]


@dataclass(frozen=True, slots=True)
class SaveResult:
    """What `save` did. On `conflict` (and `refused`: a secret in a conversation turn)
    nothing was written; `entry` is the unsaved one.
    `superseded`: the text stated a change of a memory's value (改用, switched to, 不再…),
    so the new memory became its next version (`replaced` is the old one, in history)."""

    status: SaveStatus
    entry: Entry
    conflicts: list[Entry] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    replaced: Entry | None = None
    # what the save adjusted and the caller should hear ("the period it states had
    # already ended ..."): said, never refused
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Its JSON form, every entry whole: `remem save --json` and the REST API (MCP
        and the agent's tool answer a model more briefly, from the same fields)."""
        return {
            "status": self.status,
            "entry": self.entry.to_dict(),
            "conflicts": [e.to_dict() for e in self.conflicts],
            "reasons": self.reasons,
            "replaced": self.replaced.to_dict() if self.replaced else None,
            "notes": self.notes,
        }


def _by_subject(d: Draft) -> list[Match]:
    """The same subject read by the grammar: a repeat, a stated change, a conflict."""
    if d.claim is not None and (bare := decide.without_where(d.claim)) is not None:
        # "We moved payments to Adyen" after "Payments go through Stripe": a move names a
        # where the old memory may not
        bare_fields = IndexFields([], "", "", {}, subject=bare)
        more = d.store.same_domain(Domain.of(d.entry), bare_fields, limit=8, broader=True)
        seen = {c.entry.id for c in d.candidates}
        d.candidates += [c for c in more if c.entry.id not in seen]
    return decide.classify(d.entry, d.candidates, claim=d.claim, semantic=d.semantic)


def _by_restatement(d: Draft) -> list[Match]:
    """A change found by its words without the change word ("季度规划会改到 7A 会议室")."""
    if not (said := changes.restatement_terms(d.entry.content, d.claim)):
        return []
    more = holding(d.store, d.entry, text.terms(said))
    return decide.classify(d.entry, more, claim=d.claim, semantic=None)


def _by_topic(d: Draft) -> list[Match]:
    """A stated change the grammar ties to no memory: its topic looked up."""
    if (topic := changes.topic_of(d.entry.content)) is None:
        return []
    found = holding(d.store, d.entry, text.terms(changes.lookup_terms(topic)))
    return changes.changed_by(d.entry, topic, [c.entry for c in (*d.candidates, *found)])


def _by_tail(d: Draft) -> list[Match]:
    """The change its last clause states ("We voted and the mascot is an owl now")."""
    if d.claim is not None or not (tail := changes.tail_claim(d.entry.content)):
        return []
    by_key = IndexFields(d.fields.terms, "", "", {}, subject=tail.key)
    more = d.store.same_domain(Domain.of(d.entry), by_key, limit=8, broader=True)
    return decide.classify(d.entry, [*d.candidates, *more], claim=tail, semantic=None)


def _by_overlap(d: Draft) -> list[Match]:
    """A stated change found by the words it shares with one memory (truth.overlap)."""
    if d.entry.type not in CONFLICT_TYPES or not states_change(d.entry.content):
        return []
    words = overlap.lookup_terms(d.entry.content)
    found = holding(d.store, d.entry, text.terms(" ".join(words))) if words else []
    return overlap.changed_by_words(d.entry, [c.entry for c in (*d.candidates, *found)])


def _by_correction(d: Draft) -> list[Match]:
    """A correction naming the value it takes back, of the one memory holding it
    (truth.corrected)."""
    if not (wrong := corrected.taken_back(d.entry.content)):
        return []
    held = holding(d.store, d.entry, text.terms(" ".join(wrong)))
    found = [*d.sharing(), *(c.entry for c in held)]
    if matches := corrected.corrected_of(d.entry, found):
        return matches
    # or by the version a memory replaced ("…Wednesday 10am, not 9" of "survey moved to
    # Wednesday, same time", which replaced "… Tuesday 9am")
    stand_in = d.stand_ins(found, of_found=True)
    heads = {head.id for _, head in stand_in.values()}
    found = [e for e in found if e.id not in heads] + [v for v, _ in stand_in.values()]
    return as_heads(corrected.corrected_of(d.entry, found), stand_in)


def _by_moved_from(d: Draft) -> list[Match]:
    """A change naming the value it moves from, of the one memory holding it."""
    if not (was := corrected.moved_from(d.entry.content)):
        return []
    held = holding(d.store, d.entry, text.terms(" ".join(was)))
    return corrected.moved_from_of(d.entry, [*d.sharing(), *(c.entry for c in held)])


def _by_stop(d: Draft) -> list[Match]:
    """A fact said to have stopped, of the one memory sharing its words (truth.stops)."""
    if not stops.stops(d.entry.content):
        return []
    dropped = d.claim.dropped if d.claim is not None else None
    found = {e.id: e for e in (*d.sharing(), *d.through_versions())}
    return stops.stopped_of(d.entry, list(found.values()), dropped, earlier=d.earlier)


_MAX_SHORTER = 200  # a note, not a story


def _by_shorter(d: Draft) -> list[Match]:
    """A new value of the one memory whose subject the text names shorter (truth.decide)."""
    if d.entry.type not in CONFLICT_TYPES or not verdicts.says_so(d.entry.content):
        return []  # a fact said shorter and no change said: the general one, a fact of its own
    return decide.said_shorter(d.entry, d.claim, open_to(d.entry, d.sharing(), _MAX_SHORTER))


def _by_heading(d: Draft) -> list[Match]:
    """A new value under a heading one memory holds (truth.headed)."""
    return headed.headed_change(d.entry, d.sharing())


def _by_restated(d: Draft) -> list[Match]:
    """The one memory the text says again with one value changed, no change word, or
    says the version it replaced again so (truth.restated)."""
    return restated.restated_by_words(d.entry, d.sharing(), earlier=d.earlier)


def _by_when(d: Draft) -> list[Match]:
    """The text read again without a start it says relative to now ("下个月起透析改为周二、
    四、六" as "透析改为周二、四、六"): every pass, on the fact alone (truth.when)."""
    if (rest := when.lead(d.entry.content)) is None:
        return []
    bare = dataclasses.replace(
        d.entry, content=rest, subject=None, value=None, facts=named_values(rest)
    )
    return decide_save(d.store, bare, d.semantic, d.referee)[0]


def _by_moved(d: Draft) -> list[Match]:
    """A value moved by an amount: of the one memory sharing two of its words, or, naming
    nothing held ("面基推迟一周"), of the memory saved last; asked (truth.elliptic)."""
    if not (elliptic.shifted(d.entry.content) or elliptic.retracted(d.entry.content)):
        return []
    if of_one := elliptic.moved_named(d.entry, d.sharing(), earlier=d.earlier):
        return of_one
    e = d.entry
    seen = Visibility(e.project, e.session_id, e.user_id, e.agent_id)
    flt = Filter(seen, types=(e.type,), until=e.created_at)
    newest = [o for o in d.store.find(flt, limit=5) if Domain.of(o) == Domain.of(e)]
    # a subject of its own, said in the text: not only what its value is ("搞错了，是周四送"
    # reads a time, of nothing it names)
    named = d.claim is not None and d.claim.whole and elliptic.names(d.claim.subject, e.content)
    if (old := elliptic.last_said(e, newest, d.sharing(), named=named)) is None:
        return []
    kin = [near.entry for near in holding(d.store, old, index.fields(old).terms)]
    return elliptic.moved_of(e, old, kin)


# In order; the first pass that finds anything decides the save.
PASSES = (
    ("subject", _by_subject),
    ("restatement", _by_restatement),
    ("topic", _by_topic),
    ("tail", _by_tail),
    ("overlap", _by_overlap),
    # the fact without when it starts, decided whole, before the judges read the text with
    # it ("从下周一起夜间ETL改成凌晨3点半启动": a change of the ETL's time, said cleanly)
    ("when", _by_when),
    ("judge", by_judge),
    ("corrected", _by_correction),
    ("moved from", _by_moved_from),
    ("stop", _by_stop),
    ("shorter", _by_shorter),
    ("heading", _by_heading),
    ("restated", _by_restated),
    ("moved", _by_moved),
)
# The judges read these passes' pairs already and found nothing, or (`when`) the pass is a
# whole decision of its own, vetoed inside: no veto of theirs
_AFTER_THE_JUDGES = frozenset(
    {"judge", "corrected", "moved from", "stop", "shorter", "heading", "restated", "when", "moved"}
)


def decide_save(
    store: Store,
    entry: Entry,
    semantic: SimilarityCheck | None,
    referee: verdicts.Referee | None = None,
) -> tuple[list[Match], IndexFields]:
    """The matches of the first pass that finds any (duplicates first), and the entry's
    index fields (read once, for the write)."""
    claim = decide.claim_of(entry, full=True)
    fields = index.fields(entry)
    broader = claim is not None and claim.change
    candidates = store.same_domain(Domain.of(entry), fields, broader=broader)
    draft = Draft(store, entry, fields, claim, candidates, semantic, referee)
    for name, look in PASSES:
        if draft.ruled:
            break
        if (matches := look(draft)) and name not in _AFTER_THE_JUDGES:
            matches = vetoed(draft, matches)
        if name == "judge" and matches:
            matches = _corrected_instead(draft, matches)
        if matches and name in _BEFORE_THE_NAMED:
            matches = _named_instead(draft, matches)
        # "Hive 2 requeened in May" / "Hive 3 requeened in June": two hives, whatever a
        # pass read (dedup.labels)
        matches = [m for m in matches if not named_apart(m.entry.content, entry.content)]
        if matches:
            return matches, fields
    return [], fields


def _corrected_instead(d: Draft, asked: list[Match]) -> list[Match]:
    """The judges' question, or the correction it asks about where the text names the
    value it takes back from that memory ("家长会是203教室不是302" of "家长会在302教室"):
    the exact rule replaces where the judges could only ask."""
    if any(m.relation != "conflict" for m in asked):
        return asked
    ids = {m.entry.id for m in asked}
    sure = [m for m in _by_correction(d) if m.relation == "supersede" and m.entry.id in ids]
    return sure or asked


# The passes before those reading the value a change names: a match of theirs gives way
# to the one memory holding that value (`_named_instead`)
_BEFORE_THE_NAMED = frozenset(
    name for name, _ in PASSES[: [n for n, _ in PASSES].index("corrected")]
)


def _named_instead(d: Draft, matches: list[Match]) -> list[Match]:
    """`matches`, or, where the text names the value it moves from or takes back and no
    match holds it, the one memory that does ("Thursday pitch moved from the science
    park to the car park": of "thursdays we're at the science park", not of the pitch's
    first version "Thursday pitch: outside the Corn Exchange" a step it missed left
    current beside it)."""
    content = d.entry.content
    named = corrected.taken_back(content) + corrected.moved_from(content)
    if not named or matches[0].relation == "duplicate":
        return matches
    if any(corrected.holds(m.entry.content, value) for m in matches for value in named):
        return matches
    return _by_correction(d) or _by_moved_from(d) or matches


class Prejudged:
    """A referee asked before the write lock and replayed inside it: a model's answer
    takes seconds, and no remem process holds the writer lock while it waits. The
    decision runs once outside (reads only, without the semantic check, whose prepared
    neighbours the write uses); inside, a ruling stands only while the memories it names
    are still among the candidates (else the judge's own verdict does)."""

    def __init__(self, referee: verdicts.Referee) -> None:
        self.referee = referee
        self.rulings: dict[str, list[Match] | None] = {}

    def ask(self, store: Store, entry: Entry) -> None:
        decide_save(store, entry, None, self._ask)

    def _ask(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match] | None:
        self.rulings[incoming.id] = ruled = self.referee(incoming, candidates)
        return ruled

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match] | None:
        ruled = self.rulings.get(incoming.id)
        here = {c.id for c in candidates}
        if ruled is None or any(m.entry.id not in here for m in ruled):
            return None
        return ruled


def save(
    store: Store,
    entry: Entry,
    *,
    semantic: SimilarityCheck | None,
    force: bool,
    allow_secret: bool = False,
    referee: verdicts.Referee | None = None,
) -> SaveResult:
    """Decide what `entry` is to the current memories of its domain and write it
    (`allow_secret`: the user's --force past the secret check, `Store.insert`;
    `referee`: a model's second opinion where the judge is unsure)."""
    matches, fields = decide_save(store, entry, semantic, referee)
    first = matches[0] if matches else None
    if first is not None and first.relation == "duplicate":
        return SaveResult(
            "duplicate", refresh(store, first.entry, entry.source), reasons=[first.reason]
        )
    if first is not None and first.relation == "supersede":
        others = [m.entry.id for m in matches[1:] if m.relation != "duplicate"]
        detail = {"reason": first.reason, **({"also_matched": others} if others else {})}
        versions.supersede(
            store, first.entry, entry, action="add", detail=detail, allow_secret=allow_secret
        )
        return SaveResult("superseded", entry, reasons=[first.reason], replaced=first.entry)
    conflicts = [m for m in matches if m.relation == "conflict"]
    if conflicts and not force:
        return SaveResult(
            "conflict", entry, [m.entry for m in conflicts], [m.reason for m in conflicts]
        )
    detail = {"forced_past": [m.entry.id for m in conflicts]} if conflicts else {}
    store.insert(entry, fields, action="add", detail=detail, allow_secret=allow_secret)
    return SaveResult("added", entry)


def refresh(store: Store, existing: Entry, source: str) -> Entry:
    """A repeat vouches for a memory again, unless it came by an automatic path (seed
    003 §08: an automatic path must not vouch for a memory)."""
    if source == "auto_extracted":
        return existing
    existing.last_verified_at = utcnow()
    store.update(existing, index.fields(existing), action="refresh", detail={})
    return existing


def replace(store: Store, old_id: str, entry: Entry, *, allow_secret: bool = False) -> SaveResult:
    """`entry` as the next version of the current memory `old_id` (an explicit replace)."""
    old = store.get(old_id)
    if old is None:
        raise NotFound(f"no memory with id {old_id!r}")
    if not old.is_current:
        raise InvalidInput(f"memory {old_id} was already replaced by {old.superseded_by}")
    versions.supersede(store, old, entry, action="replace", detail={}, allow_secret=allow_secret)
    return SaveResult("replaced", entry, replaced=old)
