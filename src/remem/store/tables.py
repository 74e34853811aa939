"""The tables both SQL backends create, written once and spelled in each dialect's
types (`SQLITE_TYPES`, `POSTGRES_TYPES`). These are schema 1 as it was released:
never edit them — a change to a table is a new migration in each backend's schema."""

from __future__ import annotations

from collections.abc import Mapping

SQLITE_TYPES = {
    "key": "rowid INTEGER PRIMARY KEY",
    "pos": "rowid",
    "ref": "entry_rowid",
    "ref_type": "INTEGER",
    "id": "TEXT",
    "time": "TEXT",
    "real": "REAL",
    "terms": "TEXT",
    "seq": "INTEGER PRIMARY KEY AUTOINCREMENT",
    "vec": "BLOB",
}
POSTGRES_TYPES = {
    "key": "pos BIGSERIAL PRIMARY KEY",
    "pos": "pos",
    "ref": "entry_pos",
    "ref_type": "BIGINT",
    "id": 'TEXT COLLATE "C"',
    "time": "TIMESTAMPTZ",
    "real": "DOUBLE PRECISION",
    "terms": "TEXT[]",
    "seq": "BIGSERIAL PRIMARY KEY",
    "vec": "vector",
}

_ENTRIES_V1 = """
CREATE TABLE entries (
    {key},
    id {id} NOT NULL UNIQUE,
    content TEXT NOT NULL,
    type TEXT NOT NULL,
    scope TEXT NOT NULL,
    project TEXT,
    session_id TEXT,
    user_id TEXT,
    agent_id TEXT,
    created_at {time} NOT NULL,
    updated_at {time} NOT NULL,
    last_verified_at {time} NOT NULL,
    token_count INTEGER NOT NULL,
    source TEXT NOT NULL,
    confidence TEXT NOT NULL,
    metadata TEXT NOT NULL,
    entity TEXT,
    facts TEXT NOT NULL,
    linked_paths TEXT NOT NULL,
    expires_at {time},
    importance {real},
    superseded_by TEXT,
    supersedes TEXT,
    canon TEXT NOT NULL,
    skeleton TEXT NOT NULL,
    terms {terms} NOT NULL,
    term_count INTEGER NOT NULL
);
CREATE INDEX entries_canon ON entries(canon);
CREATE INDEX entries_skeleton ON entries(skeleton) WHERE skeleton != '';
CREATE INDEX entries_superseded_by ON entries(superseded_by);
CREATE INDEX entries_visible ON entries(scope, project, created_at);
CREATE INDEX entries_created ON entries(created_at);

-- named values ("jdk" -> "17") of each entry, for conflict candidates
CREATE TABLE entry_keys (
    {ref} {ref_type} NOT NULL REFERENCES entries({pos}) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL
);
CREATE INDEX entry_keys_key ON entry_keys(key);
CREATE INDEX entry_keys_entry ON entry_keys({ref});

CREATE TABLE audit (
    seq {seq},
    entry_id TEXT NOT NULL,
    action TEXT NOT NULL,
    at {time} NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX audit_entry ON audit(entry_id, seq);
"""


# Embeddings: one vector per entry, tagged with its model and dimension so that
# spaces never mix (SQLite's migration 3, part of PostgreSQL's first).
_VECTORS = """
CREATE TABLE vectors (
    {ref} {ref_type} PRIMARY KEY REFERENCES entries({pos}) ON DELETE CASCADE,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vec {vec} NOT NULL
);
CREATE INDEX vectors_model ON vectors(model);
"""


def vectors(types: Mapping[str, str]) -> str:
    return _VECTORS.format(**types)


def entries_v1(types: Mapping[str, str]) -> str:
    """Schema 1's entries, named values and audit log in one dialect's types."""
    return _ENTRIES_V1.format(**types)


# API tokens of `remem serve` (SQLite's migration 6, PostgreSQL's 4): only a digest of
# each token is kept; `read_only` is 0 or 1 in both dialects so that one SQL serves both.
_API_TOKENS = """
CREATE TABLE api_tokens (
    id {id} PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    agent_id TEXT,
    read_only INTEGER NOT NULL,
    name TEXT NOT NULL,
    created_at {time} NOT NULL,
    last_used_at {time},
    revoked_at {time}
);
"""


def api_tokens(types: Mapping[str, str]) -> str:
    return _API_TOKENS.format(**types)


# Subjects and validity (remem.truth; SQLite's migration 7, PostgreSQL's 5): what each
# entry is about and when it held. Existing versions held from their creation until
# their successor's; subject keys stay NULL until remem.truth computes them.
_TRUTH = """
ALTER TABLE entries ADD COLUMN subject TEXT;
ALTER TABLE entries ADD COLUMN value TEXT;
ALTER TABLE entries ADD COLUMN subject_key TEXT;
ALTER TABLE entries ADD COLUMN valid_from {time};
ALTER TABLE entries ADD COLUMN valid_to {time};
UPDATE entries SET valid_from = created_at;
UPDATE entries SET valid_to = (
    SELECT CASE WHEN n.created_at > entries.created_at THEN n.created_at
                ELSE entries.created_at END
    FROM entries n WHERE n.id = entries.superseded_by
) WHERE superseded_by IS NOT NULL;
CREATE INDEX entries_subject ON entries(subject_key) WHERE subject_key != '';
CREATE INDEX entries_unkeyed ON entries(id) WHERE subject_key IS NULL;
CREATE TABLE subject_terms (
    {ref} {ref_type} NOT NULL REFERENCES entries({pos}) ON DELETE CASCADE,
    term TEXT NOT NULL
);
CREATE INDEX subject_terms_term ON subject_terms(term);
CREATE INDEX subject_terms_entry ON subject_terms({ref});
"""


def truth(types: Mapping[str, str]) -> str:
    """The subject and validity columns, and the subject words of each entry."""
    return _TRUTH.format(**types)


# Lookups that stop early (SQLite's migration 8, PostgreSQL's 6): a save's candidates
# with a named value walk one key's entries in entry order and stop at the first few of
# the domain, and its narrower subjects start from the rarest word, instead of reading
# every entry that names "port" or every entry about a "service".
_EARLY = """
DROP INDEX entry_keys_key;
CREATE INDEX entry_keys_key ON entry_keys(key, {ref}, value);
DROP INDEX subject_terms_term;
CREATE INDEX subject_terms_term ON subject_terms(term, {ref});
"""


def early(types: Mapping[str, str]) -> str:
    """Indexes in entry order for a save's candidate lookups."""
    return _EARLY.format(**types)


# Value terms beside the subject key (SQLite's migration 9, PostgreSQL's 7): a save
# compares a new value with each candidate's, and folding a stored value again on every
# save it is a candidate of was a fifth of a save's CPU at 100k. Entries keyed before
# are keyed once more (subject key and value terms together) when the store opens.
_VALUE_KEYS = """
ALTER TABLE entries ADD COLUMN value_key TEXT;
UPDATE entries SET subject_key = NULL WHERE subject != '';
"""


def value_keys(types: Mapping[str, str]) -> str:
    """The value terms column; stored subjects are keyed again."""
    return _VALUE_KEYS.format(**types)
