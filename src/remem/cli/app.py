"""The `remem` command line: a thin layer over `remem.Memory`.

Every command takes --json; errors are one line on stderr with a non-zero exit
(1 for a refused operation or a conflict, 2 for bad usage or bad input).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any, TypeVar

import click

from remem.cli.common import RememGroup, emit, json_option
from remem.entry import SCOPES, TYPES, Entry
from remem.errors import SecretRefused
from remem.memory import Memory, SaveResult
from remem.retrieval.ranking import Hit
from remem.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])


def _tell(message: str) -> None:
    click.echo(message, err=True)


class Ctx:
    """What the group hands to every command: settings now, the store on first use."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._memory: Memory | None = None

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            self._memory = Memory(settings=self.settings, notify=_tell)
            for notice in self._memory.notices:
                click.echo(notice, err=True)
        return self._memory

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()


def short(entry: Entry) -> str:
    when = entry.created_at.date().isoformat()
    flag = "" if entry.is_current else f" (replaced by {entry.superseded_by})"
    return f"{entry.id}  [{entry.type}/{entry.scope}] {entry.content}  ({when}){flag}"


def hit_dict(hit: Hit) -> dict[str, Any]:
    return {
        "score": round(hit.score, 4),
        "relevance": round(hit.relevance, 4),
        "decay": round(hit.decay, 4),
        "stale": hit.stale,
        "tier": hit.tier,
        "entry": hit.entry.to_dict(),
    }


def entries_json(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in entries]


@click.group(
    cls=RememGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    lazy={
        "compact": "remem.cli.context:compact",
        "sessions": "remem.cli.context:sessions",
        "extract": "remem.cli.extract:extract",
        "bench": "remem.cli.extract:bench",
        "reindex": "remem.cli.embed:reindex",
        "chat": "remem.cli.chat:chat",
        "mcp": "remem.cli.mcp:mcp",
        "migrate": "remem.cli.migrate:migrate_command",
    },
)
@click.option(
    "--db",
    metavar="PATH|URL",
    help="Store file, or postgresql://… for a shared server (default: $REMEM_DB, else "
    "$REMEM_HOME/memory.db).",
)
@click.option("--project", metavar="NAME|PATH", help="Project scope (default: the git root).")
@click.option("--user", "user_id", metavar="ID", help="Partition by user id.")
@click.option("--agent", "agent_id", metavar="ID", help="Partition by agent id.")
@click.version_option(package_name="remem")
@click.pass_context
def cli(
    ctx: click.Context,
    db: str | None,
    project: str | None,
    user_id: str | None,
    agent_id: str | None,
) -> None:
    """remem: local-first long-term memory for LLM agents.

    \b
    Example:
      remem save "项目使用 JDK 17 和 Maven"
      remem search "创建 Java 项目用什么 JDK"
    """
    state = Ctx(Settings.resolve(db=db, project=project, user_id=user_id, agent_id=agent_id))
    ctx.obj = state
    ctx.call_on_close(state.close)


def _memory() -> Memory:
    state: Ctx = click.get_current_context().find_object(Ctx)  # type: ignore[assignment]
    return state.memory


def _content(words: Sequence[str]) -> str:
    value = " ".join(words)
    if value == "-":
        value = sys.stdin.read()
    return value


def _print_conflict(result: SaveResult) -> None:
    click.echo("Conflict: nothing was saved.", err=True)
    click.echo(f"  new:      {result.entry.content}", err=True)
    for old, why in zip(result.conflicts, result.reasons, strict=True):
        click.echo(f"  existing: {short(old)}", err=True)
        click.echo(f"            ({why})", err=True)
    first = result.conflicts[0].id
    click.echo("Two ways out:", err=True)
    click.echo(
        f"  remem save --replace {first} TEXT   replace the old memory (kept in history)", err=True
    )
    click.echo("  remem save --force TEXT            keep both", err=True)


@cli.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--global", "is_global", is_flag=True, help="Visible in every project.")
@click.option("--force", is_flag=True, help="Save even if it conflicts (keep both).")
@click.option("--replace", "replace_id", metavar="ID", help="Replace this memory (new version).")
@click.option("--type", "type_", type=click.Choice(TYPES), default="fact", show_default=True)
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

    Text that looks like a secret (key, token, password, phone or ID number, e-mail)
    is refused unless --force.

    \b
    Example:
      remem save "项目使用 JDK 17 和 Maven"
      remem save --global --type preference "回答用中文"
      remem save --replace 3f2a9c1b "项目使用 JDK 21"
    """
    try:
        result = _memory().save(
            _content(text),
            type=type_,  # type: ignore[arg-type]
            scope="global" if is_global else "project",
            force=force,
            replace_id=replace_id,
            entity=entity,
            linked_paths=links,
        )
    except SecretRefused as exc:  # a refused operation (exit 1), not bad usage (exit 2)
        raise click.ClickException(str(exc)) from exc
    data = {
        "status": result.status,
        "entry": result.entry.to_dict(),
        "conflicts": entries_json(result.conflicts),
        "reasons": result.reasons,
        "replaced": result.replaced.to_dict() if result.replaced else None,
    }

    def human() -> None:
        if result.status == "conflict":
            _print_conflict(result)
        elif result.status == "duplicate":
            click.echo(f"Already remembered (verified again): {short(result.entry)}")
        elif result.status == "replaced":
            assert result.replaced is not None
            click.echo(f"Replaced {result.replaced.id}: {short(result.entry)}")
        else:
            click.echo(f"Saved {short(result.entry)}")

    emit(as_json, data, human)
    if result.status == "conflict":
        raise SystemExit(1)


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--type", "types", multiple=True, type=click.Choice(TYPES), help="Only these types.")
@click.option("--history", is_flag=True, help="Include replaced versions.")
@json_option
def search(
    query: tuple[str, ...], limit: int, types: tuple[str, ...], history: bool, as_json: bool
) -> None:
    """Search memories, best first.

    \b
    Example:
      remem search "创建 Java 项目用什么 JDK"
      remem search --limit 3 --json "deployment steps"
    """
    hits = _memory().search(
        " ".join(query), limit=limit, types=types or None, include_history=history
    )

    def human() -> None:
        if not hits:
            click.echo("No memories match.")
        for hit in hits:
            stale = "  possibly stale" if hit.stale else ""
            click.echo(f"{hit.score:.3f}  {short(hit.entry)}{stale}")

    emit(as_json, [hit_dict(h) for h in hits], human)


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--max-tokens", type=click.IntRange(min=1), help="Token budget of the block.")
@click.option("--window", type=click.IntRange(min=1), help="Model context window (sets budget).")
@json_option
def context(
    query: tuple[str, ...], max_tokens: int | None, window: int | None, as_json: bool
) -> None:
    """Print the memory block an agent would inject for QUERY (empty if none is relevant).

    \b
    Example:
      remem context "帮我再创建一个 Java 项目"
    """
    block = _memory().context_for(" ".join(query), max_tokens=max_tokens, window=window)
    emit(as_json, {"context": block}, lambda: click.echo(block) if block else None)


@cli.command("list")
@click.option("--limit", "-n", type=click.IntRange(min=1), help="At most N memories.")
@click.option("--scope", type=click.Choice(SCOPES))
@click.option("--type", "type_", type=click.Choice(TYPES))
@click.option("--history", is_flag=True, help="Include replaced versions.")
@json_option
def list_(
    limit: int | None, scope: str | None, type_: str | None, history: bool, as_json: bool
) -> None:
    """List memories visible here, newest first.

    \b
    Example:
      remem list --scope global --limit 20
    """
    entries = _memory().list(limit=limit, scope=scope, type=type_, include_history=history)  # type: ignore[arg-type]

    def human() -> None:
        for entry in entries:
            click.echo(short(entry))

    emit(as_json, entries_json(entries), human)


@cli.command()
@click.argument("entry_id", metavar="ID")
@json_option
def show(entry_id: str, as_json: bool) -> None:
    """Show every field of one memory (ID or a unique prefix of at least 4 characters).

    \b
    Example:
      remem show 3f2a9c1b
    """
    entry = _memory().get(entry_id)
    data = entry.to_dict()

    def human() -> None:
        for key, value in data.items():
            if value not in (None, {}, []):
                click.echo(f"{key:>17}: {value}")

    emit(as_json, data, human)


@cli.command()
@click.argument("entry_id", metavar="ID")
@json_option
def history(entry_id: str, as_json: bool) -> None:
    """Show every version of a memory and its audit log.

    \b
    Example:
      remem history 3f2a9c1b
    """
    hist = _memory().history(entry_id)
    data = {"versions": entries_json(hist.versions), "audit": [r.to_dict() for r in hist.audit]}

    def human() -> None:
        click.echo("Versions (oldest first):")
        for entry in hist.versions:
            click.echo(f"  {short(entry)}")
        click.echo("Audit log:")
        for rec in hist.audit:
            detail = f" {json.dumps(rec.detail, ensure_ascii=False)}" if rec.detail else ""
            click.echo(
                f"  {rec.at.isoformat(timespec='seconds')}  {rec.entry_id}  {rec.action}{detail}"
            )

    emit(as_json, data, human)


@cli.command()
@click.argument("entry_id", metavar="ID")
@json_option
def delete(entry_id: str, as_json: bool) -> None:
    """Delete a memory (and its older versions).

    \b
    Example:
      remem delete 3f2a9c1b
    """
    entry = _memory().delete(entry_id)
    emit(as_json, {"deleted": entry.to_dict()}, lambda: click.echo(f"Deleted {short(entry)}"))


@cli.command()
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
    mem = _memory()
    old = mem.get(entry_id)
    result = mem.save(
        _content(text), type=old.type, scope=old.scope, replace_id=old.id,
        entity=old.entity, metadata=old.metadata, linked_paths=old.linked_paths, force=force,
    )  # fmt: skip
    emit(as_json, {"status": result.status, "entry": result.entry.to_dict()},
         lambda: click.echo(f"Replaced {old.id}: {short(result.entry)}"))  # fmt: skip


@cli.command()
@click.argument("keyword", nargs=-1, required=True)
@click.option("--dry-run", is_flag=True, help="Only show what would be deleted.")
@json_option
def forget(keyword: tuple[str, ...], dry_run: bool, as_json: bool) -> None:
    """Delete every visible memory containing KEYWORD (any case).

    \b
    Example:
      remem forget --dry-run "旧密码"
    """
    gone = _memory().forget(" ".join(keyword), dry_run=dry_run)
    verb = "Would delete" if dry_run else "Deleted"

    def human() -> None:
        click.echo(f"{verb} {len(gone)} memories.")
        for entry in gone:
            click.echo(f"  {short(entry)}")

    emit(as_json, {"dry_run": dry_run, "deleted": entries_json(gone)}, human)


@cli.command()
@click.argument("entry_id", metavar="ID")
@json_option
def verify(entry_id: str, as_json: bool) -> None:
    """Confirm a memory is still true (resets its staleness clock).

    \b
    Example:
      remem verify 3f2a9c1b
    """
    entry = _memory().verify(entry_id)
    emit(as_json, entry.to_dict(), lambda: click.echo(f"Verified {short(entry)}"))


@cli.command()
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
    gone = _memory().clear(scope)  # type: ignore[arg-type]
    emit(as_json, {"deleted": len(gone)}, lambda: click.echo(f"Deleted {len(gone)} memories."))


@cli.command()
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
    gone = _memory().prune(auto_extracted_below=auto_below)
    emit(
        as_json,
        {"deleted": entries_json(gone)},
        lambda: click.echo(f"Removed {len(gone)} memories."),
    )


@cli.command("export")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--all", "everything", is_flag=True, help="The whole store, every project.")
@json_option
def export_(file: str, everything: bool, as_json: bool) -> None:
    """Export memories (with history and audit log) to a JSON file.

    \b
    Example:
      remem export backup.json
    """
    n = _memory().export(file, everything=everything)
    emit(
        as_json,
        {"exported": n, "file": file},
        lambda: click.echo(f"Exported {n} memories to {file}."),
    )


@cli.command("import")
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
    res = _memory().import_(file, force=force, rebind_project=rebind_project)
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


@cli.command()
@json_option
def stats(as_json: bool) -> None:
    """Show counts, size and staleness of the store.

    \b
    Example:
      remem stats --json
    """
    st = _memory().stats()

    def human() -> None:
        click.echo(f"store:    {st.path} ({st.bytes:,} bytes)")
        click.echo(f"project:  {st.project}")
        click.echo(f"memories: {st.entries} current, {st.history} older, {st.visible} visible here")
        click.echo(f"stale:    {st.stale} visible memories possibly stale")
        click.echo(f"by type:  {st.by_type}")
        click.echo(f"by scope: {st.by_scope}")

    emit(as_json, asdict(st), human)


def main(argv: Sequence[str] | None = None) -> None:
    cli.main(args=list(argv) if argv is not None else None, prog_name="remem")
