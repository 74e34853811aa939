"""`Memory`: the long-term memory facade (save, search, context, versions); its deleting
comes from `remem.forgetting`, its export and import from `remem.backup`."""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from remem import drafts, text
from remem.backup import Backup
from remem.entry import (
    Confidence,
    Entry,
    EntryType,
    Scope,
    Source,
    check_content,
    to_utc,
    utcnow,
)
from remem.errors import InvalidInput
from remem.forgetting import Forgetting
from remem.retrieval import ranking
from remem.retrieval.ranking import Hit
from remem.retrieval.recall import Recall
from remem.settings import RankingConfig, Settings
from remem.store.protocol import Filter, Store, Visibility

# What only writes, imports and by-id commands need is imported where it is used, so a
# one-shot `remem search` does not load the truth rules (subjects, dates, conflicts),
# the exchange format or the secret patterns (issue 13: cold start <= 0.3 s).
if TYPE_CHECKING:
    from remem.partition import Partition
    from remem.retrieval.embedding import Embedder
    from remem.retrieval.vector_index import VectorIndex
    from remem.truth.decide import Reader
    from remem.truth.dedup import SimilarityCheck
    from remem.truth.subject import Claim
    from remem.truth.verdicts import Referee
    from remem.truth.versions import History as History
    from remem.truth.writes import Prejudged
    from remem.truth.writes import SaveResult as SaveResult

_FROM_ENV: Any = object()


@dataclass(frozen=True, slots=True)
class Stats:
    path: str
    project: str
    entries: int
    history: int
    audit_records: int
    visible: int
    stale: int
    by_type: dict[str, int]
    by_scope: dict[str, int]
    bytes: int


def _read_subject(content: str) -> Claim | None:
    """The rules' reading of what `content` is about (`remem.truth.subject.read`)."""
    from remem.truth.subject import read

    return read(content)


def __getattr__(name: str) -> Any:
    """`SaveResult` and `History`, the facade's result types, imported on first use."""
    if name == "SaveResult":
        from remem.truth.writes import SaveResult

        return SaveResult
    if name == "History":
        from remem.truth.versions import History

        return History
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Memory(Forgetting, Backup):
    """Long-term memory for one project (and optionally one user, agent or session).

    >>> mem = Memory("/tmp/demo.db", project="demo")      # doctest: +SKIP
    >>> mem.save("项目使用 JDK 17 和 Maven").status        # doctest: +SKIP
    'added'
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        project: str | os.PathLike[str] | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        settings: Settings | None = None,
        store: Store | None = None,
        semantic: SimilarityCheck | None = None,
        embedder: Embedder | None = _FROM_ENV,
        notify: Callable[[str], None] | None = None,
        subjects: Reader | None = None,
        referee: Referee | None = None,
    ) -> None:
        """`embedder`: None for keyword-only retrieval; by default `REMEM_EMBEDDER`, which
        unset means the shipped local model when `remem[embed]` is installed (`none`: off).
        With one, search is hybrid (the model loads when a query needs it) and saves are
        checked for semantic duplicates (RT3, LT9).
        `notify` hears at once of slow one-off work (re-indexing, a first embedding).
        `subjects` reads what a memory is about (default: the rules of
        `remem.truth.subject`; `remem.extract.subjects.LLMSubjects` adds a model);
        `referee` judges the pairs the rules leave unsure (`remem.extract.referee`)."""
        self.settings = settings or Settings.resolve(
            db=path, project=project, user_id=user_id, agent_id=agent_id, session_id=session_id
        )
        if store is None:
            from remem.store.backends import open_store

            store = open_store(
                self.settings.db, synchronous=self.settings.synchronous, notify=notify
            )
        self.store: Store = store
        from remem.truth import index

        index.backfill(store, notify=notify)
        if embedder is _FROM_ENV:
            from remem.retrieval.embedding import embedder_from_env

            embedder = embedder_from_env()
        self.vectors: VectorIndex | None = None
        if embedder is not None:
            from remem.retrieval.vector_index import VectorIndex

            self.vectors = VectorIndex(store, embedder, notify=notify)
        self._semantic = semantic
        self.subjects: Reader = subjects or _read_subject
        self.referee = referee
        self.recall = Recall(store, self.settings.ranking, self.vectors, self.settings.session_id)
        self.last_injected: builtins.list[Entry] = []  # what the last context_for chose

    # -- plumbing --------------------------------------------------------------------------
    @property
    def semantic(self) -> SimilarityCheck | None:
        """The semantic duplicate check of saves and imports: by default, with an
        embedder, `remem.truth.semantic.SemanticCheck` over its vectors (built on the first
        write, so a search never imports it)."""
        if self._semantic is None and self.vectors is not None:
            from remem.truth.semantic import SemanticCheck

            self._semantic = SemanticCheck(self.vectors)
        return self._semantic

    @property
    def project(self) -> str:
        return self.settings.project

    @property
    def ranking(self) -> RankingConfig:
        return self.settings.ranking

    @property
    def notices(self) -> builtins.list[str]:
        """Things the user should be told (a damaged store moved aside, ...)."""
        return self.store.notices

    def _visibility(self) -> Visibility:
        s = self.settings
        return Visibility(s.project, s.session_id, s.user_id, s.agent_id)

    def _filter(self, **kwargs: Any) -> Filter:
        return Filter(self._visibility(), **kwargs)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def partition(self) -> Partition:
        """The door of every by-id method: what this Memory may read and change."""
        from remem.partition import Partition

        return Partition(self.store, self._visibility())

    def resolve_id(self, entry_id: str) -> str:
        return self.partition.find(entry_id).id

    def get(self, entry_id: str) -> Entry:
        """The entry with this id or unique prefix; another partition's reads as NotFound."""
        return self.partition.find(entry_id)

    # -- writing ---------------------------------------------------------------------------
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

    # -- reading ---------------------------------------------------------------------------
    def list(
        self,
        *,
        limit: int | None = None,
        scope: Scope | None = None,
        type: EntryType | None = None,
        include_history: bool = False,
    ) -> builtins.list[Entry]:
        """Visible memories, newest first."""
        return self.store.find(self._listed(scope, type, include_history), limit=limit)

    def count(
        self,
        *,
        scope: Scope | None = None,
        type: EntryType | None = None,
        include_history: bool = False,
        at_most: int | None = None,
    ) -> int:
        """How many memories `list` would give with no limit (none read), counting no
        further than `at_most` when given."""
        return self.store.count(self._listed(scope, type, include_history), at_most)

    def _listed(self, scope: Scope | None, type: EntryType | None, history: bool) -> Filter:
        return self._filter(
            scopes=(scope,) if scope else None,
            types=(type,) if type else None,
            include_history=history,
        )

    def history(self, entry_id: str) -> History:
        """Every version of a memory this Memory may read, oldest first (each with its
        valid_from/valid_to), and the audit log of each."""
        from remem.truth.versions import History

        chain = self.partition.versions(entry_id)
        audit = sorted((r for v in chain for r in self.store.audit(v.id)), key=lambda r: r.seq)
        return History(chain, audit)

    def search(
        self,
        query: str,
        *,
        limit: int = 10,
        types: Sequence[str] | None = None,
        include_history: bool = False,
        entity: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        as_of: datetime | str | None = None,
    ) -> builtins.list[Hit]:
        """Visible memories ranked for `query` (BM25 x decay x weights), best first;
        optionally only some types, one entity, or those created in [since, until).
        By default what is true now; `as_of`: what was true then (the versions valid at
        that moment, replaced ones included). Each hit says its tier (SPEC RT8)."""
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("the query is empty")
        if limit < 1:
            raise InvalidInput("limit must be at least 1")
        flt = self._filter(
            types=tuple(types) if types else None,
            include_history=include_history,
            entity=entity,
            since=to_utc(since) if since else None,
            until=to_utc(until) if until else None,
            as_of=to_utc(as_of) if as_of else None,
        )
        return self.recall.with_tiers(self.recall.rank(query, flt, limit))

    def reindex(self, progress: Any = None) -> int:
        """Embed every memory that has no vector of the current model (SPEC RT3)."""
        if self.vectors is None:
            return 0
        return self.vectors.sync(progress)

    def context_for(
        self,
        query: str,
        *,
        max_tokens: int | None = None,
        window: int | None = None,
        exclude_texts: Sequence[str] = (),
        as_of: datetime | str | None = None,
    ) -> str:
        """The memory block to inject for `query` ("" when nothing clears the floor).

        `max_tokens` defaults to max(500, min(5000, window / 200)); `exclude_texts`
        are messages already in the conversation (their memories are not repeated);
        `as_of` injects what was true then instead of what is true now.
        Cold memories need `ranking.cold_floor`, not `ranking.floor` (SPEC RT8); the
        injected ones are recorded as used, which keeps them warm.
        """
        self.last_injected = []
        if not isinstance(query, str) or not query.strip():
            return ""
        budget = max_tokens if max_tokens is not None else self.ranking.budget(window)
        flt = self._filter(as_of=to_utc(as_of)) if as_of else self._filter()
        text, chosen = self.recall.block_for(query, flt, budget, exclude_texts)
        self.last_injected = [h.entry for h in chosen]
        return text

    def stats(self) -> Stats:
        counts = self.store.counts()
        now, flt = utcnow(), self._filter()
        # counted by the store: reading every entry took 20 s at 750k
        visible, unverified, linking = self.store.aging(
            flt, now - timedelta(days=self.ranking.stale_days)
        )
        stale = unverified + sum(ranking.is_stale(e, now, self.ranking) for e in linking)
        return Stats(
            path=self.store.path,
            project=self.project,
            visible=visible,
            stale=stale,
            **counts,
        )
