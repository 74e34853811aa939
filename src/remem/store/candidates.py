"""Search candidates and the reading of their entries: a `Candidate` carries what the
ranking reads of an entry, and its `Entry` is read only when asked, with every other
candidate of the same read (`Entries`, `load_entries`); `stored_json` parses a JSON
column of a stored row. What `SearchStore.keyword` and `candidates` return."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from remem.entry import Entry
from remem.errors import StoreError


def stored_json(text: str) -> Any:
    """A JSON column of a stored row, parsed. One that does not parse was damaged on disk
    (SQLite's own checks pass a record whose text bytes changed): a one-line error that
    says so, never a traceback."""
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        raise StoreError(
            f"the store is damaged: a stored memory does not read back ({exc}); nothing was "
            "changed. Restore a backup, or move the store aside and rescue its rows with "
            "sqlite3's .dump"
        ) from exc


class Candidate:
    """A keyword or semantic match: the terms it was indexed under, what the ranking
    reads of its entry (id, type, source, entity, creation time, metadata), and the
    entry itself, which a store may read only when asked (`Candidate.of_row`): a search
    scores ~150 candidates and returns ten, and reading and building an `Entry` costs
    more than scoring it."""

    __slots__ = (
        "terms",
        "id",
        "type",
        "source",
        "entity",
        "created_at",
        "_meta",
        "_entry",
        "_group",
        "__weakref__",
    )
    terms: list[str]
    id: str
    type: str
    source: str
    entity: str | None
    created_at: datetime

    def __init__(self, entry: Entry, terms: list[str]) -> None:
        self.terms = terms
        self.id, self.type, self.source = entry.id, entry.type, entry.source
        self.entity, self.created_at = entry.entity, entry.created_at
        self._meta: Any = entry.metadata
        self._entry: Entry | None = entry
        self._group: Entries | None = None

    @classmethod
    def of_row(
        cls,
        terms: list[str],
        fields: tuple[str, str, str, str | None, datetime],
        metadata: str,
        group: Entries,
    ) -> Candidate:
        """A candidate with these `fields` (id, type, source, entity, created_at) and
        `metadata` (its JSON text), whose entry `group` reads when first asked for."""
        self = cls.__new__(cls)
        self.terms = terms
        self.id, self.type, self.source, self.entity, self.created_at = fields
        self._meta, self._entry, self._group = metadata, None, group
        group.pending.append(weakref.ref(self))
        return self

    @property
    def metadata(self) -> dict[str, Any]:
        """The entry's metadata (without reading the entry)."""
        if isinstance(self._meta, str):
            self._meta = {} if self._meta == "{}" else stored_json(self._meta)
        meta: dict[str, Any] = self._meta
        return meta

    @property
    def entry(self) -> Entry:
        """The entry (read with every other candidate of its read not read yet)."""
        if self._group is not None:
            self._group.load(self._group.waiting())
        if self._entry is None:
            raise StoreError(f"memory {self.id} was deleted while it was being read")
        return self._entry

    def loaded(self) -> Entry | None:
        """The entry after `load_entries`; None when it was deleted since its row was read."""
        if self._group is not None:
            self._group.load([self])
        return self._entry


class Entries:
    """The entries behind one read's candidates, read by `fetch` (ids -> entries) when
    first needed: those named (`load_entries`), or at once every one not read yet.
    It holds its candidates weakly: a candidate holds its group, and a cycle of ~150
    candidates a search was left to the cyclic garbage collector (~0.5 ms a search at
    100k, up to 2 ms on the searches it fell on)."""

    __slots__ = ("fetch", "pending")

    def __init__(self, fetch: Callable[[Sequence[str]], dict[str, Entry]]) -> None:
        self.fetch = fetch
        self.pending: list[weakref.ref[Candidate]] = []

    def waiting(self) -> list[Candidate]:
        """The candidates still alive whose entries are not read yet."""
        return [c for ref in self.pending if (c := ref()) is not None and c._group is self]

    def load(self, candidates: Iterable[Candidate]) -> None:
        want = [c for c in candidates if c._group is self]
        if not want:
            return
        found = self.fetch([c.id for c in want])
        for cand in want:
            cand._entry, cand._group = found.get(cand.id), None
        self.pending = [r for r in self.pending if (c := r()) is not None and c._group is self]


def load_entries(candidates: Iterable[Candidate]) -> None:
    """Read the entries of `candidates` in one statement per read they came from."""
    groups: dict[int, tuple[Entries, list[Candidate]]] = {}
    for cand in candidates:
        if cand._group is not None:
            groups.setdefault(id(cand._group), (cand._group, []))[1].append(cand)
    for group, members in groups.values():
        group.load(members)
