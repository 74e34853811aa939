"""Which `Store` a location names: a file is the embedded SQLite store, a
`postgresql://` URL the shared PostgreSQL store. Only this module tells them apart."""

from __future__ import annotations

import os
from pathlib import Path

from remem.settings import is_url
from remem.store import Store


def open_store(location: str | os.PathLike[str], *, synchronous: str = "FULL") -> Store:
    """Open (creating and migrating if needed) the store at `location`.

    `synchronous` applies to SQLite only; PostgreSQL commits durably per its own
    settings."""
    if isinstance(location, str) and is_url(location):
        from remem.postgres_store import PostgresStore

        return PostgresStore(location)
    from remem.sqlite_store import SQLiteStore

    return SQLiteStore(Path(location), synchronous=synchronous)


def describe(location: str | os.PathLike[str]) -> str:
    """The location for messages, with any password in a URL masked."""
    if isinstance(location, str) and is_url(location):
        from urllib.parse import urlsplit

        parts = urlsplit(location)
        if parts.password:
            netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
            return parts._replace(netloc=netloc).geturl()
    return os.fspath(location)
