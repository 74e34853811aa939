"""The `remem` command line: a thin layer over `remem.Memory`.

Every command takes --json; errors are one line on stderr with a non-zero exit
(1 for a refused operation or a conflict, 2 for bad usage or bad input).
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from remem.cli.common import READS_ONLY, Ctx, RememGroup
from remem.settings import Settings

COMMANDS = {
    "save": "remem.cli.remember:save",
    "add-messages": "remem.cli.conversation:add_messages",
    "edit": "remem.cli.remember:edit",
    "verify": "remem.cli.remember:verify",
    "delete": "remem.cli.remember:delete",
    "forget": "remem.cli.remember:forget",
    "clear": "remem.cli.remember:clear",
    "prune": "remem.cli.remember:prune",
    "search": "remem.cli.recall:search",
    "context": "remem.cli.recall:context",
    "list": "remem.cli.recall:list_",
    "show": "remem.cli.recall:show",
    "history": "remem.cli.recall:history",
    "stats": "remem.cli.recall:stats",
    "export": "remem.cli.exchange:export_",
    "import": "remem.cli.exchange:import_",
    "compact": "remem.cli.context:compact",
    "sessions": "remem.cli.context:sessions",
    "extract": "remem.cli.extract:extract",
    "bench": "remem.cli.extract:bench",
    "reindex": "remem.cli.embed:reindex",
    "warm": "remem.cli.embed:warm",
    "chat": "remem.cli.chat:chat",
    "mcp": "remem.cli.mcp:mcp",
    "serve": "remem.cli.serve:serve",
    "token": "remem.cli.serve:token",
    "migrate": "remem.cli.migrate:migrate_command",
    "hooks": "remem.cli.hooks:hooks",
    "hook": "remem.cli.hooks:hook",
    "review": "remem.cli.review:review",
}


@click.group(
    cls=RememGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    lazy=COMMANDS,
)
@click.option(
    "--db",
    metavar="PATH|URL",
    help="Store file, or postgresql://… for a shared server (default: $REMEM_DB, else "
    "$REMEM_HOME/memory.db).",
)
@click.option("--project", metavar="NAME|PATH", help="Project scope (default: the git root).")
@click.option("--user", "user_id", metavar="ID", help="Partition by user id.")
@click.option("--agent", "agent_id", metavar="ID", help="Partition by agent id.")
@click.version_option(package_name="remem")
@click.pass_context
def cli(
    ctx: click.Context,
    db: str | None,
    project: str | None,
    user_id: str | None,
    agent_id: str | None,
) -> None:
    """remem: local-first long-term memory for LLM agents.

    \b
    Example:
      remem save "项目使用 JDK 17 和 Maven"
      remem search "创建 Java 项目用什么 JDK"
    """
    settings = Settings.resolve(db=db, project=project, user_id=user_id, agent_id=agent_id)
    state = Ctx(settings, reads_only=ctx.invoked_subcommand in READS_ONLY)
    ctx.obj = state
    ctx.call_on_close(state.close)


def main(argv: Sequence[str] | None = None) -> None:
    cli.main(args=list(argv) if argv is not None else None, prog_name="remem")
