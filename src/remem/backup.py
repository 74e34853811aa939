"""`Backup`, the part of the `Memory` facade that copies memories out and in: `export`
writes them (with history and audit) as JSON, `import_` reads such a file back into
this Memory's partition, checked like saves. The format itself is `remem.exchange`. A
mixin: `Memory` supplies the store, the partition and the checks a save makes."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from remem.store.protocol import Filter, Store, Visibility

if TYPE_CHECKING:
    from remem.exchange import ImportResult
    from remem.partition import Partition
    from remem.truth.decide import Reader
    from remem.truth.dedup import SimilarityCheck


class Backup:
    if TYPE_CHECKING:  # what `Memory` gives it
        store: Store
        subjects: Reader

        @property
        def project(self) -> str: ...

        @property
        def partition(self) -> Partition: ...

        @property
        def semantic(self) -> SimilarityCheck | None: ...

        def _visibility(self) -> Visibility: ...

        def _filter(self, **kwargs: Any) -> Filter: ...

        def check_content(self, content: object) -> str: ...

    def export(
        self,
        path: str | os.PathLike[str] | IO[str],
        *,
        everything: bool = False,
        all_users: bool = False,
    ) -> int:
        """Write visible memories (with history and audit) as JSON to a file or an open
        text stream; `everything` writes every project's and session's of this Memory's
        partition (its user and agent, or those filed under none) and the shared ones;
        `all_users` (an administrator's backup) every entry of the store. Returns the
        number written."""
        from remem import exchange

        whole = everything or all_users
        visible = None if whole else self._filter(include_history=True, include_expired=True)
        target = Path(path) if isinstance(path, str | os.PathLike) else path
        return exchange.export_entries(
            self.store,
            target,
            visible=visible,
            project=self.project,
            select=None if all_users else self.partition.reaches,
        )

    def import_(
        self,
        path: str | os.PathLike[str],
        *,
        force: bool = False,
        keep_partitions: bool = False,
        all_users: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> ImportResult:
        """Import an export: every entry filed under this Memory's user, agent, project
        and session; `keep_partitions` keeps each entry's project and session from the
        file, and its user and agent too only with `all_users` (an administrator's
        restore). Duplicates skipped, conflicts reported and secret-looking text refused
        unless `force`; all or nothing when the file is invalid; `progress(n)`: n more
        done."""
        from remem import exchange

        target = exchange.Target(
            self.store, self._visibility(), self.check_content, self.semantic, self.subjects
        )
        return exchange.import_entries(
            target,
            Path(path),
            force=force,
            keep_partitions=keep_partitions,
            all_users=all_users,
            progress=progress,
        )
