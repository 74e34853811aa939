"""`Forgetting`, the part of the `Memory` facade that deletes: one memory by id
(`delete`), by keyword (`forget`), a whole scope (`clear`) and what has run out
(`prune`). Each changes only what the caller's partition owns, and the audit log keeps
that it happened. A mixin: `Memory` supplies the store, the partition and the filter."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from remem.entry import Entry, Scope, utcnow
from remem.errors import InvalidInput
from remem.store.protocol import Filter, Store

if TYPE_CHECKING:
    from remem.partition import Partition


class Forgetting:
    if TYPE_CHECKING:  # what `Memory` gives it
        store: Store

        @property
        def partition(self) -> Partition: ...

        def _filter(self, **kwargs: Any) -> Filter: ...

    def delete(self, entry_id: str) -> Entry:
        """Delete a memory with its older versions; given an older version, delete only
        that one (its neighbours are linked, the current memory stays). The audit log
        keeps that it happened."""
        from remem.truth import versions

        with self.store.write():
            entry = self.partition.find(entry_id, change=True)
            versions.remove_version(self.store, entry, action="delete")
        return entry

    def _delete_all(self, entries: Sequence[Entry], action: str) -> builtins.list[Entry]:
        from remem.truth import versions

        entries = self.partition.owned(entries)  # shared entries are not a partition's to drop
        with self.store.write():
            versions.remove_all(self.store, entries, action=action)
        return builtins.list(entries)

    def forget(
        self, keyword: str, *, dry_run: bool = False, scopes: Sequence[Scope] | None = ("project",)
    ) -> builtins.list[Entry]:
        """Delete every current memory of this partition whose content contains `keyword`
        (any case), with its older versions: by default only this project's; `scopes=None`
        for every visible one (global and session memories too). `dry_run` only lists them."""
        if not keyword or not keyword.strip():
            raise InvalidInput("forget needs a keyword")
        flt = self._filter(scopes=tuple(scopes) if scopes else None, include_expired=True)
        found = self.store.find(flt, contains=keyword.strip())
        return self.partition.owned(found) if dry_run else self._delete_all(found, "forget")

    def clear(self, scope: Scope) -> builtins.list[Entry]:
        """Delete every memory of one scope filed under this partition."""
        found = self.store.find(self._filter(scopes=(scope,), include_expired=True))
        return self._delete_all(found, "clear")

    def prune(self, *, auto_extracted_below: float | None = None) -> builtins.list[Entry]:
        """SPEC LT13: remove expired memories and, if asked, unverified auto-extracted ones
        whose importance is below `auto_extracted_below` (no importance counts as 0)."""
        now, below = utcnow(), auto_extracted_below
        doomed = [
            e
            for e in self.store.find(self._filter(include_expired=True))
            if e.is_expired(now) or (below is not None and e.is_weak(below))
        ]
        return self._delete_all(doomed, "prune")
