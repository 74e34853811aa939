"""How an entry maps to the columns of a SQL row, how each SQL dialect spells what the
shared core (`remem.store.sql`) writes, and the visibility and domain clauses: one list
of columns and one statement of the filters for both backends."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from remem.entry import Entry, to_utc, utcnow
from remem.store.candidates import Candidate, Entries, stored_json
from remem.store.protocol import Domain, Filter, IndexFields

ENTRY_COLUMNS = (
    "id, content, type, scope, project, session_id, user_id, agent_id, created_at, updated_at, "
    "last_verified_at, token_count, source, confidence, metadata, entity, facts, linked_paths, "
    "expires_at, importance, superseded_by, supersedes, subject, value, valid_from, valid_to"
)
E_COLUMNS = ", ".join(f"e.{c.strip()}" for c in ENTRY_COLUMNS.split(","))
N_COLUMNS = len(ENTRY_COLUMNS.split(","))  # where extra selected columns start
# and what `Near` keeps of an entry
K_COLUMNS = f"{E_COLUMNS}, e.subject_key, e.canon, e.value_key"
# what a search candidate's row holds (`row_candidate`): the ranking's fields and terms
C_COLUMNS = "e.id, e.type, e.source, e.entity, e.created_at, e.metadata, e.terms"
CHUNK = 500  # ids per IN (...) list in dialects that bind no arrays (`Dialect.lists`)

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def row_to_entry(row: Sequence[Any]) -> Entry:
    (
        eid,
        content,
        type_,
        scope,
        project,
        session_id,
        user_id,
        agent_id,
        created,
        updated,
        verified,
        tokens,
        source,
        confidence,
        metadata,
        entity,
        facts,
        linked,
        expires,
        importance,
        superseded_by,
        supersedes,
        subject,
        value,
        valid_from,
        valid_to,
    ) = row[:N_COLUMNS]
    return Entry(
        id=eid,
        content=content,
        type=type_,
        scope=scope,
        project=project,
        session_id=session_id,
        user_id=user_id,
        agent_id=agent_id,
        created_at=_utc(created),
        updated_at=_utc(updated),
        last_verified_at=_utc(verified),
        token_count=tokens,
        source=source,
        confidence=confidence,
        metadata=_json(metadata),
        entity=entity,
        facts=_flat(facts),
        linked_paths=_flat(linked),
        expires_at=_utc(expires) if expires else None,
        importance=importance,
        superseded_by=superseded_by,
        supersedes=supersedes,
        subject=subject,
        value=value,
        valid_from=_utc(valid_from) if valid_from else None,
        valid_to=_utc(valid_to) if valid_to else None,
    )


def dump_value_key(terms: Sequence[str] | None) -> str | None:
    """Value terms as the value_key column holds them (None: not known)."""
    return None if terms is None else dumps(list(terms))


@lru_cache(maxsize=8192)
def load_value_key(text: str | None) -> tuple[str, ...] | None:
    return None if text is None else tuple(_json(text))


def row_candidate(row: Sequence[Any], terms: list[str], group: Entries) -> Candidate:
    """A `Candidate` of a row of `C_COLUMNS`, its `Entry` read by `group` when needed."""
    return Candidate.of_row(terms, (row[0], row[1], row[2], row[3], to_utc(row[4])), row[5], group)


def _json(text: str) -> Any:
    """json.loads, without its cost for the empty values most rows hold."""
    return {} if text == "{}" else [] if text == "[]" else stored_json(text)


# A save reads ~17 candidate rows, and the same rows come back save after save (the
# first entries naming "port", those of one subject): their timestamps (immutable)
# and flat JSON are parsed once. A row's timestamps repeat within it too.
_utc = lru_cache(maxsize=16384)(to_utc)


@lru_cache(maxsize=8192)
def _parsed(text: str) -> tuple[Any, bool]:
    """A JSON text parsed, and whether it is strings in a dict or a list."""
    parsed = stored_json(text)
    values = parsed.values() if isinstance(parsed, dict) else parsed
    return parsed, isinstance(parsed, dict | list) and all(isinstance(v, str) for v in values)


def _flat(text: str) -> Any:
    """`_json` of facts and linked paths, strings in a dict or a list: each text parsed
    once, each entry given its own copy (anything nested is parsed afresh)."""
    if text == "{}":
        return {}
    if text == "[]":
        return []
    parsed, flat = _parsed(text)
    return parsed.copy() if flat else stored_json(text)


def _identity(value: Any) -> Any:
    return value


@dataclass(frozen=True, slots=True)
class Dialect:
    """How a SQL backend spells what the shared core needs. Shared SQL is written with
    `:name` parameters; `sql()` turns it into the driver's own marks."""

    mark: str  # a named parameter, "{}" for the name: ":{}" or "%({})s"
    same: str  # null-safe equality: "IS" or "IS NOT DISTINCT FROM"
    time: Callable[[datetime], Any]  # a timestamp as the driver stores it
    pos: str  # the entries' insertion-ordered integer key: "rowid" or "pos"
    ref: str  # the column of entry_keys / vectors naming it: "entry_rowid" or "entry_pos"
    no_limit: int | None  # LIMIT for "all rows": -1 or NULL
    lists: bool  # the driver binds a Python list as an array (= ANY(:x))
    hint: str = ""  # put before a column to keep the planner off its index ("+" in SQLite)
    # after `entries e` where rows are read newest first: SQLite's planner takes the
    # superseded_by index for "current" and sorts every row (0.7 s at 750k for 5 rows)
    newest: str = ""
    keep_terms: Callable[[list[str]], list[str]] = field(default=_identity)
    store_terms: Callable[[list[str]], Any] = field(default=_identity)
    load_terms: Callable[[Any], list[str]] = field(default=list)

    def sql(self, text: str) -> str:
        return _convert(text, self.mark)

    def any(self, column: str, name: str, values: Sequence[Any], params: dict[str, Any]) -> str:
        """`column` is one of `values`: `= ANY(:name)` where arrays bind, else `IN (...)`."""
        if self.lists:
            params[name] = list(values)
            return f"{column} = ANY(:{name})"
        if not values:
            return "FALSE"
        params.update({f"{name}{i}": v for i, v in enumerate(values)})
        return f"{column} IN ({', '.join(f':{name}{i}' for i in range(len(values)))})"

    def entry_params(self, entry: Entry, index: IndexFields) -> dict[str, Any]:
        """The columns of `entry`'s row, index fields included."""

        def t(value: datetime | None) -> Any:
            return None if value is None else self.time(value)

        terms = self.keep_terms(index.terms)
        return {
            "id": entry.id,
            "content": entry.content,
            "type": entry.type,
            "scope": entry.scope,
            "project": entry.project,
            "session_id": entry.session_id,
            "user_id": entry.user_id,
            "agent_id": entry.agent_id,
            "created_at": t(entry.created_at),
            "updated_at": t(entry.updated_at),
            "last_verified_at": t(entry.last_verified_at),
            "token_count": entry.token_count,
            "source": entry.source,
            "confidence": entry.confidence,
            "metadata": dumps(entry.metadata),
            "entity": entry.entity,
            "facts": dumps(entry.facts),
            "linked_paths": dumps(entry.linked_paths),
            "expires_at": t(entry.expires_at),
            "importance": entry.importance,
            "superseded_by": entry.superseded_by,
            "supersedes": entry.supersedes,
            "subject": entry.subject,
            "value": entry.value,
            "valid_from": t(entry.valid_from),
            "valid_to": t(entry.valid_to),
            "subject_key": index.subject,
            "canon": index.canon,
            "skeleton": index.skeleton,
            "value_key": dump_value_key(index.value_terms),
            "terms": self.store_terms(terms),
            "term_count": len(terms),
        }


@lru_cache(maxsize=512)
def _convert(text: str, mark: str) -> str:
    if mark == ":{}":
        return text
    # psycopg reads % as the start of a placeholder: literal ones are doubled first.
    return _NAMED.sub(lambda m: mark.format(m.group(1)), text.replace("%", "%%"))


def where_clause(flt: Filter, now: datetime, dialect: Dialect) -> tuple[str, dict[str, Any]]:
    """SQL over the entries table aliased `e` for what `flt` lets through (SPEC RT1,
    LT3), and its parameters: one statement of the visibility rules for every backend."""
    same = dialect.same
    vis = flt.visibility
    clauses = [
        f"(e.scope = 'global' OR (e.scope = 'project' AND e.project {same} :project)"
        f" OR (e.scope = 'session' AND e.session_id {same} :session_id))",
        "(e.user_id IS NULL OR e.user_id = :user_id)",
        "(e.agent_id IS NULL OR e.agent_id = :agent_id)",
    ]
    params: dict[str, Any] = {
        "project": vis.project,
        "session_id": vis.session_id,
        "user_id": vis.user_id,
        "agent_id": vis.agent_id,
        "now": dialect.time(now),
    }
    if flt.as_of is not None:  # what was true then: the versions valid at that moment
        clauses.append(
            "(e.valid_from IS NULL OR e.valid_from <= :as_of) "
            "AND (e.valid_to IS NULL OR e.valid_to > :as_of)"
        )
        params["as_of"] = dialect.time(flt.as_of)
    elif not flt.include_history:  # what is true now
        clauses.append("e.superseded_by IS NULL AND (e.valid_to IS NULL OR e.valid_to > :now)")
    if not flt.include_expired:
        clauses.append("(e.expires_at IS NULL OR e.expires_at > :now)")
    for name, values in (("scope", flt.scopes), ("type", flt.types)):
        if values is not None:
            clauses.append(dialect.any(f"e.{name}", name, values, params))
    if flt.entity is not None:
        clauses.append("e.entity = :entity")
        params["entity"] = flt.entity
    if flt.since is not None:
        clauses.append("e.created_at >= :since")
        params["since"] = dialect.time(flt.since)
    if flt.until is not None:
        clauses.append("e.created_at < :until")
        params["until"] = dialect.time(flt.until)
    return " AND ".join(clauses), params


@lru_cache(maxsize=4)
def _domain_sql(h: str, same: str) -> str:
    return (
        f"{h}e.type = :type AND {h}e.scope = :scope AND {h}e.project {same} :project "
        f"AND {h}e.session_id {same} :session_id AND {h}e.user_id {same} :user_id "
        f"AND {h}e.agent_id {same} :agent_id AND {h}e.superseded_by IS NULL "
        f"AND ({h}e.expires_at IS NULL OR {h}e.expires_at > :now) "
        f"AND ({h}e.valid_to IS NULL OR {h}e.valid_to > :now)"
    )


def domain_clause(domain: Domain, dialect: Dialect) -> tuple[str, dict[str, Any]]:
    """Current entries of one domain (SPEC LT8), kept off the visibility index (`hint`)
    so that the selective lookups beside it drive each query."""
    sql = _domain_sql(dialect.hint, dialect.same)
    params = {
        "type": domain.type,
        "scope": domain.scope,
        "project": domain.project,
        "session_id": domain.session_id,
        "user_id": domain.user_id,
        "agent_id": domain.agent_id,
        "now": dialect.time(utcnow()),
    }
    return sql, params
