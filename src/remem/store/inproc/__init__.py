"""In-process copies of what the SQL store answers, for a long-lived process.

Why they exist: the SQL path (`remem.store.sql` and its mixin `remem.store.near`)
answers every question from the database, which is what a cold process needs (a
one-shot `remem search` or `remem save` reads a few rows and exits). A process that
lives long (`remem serve`, the MCP server, an agent) asks the same kinds of questions
thousands of times; at 100k entries SQL spends ~15 ms per keyword search scoring
common terms and ~2 ms per save finding its candidates. Such a process keeps copies in
memory and answers those lookups without SQL:

- `postings`: the keyword postings, scored by the same BM25 as FTS5 and PostgreSQL
  (`KeywordIndex`, built by `SQLStore.keyword` from a process's second search on a
  store of 5,000 entries or more);
- `near_index`: what a save's candidate lookup compares (`NearIndex`, for
  `NearRows.same_domain` once a process has saved a few times into 5,000 entries or more);
- `near_read`: how `near_index` reads the store (built a step at a time, refreshed).

How they stay equal to SQL: the store stays the source of truth. Before each lookup a
copy is brought up to date from the store's generation (rows past the last position
read, rows named by new audit records or written by this process, a rebuild when the
counts or the index version disagree), and a copy is never read while this process has
uncommitted writes of its own: SQL answers then. The copies choose which rows to read;
the rows come from SQL (the candidate lookup keeps its last 4,096 candidate rows, read
again once the store says they changed). tests/test_postings.py and
tests/test_near_index.py check that both give exactly the SQL path's answers, in the
same order, on SQLite and PostgreSQL, after saves, edits, deletes, rolled back writes
and writes by other store objects and processes (random writes included), and run the
store's keyword and candidate contracts against the kept copies. Imports only
`remem.store.protocol` and `remem.store.rows` (never the SQL core that uses them)."""
