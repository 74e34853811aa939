"""`Memory`: the long-term memory facade (save, search, context, versions); its saving
comes from `remem.saving`, its deleting from `remem.forgetting`, its export and import
from `remem.backup`."""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from remem.backup import Backup
from remem.entry import Entry, EntryType, Scope, to_utc, utcnow
from remem.errors import InvalidInput
from remem.forgetting import Forgetting
from remem.retrieval import ranking
from remem.retrieval.ranking import Hit
from remem.retrieval.recall import Recall
from remem.saving import Saving
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


class Memory(Saving, Forgetting, Backup):
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
