"""The `remem` command: the group and the memory commands (`app`), those that write
(`remember`), read (`recall`) and move memories as JSON (`exchange`), and one module
per command group (`chat`, `context`, `conversation`, `embed`, `extract`, `mcp`,
`migrate`, `serve`) over helpers in `common`. A thin layer: parse, call the library,
render."""

from remem.cli.app import cli, main

__all__ = ["cli", "main"]
