"""A capture's `Memory` in the warm service (`remem.hooks.served`): the store's write
lock taken when it opens and kept until it closes, so a capture's saves are one
transaction. The service waits for the lock no longer than its store's busy timeout;
a store busy longer raises StoreBusy before anything is saved, and the hook process
saves instead (waiting as long as a save does). No save is then half done, nor done
twice: the session's state is saved by the hook process only."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from remem.memory import Memory


class HeldMemory(Memory):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held: AbstractContextManager[None] | None = self.store.write()
        try:
            self._held.__enter__()
        except BaseException:
            self._held = None
            super().close()
            raise

    def __exit__(self, *exc: object) -> None:
        error = exc[1] if len(exc) > 1 and isinstance(exc[1], BaseException) else None
        self._release(error)
        super().__exit__(*exc)

    def close(self) -> None:
        self._release(None)
        super().close()

    def _release(self, error: BaseException | None) -> None:
        """Commit, or roll back on `error`."""
        held, self._held = self._held, None
        if held is None:
            return
        if error is None:
            held.__exit__(None, None, None)
        else:
            held.__exit__(type(error), error, error.__traceback__)
