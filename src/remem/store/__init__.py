"""Persistence: the `Store` protocol (`protocol`) with the search candidates it returns
(`candidates`), `open_store` (`backends`), re-indexing under newer rules (`upgrade`),
the SQL core both SQL backends share (`sql`, with its row mapping and dialects in
`rows`, its tables in `tables` and its mixins `index_tables`, `near`, `vector_table`,
`api_tokens`), in-process copies of its keyword postings and of a save's candidate
lookup for long-lived processes (`inproc`), the backends (`sqlite`, `postgres`) and
`migrate` (copying a store). Imports only remem's core (`remem.entry`, `remem.errors`,
`remem.settings`, `remem.text`, `remem.glossary`). The names exported here are what
most code above needs; code that builds on one part imports that submodule directly."""

from remem.store.backends import describe, open_store
from remem.store.candidates import Candidate
from remem.store.protocol import (
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
