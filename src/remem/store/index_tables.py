"""The tables an entry's index fields are kept in beside its row, written once for both
SQL backends: document frequencies (`term_df`), named values (`entry_keys`) and subject
words (`subject_terms`), each written a batch at a time (`_batch`). A mixin of
`SQLStore`, kept apart so that the shared core stays within its size budget; it uses
only the core's `:name` statements and the backend's `Dialect`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from remem.store.protocol import IndexFields
from remem.store.rows import CHUNK, Dialect


class IndexTables:
    """The term counts, named values and subject words of entries, in SQL."""

    dialect: Dialect

    if TYPE_CHECKING:  # supplied by SQLStore

        def _run(self, sql: str, params: dict[str, Any] | None = None) -> None: ...
        def _run_many(self, sql: str, rows: Sequence[Any]) -> None: ...

    def _batch(
        self, template: str, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Run `template` for every row at once: its `{rows}` is a table `r` with the
        named, typed `columns`. Where the driver binds arrays that is one statement over
        `unnest(...)` (a restore of 1,000 entries costs a handful of statements, not
        thousands); elsewhere the statement runs once per row."""
        if not rows:
            return
        names = ", ".join(name for name, _ in columns)
        if self.dialect.lists:
            arrays = ", ".join(f":c{i}::{kind}[]" for i, (_, kind) in enumerate(columns))
            source = f"unnest({arrays}) AS r({names})"
            values = {f"c{i}": list(col) for i, col in enumerate(zip(*rows, strict=True))}
            self._run(template.format(rows=source), values)
            return
        marks = ", ".join(f":c{i} AS {name}" for i, (name, _) in enumerate(columns))
        self._run_many(
            template.format(rows=f"(SELECT {marks}) AS r"),
            [{f"c{i}": v for i, v in enumerate(row)} for row in rows],
        )

    def _count_terms(self, term_lists: Iterable[Sequence[str]], step: int) -> None:
        counts = Counter(t for terms in term_lists for t in set(terms))
        rows = [(t, counts[t]) for t in sorted(counts)]  # one lock order for every writer
        columns = (("term", "text"), ("n", "int"))
        if step > 0:
            # "WHERE TRUE": SQLite would read ON CONFLICT as the join's ON otherwise.
            self._batch(
                "INSERT INTO term_df(term, df) SELECT term, n FROM {rows} WHERE TRUE "
                "ON CONFLICT (term) DO UPDATE SET df = term_df.df + excluded.df",
                columns,
                rows,
            )
            return
        self._batch(
            "UPDATE term_df SET df = df - r.n FROM {rows} WHERE term_df.term = r.term",
            columns,
            rows,
        )
        # only these terms: "WHERE df <= 0" alone would scan the whole table each time
        self._batch(
            "DELETE FROM term_df WHERE df <= 0 AND term IN (SELECT term FROM {rows})",
            columns[:1],
            [row[:1] for row in rows],
        )

    def _write_keys(self, batch: Sequence[tuple[str, IndexFields]], *, new: bool = False) -> None:
        """Each entry's named values; `new` rows have none to replace (a deleted row's
        went with it: ON DELETE CASCADE)."""
        d = self.dialect
        self._batch(
            f"DELETE FROM entry_keys WHERE {d.ref} IN (SELECT e.{d.pos} FROM {{rows}} "
            "JOIN entries e ON e.id = r.id)",
            (("id", "text"),),
            [(eid,) for eid, _ in batch] if not new else [],
        )
        self._batch(
            f"INSERT INTO entry_keys({d.ref}, key, value) SELECT e.{d.pos}, r.key, r.value "
            "FROM {rows} JOIN entries e ON e.id = r.id",
            (("id", "text"), ("key", "text"), ("value", "text")),
            [(eid, k, v) for eid, index in batch for k, v in index.keys.items()],
        )

    def _write_subjects(self, batch: Sequence[tuple[str, str]], *, new: bool = False) -> None:
        """Each entry's subject words (entry id, subject key), for broader-subject lookups;
        `new` rows have none to replace."""
        d = self.dialect
        for i in range(0, len(batch) if not new else 0, CHUNK):
            params: dict[str, Any] = {}
            ids = d.any("id", "ids", [eid for eid, _ in batch[i : i + CHUNK]], params)
            self._run(
                f"DELETE FROM subject_terms WHERE {d.ref} IN (SELECT {d.pos} FROM entries "
                f"WHERE {ids})",
                params,
            )
        self._run_many(
            f"INSERT INTO subject_terms({d.ref}, term) "
            f"SELECT {d.pos}, :term FROM entries WHERE id = :id",
            [{"id": eid, "term": t} for eid, key in batch for t in sorted(set(key.split()))],
        )
