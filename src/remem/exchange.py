"""Export and import as JSON (SPEC LT14): every field and timestamp kept; import
dedups and reports conflicts instead of clobbering, and writes nothing from a bad file."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from remem.entry import AuditRecord, Entry, format_ts, new_id, to_utc, utcnow
from remem.errors import InvalidInput, StoreError
from remem.store.protocol import Domain, Filter, Store
from remem.tokens import count_tokens
from remem.truth import decide, index, when
from remem.truth.decide import Reader
from remem.truth.dedup import SimilarityCheck
from remem.truth.subject import read

FORMAT = "remem-export"
VERSION = 1


@dataclass(frozen=True, slots=True)
class ImportConflict:
    entry: Entry
    existing: list[Entry]
    reasons: list[str]


@dataclass(slots=True)
class ImportResult:
    added: list[Entry] = field(default_factory=list)
    duplicates: list[Entry] = field(default_factory=list)
    history: int = 0
    conflicts: list[ImportConflict] = field(default_factory=list)


def export_entries(
    store: Store, path: Path | IO[str], *, visible: Filter | None, project: str
) -> int:
    """Write the entries `visible` lets through (every entry when None) with their
    audit records to `path` (atomically) or to an open text stream; returns how many."""
    if visible is None:
        entries = list(store.iter_all())
    else:
        entries = sorted(store.find(visible), key=lambda e: e.created_at)
    audit = [r.to_dict() for e in entries for r in store.audit(e.id)]
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": format_ts(utcnow()),
        "project": project,
        "entries": [e.to_dict() for e in entries],
        "audit": audit,
    }
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    if isinstance(path, Path):
        _write_atomically(path, text)
    else:
        path.write(text + "\n")
        path.flush()
    return len(entries)


def _write_atomically(path: Path, data: str) -> None:
    # Write beside the target and rename, so an existing export is never half-written.
    path = path.expanduser()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc}") from exc


def _read(
    path: Path, check_content: Callable[[str], object]
) -> tuple[list[Entry], list[AuditRecord]]:
    try:
        raw = path.expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}") from exc
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    if isinstance(doc, dict):
        if doc.get("format") != FORMAT or not isinstance(doc.get("entries"), list):
            raise InvalidInput(f"{path} is not a remem export (no format/entries)")
        items, audit_items = doc["entries"], doc.get("audit", [])
    elif isinstance(doc, list):
        items, audit_items = doc, []
    else:
        raise InvalidInput(f"{path} must hold a remem export or a JSON array of entries")
    entries = []
    for i, item in enumerate(items):
        try:
            entry = Entry.from_dict(item)
            check_content(entry.content)
            entries.append(entry)
        except (InvalidInput, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInput(f"{path}: entry #{i + 1} is invalid: {exc}") from exc
    return entries, [_audit_record(a, path) for a in audit_items]


def _audit_record(item: Any, path: Path) -> AuditRecord:
    try:
        return AuditRecord(
            str(item["entry_id"]), str(item["action"]), to_utc(item["at"]), dict(item["detail"])
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"{path}: an audit record is invalid: {exc}") from exc


@dataclass(frozen=True, slots=True)
class Target:
    """Where an import goes: the store, the project that `rebind_project` files
    project entries under, the content check of a save and the semantic dedup check."""

    store: Store
    project: str
    check_content: Callable[[str], object]
    semantic: SimilarityCheck | None = None
    subjects: Reader = read


def import_entries(
    target: Target,
    path: Path,
    *,
    force: bool = False,
    rebind_project: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ImportResult:
    """Import the export at `path`; `progress(n)` hears of every n entries handled
    (len(entries) in all, see `count_entries`)."""
    entries, audit = _read(path, target.check_content)
    by_id = {e.id: e for e in entries}
    if len(by_id) != len(entries):
        raise InvalidInput(f"{path}: the same entry id appears twice")
    if rebind_project:
        entries = [
            replace(e, project=target.project) if e.scope == "project" else e for e in entries
        ]
    entries = [_with_subject(e, target.subjects) for e in entries]
    by_id = {e.id: e for e in entries}
    result = ImportResult()
    store = target.store
    with store.write():
        # A link to a version that exists nowhere would hide the entry for good.
        entries = [
            replace(e, superseded_by=None, valid_to=when.validity(e.content, e.created_at).end)
            if e.superseded_by
            and e.superseded_by not in by_id
            and store.get(e.superseded_by) is None
            else e
            for e in entries
        ]
        entries = _closed(entries)
        by_id = {e.id: e for e in entries}
        # Ids stay as exported unless this store already uses one; links follow renames.
        ids = {e.id: (e.id if store.get(e.id) is None else new_id()) for e in entries}
        accepted: set[str] = set()
        for entry in entries:
            if entry.superseded_by is None or entry.superseded_by not in by_id:
                if _accept_head(target, entry, force, result):
                    accepted.add(entry.id)
                    result.added.append(_insert(store, entry, ids))
                if progress is not None:
                    progress(1)
        for entry in entries:
            head = _head_of(entry, by_id)
            if entry is not head:
                if head.id in accepted:
                    _insert(store, entry, ids)
                    accepted.add(entry.id)
                    result.history += 1
                if progress is not None:
                    progress(1)
        for record in audit:
            if record.entry_id in accepted:
                store.add_audit(replace(record, entry_id=ids[record.entry_id]))
    return result


def count_entries(path: Path) -> int:
    """How many entries the export at `path` holds (0 when it cannot be read: the
    import itself then says why)."""
    try:
        doc = json.loads(path.expanduser().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return 0
    items = doc.get("entries") if isinstance(doc, dict) else doc
    return len(items) if isinstance(items, list) else 0


def _closed(entries: list[Entry]) -> list[Entry]:
    """Versions exported before validity was kept hold until their successor began."""
    by_id = {e.id: e for e in entries}
    out = []
    for e in entries:
        nxt = by_id.get(e.superseded_by) if e.superseded_by else None
        if nxt is not None and e.valid_to is None:
            start = e.valid_from or e.created_at
            e = replace(e, valid_to=max(start, nxt.valid_from or nxt.created_at))
        out.append(e)
    return out


def _head_of(entry: Entry, by_id: dict[str, Entry]) -> Entry:
    seen = {entry.id}
    while entry.superseded_by in by_id and entry.superseded_by not in seen:
        entry = by_id[entry.superseded_by]
        seen.add(entry.id)
    return entry


def _with_subject(entry: Entry, subjects: Reader) -> Entry:
    """An entry exported before remem read subjects gets the one its content states."""
    if entry.subject is not None:
        return entry
    claim = subjects(entry.content)
    return replace(entry, subject=claim.subject, value=claim.value) if claim else entry


def _accept_head(target: Target, entry: Entry, force: bool, result: ImportResult) -> bool:
    """The same decisions as a save; a change the text states is reported like a
    conflict (an import never rewrites the store's own chains)."""
    candidates = target.store.same_domain(Domain.of(entry), index.fields(entry))
    matches = decide.classify(entry, candidates, semantic=target.semantic)
    if any(m.relation == "duplicate" for m in matches):
        result.duplicates.append(entry)
        return False
    conflicts = [m for m in matches if m.relation in ("conflict", "supersede")]
    if conflicts and not force:
        result.conflicts.append(
            ImportConflict(entry, [m.entry for m in conflicts], [m.reason for m in conflicts])
        )
        return False
    return True


def _insert(store: Store, entry: Entry, ids: dict[str, str]) -> Entry:
    def link(value: str | None) -> str | None:
        return ids.get(value, value) if value else value

    entry = replace(
        entry,
        id=ids[entry.id],
        superseded_by=link(entry.superseded_by),
        supersedes=link(entry.supersedes),
        token_count=entry.token_count or count_tokens(entry.content),
    )
    store.insert(entry, index.fields(entry), action="import", detail={})
    return entry
