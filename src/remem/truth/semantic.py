"""Semantic duplicates (SPEC LT9) through the `dedup.SimilarityCheck` seam, over any
index of entry vectors (`remem.retrieval.vector_index.VectorIndex` is one).

Closeness of meaning never decides alone. Measured with USE on MADial-Bench, distinct
events score raw cosines of 0.24-0.91 against each other, the same range as real
paraphrases, so no threshold separates them; what a memory is about does. Two
memories whose subjects the rules read are compared by subject and value only
(`decide`): the embedding adds nothing to them. Where either has no subject, a near
neighbour is a duplicate only when it also states the same values: the same numbers
and the same content words (one may differ where the other memory's subject and
value are read and both are in it). Meaning alone never makes a conflict: different
subjects never conflict, however alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from remem import numbers, text
from remem.entry import Entry
from remem.store.protocol import Domain, Store
from remem.truth import keys
from remem.truth.decide import by_subject, claim_of
from remem.truth.dedup import CONFLICT_TYPES, Match
from remem.truth.subject import Claim
from remem.truth.table import words


class Neighbours(Protocol):
    """What the semantic check needs of a vector index."""

    store: Store

    @property
    def model(self) -> str:
        """The embedder's name, as the store keeps its vectors."""

    def near_entry(self, entry: Entry, n: int) -> tuple[bytes, list[tuple[str, float]]]:
        """The vector of an entry (stored or not) and (entry id, cosine) of the `n`
        stored entries nearest to it."""

    def calibrate(self, cosine: float) -> float:
        """A raw cosine as a relevance in 0..1 for this embedder."""


# Words that carry no value of their own: "Bart saw his favourite penguins" and "Bart saw
# the favourite penguins" say the same; "…penguins" and "…elephants" do not.
_FUNCTION = text.EN_STOPWORDS | text.ZH_STOPWORDS | words("plain")


def _content(entry: Entry) -> set[str]:
    return set(text.terms(entry.content)) - _FUNCTION


def same_values(left: Entry, right: Entry, *, slack: int = 0) -> bool:
    """The same numbers and the same content words, but for `slack` of them: what is
    stated is the same, whatever the embedding says of the rest."""

    def keyed(e: Entry) -> set[str]:
        return {t.key for t in numbers.number_tokens(e.content)}

    if keyed(left) != keyed(right):
        return False
    return len(_content(left) ^ _content(right)) <= slack


class SemanticCheck:
    """SPEC LT9 through the `dedup.SimilarityCheck` seam: among the nearest entries of
    the same domain, one of close meaning (`duplicate` on the embedder's calibrated
    scale) is a duplicate when the subject model cannot tell and `same_values` holds,
    or when it can and the subject and value are the same."""

    def __init__(self, index: Neighbours, *, duplicate: float = 0.95, near: int = 8):
        self.index = index
        self.duplicate = duplicate
        self.near = near
        self.last_vector: Any = None
        self.last_nearest: list[tuple[str, float]] = []  # (entry id, cosine) of the last
        # entry id -> (the entry, its vector, its nearest), looked up by `prepare`
        self._prepared: dict[str, tuple[Entry, bytes, list[tuple[str, float]]]] = {}

    def prepare(self, entries: Sequence[Entry]) -> None:
        """Embed `entries` and look up their nearest now, before the write transaction
        that decides them begins. The nearest may come from the warm service, which may
        have to write the store first (vectors of memories saved without one): asked from
        inside the transaction, it waits for the lock its caller holds (issue 32: saves
        took 45 s). A check of an entry not prepared does this work itself."""
        self._prepared = {}
        for entry in entries:
            if entry.type in CONFLICT_TYPES:
                self._prepared[entry.id] = (entry, *self.index.near_entry(entry, self.near))

    def _nearest(self, incoming: Entry) -> tuple[bytes, list[tuple[str, float]]]:
        ready = self._prepared.pop(incoming.id, None)
        if ready is not None and ready[0] is incoming:
            return ready[1], ready[2]
        return self.index.near_entry(incoming, self.near)

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match]:
        self.last_vector, self.last_nearest = None, []
        if incoming.type not in CONFLICT_TYPES:
            return []  # conversation turns, events, tool output: never merged by meaning
        vector, nearest = self._nearest(incoming)
        self.last_vector, self.last_nearest = vector, nearest
        domain = Domain.of(incoming)
        claim = claim_of(incoming, full=True)
        matches = []
        near = [
            (eid, rel) for eid, c in nearest if (rel := self.index.calibrate(c)) >= self.duplicate
        ]
        entries = self.index.store.get_many([eid for eid, _ in near])
        for eid, rel in near:
            entry = entries.get(eid)
            if entry is None or not entry.is_current or Domain.of(entry) != domain:
                continue
            was = claim_of(entry)
            if claim is not None and was is not None:
                found = by_subject(entry, claim, was) if claim.key == was.key else None
                if found is not None and found.relation == "duplicate":
                    matches.append(found)
            elif _restates(entry, was, incoming, claim):
                matches.append(Match(entry, "duplicate", f"same meaning and values ({rel:.2f})"))
        return matches


def _restates(old: Entry, was: Claim | None, new: Entry, claim: Claim | None) -> bool:
    """Where the rules read the subject of one side only, the other must hold its value."""
    known = was if was is not None else claim
    if known is None:
        return same_values(old, new)
    other = new if was is not None else old
    held = set(known.value_terms) <= set(keys.value_terms(other.content))
    return held and same_values(old, new, slack=1)
