"""What every `remem` command shares: error mapping, --json, output."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from remem.errors import InvalidInput, RememError

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


def emit(as_json: bool, data: Any, human: Callable[[], None]) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        human()
