"""A LangGraph `BaseStore` backed by remem (the `remem[langgraph]` extra).

    from remem.integrations.langgraph import RememStore

    store = RememStore(layout=("memories", "{user_id}"))     # ~/.remem/memory.db, this project
    store.put(("memories", "alice"), "editor", {"text": "Alice uses Helix"})
    store.search(("memories", "alice"), query="which editor")   # remem's ranking
    graph = builder.compile(store=store)                      # nodes get it as `runtime.store`

Each item is one remem memory: its content is the text of the value (the fields named by
`index`, by default every string in it), the value itself rides along in the memory's
metadata, so `get` returns exactly what was put. `layout` maps positions of a namespace
onto remem's partitions: a `{user_id}` or `{agent_id}` label there files the item under
that user or agent, where `remem --user alice search`, `remem mcp` and `remem serve` find
it too; the project is the store's. A put over an existing key updates that memory in
place (the audit log keeps that it changed). A put is a key-value write: it is not
checked for duplicates or conflicts with other memories, but text that looks like a
secret is refused unless `allow_secrets`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        get_text_at_path,
        tokenize_path,
        validate_op_namespace,
    )
except ImportError as exc:  # the extra is not installed
    from remem.errors import MissingExtra

    raise MissingExtra("remem.integrations.langgraph", "langgraph", "langgraph") from exc

from remem.entry import Entry, utcnow
from remem.errors import InvalidInput, SecretRefused
from remem.memory import Memory
from remem.named_values import named_values
from remem.store.protocol import Filter, Visibility
from remem.truth import index, versions

__all__ = ["RememStore"]

META = "langgraph"  # the metadata key holding an item's namespace, key and value
SLOTS = ("{user_id}", "{agent_id}")
Partition = tuple[str | None, str | None]  # (user_id, agent_id)


class RememStore(BaseStore):
    """LangGraph's long-term memory store over a remem store (SQLite or PostgreSQL)."""

    supports_ttl = False

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        project: str | os.PathLike[str] | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        layout: Sequence[str] = (),
        fields: Sequence[str] = ("$",),
        allow_secrets: bool = False,
        memory: Memory | None = None,
    ) -> None:
        """`path`/`project`/`user_id`/`agent_id` as for `Memory` (or pass a `memory`);
        `layout`: per namespace position, `{user_id}`, `{agent_id}` or any other label
        (not mapped); `fields`: the value paths whose text is the memory's content and is
        searched ("$": every string of the value), unless a put names its own `index`."""
        for slot in layout:
            if slot.startswith("{") and slot not in SLOTS:
                raise InvalidInput(f"unknown layout slot {slot!r}: use {' or '.join(SLOTS)}")
        self._own = memory is None
        self.memory = memory or Memory(path, project=project, user_id=user_id, agent_id=agent_id)
        self.layout = tuple(layout)
        self.fields = [(f, tokenize_path(f)) for f in fields]
        self.allow_secrets = allow_secrets

    def close(self) -> None:
        if self._own:
            self.memory.close()

    def __enter__(self) -> RememStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the two methods LangGraph asks for ------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops` in order (a get after a put in the same batch sees the put)."""
        results: list[Result] = []
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            else:
                raise InvalidInput(f"unknown store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # remem's stores are blocking and thread-safe: run the batch off the event loop
        return await asyncio.to_thread(self.batch, list(ops))

    # -- where an item lives ---------------------------------------------------------------
    def partition_of(self, namespace: Sequence[str]) -> Partition:
        """The (user, agent) a namespace files its items under."""
        settings = self.memory.settings
        user, agent = settings.user_id, settings.agent_id
        for label, slot in zip(namespace, self.layout, strict=False):
            if slot == "{user_id}":
                user = label
            elif slot == "{agent_id}":
                agent = label
        return user, agent

    def _fixed(self, prefix: Sequence[str]) -> Partition | None:
        """The one partition every namespace under `prefix` is in, or None (it spans)."""
        for pos, slot in enumerate(self.layout):
            if slot in SLOTS and (pos >= len(prefix) or prefix[pos] == "*"):
                return None
        return self.partition_of(prefix)

    def _id(self, namespace: Sequence[str], key: str) -> str:
        """The memory id of an item: one per project, partition, namespace and key."""
        user, agent = self.partition_of(namespace)
        parts = [self.memory.project, user or "", agent or "", *namespace, "\x01", key]
        return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:12]

    def _entries(self, prefix: Sequence[str]) -> Iterator[Entry]:
        """The current items whose namespace may start with `prefix` (not yet matched)."""
        fixed = self._fixed(prefix)
        store, project = self.memory.store, self.memory.project
        if fixed is not None:
            user, agent = fixed
            found: Iterable[Entry] = store.find(Filter(Visibility(project, None, user, agent)))
        else:  # across users or agents: read every memory of the project
            found = (e for e in store.iter_all() if e.project == project and e.is_current)
        return (e for e in found if _item_of(e) is not None)

    # -- operations ------------------------------------------------------------------------
    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        entry = self.memory.store.get(self._id(namespace, key))
        meta = _item_of(entry) if entry is not None else None
        if entry is None or meta is None:
            return None
        if tuple(meta["namespace"]) != tuple(namespace) or meta["key"] != key:
            return None
        return _item(entry, meta)

    def _put(self, op: PutOp) -> None:
        if not op.namespace:
            raise InvalidNamespaceError("Namespace cannot be empty.")
        if op.ttl is not None:
            raise NotImplementedError("TTL is not supported by RememStore (set ttl=None)")
        store, entry_id = self.memory.store, self._id(op.namespace, op.key)
        if op.value is None:
            with store.write():
                old = store.get(entry_id)
                if old is not None:
                    versions.remove_version(store, old, action="delete")
            return
        entry = self._entry(entry_id, op)
        vector = None
        vectors = self.memory.vectors
        if vectors is not None and op.index is not False:
            vector = vectors.embed_entry(entry)  # outside the write: embedding is slow
        with store.write():
            old = store.get(entry_id)
            if old is None:
                store.insert(
                    entry,
                    index.fields(entry),
                    action="add",
                    detail={"via": META},
                    allow_secret=self.allow_secrets,
                )
            else:
                entry.created_at, entry.valid_from = old.created_at, old.valid_from
                entry.supersedes, entry.superseded_by = old.supersedes, old.superseded_by
                store.update(
                    entry,
                    index.fields(entry),
                    action="update",
                    detail={"via": META},
                    allow_secret=self.allow_secrets,
                )
        if vectors is not None and vector is not None:
            vectors.put(entry, vector)

    def _entry(self, entry_id: str, op: PutOp) -> Entry:
        value = dict(op.value or {})
        try:
            dumped = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"a store value must be plain JSON: {exc}") from exc
        paths = self.fields if op.index is None else [(p, tokenize_path(p)) for p in op.index or ()]
        content = _text(value, paths) or dumped
        settings = self.memory.settings
        content = content[: settings.max_content_chars].strip() or op.key
        if not self.allow_secrets:
            from remem.secrets import find_secrets, looks_secret
            from remem.secrets_door import refusal

            if looks_secret(dumped):
                refused = refusal([("content", hit.kind) for hit in find_secrets(dumped)])
                raise SecretRefused(
                    f"{refused.reason} (RememStore(allow_secrets=True) stores it anyway)",
                    kinds=refused.kinds,
                    reason=refused.reason,
                )
        user, agent = self.partition_of(op.namespace)
        meta = {
            "namespace": list(op.namespace),
            "key": op.key,
            "value": value,
            "indexed": op.index is not False,
        }
        from remem.tokens import count_tokens

        now = utcnow()
        return Entry(
            content=content,
            id=entry_id,
            project=settings.project,
            user_id=user,
            agent_id=agent,
            source="model",
            created_at=now,
            updated_at=now,
            metadata={META: meta},
            token_count=count_tokens(content),
            facts=named_values(content),
        )

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = op.namespace_prefix
        entries = [e for e in self._entries(prefix) if _matches(e, prefix, op.filter)]
        query = (op.query or "").strip()
        if not query:
            entries.sort(key=lambda e: e.updated_at or e.created_at, reverse=True)
            chosen = entries[op.offset : op.offset + op.limit]
            return [_search_item(e, None) for e in chosen]
        wanted = {e.id for e in entries if (_item_of(e) or {}).get("indexed", True)}
        scores: dict[str, tuple[float, Entry]] = {}
        reach = max(100, 4 * (op.offset + op.limit))
        project = self.memory.project
        for user, agent in {(e.user_id, e.agent_id) for e in entries}:
            flt = Filter(Visibility(project, None, user, agent))
            for hit in self.memory.recall.rank(query, flt, reach):
                if hit.entry.id in wanted:
                    scores[hit.entry.id] = (hit.score, hit.entry)
        ranked = sorted(scores.values(), key=lambda pair: pair[0], reverse=True)
        return [_search_item(e, s) for s, e in ranked[op.offset : op.offset + op.limit]]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        prefix: tuple[str, ...] = ()
        for condition in conditions:
            if condition.match_type == "prefix":
                prefix = tuple(condition.path)
        found = {tuple((_item_of(e) or {})["namespace"]) for e in self._entries(prefix)}
        found = {ns for ns in found if all(_matches_condition(c, ns) for c in conditions)}
        if op.max_depth is not None:
            found = {ns[: op.max_depth] for ns in found}
        return sorted(found)[op.offset : op.offset + op.limit]


# -- helpers -----------------------------------------------------------------------------
def _item_of(entry: Entry) -> dict[str, Any] | None:
    meta = entry.metadata.get(META)
    if isinstance(meta, dict) and isinstance(meta.get("namespace"), list) and "key" in meta:
        return meta
    return None


def _item(entry: Entry, meta: Mapping[str, Any]) -> Item:
    return Item(
        value=dict(meta["value"]),
        key=str(meta["key"]),
        namespace=tuple(meta["namespace"]),
        created_at=entry.created_at,
        updated_at=entry.updated_at or entry.created_at,
    )


def _search_item(entry: Entry, score: float | None) -> SearchItem:
    meta = _item_of(entry) or {}
    return SearchItem(
        namespace=tuple(meta["namespace"]),
        key=str(meta["key"]),
        value=dict(meta["value"]),
        created_at=entry.created_at,
        updated_at=entry.updated_at or entry.created_at,
        score=score,
    )


def _text(value: Mapping[str, Any], paths: Sequence[tuple[str, Any]]) -> str:
    """The words of `value` at `paths` ("$": every string and number in it)."""
    parts: list[str] = []
    for path, tokens in paths:
        if path == "$":
            parts += _leaves(value)
        else:
            parts += get_text_at_path(value, tokens)
    return "\n".join(p for p in parts if p.strip())


def _leaves(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _leaves(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _leaves(v)]
    if isinstance(value, bool) or value is None:
        return []
    return [str(value)] if isinstance(value, str | int | float) else []


def _matches(entry: Entry, prefix: Sequence[str], flt: Mapping[str, Any] | None) -> bool:
    meta = _item_of(entry)
    if meta is None:
        return False
    namespace = tuple(meta["namespace"])
    if not _matches_condition(MatchCondition("prefix", tuple(prefix)), namespace):
        return False
    value = meta["value"]
    return all(_compare(_field(value, k), want) for k, want in (flt or {}).items())


def _field(value: Mapping[str, Any], key: str) -> Any:
    """`value[key]`, else the nested field a dotted key names ("user.level")."""
    if key in value or "." not in key:
        return value.get(key)
    found: Any = value
    for part in key.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(part)
    return found


def _matches_condition(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "suffix":
        namespace, path = namespace[::-1], path[::-1]
    return all(p in ("*", n) for n, p in zip(namespace, path, strict=False))


def _compare(value: Any, want: Any) -> bool:
    """LangGraph's filter semantics: equality, nested dicts, and $eq $ne $gt $gte $lt $lte."""
    if isinstance(want, dict):
        if any(k.startswith("$") for k in want):
            return all(_operator(value, op, arg) for op, arg in want.items())
        return isinstance(value, dict) and all(_compare(value.get(k), v) for k, v in want.items())
    if isinstance(want, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(want)
            and all(_compare(v, w) for v, w in zip(value, want, strict=True))
        )
    return bool(value == want)


def _operator(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(value == arg)
    if op == "$ne":
        return bool(value != arg)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise InvalidInput(f"unsupported filter operator {op!r}")
    try:
        a, b = float(value), float(arg)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]
