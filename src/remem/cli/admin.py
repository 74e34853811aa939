"""Who may use `--all-users`, the administrator's flag of `export`, `import` and `migrate`
(issue 29): the one way across the user and agent partitions, decided here at the edge
(the library's `all_users=` parameters are the caller's to set).

The partitions keep users' memories apart for the tools that run as one of them; they
are no lock against whoever holds the store itself (its file, or a database's
credentials), who can read every row with `sqlite3` or `psql`. So the administrator of
a store file is the account that owns it, and of a PostgreSQL store whoever has its
credentials; and a caller that says who it is (`--user`, `--agent`) is never handed
everyone's memories, whatever else it asks for."""

from __future__ import annotations

import os
from pathlib import Path

import click

from remem.errors import InvalidInput, NotYours
from remem.settings import is_url

__all__ = ["check_all_users"]


def check_all_users(store: str | os.PathLike[str] | None = None) -> None:
    """Refuse `--all-users` of the running command (before anything is opened or
    written) beside a user or agent partition, and on a store file another account owns;
    `store`: the store it reads whole (default: the command's own)."""
    from remem.cli.common import Ctx

    state = click.get_current_context().find_object(Ctx)
    if state is None:  # only a command of the remem group has one
        raise RuntimeError("check_all_users() outside a remem command")
    settings = state.settings
    given = [
        f"--{flag} {value}"
        for flag, value in (("user", settings.user_id), ("agent", settings.agent_id))
        if value is not None
    ]
    if given:
        raise InvalidInput(
            "--all-users takes every user's and agent's memories: it is the administrator's "
            f"flag and cannot run as {' '.join(given)}; nothing was done"
        )
    _check_owner(settings.db if store is None else store)


def _check_owner(store: str | os.PathLike[str]) -> None:
    if isinstance(store, str) and is_url(store):
        return  # the database's credentials already reach every row: they are the admin's
    path = Path(store).expanduser()
    try:
        owner = path.stat().st_uid
    except (OSError, ValueError):
        return  # no store yet (this account creates it), or the open will say why
    me = os.geteuid() if hasattr(os, "geteuid") else None  # None: no owners to tell apart
    if me is not None and me not in (0, owner):
        raise NotYours(
            f"--all-users is for the administrator of the store {path}, the account that "
            f"owns it (uid {owner}), not this one (uid {me}); nothing was done"
        )
