"""What stays true: duplicates, conflicts and versions of memories (`dedup`), and the
semantic check over an index of vectors (`semantic`). The words its rules are made of
are one table, `words.tsv` (phrase, language, role, attribute), read by `table`.
Imports remem's core and `remem.store`; retrieval and the facade build on it."""
