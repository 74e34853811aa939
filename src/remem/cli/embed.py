"""`remem reindex`: embed every memory with the configured model (SPEC RT3)."""

from __future__ import annotations

import click

from remem.cli.common import emit, json_option

__all__ = ["reindex"]


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
        emit(as_json, {"model": None, "embedded": 0}, lambda: click.echo(
            "No embedder configured (REMEM_EMBEDDER=none or the model is not installed): "
            "search is keyword only."
        ))  # fmt: skip
        return
    name = mem.vectors.embedder.name
    total = mem.store.counts()
    todo = int(total["entries"]) + int(total["history"])
    if as_json:
        done = mem.reindex()
    else:
        with click.progressbar(length=todo, label=f"embedding with {name}", file=None) as bar:
            done = mem.reindex(bar.update)
    emit(as_json, {"model": name, "embedded": done},
         lambda: click.echo(f"{done} memories embedded with {name}."))  # fmt: skip
