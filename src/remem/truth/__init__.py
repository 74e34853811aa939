"""What stays true: duplicates, conflicts and versions of memories (`dedup`), and the
semantic check over an index of vectors (`semantic`). Imports remem's core and
`remem.store`; retrieval and the facade build on it."""
