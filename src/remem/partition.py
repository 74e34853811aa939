"""Who may reach an entry by id (SPEC LT3): the one door of every by-id path of the facade.

An id, or a unique prefix of one, finds only what the caller could list: global entries,
its project's and its session's, within its user and agent partition (shared entries,
filed under no user or agent, included). An id of another partition reads as "no memory
with id", exactly like an id that does not exist, and a prefix counts only visible ids,
so walking prefixes enumerates nothing else. Changing an entry by id or by keyword
(edit, replace, verify, delete, forget, clear, prune) needs it filed under the caller's
own user and agent: a partition reads the shared entries but does not rewrite them.

    door = Partition(store, Visibility("proj", None, "bob", None))
    door.find("3f2a")                  # bob's entry, or NotFound (alice's reads the same)
    door.find("3f2a", change=True)     # ... and refused when it is a shared entry
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from remem.entry import Entry
from remem.errors import AmbiguousId, InvalidInput, NotFound, NotYours
from remem.store.candidates import load_entries
from remem.store.protocol import Filter, Store, Visibility

__all__ = ["MIN_PREFIX", "Partition", "check_id"]

MIN_PREFIX = 4
_PREFIX_SCAN = 1_000  # ids read per prefix before the visible ones are picked
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")


def check_id(value: object, *, what: str = "memory id") -> str:
    """`value` stripped when it can be an entry id (letters, digits, `_ . : -`, at most
    64), else InvalidInput naming it safely (control characters escaped)."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"a {what} is required")
    value = value.strip()
    if not _ID.fullmatch(value):
        shown = ascii(value if len(value) <= 40 else value[:40] + "…")
        raise InvalidInput(f"not a {what}: {shown} (letters, digits, _ . : - only, at most 64)")
    return value


@dataclass(frozen=True, slots=True)
class Partition:
    """The entries one caller (`visibility`) may reach by id in `store`."""

    store: Store
    visibility: Visibility

    def visible(self, ids: Sequence[str]) -> dict[str, Entry]:
        """The entries among `ids` the caller may read (older versions and expired
        ones included), by id."""
        flt = Filter(self.visibility, include_history=True, include_expired=True)
        found = self.store.candidates(list(ids), flt) if ids else []
        load_entries(found)
        return {c.id: e for c in found if (e := c.loaded()) is not None}

    def get(self, entry_id: str | None) -> Entry | None:
        """The entry with exactly this id when the caller may read it."""
        return self.visible([entry_id]).get(entry_id) if entry_id else None

    def find(self, entry_id: object, *, change: bool = False) -> Entry:
        """The entry with this id or unique prefix (at least MIN_PREFIX characters) among
        those the caller may read; with `change`, one it owns (else NotYours)."""
        wanted = check_id(entry_id)
        entry = self.get(wanted)
        if entry is None and len(wanted) >= MIN_PREFIX:
            ids = self.store.ids_with_prefix(wanted, limit=_PREFIX_SCAN)
            found = sorted(self.visible(ids).values(), key=lambda e: e.id)
            if len(found) > 1 or len(ids) >= _PREFIX_SCAN:
                raise AmbiguousId(f"id prefix {wanted!r} matches several memories; give more of it")
            entry = found[0] if found else None
        if entry is None:
            raise NotFound(f"no memory with id {wanted!r}")
        if change:
            self.check_owns(entry)
        return entry

    def versions(self, entry_id: str) -> list[Entry]:
        """Every version of the entry `entry_id` names that the caller may read, oldest
        first (a link into another partition, or a loop, ends the walk)."""
        versions = [self.find(entry_id)]
        seen = {versions[0].id}
        while (older := self.get(versions[0].supersedes)) and older.id not in seen:
            versions.insert(0, older)
            seen.add(older.id)
        while (newer := self.get(versions[-1].superseded_by)) and newer.id not in seen:
            versions.append(newer)
            seen.add(newer.id)
        return versions

    def reaches(self, entry: Entry) -> bool:
        """Is `entry` this caller's or shared, whatever its project or session?"""
        vis = self.visibility
        return entry.user_id in (None, vis.user_id) and entry.agent_id in (None, vis.agent_id)

    def owns(self, entry: Entry) -> bool:
        vis = self.visibility
        return entry.user_id == vis.user_id and entry.agent_id == vis.agent_id

    def check_owns(self, entry: Entry) -> None:
        if not self.owns(entry):
            vis = self.visibility
            mine = " and ".join(
                f"{k} {v!r}" for k, v in (("user", vis.user_id), ("agent", vis.agent_id)) if v
            )
            raise NotYours(
                f"memory {entry.id} is shared, not filed under {mine or 'no user or agent'}: "
                "it can be read here but changed only by whoever it is filed under"
            )

    def owned(self, entries: Iterable[Entry]) -> list[Entry]:
        """The entries filed under the caller's own user and agent."""
        return [e for e in entries if self.owns(e)]
