"""What every `remem` command shares: error mapping, --json, output."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from remem.errors import InvalidInput, RememError

F = TypeVar("F", bound=Callable[..., Any])


class RememGroup(click.Group):
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
