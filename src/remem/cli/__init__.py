"""The `remem` command: the group and the memory commands (`app`), and one module per
command group (`chat`, `context`, `embed`, `extract`, `mcp`, `migrate`) over helpers in
`common`. A thin layer: parse, call the library, render."""

from remem.cli.app import cli, main

__all__ = ["cli", "main"]
