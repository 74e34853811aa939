"""`remem review`: the memories saved automatically (by the agents' hooks or `remem
extract`) wait here, unverified, until the user accepts, edits or rejects them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from remem.cli.common import current_memory, emit, json_option, short
from remem.entry import Entry
from remem.hooks.review import accept, edit, pending, reject
from remem.memory import Memory


def _interactive(memory: Memory, entries: Sequence[Entry]) -> list[dict[str, Any]]:
    done: list[dict[str, Any]] = []
    for n, entry in enumerate(entries, 1):
        click.echo(f"[{n}/{len(entries)}] {short(entry)}")
        choice = click.prompt(
            "  (a)ccept, (e)dit, (r)eject, (s)kip, (q)uit",
            type=click.Choice(["a", "e", "r", "s", "q"]),
            show_choices=False,
            default="s",
        )
        if choice == "q":
            break
        if choice == "a":
            done.append({"action": "accepted", "entry": accept(memory, entry.id).to_dict()})
        elif choice == "r":
            done.append({"action": "rejected", "entry": reject(memory, entry.id).to_dict()})
        elif choice == "e":
            text = click.prompt("  new text", default=entry.content)
            done.append({"action": "edited", "entry": edit(memory, entry.id, text).to_dict()})
    return done


@click.command()
@click.option("--accept", "accepts", multiple=True, metavar="ID", help="Keep it as it is.")
@click.option("--reject", "rejects", multiple=True, metavar="ID", help="Delete it.")
@click.option(
    "--edit", "edits", multiple=True, nargs=2, metavar="ID TEXT", help="Keep it in these words."
)
@json_option
def review(
    accepts: tuple[str, ...],
    rejects: tuple[str, ...],
    edits: tuple[tuple[str, str], ...],
    as_json: bool,
) -> None:
    """Accept, edit or reject the memories saved automatically (unverified).

    Without options: on a terminal, one memory at a time; otherwise the list.
    Accepted and edited memories become confirmed; rejected ones are deleted.

    \b
    Example:
      remem review
      remem review --json
      remem review --accept 3f2a9c1b --reject 9d01e2aa
      remem review --edit 3f2a9c1b "we deploy with scripts/deploy.sh"
    """
    asks = not as_json and sys.stdin.isatty() and sys.stdout.isatty()  # may accept one
    memory = current_memory(reads_only=not (accepts or rejects or edits or asks))
    if accepts or rejects or edits:
        done = [{"action": "accepted", "entry": accept(memory, i).to_dict()} for i in accepts]
        done += [{"action": "edited", "entry": edit(memory, i, t).to_dict()} for i, t in edits]
        done += [{"action": "rejected", "entry": reject(memory, i).to_dict()} for i in rejects]
        emit(as_json, {"done": done, "pending": len(pending(memory))}, lambda: _report(done))
        return
    waiting = pending(memory)
    if asks and waiting:
        _report(_interactive(memory, waiting))
        return
    data = {"pending": [e.to_dict() for e in waiting]}
    emit(as_json, data, lambda: _list(waiting))


def _list(entries: Sequence[Entry]) -> None:
    if not entries:
        click.echo("Nothing to review.")
        return
    for entry in entries:
        click.echo(short(entry))
    click.echo(f"{len(entries)} to review: remem review --accept ID / --edit ID TEXT / --reject ID")


def _report(done: Sequence[dict[str, Any]]) -> None:
    for item in done:
        entry = item["entry"]
        click.echo(f"{item['action'].capitalize()}: {entry['id']}  {entry['content']}")
