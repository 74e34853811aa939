"""Version chains (SPEC LT11): each memory is a linear chain of versions, oldest first,
linked by `supersedes` / `superseded_by`, exactly one of them current; each version
holds from `valid_from` until `valid_to` (the next one's start), so intervals never
overlap and "what was true then" has one answer per chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from remem.entry import AuditRecord, Entry, utcnow
from remem.store.protocol import Store
from remem.truth.index import fields


@dataclass(frozen=True, slots=True)
class History:
    """Every version of an entry, oldest first, and its audit log."""

    versions: list[Entry]
    audit: list[AuditRecord]


def history(store: Store, entry: Entry) -> History:
    """`entry`'s chain and the audit records of its versions, in order."""
    versions = chain(store, entry)
    audit = sorted((r for v in versions for r in store.audit(v.id)), key=lambda r: r.seq)
    return History(versions, audit)


def chain(store: Store, entry: Entry) -> list[Entry]:
    """Every version of `entry`'s chain, oldest first."""
    versions = [entry]
    seen = {entry.id}
    while versions[0].supersedes and (older := store.get(versions[0].supersedes)):
        if older.id in seen:
            break
        seen.add(older.id)
        versions.insert(0, older)
    while versions[-1].superseded_by and (newer := store.get(versions[-1].superseded_by)):
        if newer.id in seen:
            break
        seen.add(newer.id)
        versions.append(newer)
    return versions


def earlier(store: Store, entry: Entry, most: int = 2) -> list[Entry]:
    """The versions `entry` replaced, newest first, `most` of them at most: where a
    change ("subs going up 50p") left the words of its thing."""
    out: list[Entry] = []
    at = entry
    while len(out) < most and at.supersedes and (older := store.get(at.supersedes)):
        if older.id == entry.id or older in out:
            break
        out.append(older)
        at = older
    return out


def _closed(old: Entry, at: datetime) -> datetime:
    """When `old` stops holding if its successor starts at `at`: never before it began,
    never after an end it stated itself."""
    start = old.valid_from or old.created_at
    end = max(start, at)
    return min(end, old.valid_to) if old.valid_to is not None else end


def supersede(
    store: Store,
    old: Entry,
    new: Entry,
    *,
    action: str,
    detail: dict[str, Any],
    allow_secret: bool = False,
) -> None:
    """Write `new` as the next version of `old` (which must be current): the chain
    gains one link and `old` stops holding when `new` starts."""
    new.supersedes = old.id
    start = new.valid_from or new.created_at
    store.insert(
        new,
        fields(new),
        action=action,
        detail={**detail, "supersedes": old.id},
        allow_secret=allow_secret,
    )
    old.superseded_by = new.id
    old.valid_to = _closed(old, start)
    old.updated_at = utcnow()
    store.update(old, fields(old), action="supersede", detail={"by": new.id})


def remove_version(store: Store, entry: Entry, *, action: str) -> list[Entry]:
    """Delete one version. The current one takes its whole chain with it (the memory
    goes); an older one goes alone and its neighbours are linked to each other, the
    current memory untouched. Returns what was deleted, oldest first."""
    if entry.is_current:
        versions = chain(store, entry)
        for version in versions:
            store.remove(version.id, action=action, detail={"chain_of": entry.id})
        return versions
    older = store.get(entry.supersedes) if entry.supersedes else None
    newer = store.get(entry.superseded_by) if entry.superseded_by else None
    store.remove(entry.id, action=action, detail={"version_of": newer.id if newer else None})
    now = utcnow()
    if older is not None:
        older.superseded_by = newer.id if newer else None
        older.updated_at = now
        store.update(
            older,
            fields(older),
            action="relink",
            detail={"removed": entry.id, "by": older.superseded_by},
        )
    if newer is not None:
        newer.supersedes = older.id if older else None
        newer.updated_at = now
        store.update(
            newer,
            fields(newer),
            action="relink",
            detail={"removed": entry.id, "supersedes": newer.supersedes},
        )
    return [entry]


def remove_all(store: Store, entries: Sequence[Entry], *, action: str) -> None:
    """Delete each entry as `remove_version` does (those gone already are skipped)."""
    for entry in entries:
        if store.get(entry.id) is not None:
            remove_version(store, entry, action=action)


def first_valid(versions: list[Entry]) -> datetime:
    """When a chain began to hold."""
    return min(v.valid_from or v.created_at for v in versions)
