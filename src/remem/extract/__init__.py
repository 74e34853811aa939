"""Automatic memory that cannot be poisoned: the extractor (`extractor`, `rules`,
`words`), structured compression (`compression`, `compression_rules`), the guard on
untrusted content (`guard`) and the secret detector (`secrets`). Imports remem's core,
`remem.store`, `remem.truth` and `remem.llm`; it saves through a `Memory` it is given."""
