"""Reading the files a user names and writing the ones remem makes, safely: never a
FIFO, a device or a folder (which hang, never end, or are no file), never more than a
bound, and never over a store, its log, or a file remem did not make (issue 29)."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from remem.errors import InvalidInput, StoreError, describe_os_error

__all__ = ["MAX_INPUT_BYTES", "check_output", "json_file", "read_bytes", "read_text"]

MAX_INPUT_BYTES = 256 * 1024 * 1024  # far above any export; /dev/zero piped in ends here
_SQLITE = b"SQLite format 3\x00"
_STORE_SIDES = ("-wal", "-shm", "-journal", "-state")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"


def read_text(name: str | os.PathLike[str], what: str = "the file") -> str:
    """The UTF-8 text of the regular file `name` (`-`: standard input), see `read_bytes`."""
    data = read_bytes(name, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        shown = "standard input" if os.fspath(name) == "-" else str(name)
        raise InvalidInput(f"{shown} is not valid UTF-8 text ({exc.reason})") from exc


def read_bytes(name: str | os.PathLike[str], what: str = "the file") -> bytes:
    """The bytes of the regular file `name` (`-`: standard input), at most
    MAX_INPUT_BYTES; anything else is InvalidInput in one line, at once (a FIFO is
    opened without waiting for a writer and refused)."""
    if os.fspath(name) == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        shown = "standard input"
    else:
        path = Path(name).expanduser()
        shown = str(path)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except (OSError, ValueError) as exc:
            why = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
            raise InvalidInput(f"cannot read {what} {path}: {why}") from exc
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise InvalidInput(f"cannot read {what} {path}: it is {_kind(mode)}, not a file")
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InvalidInput(f"{shown} is larger than {MAX_INPUT_BYTES >> 20} MB: not read")
    return data


def check_output(
    path: Path, *, made_by: Callable[[Path], bool] | None = None, source: Path | None = None
) -> None:
    """Refuse (StoreError, nothing written) to write `path` when it is a FIFO, a device
    or a folder, a SQLite store or its -wal/-shm/-journal/-state, the `source` being read, or,
    with `made_by`, an existing file that it does not recognise as one remem made."""
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as exc:
        why = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
        raise StoreError(f"cannot write {path}: {why}; nothing was written") from exc
    for suffix in _STORE_SIDES:
        if path.name.endswith(suffix):
            store = path.with_name(path.name[: -len(suffix)])
            # a log without its store is still a store's; "-state" is a common ending,
            # so only remem's own note (its first words) or a store's is refused
            own = st is not None and (suffix != "-state" or _is_state_note(path))
            if _is_sqlite(store) or own:
                raise StoreError(
                    f"{path} belongs to the store {store}: nothing was written (give "
                    "another file name)"
                )
    if st is None:
        return
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(
            f"cannot write {path}: it is {_kind(st.st_mode)}, not a file; nothing was "
            "written (use - for standard output)"
        )
    if _is_sqlite(path):
        raise StoreError(f"{path} is a SQLite database (a store?): nothing was written over it")
    if source is not None and source.exists() and path.samefile(source):
        raise StoreError(f"{path} is the file being read: nothing was written over it")
    if made_by is not None and st.st_size and not made_by(path):
        raise StoreError(
            f"{path} exists and is not a file remem made: nothing was written over it "
            "(remove it, or give another name)"
        )


def json_file(path: Path) -> Any:
    """The JSON document in the file at `path`, or None when it holds none (too large,
    unreadable, not UTF-8, not JSON): how to recognise a file remem wrote is by its
    parsed content, never by a phrase that anyone's notes can quote."""
    try:
        if path.stat().st_size > MAX_INPUT_BYTES:
            return None
        return json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(4096)
    except OSError:
        return b""


def _is_state_note(path: Path) -> bool:
    """Whether `path` holds the note remem keeps beside a store (`store.sqlite.state`)."""
    try:
        with path.open("rb") as fh:
            return fh.read(12) == b"remem-state "
    except OSError:
        return False


def _is_sqlite(path: Path) -> bool:
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return False
    except (OSError, ValueError):
        return False
    return _head(path).startswith(_SQLITE)
