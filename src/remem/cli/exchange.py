"""Commands that move memories in and out as JSON: export and import."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from remem.cli.common import (
    current_memory,
    emit,
    entries_json,
    json_option,
    short,
    tell,
)
from remem.exchange import count_entries


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--all", "everything", is_flag=True, help="The whole store, every project.")
@json_option
def export_(file: str, everything: bool, as_json: bool) -> None:
    """Export memories (with history and audit log) to a JSON file (- for stdout).

    \b
    Example:
      remem export backup.json
      remem export - | gzip > backup.json.gz
    """
    if file == "-":  # the export is the output; the count goes to stderr
        n = current_memory().export(sys.stdout, everything=everything)
        tell(f"Exported {n} memories.")
        return
    n = current_memory().export(file, everything=everything)
    emit(
        as_json,
        {"exported": n, "file": file},
        lambda: click.echo(f"Exported {n} memories to {file}."),
    )


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Import conflicting memories too (keep both).")
@click.option("--rebind-project", is_flag=True, help="File project memories under this project.")
@json_option
def import_(file: str, force: bool, rebind_project: bool, as_json: bool) -> None:
    """Import an export; duplicates are skipped and conflicts reported, never clobbered
    (exit 1 when there were conflicts).

    \b
    Example:
      remem import backup.json
    """
    mem = current_memory()
    total = count_entries(Path(file)) if sys.stderr.isatty() and not as_json else 0
    if total:  # a bar on a terminal only: no bar lines in logs or pipes
        with click.progressbar(length=total, label="importing", file=sys.stderr) as bar:
            res = mem.import_(file, force=force, rebind_project=rebind_project,
                              progress=bar.update)  # fmt: skip
    else:
        res = mem.import_(file, force=force, rebind_project=rebind_project)
    data = {
        "added": len(res.added), "history": res.history, "duplicates": len(res.duplicates),
        "conflicts": [
            {"entry": c.entry.to_dict(), "existing": entries_json(c.existing), "reasons": c.reasons}
            for c in res.conflicts
        ],
    }  # fmt: skip

    def human() -> None:
        click.echo(
            f"Imported {len(res.added)} memories ({res.history} older versions); "
            f"{len(res.duplicates)} duplicates skipped; {len(res.conflicts)} conflicts."
        )
        for c in res.conflicts:
            click.echo(f"  conflict: {c.entry.content}  vs  {short(c.existing[0])}")
        if res.conflicts:
            click.echo("Re-run with --force to keep both, or replace them one by one.")

    emit(as_json, data, human)
    if res.conflicts:  # like a conflicting save: not everything asked for was done
        raise SystemExit(1)
