"""`remem mcp`: serve the memory tools over MCP (stdio, or streamable HTTP)."""

from __future__ import annotations

import click

from remem.cli.common import emit, json_option
from remem.store.backends import describe


def _host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(f"expected HOST:PORT, got {value!r}", param_hint="--http")
    return host.strip("[]") or "127.0.0.1", int(port)


@click.command()
@click.option(
    "--http",
    "http",
    metavar="HOST:PORT",
    help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.",
)
@click.option(
    "--allow-verify",
    is_flag=True,
    help="Also offer verify_memory (only if you trust the agent to verify for you).",
)
@json_option
@click.pass_context
def mcp(ctx: click.Context, http: str | None, allow_verify: bool, as_json: bool) -> None:
    """Run an MCP server exposing the memory tools to other agents.

    Stdio by default (the client starts `remem mcp` itself); with --http, streamable
    HTTP. Project scope comes from --project, else the project root of the folder the
    server starts in. With --json, print the tools and settings and exit.

    \b
    Example:
      claude mcp add remem -- remem mcp
      remem --project myapp mcp --http 127.0.0.1:8765
      remem mcp --json
    """
    from remem.servers.mcp import build_server, tool_names

    settings = ctx.find_root().obj.settings
    address = _host_port(http) if http else None
    if as_json:
        data = {
            "transport": "streamable-http" if address else "stdio",
            "url": f"http://{address[0]}:{address[1]}/mcp" if address else None,
            "db": describe(settings.db),
            "project": settings.project,
            "tools": tool_names(allow_verify),
        }
        emit(True, data, lambda: None)
        return
    if address is not None:
        server = build_server(settings, allow_verify=allow_verify)
        server.run("streamable-http", host=address[0], port=address[1])
        return
    from remem.memory import Memory
    from remem.servers.mcp import MemoryTools, tool_server
    from remem.servers.mcp_start import answered_early

    tools = MemoryTools(Memory(settings=settings))  # a store that cannot open fails first
    with answered_early(f"allow_verify={allow_verify}"):  # then the SDK loads (~1 s)
        tool_server(lambda ctx: tools, allow_verify=allow_verify).run("stdio")
