"""Commands that read memories: search, context, list, show, history, stats."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from remem.cli.common import (
    by_id,
    current_memory,
    emit,
    entries_json,
    hit_dict,
    json_option,
    short,
    table,
    tell,
)
from remem.entry import SCOPES, TYPES

LIST_LIMIT = 50


@click.command()
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
    hits = current_memory().search(
        " ".join(query), limit=limit, types=types or None, include_history=history
    )

    def human() -> None:
        if not hits:
            click.echo("No memories match.")
        for hit in hits:
            stale = "  possibly stale" if hit.stale else ""
            click.echo(f"{hit.score:.3f}  {short(hit.entry)}{stale}")

    emit(as_json, [hit_dict(h) for h in hits], human)


@click.command()
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
    block = current_memory().context_for(" ".join(query), max_tokens=max_tokens, window=window)
    emit(as_json, {"context": block}, lambda: click.echo(block) if block else None)


@click.command("list")
@click.option(
    "--limit", "-n", type=click.IntRange(min=1), default=LIST_LIMIT, show_default=True,
    help="At most N memories.",
)  # fmt: skip
@click.option("--all", "everything", is_flag=True, help="Every memory, no limit.")
@click.option("--scope", type=click.Choice(SCOPES))
@click.option("--type", "type_", type=click.Choice(TYPES))
@click.option("--history", is_flag=True, help="Include replaced versions.")
@json_option
def list_(
    limit: int,
    everything: bool,
    scope: str | None,
    type_: str | None,
    history: bool,
    as_json: bool,
) -> None:
    """List memories visible here, newest first (the latest 50 unless --limit or --all).

    \b
    Example:
      remem list --scope global --limit 20
      remem list --all --json
    """
    mem = current_memory()
    kwargs = {"scope": scope, "type": type_, "include_history": history}
    entries = mem.list(limit=None if everything else limit + 1, **kwargs)  # type: ignore[arg-type]
    more = 0
    if not everything and len(entries) > limit:
        more = len(mem.list(**kwargs)) - limit  # type: ignore[arg-type]
        entries = entries[:limit]

    def human() -> None:
        if not entries:
            click.echo("No memories here.")
        for entry in entries:
            click.echo(short(entry))

    emit(as_json, entries_json(entries), human)
    if more:  # on stderr, so --json output stays one list
        tell(f"... {more} more (showing the latest {limit}; --limit N or --all for more)")


@by_id
def show(entry_id: str, as_json: bool) -> None:
    """Show every field of one memory (ID or a unique prefix of at least 4 characters).

    \b
    Example:
      remem show 3f2a9c1b
    """
    entry = current_memory().get(entry_id)
    data = entry.to_dict()

    def human() -> None:
        for key, value in data.items():
            if value not in (None, {}, []):
                click.echo(f"{key:>17}: {value}")

    emit(as_json, data, human)


@by_id
def history(entry_id: str, as_json: bool) -> None:
    """Show every version of a memory and its audit log.

    \b
    Example:
      remem history 3f2a9c1b
    """
    hist = current_memory().history(entry_id)
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


@click.command()
@json_option
def stats(as_json: bool) -> None:
    """Show counts, size and staleness of the store.

    \b
    Example:
      remem stats --json
    """
    st = current_memory().stats()

    def human() -> None:
        click.echo(f"store:   {st.path} ({st.bytes:,} bytes)")
        click.echo(f"project: {st.project}")
        click.echo()
        rows = [
            ["current", st.entries], ["older versions", st.history],
            ["visible here", st.visible], ["possibly stale", st.stale],
            ["audit records", st.audit_records],
        ]  # fmt: skip
        click.echo(table(["memories", "count"], rows))
        click.echo()
        click.echo(table(["type", "count"], [list(kv) for kv in sorted(st.by_type.items())]))
        click.echo()
        click.echo(table(["scope", "count"], [list(kv) for kv in sorted(st.by_scope.items())]))

    emit(as_json, asdict(st), human)
