"""Persistence: the `Store` protocol (`protocol`), `open_store` (`backends`), the SQL
core both SQL backends share (`sql`), the SQLite and PostgreSQL backends with their
schemas and migrations, and `migrate` (copying a store). Imports only remem's core
(`entry`, `errors`, `settings`, `text`, `glossary`); nothing above imports it but
through these names."""

from remem.store.backends import describe, open_store
from remem.store.protocol import (
    Candidate,
    CorpusStats,
    Domain,
    Filter,
    IndexFields,
    Near,
    Store,
    Visibility,
)

__all__ = [
    "Candidate",
    "CorpusStats",
    "Domain",
    "Filter",
    "IndexFields",
    "Near",
    "Store",
    "Visibility",
    "describe",
    "open_store",
]
