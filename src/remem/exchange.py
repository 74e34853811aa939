"""Export and import as JSON (SPEC LT14): every field and timestamp kept; import
dedups and reports conflicts instead of clobbering, and writes nothing from a bad file
(the file itself, written and read back checked, is `remem.export_file`)."""

from __future__ import annotations

import errno
import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

from remem import bulk, text
from remem.entry import AuditRecord, Entry, format_ts, new_id, utcnow
from remem.errors import InvalidInput, StoreError, describe_os_error
from remem.export_file import FORMAT, VERSION, read_export, write_export
from remem.partition import Partition
from remem.store.protocol import Domain, Filter, IndexFields, Store, Visibility
from remem.tokens import count_tokens
from remem.truth import decide, index, when
from remem.truth.decide import Reader
from remem.truth.dedup import SimilarityCheck
from remem.truth.subject import Claim, read


@dataclass(frozen=True, slots=True)
class ImportConflict:
    entry: Entry
    existing: list[Entry]
    reasons: list[str]


@dataclass(frozen=True, slots=True)
class ImportRefusal:
    """An entry not imported (with its older versions), and why; never its secret."""

    entry: Entry
    reason: str


@dataclass(slots=True)
class ImportResult:
    added: list[Entry] = field(default_factory=list)
    duplicates: list[Entry] = field(default_factory=list)
    history: int = 0
    conflicts: list[ImportConflict] = field(default_factory=list)
    refused: list[ImportRefusal] = field(default_factory=list)


def export_entries(
    store: Store,
    path: Path | IO[str],
    *,
    visible: Filter | None,
    project: str,
    select: Callable[[Entry], bool] | None = None,
) -> int:
    """Write the entries `visible` lets through (every entry `select` keeps, when None)
    with their audit records to `path` (atomically) or to an open text stream; returns
    how many."""
    if visible is None:
        entries = [e for e in store.iter_all() if select is None or select(e)]
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
        write_export(path, text)
    else:
        try:
            path.write(text + "\n")
            path.flush()
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise  # a reader that stopped reading: not an error of ours
            why = describe_os_error(exc)
            raise StoreError(f"cannot write the export: {why}; it is incomplete") from exc
    return len(entries)


@dataclass(frozen=True, slots=True)
class Target:
    """Where an import goes: the store, who imports (the partition every entry is filed
    under unless `keep_partitions`), the content check of a save and the semantic check."""

    store: Store
    visibility: Visibility
    check_content: Callable[[str], object]
    semantic: SimilarityCheck | None = None
    subjects: Reader = read


def import_entries(
    target: Target,
    path: Path,
    *,
    force: bool = False,
    keep_partitions: bool = False,
    all_users: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ImportResult:
    """Import `path` into `target`. Entries are filed under the importer's user, agent,
    project and session (a file cannot plant memories in someone else's search);
    `keep_partitions` keeps the file's project and session, and its users and agents
    only with `all_users` (an administrator's restore); text that looks like a secret is
    refused, with its whole version chain, unless `force` (SPEC SE3). `progress(n)`
    hears of every n entries handled (len(entries) in all, see `count_entries`)."""
    entries, audit = read_export(path, target.check_content)
    by_id = {e.id: e for e in entries}
    if len(by_id) != len(entries):
        raise InvalidInput(f"{path}: the same entry id appears twice")
    door = Partition(target.store, target.visibility)
    # why a chain is not imported: its first entry (in the file) with a reason, checked a
    # batch at a time, so that the store's own secret check of each insert finds the scan
    # of its text still in `secrets`' cache
    order = {e.id: i for i, e in enumerate(entries)}
    refusal = functools.partial(_refusal, vis=target.visibility, force=force, keep=keep_partitions)
    entries = _filed(entries, target.visibility, keep_partitions, all_users)
    keep_partitions = keep_partitions and all_users  # links may reach other partitions
    store = target.store

    # A link to a version outside the file is kept only to one the importer can see
    # (any, for an administrator's restore): a dangling one would hide the entry for
    # good, and one into another partition would chain its history to ours.
    def linkable(eid: str | None) -> bool:
        if not eid or eid in by_id:
            return eid in by_id
        return (store.get(eid) if keep_partitions else door.get(eid)) is not None

    entries = _closed([_linked(e, linkable) for e in entries])
    chains = _chains(entries)
    # Ids stay as exported unless this store already uses one; links follow renames.
    ids = {e.id: (e.id if store.get(e.id) is None else new_id()) for e in entries}
    if entries:  # the term rules load their dictionaries once: not inside a transaction
        index.fields(entries[0])
    job = _Job(target, force, ids, refusal, order, _by_entry(audit), progress)
    todo, at = chains, 0
    while at < len(todo):
        batch = _take(todo, at, job.pace.size)
        at += len(batch)
        try:
            job.run(batch)
        except StoreError as exc:
            done = len(job.result.added) + job.result.history
            raise StoreError(
                f"import stopped after {done} of {len(entries)} memories: {exc}. Running the "
                "same import again imports the rest (what is in already is skipped)"
            ) from exc
    return job.result


def _take(chains: list[list[Entry]], at: int, size: int) -> list[list[Entry]]:
    """Whole version chains from `at`, about `size` entries: a transaction's worth
    (`bulk.Pace` sizes it to ~0.25 s, so a concurrent save waits for one batch, not the
    file)."""
    end, count = at, 0
    while end < len(chains) and count < size:
        count += len(chains[end])
        end += 1
    return chains[at:end]


def _by_entry(audit: list[AuditRecord]) -> dict[str, list[AuditRecord]]:
    grouped: dict[str, list[AuditRecord]] = {}
    for record in audit:
        grouped.setdefault(record.entry_id, []).append(record)
    return grouped


@dataclass
class _Job:
    """One import, committed batch by batch: each batch is all or nothing, and a batch
    that is in is found again as duplicates by a rerun, so an interrupted import resumes."""

    target: Target
    force: bool
    ids: dict[str, str]
    refusal: Callable[[Entry], str | None]
    order: dict[str, int]  # each entry's place in the file
    audit: dict[str, list[AuditRecord]]
    progress: Callable[[int], None] | None
    result: ImportResult = field(default_factory=ImportResult)
    pace: bulk.Pace = field(default_factory=bulk.Pace)  # batch size, pauses for other writers
    refused: dict[str, str] = field(default_factory=dict)  # head id -> why not imported

    def run(self, batch: list[list[Entry]]) -> None:
        store, result = self.target.store, self.result
        # subjects read a batch at a time, outside the lock, and each head's claim while
        # its reading is still in `subject.read`'s cache (read for the whole file first,
        # the decision read every text twice)
        for chain in batch:
            in_file = sorted(chain, key=lambda e: self.order[e.id])
            why = next(filter(None, map(self.refusal, in_file)), None)
            if why := why or (None if self.force else _audit_refusal(chain, self.audit)):
                self.refused[chain[0].id] = why
        batch = [[_with_subject(e, self.target.subjects) for e in chain] for chain in batch]
        claims = {
            h.id: decide.claim_of(h, full=True) for h, *_ in batch if h.id not in self.refused
        }
        # the heads' vectors (in one call) and nearest, before the transaction; an
        # imported entry gets no vector, so no head is among another's nearest
        bulk.prepare(self.target.semantic, [h for h, *_ in batch if h.id not in self.refused])
        added, refused, duplicates = [], [], len(result.duplicates)
        conflicts, history = len(result.conflicts), 0
        self.pace.pause()
        began = time.perf_counter()
        try:
            with store.write(), text.in_write():
                for head, *older in batch:
                    if head.id in self.refused:
                        refused.append(ImportRefusal(head, self.refused[head.id]))
                    elif fields := _accept_head(
                        self.target, head, self.force, result, claims.get(head.id)
                    ):
                        added.append(_insert(store, head, self.ids, self.force, fields))
                        for entry in older:
                            _insert(store, entry, self.ids, self.force)
                        history += len(older)
                        for entry in (head, *older):
                            for record in self.audit.get(entry.id, ()):
                                store.add_audit(replace(record, entry_id=self.ids[entry.id]))
        except BaseException:  # nothing of this batch is in: report none of it
            del result.duplicates[duplicates:], result.conflicts[conflicts:]
            raise
        self.pace.took(sum(len(chain) for chain in batch), time.perf_counter() - began)
        result.added += added
        result.refused += refused
        result.history += history
        if self.progress is not None:
            self.progress(sum(len(chain) for chain in batch))


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


def _refusal(entry: Entry, *, vis: Visibility, force: bool, keep: bool) -> str | None:
    """Why `entry` (and so its version chain) cannot be imported, or None (`keep`: the
    file's partitions kept)."""
    if entry.scope == "session" and not keep and not vis.session_id:
        return "a session memory, and this import runs in no session"
    if not force:
        from remem.secrets import KIND_LABELS
        from remem.secrets_door import entry_secrets

        if found := entry_secrets(entry):  # content, entity, facts and metadata
            field, kind = found[0]
            where = "" if field == "content" else f"its {field} "
            return f"{where}looks like it holds {KIND_LABELS[kind]} (--force imports it anyway)"
    return None


def _filed(
    entries: list[Entry], vis: Visibility, keep_partitions: bool, all_users: bool
) -> list[Entry]:
    """The entries filed under the importer (see `_bind`); with `keep_partitions`, in
    the file's projects and sessions, and with `all_users` too, its users and agents."""
    if not keep_partitions:
        return [_bind(e, vis) for e in entries]
    if not all_users:
        return [replace(e, user_id=vis.user_id, agent_id=vis.agent_id) for e in entries]
    return entries


def _chains(entries: list[Entry]) -> list[list[Entry]]:
    """Each version chain: its head (the current version), then its older versions."""
    by_id = {e.id: e for e in entries}
    chains: dict[str, list[Entry]] = {}  # head id -> the chain
    for entry in entries:
        chains.setdefault(_head_of(entry, by_id).id, []).append(entry)
    for head_id, chain in chains.items():
        chain.sort(key=lambda e: e.id != head_id)
    return list(chains.values())


def _bind(entry: Entry, vis: Visibility) -> Entry:
    """`entry` filed under the importer: its user, agent, project and session."""
    return replace(
        entry,
        user_id=vis.user_id,
        agent_id=vis.agent_id,
        project=vis.project if entry.scope == "project" else None,
        session_id=vis.session_id if entry.scope == "session" else None,
    )


def _linked(entry: Entry, linkable: Callable[[str | None], bool]) -> Entry:
    """`entry` without the links an import cannot keep."""
    supersedes = entry.supersedes if linkable(entry.supersedes) else None
    if entry.superseded_by is None or linkable(entry.superseded_by):
        return replace(entry, supersedes=supersedes)
    # Its newer version is nowhere: it is current again, holding until the end its text states.
    end = when.validity(entry.content, entry.created_at).end
    return replace(entry, supersedes=supersedes, superseded_by=None, valid_to=end)


def _head_of(entry: Entry, by_id: dict[str, Entry]) -> Entry:
    seen = {entry.id}
    while entry.superseded_by in by_id and entry.superseded_by not in seen:
        entry = by_id[entry.superseded_by]
        seen.add(entry.id)
    return entry


def _audit_refusal(chain: list[Entry], audit: dict[str, list[AuditRecord]]) -> str | None:
    """Why a chain is not imported for its audit records: one holds a secret (the file's
    audit detail goes into the store as it is, so it passes the door content does)."""
    from remem.secrets import KIND_LABELS
    from remem.secrets_door import detail_secrets

    for entry in chain:
        for record in audit.get(entry.id, ()):
            if kinds := detail_secrets({"action": record.action, "detail": record.detail}):
                return (
                    f"its audit log looks like it holds {KIND_LABELS[kinds[0]]} "
                    "(--force imports it anyway)"
                )
    return None


def _with_subject(entry: Entry, subjects: Reader) -> Entry:
    """The entry with the subject and value its content states, read as a save reads
    them: never the file's own, which could hold a secret the content does not, or tie
    the entry to memories its text is not about."""
    claim = subjects(entry.content)
    if claim is None:
        return replace(entry, subject=None, value=None)
    return replace(entry, subject=claim.subject, value=claim.value)


def _accept_head(
    target: Target, entry: Entry, force: bool, result: ImportResult, claim: Claim | None
) -> IndexFields | None:
    """The same decisions as a save; a change the text states is reported like a
    conflict (an import never rewrites the store's own chains). The entry's index
    fields when it is to be written (read once: the insert writes them), else None."""
    fields = index.fields(entry)
    if _landed(target.store, entry):
        result.duplicates.append(entry)  # a rerun of an interrupted import
        return None
    candidates = target.store.same_domain(Domain.of(entry), fields)
    matches = decide.classify(entry, candidates, claim=claim, semantic=target.semantic)
    if any(m.relation == "duplicate" for m in matches):
        result.duplicates.append(entry)
        return None
    conflicts = [m for m in matches if m.relation in ("conflict", "supersede")]
    if conflicts and not force:
        result.conflicts.append(
            ImportConflict(entry, [m.entry for m in conflicts], [m.reason for m in conflicts])
        )
        return None
    return fields


def _landed(store: Store, entry: Entry) -> bool:
    """Whether this very entry is in already (its id, content and domain): an earlier
    run of the same import wrote it. Exact and cheap: one read by key, where a decision
    reads candidates; a rerun resumes at the speed of reading."""
    there = store.get(entry.id)
    return (
        there is not None
        and there.is_current
        and not there.is_expired(utcnow())
        and there.content == entry.content
        and Domain.of(there) == Domain.of(entry)
    )


def _insert(
    store: Store,
    entry: Entry,
    ids: dict[str, str],
    allow_secret: bool,
    fields: IndexFields | None = None,
) -> Entry:
    def link(value: str | None) -> str | None:
        return ids.get(value, value) if value else value

    entry = replace(
        entry,
        id=ids[entry.id],
        superseded_by=link(entry.superseded_by),
        supersedes=link(entry.supersedes),
        token_count=entry.token_count or count_tokens(entry.content),
    )
    fields = fields if fields is not None else index.fields(entry)
    store.insert(entry, fields, action="import", detail={}, allow_secret=allow_secret)
    return entry
