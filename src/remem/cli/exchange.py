"""Commands that move memories in and out as JSON: export and import."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from remem.cli.admin import check_all_users
from remem.cli.common import (
    current_memory,
    emit,
    entries_json,
    json_option,
    short,
    tell,
)
from remem.errors import InvalidInput
from remem.export_file import count_entries


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--all", "everything", is_flag=True, help="Every project and session of yours.")
@click.option(
    "--all-users",
    is_flag=True,
    help="Administrator (the store file's owner; not with --user/--agent): the whole "
    "store, every user's and agent's memories.",
)
@json_option
def export_(file: str, everything: bool, all_users: bool, as_json: bool) -> None:
    """Export memories (with history and audit log) to a JSON file (- for stdout).

    Only your partition is exported (--user/--agent, or the memories filed under none,
    and the shared ones); --all-users, the administrator's flag (the account that owns
    the store file; refused with --user or --agent), exports the whole store. The file
    must be new or an earlier export: a store, its -wal/-shm, a device or another file
    is never written over.

    \b
    Example:
      remem export backup.json
      remem export - | gzip > backup.json.gz
      remem export --all-users whole-store.json   # an administrator's backup
    """
    if all_users:
        check_all_users()
    mem = current_memory()
    if file == "-":  # the export is the output; the count goes to stderr
        n = mem.export(sys.stdout, everything=everything, all_users=all_users)
        tell(f"Exported {n} memories.")
        return
    n = mem.export(file, everything=everything, all_users=all_users)
    emit(
        as_json,
        {"exported": n, "file": file},
        lambda: click.echo(f"Exported {n} memories to {file}."),
    )


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Import conflicting and secret-looking memories too.")
@click.option(
    "--keep-partitions",
    is_flag=True,
    help="Keep each memory's project and session from the file (by default all are filed "
    "under yours); with --all-users its user and agent too.",
)
@click.option(
    "--all-users",
    is_flag=True,
    help="Administrator restore (the store file's owner; not with --user/--agent): with "
    "--keep-partitions, keep every memory's user and agent.",
)
@json_option
def import_(file: str, force: bool, keep_partitions: bool, all_users: bool, as_json: bool) -> None:
    """Import an export; duplicates are skipped and conflicts reported, never clobbered
    (exit 1 when there were conflicts).

    Every memory is filed under the importing user, agent, project and session, so a
    file cannot plant memories in anyone else's search (--force does not change that;
    only the administrator's --all-users, refused with --user or --agent, does); text
    that looks like a secret is refused unless --force.

    \b
    Example:
      remem import backup.json
      remem import --keep-partitions --all-users whole-store.json   # admin restore
    """
    if all_users and not keep_partitions:
        raise InvalidInput("--all-users restores the file's partitions: add --keep-partitions")
    if all_users:
        check_all_users()
    mem = current_memory()
    total = count_entries(Path(file)) if sys.stderr.isatty() and not as_json else 0
    if total:  # a bar on a terminal only: no bar lines in logs or pipes
        with click.progressbar(length=total, label="importing", file=sys.stderr) as bar:
            res = mem.import_(
                file,
                force=force,
                keep_partitions=keep_partitions,
                all_users=all_users,
                progress=bar.update,
            )
    else:
        res = mem.import_(file, force=force, keep_partitions=keep_partitions, all_users=all_users)
    data = {
        "added": len(res.added),
        "history": res.history,
        "duplicates": len(res.duplicates),
        "conflicts": [
            {"entry": c.entry.to_dict(), "existing": entries_json(c.existing), "reasons": c.reasons}
            for c in res.conflicts
        ],
        "refused": [{"id": r.entry.id, "reason": r.reason} for r in res.refused],
    }

    def human() -> None:
        click.echo(
            f"Imported {len(res.added)} memories ({res.history} older versions); "
            f"{len(res.duplicates)} duplicates skipped; {len(res.conflicts)} conflicts; "
            f"{len(res.refused)} refused."
        )
        for c in res.conflicts:
            click.echo(f"  conflict: {c.entry.content}  vs  {short(c.existing[0])}")
        for r in res.refused:
            click.echo(f"  refused: {r.entry.id}: {r.reason}")
        if res.conflicts:
            click.echo("Re-run with --force to keep both, or replace them one by one.")

    emit(as_json, data, human)
    if res.conflicts:  # like a conflicting save: not everything asked for was done
        raise SystemExit(1)
