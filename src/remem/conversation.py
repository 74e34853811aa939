"""A conversation in (`Memory.add_messages`): OpenAI-style messages become one
`conversation` memory per turn, holding what a turn needs to be found again.

- who spoke: the message's `name`, else its role, as the entity (a question naming a
  speaker favours what that speaker said);
- the turns around it: the previous one (the turn it answers) as `context`, searched by
  keywords ("What did you recommend?" finds the reply through the request), and the
  next one as `reply`; both are embedded with it ("Yes, last weekend!" says little
  alone) — `reply` as keywords cost LoCoMo R@5 0.02, so it is not searched;
- the session's date: `created_at` (`at`, else now), one millisecond apart per turn so
  the order of the session survives, and the session id in the metadata.

System, tool and remem's own internal messages are not conversation and are skipped;
so are empty turns. A message's `metadata` is kept on its entry. This module only
turns messages into save requests: `Memory` saves them (dedup, secrets, index).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from remem.entry import Entry, Source, to_utc, utcnow
from remem.errors import InvalidInput
from remem.messages import text_of

if TYPE_CHECKING:
    from remem.truth.writes import SaveResult

SPOKEN = ("user", "assistant")  # roles whose turns are conversation
CONTEXT_CHARS = 600  # how much of the turns before and after is kept


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn to save: what `Memory.save` is called with."""

    index: int  # position of its message in the list given
    content: str
    entity: str
    source: Source
    created_at: datetime
    metadata: dict[str, Any] = field(default_factory=dict)
    told: bool = False  # it finishes a secret the turn before began: refused


def _check(message: object, index: int) -> Mapping[str, Any]:
    if not isinstance(message, Mapping):
        raise InvalidInput(f"message {index}: expected an object with role and content")
    role = message.get("role")
    if not isinstance(role, str) or not role.strip():
        raise InvalidInput(f"message {index}: role is missing")
    name = message.get("name")
    if name is not None and not isinstance(name, str):
        raise InvalidInput(f"message {index}: name must be text")
    meta = message.get("metadata")
    if meta is not None and not isinstance(meta, Mapping):
        raise InvalidInput(f"message {index}: metadata must be an object")
    content = message.get("content")
    if content is not None and not isinstance(content, str | list):
        raise InvalidInput(f"message {index}: content must be text or a list of parts")
    return message


def _spoken(message: Mapping[str, Any]) -> bool:
    if message["role"].strip().lower() not in SPOKEN:
        return False
    return not any(key.startswith("remem_") for key in message)  # remem's own notices


def turns(
    messages: Sequence[object],
    *,
    at: datetime | str | None = None,
    session_id: str | None = None,
    hidden: Callable[[str], bool] | None = None,
    across: Callable[[str, str], bool] | None = None,
) -> list[Turn]:
    """The turns of `messages` worth remembering, each with its speaker, the turn it
    answers and the session's date. A turn `hidden` says holds a secret lends its words
    to no other turn (as context or reply): it is refused, and must not live on beside;
    so is one `across` says finishes a secret the turn before began ("and ends with kLm7").
    Raises InvalidInput (naming the message) for a malformed message before anything
    is saved."""
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise InvalidInput("messages must be a list of {role, content} objects")
    checked = [_check(m, i) for i, m in enumerate(messages)]
    start = to_utc(at) if at else utcnow()
    out: list[Turn] = []
    kept_back: set[int] = set()  # turns whose words no neighbour may hold
    previous = last = ""  # the context a turn may hold; the words said just before
    for index, message in enumerate(checked):
        if not _spoken(message):
            continue
        words = text_of(dict(message)).strip()
        if not words:
            continue
        role = message["role"].strip().lower()
        speaker = (message.get("name") or "").strip() or role
        meta: dict[str, Any] = dict(message.get("metadata") or {})
        meta.setdefault("role", role)
        if previous:
            meta.setdefault("context", previous[-CONTEXT_CHARS:])
        if session_id:
            meta.setdefault("session_id", session_id)
        meta.setdefault("turn", index)
        when = start + timedelta(milliseconds=len(out))
        source: Source = "model" if role == "assistant" else "import"
        told = bool(last and across is not None and across(last, words))
        out.append(Turn(index, words, speaker, source, when, meta, told))
        secret = told or hidden is not None and hidden(words)
        previous, last = ("" if secret else words), words
        if secret:
            kept_back.add(len(out) - 1)
    for i, (turn, answer) in enumerate(zip(out, out[1:], strict=False)):
        if i + 1 not in kept_back:
            turn.metadata.setdefault("reply", answer.content[:CONTEXT_CHARS])
    return out


def remember(
    mem: Any,
    messages: Sequence[Any],
    *,
    at: datetime | str | None,
    session_id: str | None,
    progress: Callable[[int], None] | None = None,
) -> list[SaveResult]:
    """`Memory.add_messages` of `mem` (a `Memory`: typed loosely, as the facade imports
    this module): every turn is checked and built first (a bad one saves
    nothing; a secret is refused, and hidden from its neighbours' context), then decided
    in order, many to a transaction (`remem.bulk`): the same decisions as one save each
    (a turn sees the ones before it), one commit for many."""
    from remem import bulk
    from remem.errors import SecretRefused
    from remem.secrets import looks_secret, told_across
    from remem.truth.writes import SaveResult

    built: list[Entry | SaveResult] = []
    cap = mem.settings.max_content_chars  # a turn over it is refused below: not read first

    def hidden(words: str) -> bool:
        return len(words) <= cap and looks_secret(words)

    def across(before: str, words: str) -> bool:
        return len(words) <= cap and told_across(before[-cap:], words)

    found = turns(messages, at=at, session_id=session_id, hidden=hidden, across=across)
    for turn in found:
        try:
            if turn.told:
                raise SecretRefused("not saved: with the turn before, it tells a secret")
            built.append(
                mem._entry(
                    turn.content,
                    allow_secret=False,
                    type="conversation",
                    source=turn.source,
                    entity=turn.entity,
                    created_at=turn.created_at,
                    metadata=turn.metadata,
                )
            )
        except SecretRefused as exc:
            unsaved = mem._build(
                turn.content,
                type="conversation",
                scope="project",
                source=turn.source,
                created_at=turn.created_at,
            )
            built.append(SaveResult("refused", unsaved, reasons=[str(exc)]))
    if progress is not None and len(messages) > len(built):
        progress(len(messages) - len(built))  # the messages that are no turn: done
    return bulk.decide_all(mem, built, force=False, allow_secret=False, progress=progress)
