"""Automatic memory that cannot be poisoned: the extractor (`extractor`, `rules`,
`words`), subjects read by a model where the rules read none (`subjects`), a model's second
opinion on the changes the rules and the judge leave unsure (`referee`), structured
compression (`compression`, `compression_rules`), the guard on untrusted content
(`guard`, the shell commands that fetch it in `commands`, whether the user's own words
state a memory in `stated`) and the prompt-injection
pre-filter (`injection`); secrets are found by `remem.secrets`. Imports remem's core,
`remem.store`, `remem.truth` and `remem.llm`; it saves through a `Memory` it is given."""
