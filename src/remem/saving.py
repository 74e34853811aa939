"""`Saving`, the part of the `Memory` facade that writes: `save` (decided by
`remem.truth.writes`: a duplicate refreshed, a conflict reported, a change superseding),
`save_many` and `add_messages` (many to a transaction, `remem.bulk`), `edit` (the next
version of a memory) and `verify`; every entry is built by `remem.drafts` and passes the
secret check first. A mixin: `Memory` supplies the store, the partition, the subject
reader, the referee and the semantic check."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from remem import drafts, text
from remem.entry import Confidence, Entry, EntryType, Scope, Source, check_content, utcnow
from remem.settings import Settings
from remem.store.protocol import Store

if TYPE_CHECKING:
    from remem.partition import Partition
    from remem.retrieval.vector_index import VectorIndex
    from remem.truth.decide import Reader
    from remem.truth.dedup import SimilarityCheck
    from remem.truth.verdicts import Referee
    from remem.truth.writes import Prejudged, SaveResult


class Saving:
    if TYPE_CHECKING:  # what `Memory` gives it
        settings: Settings
        store: Store
        subjects: Reader
        referee: Referee | None
        vectors: VectorIndex | None

        @property
        def semantic(self) -> SimilarityCheck | None: ...

        @property
        def partition(self) -> Partition: ...

        def get(self, entry_id: str) -> Entry: ...

    def check_content(self, content: object) -> str:
        """The content stripped, or InvalidInput: empty, too long, or broken text."""
        return check_content(content, self.settings.max_content_chars)

    def _build(self, content: str, **fields: Any) -> Entry:
        return drafts.draft(self.settings, self.subjects, content, **fields)

    def save(
        self,
        content: str,
        *,
        type: EntryType = "fact",
        scope: Scope = "project",
        source: Source = "user_explicit",
        metadata: dict[str, Any] | None = None,
        created_at: datetime | str | None = None,
        linked_paths: Sequence[str] | None = None,
        expires_at: datetime | str | None = None,
        force: bool = False,
        allow_secret: bool | None = None,
        replace_id: str | None = None,
        entity: str | None = None,
        facts: dict[str, str] | None = None,
        importance: float | None = None,
        confidence: Confidence | None = None,
    ) -> SaveResult:
        """Save a memory unless it duplicates one (refreshed) or conflicts with one
        (nothing written; choose `replace_id=<old id>` or `force=True` to keep both).
        A secret in the content, entity, facts or metadata raises SecretRefused unless
        `allow_secret` (by default `force`; tools a model calls and every "keep both"
        pass False: settling a conflict never lets a secret in, SPEC SE3)."""
        allowed = force if allow_secret is None else allow_secret
        entry = self._entry(
            content,
            allow_secret=allowed,
            type=type,
            scope=scope,
            source=source,
            metadata=metadata,
            created_at=created_at,
            linked_paths=linked_paths,
            expires_at=expires_at,
            entity=entity,
            facts=facts,
            importance=importance,
            confidence=confidence,
        )
        self.store.keep_near()  # a long-lived process's candidate index, outside the write
        from remem.truth import writes

        referee = None if self.referee is None else writes.Prejudged(self.referee)
        if replace_id is None:
            self._prepare([entry], referee)
        with self.store.write(), text.in_write():
            if replace_id is not None:
                old = self.partition.find(replace_id, change=True)
                result = writes.replace(self.store, old.id, entry, allow_secret=allowed)
                result.notes.extend(drafts.notes(entry))
                return result
            return self._decide(entry, force, allowed, referee)

    def _entry(
        self,
        content: str,
        *,
        allow_secret: bool,
        type: EntryType = "fact",
        scope: Scope = "project",
        source: Source = "user_explicit",
        metadata: dict[str, Any] | None = None,
        created_at: datetime | str | None = None,
        linked_paths: Sequence[str] | None = None,
        expires_at: datetime | str | None = None,
        entity: str | None = None,
        facts: dict[str, str] | None = None,
        importance: float | None = None,
        confidence: Confidence | None = None,
    ) -> Entry:
        """The entry a save of `content` would decide (checked: InvalidInput, or
        SecretRefused unless `allow_secret`: before any decision, and the store's
        insert checks again)."""
        content = self.check_content(content)
        entry = self._build(
            content,
            type=type,
            scope=scope,
            source=source,
            metadata=metadata,
            created_at=created_at,
            linked_paths=list(linked_paths or []),
            expires_at=expires_at,
            entity=entity,
            facts=dict(facts or {}),
            importance=importance,
            confidence=confidence or ("unverified" if source == "auto_extracted" else "confirmed"),
        )
        from remem.secrets_door import admit  # its patterns compile in ~10 ms: only on save

        admit(entry, allow_secret=allow_secret)
        return entry

    def _decide(
        self, entry: Entry, force: bool, allow_secret: bool = False, referee: Referee | None = None
    ) -> SaveResult:
        """Decide and write `entry` (inside a write transaction), with its vector."""
        from remem.truth import writes

        result = writes.save(
            self.store,
            entry,
            semantic=self.semantic,
            force=force,
            allow_secret=allow_secret,
            referee=referee,
        )
        result.notes.extend(drafts.notes(entry))
        vector = getattr(self.semantic, "last_vector", None)
        if result.status in ("added", "superseded") and self.vectors and vector is not None:
            self.vectors.put(entry, vector)
        return result

    def _prepare(self, entries: Sequence[Entry], referee: Prejudged | None = None) -> None:
        """The semantic check's embedding and nearest of `entries`, their index terms
        (which the warm service may cut) and a referee's rulings, before the write
        transaction: no remem process waits on another while it holds the write lock."""
        from remem.truth import index

        for entry in entries:
            index.fields(entry)  # cached: the decision inside asks them again
            if referee is not None:
                referee.ask(self.store, entry)
        if (prepare := getattr(self.semantic, "prepare", None)) is not None:
            prepare(entries)

    def save_many(
        self,
        items: Sequence[str | dict[str, Any]],
        *,
        force: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> builtins.list[SaveResult]:
        """Save many memories at once, each decided exactly as `save` decides it, in
        order (an item sees the ones before it), many to a transaction (`remem.bulk`).
        An item is text or `save`'s keywords with `content`; every item is checked first
        (a bad one raises InvalidInput naming it, and nothing is saved); one that looks
        like a secret is answered "refused" unless `force`. Running the same items again
        saves only what did not land (the rest are duplicates). `progress(n)`: n more done."""
        from remem import bulk

        built = bulk.build_all(self, items, force=force)
        return bulk.decide_all(self, built, force=force, allow_secret=force, progress=progress)

    def add_messages(
        self,
        messages: Sequence[Any],
        *,
        at: datetime | str | None = None,
        session_id: str | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> builtins.list[SaveResult]:
        """Remember a conversation (OpenAI-style `role`, `content`, optional `name` and
        `metadata`): one `conversation` memory per user or assistant turn, with its
        speaker, the turns around it and the session's date `at` (`remem.conversation`).
        A turn that looks like a secret is not saved (status "refused", SPEC SE3), nor
        kept as the context or reply of the turns around it. Many turns are decided a
        transaction at a time, each as its own save would be (`remem.bulk`);
        `progress(n)`: n more turns done."""
        from remem import conversation

        session = session_id or self.settings.session_id
        return conversation.remember(self, messages, at=at, session_id=session, progress=progress)

    def edit(self, entry_id: str, content: str, *, force: bool = False) -> SaveResult:
        """`content` as the next version of memory `entry_id` (its old text stays in its
        history), keeping its type, scope, entity, metadata and linked paths."""
        old = self.get(entry_id)
        return self.save(
            content,
            type=old.type,
            scope=old.scope,
            replace_id=old.id,
            entity=old.entity,
            metadata=old.metadata,
            linked_paths=old.linked_paths,
            force=force,
        )

    def verify(self, entry_id: str) -> Entry:
        """Mark a memory as still true now (users only, never the model: SPEC LT12)."""
        from remem.truth import index

        with self.store.write():
            entry = self.partition.find(entry_id, change=True)
            entry.last_verified_at = entry.updated_at = utcnow()
            entry.confidence = "confirmed"
            self.store.update(entry, index.fields(entry), action="verify", detail={})
        return entry
