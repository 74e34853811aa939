"""The `remem` command: the group and the memory commands (`app`), those that write
(`remember`), read (`recall`) and move memories as JSON (`exchange`), and one module
per command group (`chat`, `context`, `conversation`, `embed`, `extract`, `hooks`,
`mcp`, `migrate`, `review`, `serve`) over helpers in `common`, and who may use the
administrator's `--all-users` (`admin`). A thin layer: parse, call the library, render.

`main` sends an agent's hook call (`remem hook ...`) to `hook_entry` before anything
else is imported: a hook runs on every prompt, and click and the command group are
time it does not need. A one-shot command the running warm service can run whole
(a save, a search, a context block) goes to it the same way (`served`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remem.cli.app import cli

__all__ = ["cli", "main"]


def main(argv: Sequence[str] | None = None) -> None:
    args = list(argv) if argv is not None else sys.argv[1:]
    if args[:1] == ["hook"] and not {"-h", "--help"} & set(args):
        from remem.cli.hook_entry import hook_main

        hook_main(args[1:])
    from remem.cli.served import ask

    if (code := ask(args)) is not None:
        sys.exit(code)
    from remem.cli.app import main as run

    run(args)


def __getattr__(name: str) -> Any:
    if name == "cli":
        from remem.cli.app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
