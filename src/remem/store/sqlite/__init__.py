"""The embedded default store: one SQLite file (WAL, FTS5 over jieba-segmented terms).
`open` opens and migrates the file (`schema`), checking it where damage is likely
(`damage`, and `state`: what remem last left in it), or for a command that only reads
opens it as it is (`reading`: nothing, or an older remem's store upgraded in a copy in
memory); `store` is the `Store`, which
keeps only SQLite's dialect on top of `remem.store.sql`, and its vectors as int8 and a
scale (`codec`)."""
