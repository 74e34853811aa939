"""The vectors of entries in SQL, written once for both SQL backends (the `vectors`
table): which models have vectors, all of one model's, and the entries a model has not
embedded yet. A mixin of `SQLStore`, kept apart so that the shared core stays within
its size budget; each backend supplies `vector_rows` (and writes vectors its own way)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from remem.entry import Entry
from remem.store.rows import E_COLUMNS, N_COLUMNS, Dialect, row_to_entry


class VectorTable:
    """`Store.vector_models`, `vectors` and `unembedded` in SQL."""

    dialect: Dialect

    if TYPE_CHECKING:  # supplied by SQLStore

        def _rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]: ...

    def vector_models(self) -> list[tuple[str, int]]:
        rows = self._rows("SELECT DISTINCT model, dim FROM vectors ORDER BY 1")
        return [(m, d) for m, d in rows]

    def vectors(self, model: str) -> tuple[list[str], list[bytes]]:
        rows = self.vector_rows(model)
        return [r[1] for r in rows], [r[2] for r in rows]

    def vector_rows(
        self, model: str, *, after: int = 0, limit: int | None = None
    ) -> list[tuple[int, str, bytes]]:
        raise NotImplementedError

    def unembedded(self, model: str, *, limit: int, after: int = 0) -> list[tuple[int, Entry]]:
        d = self.dialect
        rows = self._rows(
            f"SELECT {E_COLUMNS}, e.{d.pos} FROM entries e LEFT JOIN vectors v "
            f"ON v.{d.ref} = e.{d.pos} AND v.model = :model "
            f"WHERE e.{d.pos} > :after AND v.{d.ref} IS NULL ORDER BY e.{d.pos} LIMIT :n",
            {"model": model, "after": after, "n": limit},
        )
        return [(int(r[N_COLUMNS]), row_to_entry(r)) for r in rows]
