"""Commands that move memories in and out as JSON: export and import."""

from __future__ import annotations

import click

from remem.cli.common import (
    current_memory,
    emit,
    entries_json,
    json_option,
    short,
)


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--all", "everything", is_flag=True, help="The whole store, every project.")
@json_option
def export_(file: str, everything: bool, as_json: bool) -> None:
    """Export memories (with history and audit log) to a JSON file.

    \b
    Example:
      remem export backup.json
    """
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
    """Import an export; duplicates are skipped and conflicts reported, never clobbered.

    \b
    Example:
      remem import backup.json
    """
    res = current_memory().import_(file, force=force, rebind_project=rebind_project)
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
