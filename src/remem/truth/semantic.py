"""Semantic duplicates and conflicts (SPEC LT9) through the `dedup.SimilarityCheck` seam,
over any index of entry vectors (`remem.retrieval.vector_index.VectorIndex` is one)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

from remem.entry import Entry
from remem.store.protocol import Domain, Store
from remem.truth.dedup import CONFLICT_TYPES, Match

_NUMBER = re.compile(r"\d+(?:\.\d+)*")


class Neighbours(Protocol):
    """What the semantic check needs of a vector index."""

    store: Store

    def embed_entry(self, entry: Entry) -> Any:
        """The vector of an entry not stored yet."""

    def nearest(self, vector: Any, n: int) -> list[tuple[str, float]]:
        """(entry id, cosine) of the `n` nearest stored entries."""

    def calibrate(self, cosine: float) -> float:
        """A raw cosine as a relevance in 0..1 for this embedder."""


class SemanticCheck:
    """SPEC LT9 through the `dedup.SimilarityCheck` seam: among the nearest entries of
    the same domain, the same meaning with the same numbers is a duplicate, and with
    different numbers (of a statement type) a conflict."""

    def __init__(self, index: Neighbours, *, duplicate: float = 0.95, conflict: float = 0.95):
        self.index = index
        self.duplicate = duplicate
        self.conflict = conflict
        self.last_vector: Any = None

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match]:
        self.last_vector = None
        if incoming.type not in CONFLICT_TYPES:
            return []  # conversation turns, events, tool output: never merged by meaning
        vector = self.index.embed_entry(incoming)
        self.last_vector = vector
        domain = Domain.of(incoming)
        near = [(eid, rel) for eid, cos in self.index.nearest(vector, 8)
                if (rel := self.index.calibrate(cos)) >= self.conflict]  # fmt: skip
        matches = []
        for eid, rel in near:
            entry = self.index.store.get(eid)
            if entry is None or not entry.is_current or Domain.of(entry) != domain:
                continue
            same_numbers = set(_NUMBER.findall(entry.content)) == set(
                _NUMBER.findall(incoming.content)
            )
            if same_numbers and rel >= self.duplicate:
                matches.append(Match(entry, "duplicate", f"same meaning (similarity {rel:.2f})"))
            elif not same_numbers:
                matches.append(Match(entry, "conflict", f"same subject, other value ({rel:.2f})"))
        return matches
