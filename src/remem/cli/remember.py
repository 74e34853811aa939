"""Commands that write memories: save, edit, verify, delete, forget, clear, prune."""

from __future__ import annotations

import sys

import click

from remem.cli.common import (
    by_id,
    current_memory,
    emit,
    entries_json,
    json_option,
    print_conflict,
    read_content,
    short,
)
from remem.entry import SCOPES, USER_TYPES, Entry, Scope, parse_scope, parse_type


@click.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--global", "is_global", is_flag=True, help="Visible in every project.")
@click.option("--force", is_flag=True, help="Save even if it conflicts (keep both).")
@click.option("--replace", "replace_id", metavar="ID", help="Replace this memory (new version).")
@click.option("--type", "type_", type=click.Choice(USER_TYPES), default="fact", show_default=True)
@click.option("--entity", help="What the memory is about (boosts matching queries).")
@click.option("--link", "links", multiple=True, metavar="PATH", help="A file it depends on.")
@json_option
def save(
    text: tuple[str, ...],
    is_global: bool,
    force: bool,
    replace_id: str | None,
    type_: str,
    entity: str | None,
    links: tuple[str, ...],
    as_json: bool,
) -> None:
    """Save a memory (TEXT, or - to read stdin).

    Text that holds a secret (a key, token, password, PIN, card, account or ID number)
    is refused unless --force; a phone number or e-mail address is kept.

    \b
    Example:
      remem save "项目使用 JDK 17 和 Maven"
      remem save --global --type preference "回答用中文"
      remem save --replace 3f2a9c1b "项目使用 JDK 21"
    """
    result = current_memory().save(  # a secret is refused with exit 1 (RememGroup)
        read_content(text),
        type=parse_type(type_),
        scope="global" if is_global else "project",
        force=force,
        replace_id=replace_id,
        entity=entity,
        linked_paths=links,
    )
    data = result.to_dict()

    def human() -> None:
        if result.status == "conflict":
            print_conflict(result)
        elif result.status == "duplicate":
            click.echo(f"Already remembered (verified again): {short(result.entry)}")
        elif result.status == "replaced":
            assert result.replaced is not None
            click.echo(f"Replaced {result.replaced.id}: {short(result.entry)}")
        elif result.status == "superseded":
            assert result.replaced is not None
            click.echo(f"Updated {result.replaced.id} (kept in history): {short(result.entry)}")
            click.echo(f"  ({result.reasons[0]})")
        else:
            click.echo(f"Saved {short(result.entry)}")
        for note in result.notes:
            click.echo(f"  ({note})")

    emit(as_json, data, human)
    if result.status == "conflict":
        raise SystemExit(1)


@by_id
def delete(entry_id: str, as_json: bool) -> None:
    """Delete a memory and its older versions; given the id of an older version (see
    `remem history`), delete only that version: the current memory stays.

    \b
    Example:
      remem delete 3f2a9c1b
    """
    entry = current_memory().delete(entry_id)
    emit(as_json, {"deleted": entry.to_dict()}, lambda: click.echo(f"Deleted {short(entry)}"))


@click.command()
@click.argument("entry_id", metavar="ID")
@click.argument("text", nargs=-1, required=True)
@click.option("--force", is_flag=True, help="Save even if the new text looks like a secret.")
@json_option
def edit(entry_id: str, text: tuple[str, ...], force: bool, as_json: bool) -> None:
    """Replace a memory's text; the old text stays in its history.

    \b
    Example:
      remem edit 3f2a9c1b "项目使用 JDK 21"
    """
    mem = current_memory()
    result = mem.edit(entry_id, read_content(text), force=force)
    old = result.replaced.id if result.replaced else entry_id
    emit(
        as_json,
        {"status": result.status, "entry": result.entry.to_dict()},
        lambda: click.echo(f"Replaced {old}: {short(result.entry)}"),
    )


@click.command()
@click.argument("keyword", nargs=-1, required=True)
@click.option("--dry-run", is_flag=True, help="Only show what would be deleted.")
@click.option("--yes", is_flag=True, help="Delete without asking (needed off a terminal).")
@click.option("--global", "is_global", is_flag=True, help="Global memories, not this project's.")
@click.option("--all", "everything", is_flag=True, help="Every memory visible here.")
@json_option
def forget(
    keyword: tuple[str, ...],
    dry_run: bool,
    yes: bool,
    is_global: bool,
    everything: bool,
    as_json: bool,
) -> None:
    """Delete the memories containing KEYWORD (any case), with their older versions:
    this project's, with --global the global ones, with --all every visible one.
    Shows them and asks first; --yes skips the question.

    \b
    Example:
      remem forget --dry-run "旧密码"
      remem forget --yes --global "staging"
    """
    mem = current_memory()
    text = " ".join(keyword)
    scopes: tuple[Scope, ...] | None = (
        None if everything else ("global",) if is_global else ("project",)
    )
    found = mem.forget(text, dry_run=True, scopes=scopes)
    if found and not (dry_run or yes):
        confirm_deletion(found, "forget")
    gone = found if dry_run or not found else mem.forget(text, scopes=scopes)
    verb = "Would delete" if dry_run else "Deleted"

    def human() -> None:
        click.echo(f"{verb} {len(gone)} memories.")
        for entry in gone:
            click.echo(f"  {short(entry)}")

    emit(as_json, {"dry_run": dry_run, "deleted": entries_json(gone)}, human)


def confirm_deletion(found: list[Entry], command: str) -> None:
    """Show what would go and ask on a terminal; off one, refuse (exit 2) without --yes."""
    if not sys.stdin.isatty():
        raise click.UsageError(
            f"{command} would delete {len(found)} memories; add --yes to go ahead "
            "(or run it on a terminal to be asked)"
        )
    click.echo(f"This deletes {len(found)} memories (with their older versions):")
    for entry in found:
        click.echo(f"  {short(entry)}")
    if not click.confirm("Delete them?", default=False):
        raise click.ClickException("nothing was deleted")


@by_id
def verify(entry_id: str, as_json: bool) -> None:
    """Confirm a memory is still true (resets its staleness clock).

    \b
    Example:
      remem verify 3f2a9c1b
    """
    entry = current_memory().verify(entry_id)
    emit(as_json, entry.to_dict(), lambda: click.echo(f"Verified {short(entry)}"))


@click.command()
@click.option("--scope", type=click.Choice(SCOPES), required=True)
@click.option("--yes", is_flag=True, help="Really delete them.")
@json_option
def clear(scope: str, yes: bool, as_json: bool) -> None:
    """Delete every visible memory of one scope (needs --yes).

    \b
    Example:
      remem clear --scope project --yes
    """
    if not yes:
        raise click.UsageError("clear deletes memories for good; add --yes to go ahead")
    gone = current_memory().clear(parse_scope(scope))
    emit(as_json, {"deleted": len(gone)}, lambda: click.echo(f"Deleted {len(gone)} memories."))


@click.command()
@click.option(
    "--auto-below",
    type=float,
    metavar="IMPORTANCE",
    help="Also drop unverified auto-extracted memories below this importance.",
)
@json_option
def prune(auto_below: float | None, as_json: bool) -> None:
    """Remove expired memories (and, if asked, weak auto-extracted ones).

    \b
    Example:
      remem prune --auto-below 0.3
    """
    gone = current_memory().prune(auto_extracted_below=auto_below)
    emit(
        as_json,
        {"deleted": entries_json(gone)},
        lambda: click.echo(f"Removed {len(gone)} memories."),
    )
