"""The export file of `remem.exchange` (SPEC LT14): its format, written atomically (an
earlier export is replaced whole, a file remem did not make never), and read back
checked: valid JSON, our format or a plain array of entries, every entry valid and no
deeper than `MAX_DEPTH`, every audit record whole (InvalidInput names what is not)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from remem.entry import AuditRecord, Entry, to_utc
from remem.errors import InvalidInput, StoreError, describe_os_error
from remem.files import check_output, json_file, read_text
from remem.partition import check_id

FORMAT = "remem-export"
VERSION = 1


def is_export(path: Path) -> bool:
    """Whether `path` holds an earlier export: a JSON object whose format is ours."""
    doc = json_file(path)
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def write_export(path: Path, data: str) -> None:
    """Write an export's text to `path`."""
    # Write beside the target and rename, so an existing export is never half-written.
    # A failure (a full disk) removes the temporary file and leaves the target as it was.
    path = path.expanduser()
    check_output(path, made_by=is_export)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        why = describe_os_error(exc)
        raise StoreError(f"cannot write {path}: {why}; nothing was exported") from exc


def count_entries(path: Path) -> int:
    """How many entries the export at `path` holds (0 when it cannot be read: the
    import itself then says why)."""
    try:
        doc = json.loads(read_text(path))
    except ValueError:  # (InvalidInput too)
        return 0
    items = doc.get("entries") if isinstance(doc, dict) else doc
    return len(items) if isinstance(items, list) else 0


def read_export(
    path: Path, check_content: Callable[[str], object]
) -> tuple[list[Entry], list[AuditRecord]]:
    """The entries (each content passed through `check_content`) and audit records of
    the export, or of the JSON array of entries, at `path`."""
    raw = read_text(path, "the import file")
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    except RecursionError as exc:
        raise InvalidInput(f"{path} is nested too deeply to be a remem export") from exc
    if isinstance(doc, dict):
        if doc.get("format") != FORMAT or not isinstance(doc.get("entries"), list):
            raise InvalidInput(f"{path} is not a remem export (no format/entries)")
        version = doc.get("version", VERSION)
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= VERSION:
            # a newer remem's file may mean what this one would misread: nothing imported
            raise InvalidInput(
                f"{path} is a remem export of version {version!r}; this remem reads version "
                f"{VERSION} (upgrade remem to import it)"
            )
        items, audit_items = doc["entries"], doc.get("audit", [])
    elif isinstance(doc, list):
        items, audit_items = doc, []
    else:
        raise InvalidInput(f"{path} must hold a remem export or a JSON array of entries")
    entries = []
    for i, item in enumerate(items):
        try:
            if _depth(item) > MAX_DEPTH:
                raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
            entry = Entry.from_dict(item)
            check_id(entry.id)
            check_content(entry.content)
            entries.append(entry)
        except (InvalidInput, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInput(f"{path}: entry #{i + 1} is invalid: {exc}") from exc
    return entries, [_audit_record(a, path) for a in audit_items]


MAX_DEPTH = 32  # of an entry's JSON: metadata is key/values, not a tree to recurse into


def _depth(value: Any) -> int:
    """How deeply `value` nests lists and objects (without recursing)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack += [
                    (v, level + 1) for v in (item.values() if isinstance(item, dict) else item)
                ]
    return deepest


def _audit_record(item: Any, path: Path) -> AuditRecord:
    try:
        return AuditRecord(
            str(item["entry_id"]), str(item["action"]), to_utc(item["at"]), dict(item["detail"])
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"{path}: an audit record is invalid: {exc}") from exc
