"""The `Store` interface every backend implements, and the small types it speaks.

Everything above the store (dedup, conflicts, ranking) is backend-neutral; a
backend only persists entries with their index fields, filters them, and finds
keyword candidates (`remem.store.candidates`). SQLite is the embedded default
(`remem.store.sqlite.store`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from remem import glossary, text
from remem.entry import AuditRecord, Entry
from remem.named_values import named_values
from remem.store.candidates import Candidate


@dataclass(frozen=True, slots=True)
class Visibility:
    """Who is asking (SPEC RT1, LT3): global entries, this project's, this session's,
    and, when a user or agent id is set, its own entries besides the shared ones."""

    project: str | None = None
    session_id: str | None = None
    user_id: str | None = None
    agent_id: str | None = None


@dataclass(frozen=True, slots=True)
class Filter:
    visibility: Visibility
    scopes: tuple[str, ...] | None = None
    types: tuple[str, ...] | None = None
    include_history: bool = False
    include_expired: bool = False
    entity: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    # What was true then (SPEC LT11): the versions valid at `as_of`, superseded or not.
    as_of: datetime | None = None


@dataclass(frozen=True, slots=True)
class Domain:
    """Entries are compared for dedup and conflicts only within one domain (SPEC LT8)."""

    type: str
    scope: str
    project: str | None
    session_id: str | None
    user_id: str | None
    agent_id: str | None

    @classmethod
    def of(cls, entry: Entry) -> Domain:
        return cls(
            entry.type, entry.scope, entry.project, entry.session_id, entry.user_id, entry.agent_id
        )


@dataclass(frozen=True, slots=True)
class IndexFields:
    """What a backend indexes besides the entry itself. `subject` is the normalised key
    of the entry's subject (`remem.truth`; "" for none), None when not known here: a
    write with None leaves the stored key as it is (a new row: to be computed)."""

    terms: list[str]
    canon: str
    skeleton: str
    keys: dict[str, str]
    subject: str | None = None
    # the words of its value as the subject rules fold them (`remem.truth.keys`), kept
    # beside `subject` so that a decision need not fold a stored value again (None:
    # not known here; stored as unknown)
    value_terms: tuple[str, ...] | None = None

    @classmethod
    def of(cls, entry: Entry) -> IndexFields:
        searchable = [entry.content, entry.entity or ""]
        searchable += [f"{k} {v}" for k, v in entry.facts.items()]
        searchable += [_flatten(v) for k, v in entry.metadata.items() if _is_words(k)]
        canon = text.canonicalize(entry.content)
        keys = dict(named_values(entry.content))
        keys.update({k.lower(): v for k, v in entry.facts.items()})
        source = " \n".join(searchable)
        terms = text.terms(source)
        terms += glossary.expand(terms, source)  # "Spring Boot" is found by "Java 框架"
        return cls(terms, canon, text.skeleton(canon), keys)


# What `Memory.add_messages` keeps on a conversation turn that is no words of it: its
# bookkeeping ("user" or a session id in every entry would only add noise to its terms)
# and the next turn (embedded with it, not searched: see remem.conversation); and a
# LangGraph item's namespace, key and value (its content is their words already).
UNSEARCHED_KEYS = frozenset({"role", "session_id", "reply", "langgraph"})


def _is_words(key: str) -> bool:
    return key not in UNSEARCHED_KEYS


def _flatten(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_flatten(v) for v in value.values())
    if isinstance(value, list | tuple):
        return " ".join(_flatten(v) for v in value)
    return value if isinstance(value, str) else ""


@dataclass(frozen=True, slots=True)
class Near:
    """A current entry that may repeat or contradict a new one (`Store.same_domain`),
    with its stored subject key ("" when the rules read no subject in it, under the
    store's `subject_rules`; None when it was never read), canonical form and the value
    terms keyed with its subject (None: not stored)."""

    entry: Entry
    subject_key: str | None = None
    canon: str | None = None  # its canonical form as indexed (None: not known)
    value_terms: tuple[str, ...] | None = None


@dataclass(slots=True)
class CorpusStats:
    """What BM25 needs: document count, average length, document frequencies."""

    docs: int
    avg_len: float
    doc_freq: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ApiToken:
    """An API token of `remem serve`, as the store keeps it: never the token itself, only
    its `digest`; `id` is the public handle that `remem token list` and `revoke` use.
    Requests made with it act as `user_id` (and `agent_id`), reading only if `read_only`."""

    id: str
    digest: str
    user_id: str
    agent_id: str | None
    read_only: bool
    created_at: datetime
    name: str = ""
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None


# The rules that turn an entry into index terms (remem.text, remem.glossary). Bump it
# whenever they change: stores indexed under older rules are re-indexed when opened,
# or a query's terms would miss old entries' terms ("went" is now indexed as "go").
# 1: session 1; 2: technology kinds, irregular English forms, joined hyphenated words;
# 3: a Chinese person jieba cuts into characters one term (小陈, 阿芳: `text._named`);
# 4: names jieba cuts into pieces one word (饿了么), a range of clock times one value;
# 5: a surname jieba glued to a verb of doing (小 / 李送) the person again;
# 6: a word jieba glued to the 起 of a start before it ("8月起豆皮") a term of its own too;
#    everyday apps and brands jieba glues to a neighbour (美团店) one word.
# 7: 起 / 改 / 换 are no half of a thing's name jieba cut into characters ("下周起煎堆馅改
#    椰蓉": 煎堆, not 起煎).
INDEX_VERSION = 7

# Candidate generation reads the postings of the rarest query terms first and stops
# adding terms past this many postings: common terms add little to BM25 and would
# make the backend rank tens of thousands of rows.
MAX_POSTINGS = 8_000


def rarest(
    stats: CorpusStats,
    terms: Sequence[str],
    *,
    most: int | None = None,
    budget: int = MAX_POSTINGS,
) -> list[str]:
    """The known query terms, rarest first, while their postings fit `budget` (the
    rarest always) and at most `most` of them."""
    chosen: list[str] = []
    postings = 0
    for term in sorted(
        {t for t in terms if stats.doc_freq.get(t)}, key=lambda t: (stats.doc_freq[t], t)
    ):
        if chosen and (postings + stats.doc_freq[term] > budget or len(chosen) == most):
            break
        chosen.append(term)
        postings += stats.doc_freq[term]
    return chosen


class EntryStore(Protocol):
    """Entries: one serialised write transaction at a time, reads by id, prefix
    or filter. Every method of every role is thread-safe."""

    path: str
    notices: list[str]

    def write(self) -> AbstractContextManager[None]:
        """One serialised write transaction: reads inside it see every committed write."""

    def insert(
        self,
        entry: Entry,
        index: IndexFields,
        *,
        action: str,
        detail: dict[str, Any],
        allow_secret: bool = False,
    ) -> None:
        """Add an entry and an audit record (`action`, `detail`). An entry holding a
        secret in any field raises SecretRefused unless `allow_secret` (the user's
        --force): the one check every write passes (`remem.secrets_door.admit`)."""

    def update(
        self,
        entry: Entry,
        index: IndexFields,
        *,
        action: str,
        detail: dict[str, Any],
        allow_secret: bool = False,
    ) -> None:
        """Overwrite an existing entry's fields and add an audit record. A secret in a text
        the row did not hold raises SecretRefused unless `allow_secret`, as in `insert`."""

    def remove(self, entry_id: str, *, action: str, detail: dict[str, Any]) -> bool:
        """Delete an entry (its audit records stay); False when there was none."""

    def get(self, entry_id: str) -> Entry | None: ...

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]: ...

    def find(
        self, flt: Filter, *, limit: int | None = None, contains: str | None = None
    ) -> list[Entry]:
        """Entries passing `flt`, newest first; `contains` is a case-insensitive substring."""

    def count(self, flt: Filter, at_most: int | None = None) -> int:
        """How many entries pass `flt` (without reading them), counting no further
        than `at_most` when given (a count of a large store stops early)."""

    def iter_all(self) -> Iterator[Entry]:
        """Every entry, history included, oldest first."""

    def close(self) -> None: ...


class AuditStore(Protocol):
    """The audit log, exact copies (`remem migrate`), the index rules' version and
    what caches compare to see another process's writes."""

    def audit(self, entry_id: str | None = None) -> list[AuditRecord]: ...

    def add_audit(self, record: AuditRecord) -> None: ...

    def restore(
        self, entries: Sequence[tuple[Entry, IndexFields]], audit: Sequence[AuditRecord]
    ) -> int:
        """Copy entries exactly as they are (ids, times, version links) with their audit
        records (own times kept), in one transaction, for `remem migrate`. Entries whose id
        is present already are skipped with their records; records of entries not in
        `entries` (deleted ones) are added unless the store holds records of that id.
        Returns the number of entries added."""

    def generation(self) -> tuple[int, int]:
        """Changes whenever this or another process commits: caches compare it."""

    def index_version(self) -> int | None:
        """The INDEX_VERSION the entries' index fields were computed under (None: not
        recorded yet, a store created by this version of remem)."""

    def reindex(self, entries: Sequence[tuple[Entry, IndexFields]], version: int) -> None:
        """Replace these entries' index fields (nothing else, no audit record) and record
        that the store is indexed under `version`, in one transaction."""

    def counts(self) -> dict[str, Any]: ...


class TruthStore(Protocol):
    """What `remem.truth` asks before a save: the current entries a new one may
    repeat or contradict, and the subject keys they are found by."""

    def superseded(self, entry_id: str) -> list[Entry]:
        """Entries whose superseded_by is `entry_id`."""

    def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        """The entries of `ids` that exist, by id, read together: the nearest a save weighs
        (one round trip to a server, where `get` each would be one apiece)."""

    @property
    def writable(self) -> bool:
        """Whether this process may write: not opened read-only, not a newer remem's."""

    def same_domain(
        self, domain: Domain, index: IndexFields, *, limit: int = 20, broader: bool = False
    ) -> list[Near]:
        """Current entries of `domain` that could duplicate or conflict with `index`: the same
        canonical form, the same skeleton, a shared named value, shared rare terms, or the
        same subject key; with `broader`, also those whose subject key holds every word of
        `index.subject` (narrower subjects: "api budget" for "budget"). Each comes with
        its stored subject key, so that a decision never reads a subject twice."""

    def unkeyed(self, limit: int) -> list[Entry]:
        """Entries whose subject key was never computed (older stores, raw copies)."""

    def subject_rules(self) -> int | None:
        """The version of the subject rules the stored "no subject" keys ("") were read
        under (None: recorded by none, i.e. version 1)."""

    def reread_subjects(self, rules: int) -> int:
        """Forget every subject key computed under older rules (they become unkeyed: a
        "no subject" entry is read again, a stored subject keyed again) and record
        `rules`; returns how many were forgotten."""

    def set_subjects(self, rows: Sequence[tuple[Entry, str, tuple[str, ...] | None]]) -> None:
        """Store each entry's subject, value, subject key and value terms (no audit
        record: they are derived from the content), in one transaction."""

    def keep_near(self) -> None:
        """Let a long-lived process build its in-process candidate index, a step a call;
        called before a save's write transaction (a store may do nothing)."""


class SearchStore(Protocol):
    """Keyword search, the record of what was put into a prompt (tiers), what has aged."""

    def keyword(
        self, terms: Sequence[str], flt: Filter, *, limit: int, postings: int = MAX_POSTINGS
    ) -> tuple[list[Candidate], CorpusStats]:
        """Entries passing `flt` that share terms with the query, best BM25 first, from
        the `rarest` terms within the `postings` budget."""

    def candidates(self, ids: Sequence[str], flt: Filter) -> list[Candidate]:
        """The entries among `ids` passing `flt`, with their terms (any order)."""

    def mark_used(self, ids: Sequence[str], at: datetime) -> None:
        """Remember that these entries were put into a prompt at `at` (SPEC RT8)."""

    def last_used(self, ids: Sequence[str]) -> dict[str, datetime]:
        """When each of `ids` was last put into a prompt (absent: never)."""

    def aging(self, flt: Filter, verified_before: datetime) -> tuple[int, int, list[Entry]]:
        """Of the entries passing `flt`: how many there are, how many were last verified
        before `verified_before`, and those verified since that link a file (whether one
        changed since is for the caller to read from the disk)."""


class VectorStore(Protocol):
    """Embeddings of entries, one set per model, and the nearest ones to a query."""

    def put_vectors(self, model: str, dim: int, vectors: Sequence[tuple[str, bytes]]) -> None:
        """Store (entry id, float32 bytes) vectors of `model`, replacing older ones."""

    def vector_models(self) -> list[tuple[str, int]]:
        """(model, dimension) of every embedding model with vectors here."""

    def vectors(self, model: str) -> tuple[list[str], list[bytes]]:
        """Every stored vector of `model`: entry ids and their float32 bytes."""

    def vector_rows(
        self, model: str, *, after: int = 0, limit: int | None = None
    ) -> list[tuple[int, str, bytes]]:
        """(position, entry id, float32 bytes) of `model`'s vectors of entries at positions
        past `after`, in order, at most `limit`; a new entry always gets a higher position."""

    def vectors_at(self, model: str, positions: Sequence[int]) -> dict[int, bytes]:
        """The float32 bytes of `model`'s vectors of the entries at these positions (those
        that have one): what a search re-scores the candidates of an in-process matrix
        by, which keeps positions, not ids."""

    def ids_at(self, positions: Sequence[int]) -> dict[int, str]:
        """The ids of the entries at these positions (those that exist)."""

    def vectors_of(self, model: str, ids: Sequence[str]) -> dict[str, bytes]:
        """The float32 bytes of `model`'s vectors of the entries among `ids` that have one
        (hybrid search scores its keyword candidates by them, not only the nearest)."""

    def nearest(
        self, model: str, vector: bytes, n: int, flt: Filter | None = None
    ) -> list[tuple[str, float]] | None:
        """The `n` entries (passing `flt`, when given) whose `model` vectors have the
        highest cosine with `vector`, from the backend's own vector index; None when it
        has none (then the caller scans its cache of `vector_rows` and filters after)."""

    def unembedded(self, model: str, *, limit: int, after: int = 0) -> list[tuple[int, Entry]]:
        """(position, entry) of entries past `after` (history included) with no vector of
        `model`, in order."""


class TokenStore(Protocol):
    """The API tokens of `remem serve`, kept hashed."""

    def add_token(self, token: ApiToken) -> None:
        """Keep a new API token (its id and digest are new)."""

    def tokens(self) -> list[ApiToken]:
        """Every API token, revoked ones included, oldest first."""

    def token(self, digest: str) -> ApiToken | None:
        """The unrevoked API token with this digest."""

    def revoke_token(self, token_id: str, at: datetime) -> bool:
        """Revoke a token from `at` on; False when no unrevoked token has that id."""

    def token_used(self, token_id: str, at: datetime) -> None:
        """Record that a token was last used at `at` (never fails a request)."""


class Store(EntryStore, AuditStore, TruthStore, SearchStore, VectorStore, TokenStore, Protocol):
    """Persistence for entries and their audit log: every role above, which both backends
    implement (one contract test, tests/test_store_contract.py). Code that needs one
    role takes that role."""
