"""What every `remem` command shares: the context object holding settings and the store,
error mapping, --json, and how memories are printed."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from remem.entry import Entry
from remem.errors import InvalidInput, RememError
from remem.memory import Memory, SaveResult
from remem.retrieval.ranking import Hit
from remem.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])


class RememGroup(click.Group):
    """A group whose commands may live in other modules, imported only when used
    (`lazy={"name": "module:attr"}`), and whose errors become one clean line."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attr = self.lazy[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(module), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InvalidInput as exc:
            raise click.UsageError(str(exc)) from exc
        except RememError as exc:
            raise click.ClickException(str(exc)) from exc


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def by_id(fn: F) -> click.Command:
    """A command about one memory: its ID (or a unique prefix of 4+ characters), --json."""
    return click.command()(click.argument("entry_id", metavar="ID")(json_option(fn)))


def emit(as_json: bool, data: Any, human: Callable[[], None]) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        human()


def tell(message: str) -> None:
    click.echo(message, err=True)


class Ctx:
    """What the group hands to every command: settings now, the store on first use."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._memory: Memory | None = None

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            self._memory = Memory(settings=self.settings, notify=tell)
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


def current_memory() -> Memory:
    state: Ctx = click.get_current_context().find_object(Ctx)  # type: ignore[assignment]
    return state.memory


def read_content(words: Sequence[str]) -> str:
    value = " ".join(words)
    if value == "-":
        value = sys.stdin.read()
    return value


def print_conflict(result: SaveResult) -> None:
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
