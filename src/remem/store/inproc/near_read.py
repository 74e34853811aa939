"""How the candidate index (`remem.store.inproc.near_index`) reads its store: built a step
at a time (`build_step`), then brought up to date before each lookup (`refresh`)."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any, Protocol

from remem.store.inproc.near_index import Doc, Mark, NearIndex
from remem.store.rows import Dialect


class Source(Protocol):
    """What the index reads from a SQL store (`remem.store.sql.SQLStore`)."""

    dialect: Dialect

    def generation(self) -> tuple[int, int]: ...
    def _rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]: ...


PAGE = 2_000  # rows read at a time when the index is built
_IDS = 500  # ids per lookup of changed rows (under SQLite's limit of bound values)
_COLUMNS = (
    "e.id, e.{pos}, e.superseded_by IS NULL, e.type, e.scope, e.project, e.session_id, "
    "e.user_id, e.agent_id, e.expires_at, e.valid_to, e.canon, e.skeleton, e.subject_key, "
    "e.terms"
)
_VERSION = (
    "SELECT (SELECT value FROM meta WHERE key = 'index_version'), "
    "(SELECT value FROM meta WHERE key = 'subject_rules'), "
    "(SELECT docs FROM corpus WHERE id = 1)"
)


def refresh(index: NearIndex, store: Source) -> None:
    """Bring `index` up to date with `store` (call with `index.lock` held, inside the
    store's write transaction, with no uncommitted write of this process): nothing when
    its generation has not moved and this process wrote nothing since."""
    generation = store.generation()
    mark = index.mark
    if mark is not None and mark.generation == generation and not index.touched:
        return
    if mark is not None and mark.generation[0] == generation[0] and len(index.touched) <= _IDS:
        # only this process wrote since (SQLite's data_version moves with the commits of
        # other connections alone): its rows are read again, nothing else
        _read_ids(index, store, index.touched)
        index.touched.clear()
        index.mark = replace(mark, generation=generation)
        return
    *found, docs = store._rows(_VERSION)[0]
    version = tuple(found)
    if mark is None or mark.version != version:
        _rebuild(index, store)
        return
    audit = store._rows("SELECT seq, entry_id FROM audit WHERE seq > :s", {"s": mark.seq})
    seq = max((int(r[0]) for r in audit), default=mark.seq)
    # the rows named by audit records or written by this process, and those not keyed
    # yet (another process may have keyed them since), besides the rows added since
    named = {str(r[1]) for r in audit} | index.touched | index.unkeyed
    if len(named) > _IDS:
        _rebuild(index, store)
        return
    # two statements: SQLite scans the whole table for "e.rowid > :after OR e.id IN"
    read, last = _read(index, store, f"e.{store.dialect.pos} > :after", {"after": mark.pos})
    _read_ids(index, store, named - read)
    index.touched.clear()
    if int(docs) != len(index.rows):  # e.g. a reused SQLite rowid: read it all again
        _rebuild(index, store)
        return
    index.mark = Mark(generation, max(last, mark.pos), seq, version)


def _rebuild(index: NearIndex, store: Source) -> None:
    index.started = None
    build_step(index, store, sys.maxsize)
    index.touched.clear()  # all read just now


def build_step(index: NearIndex, store: Source, entries: int) -> bool:
    """Read about `entries` more entries into `index` (built anew from its first step);
    True once it holds them all, its mark then as if read in one go when it started:
    what changed since (audit records, this process's writes, rows past the last read)
    is read again by its first refresh."""
    if index.started is None:
        index.reset()
        generation = store.generation()
        *found, _ = store._rows(_VERSION)[0]
        seq = int(store._rows("SELECT coalesce(max(seq), 0) FROM audit")[0][0])
        index.started = Mark(generation, 0, seq, tuple(found))
    start, pos, done, page = index.started, store.dialect.pos, 0, min(PAGE, entries)
    last = start.pos
    while True:
        rest = f"e.{pos} > :after ORDER BY e.{pos} LIMIT {page}"
        read, end = _read(index, store, rest, {"after": last})
        last, done = max(last, end), done + len(read)
        if len(read) < page:  # the last page
            index.mark, index.started = replace(start, pos=last), None
            index.rank()
            return True
        if done >= entries:
            index.started = replace(start, pos=last)
            return False


def _read_ids(index: NearIndex, store: Source, ids: set[str]) -> None:
    """Read the entries `ids` again; those gone are removed."""
    if ids:
        params: dict[str, Any] = {}
        read, _ = _read(index, store, store.dialect.any("e.id", "ids", sorted(ids), params), params)
        for eid in ids - read:
            index.remove(eid)


def _read(
    index: NearIndex, store: Source, where: str, params: dict[str, Any]
) -> tuple[set[str], int]:
    """Put the rows of `where` into the index, their named values with them; the ids
    read and the highest position among them."""
    d = store.dialect
    rows = store._rows(f"SELECT {_COLUMNS.format(pos=d.pos)} FROM entries e WHERE {where}", params)
    docs: dict[int, Doc] = {}
    for r in rows:
        eid, pos = str(r[0]), int(r[1])
        if r[2]:  # current
            until = min((t for t in (r[9], r[10]) if t is not None), default=None)
            terms = d.load_terms(r[14])
            docs[pos] = Doc(eid, pos, tuple(r[3:9]), until, r[11], r[12], r[13], terms)
        else:
            index.put(None, eid, pos)
    keyed = _keys_of(store, sorted(docs))
    for pos, doc in docs.items():
        doc.keys = tuple(keyed.get(pos, ()))
        index.put(doc, doc.id, pos)
    return {str(r[0]) for r in rows}, max((int(r[1]) for r in rows), default=0)


def _keys_of(store: Source, positions: list[int]) -> dict[int, list[tuple[str, str]]]:
    """The named values of the entries at `positions` (sorted): by list when they are
    few, else by the range they span."""
    if not positions:
        return {}
    d, params = store.dialect, {"lo": positions[0], "hi": positions[-1]}
    ref = f"k.{d.ref}"
    cond = (
        d.any(ref, "pos", positions, params)
        if len(positions) <= _IDS
        else f"{ref} >= :lo AND {ref} <= :hi"
    )
    wanted, keyed = set(positions), dict[int, list[tuple[str, str]]]()
    sql = f"SELECT {ref}, k.key, k.value FROM entry_keys k WHERE {cond}"
    for at, key, value in store._rows(sql, params):
        if int(at) in wanted:
            keyed.setdefault(int(at), []).append((key, value))
    return keyed
