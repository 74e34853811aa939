"""A memory entry (SPEC LT1-LT5) and its exact JSON form."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, TypeGuard, get_args

from remem.errors import InvalidInput

EntryType = Literal[
    "fact",
    "preference",
    "decision",
    "milestone",
    "change",
    "summary",
    "conversation",
    "tool_result",
]
Scope = Literal["project", "global", "session"]
Source = Literal["user_explicit", "auto_extracted", "model", "tool", "import"]
Confidence = Literal["confirmed", "to_check", "unverified"]

TYPES: tuple[str, ...] = get_args(EntryType)
# What a person writes; summaries, conversations and tool results are remem's own.
USER_TYPES: tuple[str, ...] = ("fact", "preference", "decision", "milestone", "change")
SCOPES: tuple[str, ...] = get_args(Scope)
SOURCES: tuple[str, ...] = get_args(Source)
CONFIDENCES: tuple[str, ...] = get_args(Confidence)


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    # 48 random bits: short enough to type, collisions retried by the store.
    import secrets  # here: it imports hmac and hashlib, which a search never needs

    return secrets.token_hex(6)


def to_utc(value: datetime | str) -> datetime:
    """Parse or normalise a timestamp to an aware UTC datetime (naive means UTC)."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError as exc:
            raise InvalidInput(f"not an ISO 8601 timestamp: {value!r}") from exc
        if value.tzinfo is UTC:
            return value  # as the stores write them: ~4 a row read, no conversion to make
    if not isinstance(value, datetime):
        raise InvalidInput(f"a timestamp must be an ISO 8601 string (got {value!r})")
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def format_ts(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


@dataclass(slots=True)
class Entry:
    """One long-term memory. Timestamps are aware UTC datetimes."""

    content: str
    type: EntryType = "fact"
    scope: Scope = "project"
    project: str | None = None
    id: str = field(default_factory=new_id)
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime | None = None
    last_verified_at: datetime | None = None
    token_count: int = 0
    source: Source = "user_explicit"
    confidence: Confidence = "confirmed"
    metadata: dict[str, Any] = field(default_factory=dict)
    entity: str | None = None
    facts: dict[str, str] = field(default_factory=dict)
    session_id: str | None = None
    user_id: str | None = None
    agent_id: str | None = None
    linked_paths: list[str] = field(default_factory=list)
    expires_at: datetime | None = None
    importance: float | None = None
    superseded_by: str | None = None
    supersedes: str | None = None
    # What it is about and what it says of it (remem.truth.subject): "测试数据库", "SQLite".
    subject: str | None = None
    value: str | None = None
    # When it was true (SPEC LT11, bi-temporal): from valid_from (default: created_at)
    # until valid_to (None: still), set by supersede and replace or stated in the text.
    valid_from: datetime | None = None
    valid_to: datetime | None = None

    def __post_init__(self) -> None:
        if self.updated_at is None:
            self.updated_at = self.created_at
        if self.last_verified_at is None:
            self.last_verified_at = self.created_at
        if self.valid_from is None:
            self.valid_from = self.created_at

    def valid_at(self, when: datetime) -> bool:
        """Whether this version held at `when`: valid_from <= when < valid_to."""
        start = self.valid_from or self.created_at
        return start <= when and (self.valid_to is None or when < self.valid_to)

    @property
    def is_current(self) -> bool:
        return self.superseded_by is None

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or utcnow())

    def is_weak(self, below: float) -> bool:
        """Unverified, auto-extracted and less important than `below` (none counts as 0)."""
        auto = self.source == "auto_extracted" and self.confidence == "unverified"
        return auto and (self.importance or 0.0) < below

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = format_ts(value) if isinstance(value, datetime) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entry:
        """Build an entry from its JSON form, checking every field."""
        if not isinstance(data, dict):
            raise InvalidInput("an entry must be a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidInput(f"unknown entry fields: {', '.join(sorted(unknown))}")
        if not isinstance(data.get("content"), str):
            raise InvalidInput("an entry needs a string 'content'")
        kwargs = dict(data)
        for name in _TIMESTAMPS:
            if kwargs.get(name) is not None:
                kwargs[name] = to_utc(kwargs[name])
        entry = cls(**kwargs)
        validate(entry)
        return entry


_OPTIONAL_TEXT = (
    "project",
    "session_id",
    "user_id",
    "agent_id",
    "entity",
    "superseded_by",
    "supersedes",
    "subject",
    "value",
)
_TIMESTAMPS = (
    "created_at",
    "updated_at",
    "last_verified_at",
    "expires_at",
    "valid_from",
    "valid_to",
)
# Every field is capped like content (32,000 characters, SPEC LT2): 10 MB of metadata or
# of an entity would cost seconds to index and bloat the store (issue 29).
MAX_CONTENT = 32_000  # the default of Settings.max_content_chars
MAX_TEXT_FIELD = 4_096  # an id, a project (a path), an entity, a subject, a value
MAX_JSON_FIELD = 32_000  # metadata, facts: as JSON
MAX_LINKED_PATHS = 100


def _check_text_field(name: str, value: str) -> None:
    if len(value) > MAX_TEXT_FIELD:
        raise InvalidInput(
            f"{name} is {len(value):,} characters; it holds at most {MAX_TEXT_FIELD:,}"
        )
    if "\x00" in value or not encodable(value):
        raise InvalidInput(f"{name} is not valid text (NUL byte or broken Unicode)")


def _check_json_size(name: str, value: object) -> None:
    size = len(json.dumps(value, ensure_ascii=False, allow_nan=False))
    if size > MAX_JSON_FIELD:
        raise InvalidInput(
            f"{name} is {size:,} characters as JSON; it holds at most {MAX_JSON_FIELD:,}"
        )


def check_content(content: object, max_chars: int) -> str:
    """The content stripped, or InvalidInput: empty, too long, or broken text."""
    if not isinstance(content, str):
        raise InvalidInput("content must be text")
    if not content.strip():
        raise InvalidInput("content is empty")
    if "\x00" in content or not encodable(content):
        raise InvalidInput("content is not valid text (NUL byte or broken Unicode)")
    if len(content) > max_chars:
        raise InvalidInput(
            f"content is {len(content):,} characters; a memory holds at most "
            f"{max_chars:,} (save a summary, or link the file)"
        )
    return content.strip()


def encodable(value: str) -> bool:
    """Whether `value` encodes as UTF-8 (no lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def plain_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """`metadata` if it is plain JSON that encodes as UTF-8, else InvalidInput."""
    try:
        if not encodable(json.dumps(metadata, allow_nan=False, ensure_ascii=False)):
            raise ValueError("broken Unicode")
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"metadata must be plain JSON: {exc}") from exc
    return metadata


def _unknown(name: str, value: object, choices: tuple[str, ...]) -> InvalidInput:
    return InvalidInput(f"{name} must be one of {', '.join(choices)} (got {value!r})")


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise _unknown(name, value, choices)


def is_type(value: object) -> TypeGuard[EntryType]:
    return value in TYPES


def is_scope(value: object) -> TypeGuard[Scope]:
    return value in SCOPES


def parse_type(value: str) -> EntryType:
    """A type as a person or a client names it (a CLI option, an MCP argument, a form
    field), checked once at that edge; the same error `validate` gives."""
    if not is_type(value):
        raise _unknown("type", value, TYPES)
    return value


def parse_scope(value: str) -> Scope:
    """A scope named at an edge, checked once there (see `parse_type`)."""
    if not is_scope(value):
        raise _unknown("scope", value, SCOPES)
    return value


def validate(entry: Entry) -> None:
    """Reject field values the store must never hold."""
    _check_choice("type", entry.type, TYPES)
    _check_choice("scope", entry.scope, SCOPES)
    _check_choice("source", entry.source, SOURCES)
    _check_choice("confidence", entry.confidence, CONFIDENCES)
    if not isinstance(entry.id, str) or not entry.id.strip():
        raise InvalidInput("an entry id must be a non-empty string")
    if not isinstance(entry.content, str):
        raise InvalidInput("content must be text")
    for name in _OPTIONAL_TEXT:
        value = getattr(entry, name)
        if value is not None and not isinstance(value, str):
            raise InvalidInput(f"{name} must be text or null (got {ascii(value)[:60]})")
        if value is not None:
            _check_text_field(name, value)
    for name in _TIMESTAMPS:
        value = getattr(entry, name)
        if value is not None and not isinstance(value, datetime):
            raise InvalidInput(f"{name} must be a timestamp (got {value!r})")
    if isinstance(entry.token_count, bool) or not isinstance(entry.token_count, int):
        raise InvalidInput(f"token_count must be a whole number (got {entry.token_count!r})")
    if not isinstance(entry.metadata, dict):
        raise InvalidInput("metadata must be an object")
    try:
        json.dumps(entry.metadata, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInput(f"metadata must be plain JSON: {str(exc)[:200]}") from exc
    _check_json_size("metadata", entry.metadata)
    if not isinstance(entry.facts, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in entry.facts.items()
    ):
        raise InvalidInput("facts must map strings to strings")
    for key, fact in entry.facts.items():
        _check_text_field("a fact's name", key)
        if "\x00" in fact or not encodable(fact):
            raise InvalidInput("a fact is not valid text (NUL byte or broken Unicode)")
    _check_json_size("facts", entry.facts)
    if not isinstance(entry.linked_paths, list) or not all(
        isinstance(p, str) for p in entry.linked_paths
    ):
        raise InvalidInput("linked_paths must be a list of strings")
    if len(entry.linked_paths) > MAX_LINKED_PATHS:
        raise InvalidInput(f"linked_paths holds at most {MAX_LINKED_PATHS} paths")
    for path in entry.linked_paths:
        _check_text_field("a linked path", path)
    if entry.valid_from and entry.valid_to and entry.valid_to < entry.valid_from:
        raise InvalidInput("valid_to must not be before valid_from")
    if entry.importance is not None and (
        isinstance(entry.importance, bool) or not isinstance(entry.importance, int | float)
    ):
        raise InvalidInput("importance must be a number")


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One line of the append-only audit log (SPEC LT11)."""

    entry_id: str
    action: str
    at: datetime
    detail: dict[str, Any]
    seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "entry_id": self.entry_id,
            "action": self.action,
            "at": format_ts(self.at),
            "detail": self.detail,
        }
