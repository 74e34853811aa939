"""The review queue: memories saved automatically (by the agents' hooks or `remem
extract`) wait as unverified until the user accepts, edits or rejects them (`remem
review`, the web page's Review)."""

from __future__ import annotations

from remem.entry import Entry
from remem.errors import InvalidInput
from remem.memory import Memory

__all__ = ["accept", "edit", "pending", "reject", "unreviewed"]


def pending(memory: Memory) -> list[Entry]:
    """This project's unverified auto-extracted memories, oldest first."""
    return sorted((e for e in memory.list() if unreviewed(e)), key=lambda e: e.created_at)


def unreviewed(entry: Entry) -> bool:
    return entry.source == "auto_extracted" and entry.confidence == "unverified"


def _waiting(memory: Memory, entry_id: str) -> Entry:
    entry = memory.get(entry_id)
    if not unreviewed(entry):
        raise InvalidInput(f"{entry.id} is not waiting for review")
    return entry


def accept(memory: Memory, entry_id: str) -> Entry:
    return memory.verify(_waiting(memory, entry_id).id)


def reject(memory: Memory, entry_id: str) -> Entry:
    return memory.delete(_waiting(memory, entry_id).id)


def edit(memory: Memory, entry_id: str, content: str) -> Entry:
    """The user's own wording replaces the extracted one (kept in its history)."""
    result = memory.edit(_waiting(memory, entry_id).id, content)
    return result.entry
