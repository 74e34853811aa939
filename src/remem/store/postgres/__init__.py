"""The shared store for teams: PostgreSQL with pgvector. `conn` holds the pool and the
writers' lock, `schema` the migrations, `bm25` BM25 in SQL, and `store` the `Store`,
which keeps only PostgreSQL's dialect on top of `remem.store.sql`."""
