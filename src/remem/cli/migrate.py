"""`remem migrate`: copy a whole store to another, SQLite or PostgreSQL (issue #7)."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path
from urllib.parse import urlsplit

import click

from remem.cli.admin import check_all_users
from remem.cli.common import Ctx, emit, json_option
from remem.errors import InvalidInput
from remem.settings import is_url
from remem.store.backends import describe, open_store
from remem.store.migrate import MigrateResult, Select, migrate, preview
from remem.store.protocol import Store

__all__ = ["migrate_command"]

Location = str | Path  # a postgresql:// URL, or a SQLite file
_SQLITE_MAGIC = b"SQLite format 3\x00"  # the first bytes of every SQLite database file


@click.command("migrate")
@click.option("--from", "source", required=True, metavar="PATH|URL", help="The store to copy.")
@click.option(
    "--to", "target", required=True, metavar="PATH|URL", help="Where to copy it (created)."
)
@click.option(
    "--batch",
    default=500,
    show_default=True,
    type=click.IntRange(min=1),
    help="Entries per transaction.",
)
@click.option("--dry-run", is_flag=True, help="Only report what would be copied.")
@click.option(
    "--all-users",
    is_flag=True,
    help="Administrator (the source file's owner; not with --user/--agent): copy every "
    "user's and agent's memories, not only the caller's.",
)
@json_option
def migrate_command(
    source: str, target: str, batch: int, dry_run: bool, all_users: bool, as_json: bool
) -> None:
    """Copy the memories (history included), the audit log and the vectors from one
    store to another: SQLite to PostgreSQL, back, or SQLite to SQLite. The source is
    never changed. Interrupted? Run the same command again: what is there already is
    skipped, nothing is duplicated.

    Only the caller's partition is copied: the memories of --user/--agent (none given:
    those filed under no user) and the shared ones; --all-users, the administrator's
    flag (the account that owns the source file; refused with --user or --agent), copies
    the whole store.

    \b
    Example:
      remem migrate --all-users --from ~/.remem/memory.db --to postgresql://user@host/db
      remem --user bob migrate --from team.db --to bob.db --dry-run
    """
    src_at, dst_at = _location(source), _location(target)
    if all_users:
        check_all_users(src_at)
    select = None if all_users else _caller_partition()
    if _same(src_at, dst_at):
        raise InvalidInput(f"--from and --to name the same store ({describe(src_at)})")
    _check_source(src_at)
    src = _open(src_at, "source")
    try:
        bar = not as_json and sys.stderr.isatty()  # no bar lines in logs or pipes
        result = _run(src, dst_at, batch=batch, dry_run=dry_run, bar=bar, select=select)
    finally:
        src.close()
    data = {"from": describe(src_at), "to": describe(dst_at), **asdict(result)}
    data["seconds"] = round(result.seconds, 3)
    emit(as_json, data, lambda: click.echo(_summary(result, describe(dst_at))))


def _caller_partition() -> Select:
    """The entries the caller may take: its own (user and agent) and the shared ones."""
    state = click.get_current_context().find_object(Ctx)
    user = state.settings.user_id if state else None
    agent = state.settings.agent_id if state else None
    return lambda e: e.user_id in (None, user) and e.agent_id in (None, agent)


def _run(
    src: Store, dst_at: Location, *, batch: int, dry_run: bool, bar: bool, select: Select | None
) -> MigrateResult:
    if dry_run:
        if isinstance(dst_at, Path) and not dst_at.exists():
            return preview(src, None, select)  # a dry run creates nothing, not the target
        dst = _open(dst_at, "destination", upgrade=False)
        try:
            return preview(src, dst, select)
        finally:
            dst.close()
    dst = _open(dst_at, "destination")
    try:
        if not bar:
            return migrate(src, dst, batch=batch, select=select)
        counts = src.counts()
        total = int(counts["entries"]) + int(counts["history"])
        with click.progressbar(length=total, label="copying entries", file=sys.stderr) as progress:
            return migrate(src, dst, batch=batch, progress=progress.update, select=select)
    finally:
        dst.close()


def _open(at: Location, role: str, *, upgrade: bool = True) -> Store:
    # The source, and the destination of a dry run, are only read: not created, moved
    # aside or upgraded (an older remem's is read from an upgraded copy in memory).
    reads = role == "source" or not upgrade
    store = open_store(at, upgrade=not reads, create=not reads)
    for notice in store.notices:
        click.echo(notice, err=True)
    return store


def _location(value: str) -> Location:
    return value if is_url(value) else Path(value).expanduser()


def _check_source(at: Location) -> None:
    """A missing or foreign source file is an error, not a new empty store there."""
    if not isinstance(at, Path):
        return
    if not at.is_file():
        what = "a folder, not a store file" if at.is_dir() else "not there"
        raise InvalidInput(f"no store to migrate from: {at} is {what}")
    with at.open("rb") as fh:
        if fh.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
            raise InvalidInput(f"{at} is not a remem store (not a SQLite database)")


def _same(a: Location, b: Location) -> bool:
    if isinstance(a, Path) and isinstance(b, Path):
        if a.exists() and b.exists():
            return a.samefile(b)
        return a.resolve() == b.resolve()
    if isinstance(a, str) and isinstance(b, str):
        return _url_key(a) == _url_key(b)
    return False


def _url_key(url: str) -> tuple[object, ...]:
    # The password and postgres:// vs postgresql:// do not make another database.
    parts = urlsplit(url)
    return (parts.username, parts.hostname, parts.port or 5432, parts.path.rstrip("/"), parts.query)


def _summary(result: MigrateResult, target: str) -> str:
    verb = "Would copy" if result.dry_run else "Copied"
    vectors = ", ".join(f"{n} {model}" for model, n in result.vectors.items()) or "none"
    lines = [
        f"{verb} {result.copied} of {result.entries} entries "
        f"({result.present} already present), {result.audit_records} audit records, "
        f"vectors: {vectors} ({result.seconds:.1f} s)."
    ]
    if result.dry_run:
        lines.append("Dry run: nothing was written.")
    else:
        lines.append(f"{target} now holds {result.destination_entries} entries.")
    return "\n".join(lines)
