"""Commands that read memories: search, context, list, show, history, stats."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from typing import Any

import click

from remem.cli.common import (
    by_id,
    current_memory,
    emit,
    entries_json,
    json_option,
    short,
    table,
    tell,
)
from remem.entry import SCOPES, TYPES, Entry, parse_scope, parse_type, to_utc
from remem.errors import InvalidInput


def _moment(_ctx: click.Context, _param: click.Parameter, value: str | None) -> datetime | None:
    """--as-of: a date ("2026-06-01", the start of that day, UTC) or an ISO timestamp."""
    if value is None:
        return None
    try:
        return to_utc(value)
    except InvalidInput as exc:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD) or ISO time") from exc


def as_of_option(fn: Any) -> Any:
    return click.option(
        "--as-of",
        "as_of",
        metavar="DATE",
        callback=_moment,
        help="What was true then (replaced versions valid at DATE), not what is true now.",
    )(fn)


LIST_LIMIT = 50
COUNTED = 10_000  # the others `list` counts at most past those it shows


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--type", "types", multiple=True, type=click.Choice(TYPES), help="Only these types.")
@click.option("--history", is_flag=True, help="Include replaced versions.")
@as_of_option
@json_option
def search(
    query: tuple[str, ...],
    limit: int,
    types: tuple[str, ...],
    history: bool,
    as_of: datetime | None,
    as_json: bool,
) -> None:
    """Search memories, best first: what is true now, or with --as-of what was then.

    \b
    Example:
      remem search "创建 Java 项目用什么 JDK"
      remem search --limit 3 --json "deployment steps"
      remem search --as-of 2026-06-01 "测试数据库"
    """
    hits = current_memory().search(
        " ".join(query), limit=limit, types=types or None, include_history=history, as_of=as_of
    )

    def human() -> None:
        if not hits:
            click.echo("No memories match.")
        for hit in hits:
            stale = "  possibly stale" if hit.stale else ""
            click.echo(f"{hit.score:.3f}  {short(hit.entry)}{stale}")

    emit(as_json, [h.to_dict() for h in hits], human)


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--max-tokens", type=click.IntRange(min=1), help="Token budget of the block.")
@click.option("--window", type=click.IntRange(min=1), help="Model context window (sets budget).")
@as_of_option
@json_option
def context(
    query: tuple[str, ...],
    max_tokens: int | None,
    window: int | None,
    as_of: datetime | None,
    as_json: bool,
) -> None:
    """Print the memory block an agent would inject for QUERY (empty if none is relevant).

    \b
    Example:
      remem context "帮我再创建一个 Java 项目"
    """
    block = current_memory().context_for(
        " ".join(query), max_tokens=max_tokens, window=window, as_of=as_of
    )
    emit(as_json, {"context": block}, lambda: click.echo(block) if block else None)


@click.command("list")
@click.option(
    "--limit",
    "-n",
    type=click.IntRange(min=1),
    default=LIST_LIMIT,
    show_default=True,
    help="At most N memories.",
)
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
    where = parse_scope(scope) if scope else None
    kind = parse_type(type_) if type_ else None

    def listed(most: int | None) -> list[Entry]:
        return mem.list(limit=most, scope=where, type=kind, include_history=history)

    entries = listed(None if everything else limit + 1)
    more = 0
    if not everything and len(entries) > limit:
        # counted up to a bound: the exact count of a large store reads every row (0.4 s
        # at 750k); `remem stats` gives it
        total = mem.count(scope=where, type=kind, include_history=history, at_most=limit + COUNTED)
        more = total - limit
        entries = entries[:limit]

    def human() -> None:
        if not entries:
            click.echo("No memories here.")
        for entry in entries:
            click.echo(short(entry))

    emit(as_json, entries_json(entries), human)
    if more:  # on stderr, so --json output stays one list
        many = f"{more:,}" if more < COUNTED else f"{COUNTED:,} or"
        tell(f"... {many} more (showing the latest {limit}; --limit N or --all for more)")


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


def validity(entry: Entry) -> str:
    """ "2026-01-01 -> 2026-03-01", or "2026-03-01 -> now" for the current version."""

    def when(at: datetime) -> str:
        return at.strftime("%Y-%m-%d" if (at.hour, at.minute) == (0, 0) else "%Y-%m-%d %H:%M")

    start = when(entry.valid_from or entry.created_at)
    return f"{start} -> {when(entry.valid_to) if entry.valid_to else 'now'}"


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
        click.echo("Versions (oldest first), each with when it was true:")
        for entry in hist.versions:
            click.echo(f"  {validity(entry)}  {short(entry)}")
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
            ["current", st.entries],
            ["older versions", st.history],
            ["visible here", st.visible],
            ["possibly stale", st.stale],
            ["audit records", st.audit_records],
        ]
        click.echo(table(["memories", "count"], rows))
        click.echo()
        click.echo(table(["type", "count"], [list(kv) for kv in sorted(st.by_type.items())]))
        click.echo()
        click.echo(table(["scope", "count"], [list(kv) for kv in sorted(st.by_scope.items())]))

    emit(as_json, asdict(st), human)
