"""`remem reindex` (embed every memory with the configured model) and `remem warm`
(the warm vector service)."""

from __future__ import annotations

import click

from remem.cli.common import emit, json_option

__all__ = ["reindex", "warm"]


@click.command()
@json_option
def reindex(as_json: bool) -> None:
    """Embed every memory that has no vector of the current embedding model
    (REMEM_EMBEDDER: use, e5, openai or none). After a model switch this rebuilds
    every vector; vectors of different models are never mixed.

    \b
    Example:
      remem reindex
      REMEM_EMBEDDER=e5 remem reindex
    """
    from remem.cli.common import Ctx

    state = click.get_current_context().find_object(Ctx)
    if state is None:
        raise click.UsageError("run this as `remem reindex`")
    mem = state.memory
    if mem.vectors is None:
        emit(
            as_json,
            {"model": None, "embedded": 0},
            lambda: click.echo(
                "No embedder configured (REMEM_EMBEDDER=none or the model is not installed): "
                "search is keyword only."
            ),
        )
        return
    name = mem.vectors.embedder.name
    total = mem.store.counts()
    todo = int(total["entries"]) + int(total["history"])
    if as_json:
        done = mem.reindex()
    else:
        with click.progressbar(length=todo, label=f"embedding with {name}", file=None) as bar:
            done = mem.reindex(bar.update)
    emit(
        as_json,
        {"model": name, "embedded": done},
        lambda: click.echo(f"{done} memories embedded with {name}."),
    )


@click.command()
@click.argument("action", type=click.Choice(["status", "stop"]), default="status")
@json_option
def warm(action: str, as_json: bool) -> None:
    """Show or stop the warm vector service: the background process that keeps the
    local model and each store's vectors loaded for one-shot commands (it starts on
    first need and exits after REMEM_WARM_IDLE seconds, 600 by default, without a
    request; REMEM_WARM=0 keeps commands from using it).

    \b
    Example:
      remem warm
      remem warm stop --json
    """
    from remem.cli.common import Ctx
    from remem.retrieval.warm import WarmClient

    state = click.get_current_context().find_object(Ctx)
    if state is None:
        raise click.UsageError("run this as `remem warm`")
    client = WarmClient(state.settings.home)
    if action == "stop":
        stopped = client.stop()
        emit(
            as_json,
            {"stopped": stopped},
            lambda: click.echo(
                "Stopped the warm vector service." if stopped else "It was not running."
            ),
        )
        return
    status = client.status()
    data = {"running": status is not None, "socket": str(client.path), **(status or {})}
    data.pop("ok", None)

    def human() -> None:
        if status is None:
            click.echo("The warm vector service is not running (it starts on first need).")
        else:
            click.echo(
                f"running, pid {status['pid']}: {status['requests']} requests, "
                f"{status['loads']} model loads, {status.get('hooks', 0)} hooks answered, "
                f"{status.get('commands', 0)} commands run ({client.path})"
            )

    emit(as_json, data, human)
