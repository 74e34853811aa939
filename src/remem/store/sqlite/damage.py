"""Telling a damaged store from a healthy one and from a file that is no store, cheaply:
what the file's size and header say before SQLite opens it, and a quick integrity check
only where damage is likely (issue 29)."""

from __future__ import annotations

import os
import shlex
import sqlite3
import stat
from pathlib import Path

from remem.errors import StoreError, describe_os_error

HEADER = b"SQLite format 3\x00"
_SMALLEST_PAGE = 512


def check_regular(path: Path) -> bool:
    """Whether `path` exists; a FIFO (which would make reading its header wait forever for
    a writer), a folder or a device is one clear error, before anything opens it."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        why = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
        raise StoreError(f"cannot read the store {path}: {why}") from exc
    if not stat.S_ISREG(mode):
        raise StoreError(
            f"the store {path} is {special_kind(mode)}, not a file: give the path of a store file"
        )
    return True


def special_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"


def side(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def foreign(path: Path) -> str | None:
    """Why the file at `path` is not a SQLite database (None when it is one, or empty)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError as exc:
        raise StoreError(f"cannot read the store {path}: {describe_os_error(exc)}") from exc
    if not head or head.startswith(HEADER):
        return None
    return "it is not a SQLite database"


def looks_like_lost_store(path: Path) -> bool:
    """Whether a file without SQLite's header is more likely a store whose first page was
    destroyed than someone's own file: whole pages of binary bytes, or a log beside it.
    Only such a file is kept aside and replaced; anything else is refused untouched."""
    if _size(side(path, "-wal")) > 0:
        return True
    size = _size(path)
    if size < _SMALLEST_PAGE or size % _SMALLEST_PAGE:
        return False
    with path.open("rb") as fh:
        head = fh.read(4096)
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return b"\x00" in head


def suspicion(path: Path) -> tuple[str | None, str | None]:
    """(why the store is damaged for certain, why damage is likely) from its size, its
    header and its write-ahead log, without opening it."""
    # The log's size first: a store being created by another process gets its first page
    # before its log, so sizes read a moment apart can then only look healthier than they are
    wal = _size(side(path, "-wal"))
    size = _size(path)
    if size == 0:
        if wal > 0:
            return "its file is empty but its write-ahead log is not (truncated)", None
        return None, None
    with path.open("rb") as fh:
        header = fh.read(100)
    if len(header) < 100:
        return "it is shorter than a SQLite header (truncated)", None
    page = _page_size(header)
    if page is None:
        return "its header is damaged", None
    if size % page:
        # SQLite writes whole pages only: without a log that a checkpoint torn by a crash
        # can replay, a part page was cut off (or bytes were added) and any record on it
        # may read back wrong although SQLite's quick check passes.
        if wal == 0:
            return "its size is not a whole number of pages (truncated)", None
        return None, "its size is not a whole number of pages"
    pages = int.from_bytes(header[28:32], "big")
    if header[24:28] == header[92:96] and size < pages * page:
        return None, "it is shorter than its header says"
    if wal > 0 and not in_use(path):
        return None, "it was not closed cleanly (its write-ahead log is still there)"
    return None, None


def _page_size(header: bytes) -> int | None:
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    return None if page < _SMALLEST_PAGE or page & (page - 1) else page


def page_size(path: Path) -> int | None:
    """The page size the store's header gives (None: no header, or a damaged one)."""
    try:
        with path.open("rb") as fh:
            return _page_size(fh.read(100)[:18].ljust(18, b"\0"))
    except OSError:
        return None


# Stores this process has open (resolved paths, how many times): see `in_use`.
OPEN_HERE: dict[str, int] = {}
_DMS = 128  # the byte of the -shm file every SQLite connection to the store keeps read-locked


def in_use(path: Path) -> bool:
    """Whether some connection has the store open now (then its log is in use, not left
    by a crash). Asked of the lock SQLite keeps on its -shm file; never in a process that
    has the store open itself, whose locks closing our descriptor would drop."""
    if OPEN_HERE.get(str(path.resolve()), 0) > 1:  # (one is the store being opened)
        return True
    try:
        import fcntl
    except ImportError:  # no POSIX locks to ask: assume it is, and skip the check
        return True
    try:
        fd = os.open(side(path, "-shm"), os.O_RDWR)
    except FileNotFoundError:
        return False  # SQLite keeps it while the store is open
    except OSError:
        return True
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _DMS)
    except OSError:
        return True
    finally:
        os.close(fd)  # (releases the lock, when it was taken)
    return False


def quick_check(conn: sqlite3.Connection) -> str | None:
    """Why SQLite's quick check finds the open store damaged, or None."""
    rows = conn.execute("PRAGMA quick_check(3)").fetchall()
    found = [line.strip() for r in rows for line in str(r[0]).splitlines()]
    if found == ["ok"]:
        return None
    found = [line for line in found if line and not line.startswith("***")]
    return "SQLite's integrity check fails: " + "; ".join(found[:3])


def holds_nothing(path: Path) -> bool:
    """Whether the store and its log are empty: nothing in them to rescue."""
    return _size(path) == 0 and _size(side(path, "-wal")) == 0


def rescue_line(damaged: Path) -> str:
    """A shell line that copies what SQLite can still read into a new file (`.recover` of
    Debian's sqlite3 3.40 recovers nothing; `.dump` ends a damaged dump with ROLLBACK,
    which must become COMMIT for the rows to stay)."""
    new = damaged.with_name(damaged.name.split(".corrupt-")[0] + ".rescued.db")
    return (
        f"sqlite3 {shlex.quote(str(damaged))} .dump | "
        "sed 's/^ROLLBACK; -- due to errors$/COMMIT;/' | "
        f"sqlite3 {shlex.quote(str(new))}"
    )
