"""The errors remem raises; the CLI turns each into one line and a non-zero exit."""

from __future__ import annotations

import errno


class RememError(Exception):
    """Base class of every error remem raises on purpose."""


class InvalidInput(RememError, ValueError):
    """The caller gave something remem cannot store or parse."""


class SecretRefused(InvalidInput):
    """A save of text that looks like a secret, without force (SPEC SE3). `kinds` names
    what was found ("github_token", "phone_number" ...); the message never repeats it."""

    def __init__(
        self, message: str, *, kinds: tuple[str, ...] = (), reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.kinds = kinds
        self.reason = reason or message  # the message without how to override it

    def saying(self, how: str) -> SecretRefused:
        """The same refusal, telling how to save anyway in the caller's terms
        (`"add --force"` on the command line, `"/save --force"` in chat)."""
        return SecretRefused(f"{self.reason} ({how} to save it anyway)", kinds=self.kinds)


class NotFound(RememError, KeyError):
    """No entry has that id (or the prefix matches none)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "not found"


class AmbiguousId(RememError, KeyError):
    """An id prefix matches several entries."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "ambiguous id"


class MissingExtra(RememError):
    """An optional part of remem is not installed; the message says which extra to add."""

    def __init__(self, what: str, module: str, extra: str) -> None:
        from remem.install import add_extra_command  # the command for how remem was installed

        super().__init__(
            f"{what} needs {module}, which is not installed: {add_extra_command(extra)}"
        )
        self.module = module
        self.extra = extra


class NotYours(RememError):
    """A change to an entry the caller can read but that is filed under no user or agent
    of its own (a shared entry, seen from a user or agent partition)."""


class StoreError(RememError):
    """The store cannot be opened or written (permissions, disk, lock)."""


class StoreBusy(StoreError):
    """Another process kept the store's write lock longer than this one would wait."""


_OS_CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file would pass the size limit",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted",
}


def describe_os_error(exc: OSError) -> str:
    """What an OSError means, cause first ("the disk is full (No space left on device)")."""
    cause = _OS_CAUSES.get(exc.errno or 0)
    detail = exc.strerror or str(exc)
    return f"{cause} ({detail})" if cause else detail
