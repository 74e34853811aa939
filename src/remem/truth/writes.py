"""How a save is decided and written (SPEC LT8-LT11): a duplicate refreshes the memory
it repeats, a stated change supersedes (a new version of the same chain), a conflict
writes nothing, anything else is added. `remem.memory.Memory.save` calls it inside one
write transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from remem import text
from remem.entry import Entry, utcnow
from remem.errors import InvalidInput, NotFound
from remem.store.protocol import Domain, IndexFields, Near, Store
from remem.truth import changes, decide, index, overlap, versions
from remem.truth.dedup import CONFLICT_TYPES, SimilarityCheck
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


def save(
    store: Store, entry: Entry, *, semantic: SimilarityCheck | None, force: bool,
    allow_secret: bool = False,
) -> SaveResult:  # fmt: skip
    """Decide what `entry` is to the current memories of its domain and write it
    (`allow_secret`: the user's --force past the secret check, `Store.insert`)."""
    fields = index.fields(entry)
    claim = decide.claim_of(entry, full=True)
    broader = claim is not None and claim.change
    candidates = store.same_domain(Domain.of(entry), fields, broader=broader)
    if claim is not None and (bare := decide.without_where(claim)) is not None:
        # "We moved payments to Adyen" after "Payments go through Stripe": a move names a
        # where the old memory may not
        bare_fields = IndexFields([], "", "", {}, subject=bare)
        more = store.same_domain(Domain.of(entry), bare_fields, limit=8, broader=True)
        seen = {c.entry.id for c in candidates}
        candidates += [c for c in more if c.entry.id not in seen]
    matches = decide.classify(entry, candidates, claim=claim, semantic=semantic)
    if not matches and (said := changes.restatement_terms(entry.content, claim)):
        # "季度规划会改到 7A 会议室": found by its words without the change ("改到")
        more = holding(store, entry, text.terms(said))
        matches = decide.classify(entry, more, claim=claim, semantic=None)
    if not matches and (topic := changes.topic_of(entry.content)) is not None:
        # a stated change the rules tie to no memory: look its topic up (truth.changes)
        found = holding(store, entry, text.terms(changes.lookup_terms(topic)))
        matches = changes.changed_by(entry, topic, [c.entry for c in (*candidates, *found)])
    if not matches and claim is None and (tail := changes.tail_claim(entry.content)):
        # "We voted and the mascot is an owl now": the change its last clause states
        by_key = IndexFields(fields.terms, "", "", {}, subject=tail.key)
        more = store.same_domain(Domain.of(entry), by_key, limit=8, broader=True)
        matches = decide.classify(entry, [*candidates, *more], claim=tail, semantic=None)
    if not matches and entry.type in CONFLICT_TYPES and states_change(entry.content):
        # the last look: a stated change by the words it shares (truth.overlap)
        words = overlap.lookup_terms(entry.content)
        found = holding(store, entry, text.terms(" ".join(words))) if words else []
        matches = overlap.changed_by_words(entry, [c.entry for c in (*candidates, *found)])
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


_EACH = 4  # words of a change looked up one by one


def holding(store: Store, entry: Entry, terms: list[str]) -> list[Near]:
    """Memories of `entry`'s domain holding its rarest words, else any one of its first
    words: which words are rare is counted over the whole store, so another project's
    memories can make rare a word the changed memory does not hold ("单仓库管理工具换成了
    Nx": 管理工具, in another project, but not in "单仓库用 Lerna 管理")."""
    domain = Domain.of(entry)
    found = store.same_domain(domain, IndexFields(terms, "", "", {}), limit=8)
    if len(found) >= 8:
        return found
    seen = {near.entry.id for near in found}
    for term in list(dict.fromkeys(terms))[:_EACH]:
        more = store.same_domain(domain, IndexFields([term], "", "", {}), limit=8)
        found += [near for near in more if near.entry.id not in seen]
        seen.update(near.entry.id for near in more)
    return found


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
