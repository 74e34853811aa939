"""The errors remem raises; the CLI turns each into one line and a non-zero exit."""

from __future__ import annotations


class RememError(Exception):
    """Base class of every error remem raises on purpose."""


class InvalidInput(RememError, ValueError):
    """The caller gave something remem cannot store or parse."""


class NotFound(RememError, KeyError):
    """No entry has that id (or the prefix matches none)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "not found"


class AmbiguousId(RememError, KeyError):
    """An id prefix matches several entries."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "ambiguous id"


class StoreError(RememError):
    """The store cannot be opened or written (permissions, disk, lock)."""
