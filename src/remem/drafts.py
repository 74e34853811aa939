"""The entry a save would store, built from its text and options: partition fields
from the settings, dates in UTC, paths resolved, named values, the period the text
states it holds (`truth.when`), and the subject its reader reads. `Memory.save`,
`Memory.save_many` and `Memory.add_messages` build through it, then decide."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from remem.entry import Entry, plain_metadata, to_utc, utcnow, validate
from remem.errors import InvalidInput
from remem.named_values import named_values
from remem.settings import Settings

if TYPE_CHECKING:
    from remem.truth.decide import Reader


def draft(settings: Settings, subjects: Reader, content: str, **fields: Any) -> Entry:
    """The checked entry for `content` with `Entry`'s `fields` (InvalidInput if not)."""
    from remem.tokens import count_tokens
    from remem.truth import when

    metadata = plain_metadata(fields.pop("metadata", None) or {})
    scope = fields["scope"]
    s = settings
    if scope == "session" and not s.session_id:
        raise InvalidInput("session scope needs a session id")
    created = to_utc(fields.pop("created_at")) if fields.get("created_at") else utcnow()
    fields.pop("created_at", None)
    expires = fields.pop("expires_at", None)
    entry = Entry(
        content=content,
        project=s.project if scope == "project" else None,
        session_id=s.session_id if scope == "session" else None,
        user_id=s.user_id,
        agent_id=s.agent_id,
        created_at=created,
        metadata=dict(metadata),
        expires_at=to_utc(expires) if expires else None,
        token_count=count_tokens(content),
        **fields,
    )
    entry.linked_paths = [str(Path(p).expanduser().resolve()) for p in entry.linked_paths]
    if not entry.facts:
        entry.facts = named_values(content)
    stated = when.validity(content, created)
    entry.valid_from, entry.valid_to = stated.start or created, stated.end
    if entry.valid_to is not None and entry.valid_to < entry.valid_from:
        # "supported until 30 June 2025" written later: a period that had already
        # ended, kept as one that ended when it was written (never refused)
        entry.valid_to = entry.valid_from
    claim = subjects(content)
    if claim is not None:
        entry.subject, entry.value = claim.subject, claim.value
    validate(entry)
    return entry


def notes(entry: Entry) -> list[str]:
    """What building `entry` adjusted that its saver should hear."""
    start, end = entry.valid_from, entry.valid_to
    if start is not None and end is not None and end <= start:
        return [
            "the period it states had already ended when it was written: kept as "
            f"ended on {end.date().isoformat()}"
        ]
    return []
