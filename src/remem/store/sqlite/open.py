"""Opening a SQLite store file: WAL, migrations, a damaged file moved aside, a
read-only folder still readable, and one-line errors for everything else."""

from __future__ import annotations

import sqlite3
import stat
import time
from pathlib import Path

from remem.entry import utcnow
from remem.errors import StoreBusy, StoreError, describe_os_error
from remem.store.sqlite.schema import migrate

_HEADER = b"SQLite format 3\x00"
_CORRUPT_CODES = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}
_READONLY_CODES = {"SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_READONLY_DIRECTORY"}


def open_file(
    path: Path, synchronous: str, busy_timeout: float, notices: list[str]
) -> tuple[sqlite3.Connection, bool]:
    """A migrated connection to the store at `path` and whether it is read-only. A file
    that is not a store, or that SQLite calls damaged, is moved aside (told in
    `notices`) and a new store started in its place."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the store directory {path.parent}: {exc}") from exc
    _check_regular(path)
    if _looks_foreign(path):
        _move_aside(path, "it is not a SQLite database", notices)
    try:
        return _connect(path, synchronous, busy_timeout), False
    except sqlite3.DatabaseError as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name in _READONLY_CODES or "readonly" in str(exc):
            return _connect_read_only(path, exc), True
        if name not in _CORRUPT_CODES:
            raise store_error(str(path), exc) from exc
        _move_aside(path, f"SQLite reports it damaged ({exc})", notices)
        try:
            return _connect(path, synchronous, busy_timeout), False
        except sqlite3.Error as again:
            raise store_error(str(path), again) from again


def store_error(path: str, exc: sqlite3.Error) -> StoreError:
    """One line saying what went wrong with the store and that nothing changed."""
    name = getattr(exc, "sqlite_errorname", "")
    if name in _READONLY_CODES or "readonly" in str(exc):
        return StoreError(
            f"cannot write the store {path}: its file or folder is read-only "
            f"({exc}); nothing was changed"
        )
    if name == "SQLITE_FULL" or name.startswith("SQLITE_IOERR"):
        cause = "the disk is full" if name == "SQLITE_FULL" else _io_cause(path)
        return StoreError(f"cannot write the store {path}: {cause} ({exc}); nothing was changed")
    if name.startswith("SQLITE_BUSY") or "database is locked" in str(exc):
        return StoreBusy(
            f"the store {path} is busy: another process kept it locked too long ({exc}); "
            "nothing was saved, and trying again will work once it is done"
        )
    if name in _CORRUPT_CODES:
        return StoreError(
            f"the store {path} is damaged ({exc}); nothing was changed. Restore a "
            f"backup, or rescue it with: sqlite3 {path} .recover | sqlite3 new.db"
        )
    return StoreError(f"cannot use the store {path}: {exc}")


def _io_cause(path: str) -> str:
    """What most likely failed a write with "disk I/O error": a full disk, or this
    process's file-size limit (`ulimit -f`), or else the device itself."""
    import shutil  # only when a write failed: shutil imports bz2 and lzma

    try:
        if shutil.disk_usage(Path(path).parent).free < 1 << 20:
            return "the disk is full"
    except OSError:
        pass
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
        if soft != resource.RLIM_INFINITY:
            return f"a file would pass this process's size limit of {soft:,} bytes (ulimit -f)"
    except (ImportError, OSError, ValueError):
        pass
    return "the disk failed a write"


def _connect_read_only(path: Path, why: sqlite3.Error) -> sqlite3.Connection:
    """A store in a folder we cannot write can still be read (searches work);
    every write is refused with a clear error."""
    if not path.exists():
        raise store_error(str(path), why)
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        conn.execute("SELECT count(*) FROM entries").fetchone()
    except sqlite3.Error as exc:
        raise store_error(str(path), why) from exc
    return conn


def _check_regular(path: Path) -> None:
    """A FIFO would make the header check wait forever for a writer, and a folder or a
    device is no store: each is one clear error, before anything opens it."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read the store {path}: {describe_os_error(exc)}") from exc
    if not stat.S_ISREG(mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(mode)
            else "a FIFO"
            if stat.S_ISFIFO(mode)
            else ("a device or socket")
        )
        raise StoreError(f"the store {path} is {kind}, not a file: give the path of a store file")


def _looks_foreign(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            head = fh.read(len(_HEADER))
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StoreError(f"cannot read the store {path}: {exc}") from exc
    return len(head) > 0 and head != _HEADER


def _move_aside(path: Path, why: str, notices: list[str]) -> None:
    stamp = utcnow().strftime("%Y%m%dT%H%M%S%fZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    try:
        path.rename(target)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
    except OSError as exc:
        raise StoreError(f"the store {path} is damaged and cannot be moved aside: {exc}") from exc
    notices.append(
        f"remem: the store {path} was unreadable ({why}); it was kept as {target} "
        "and a new, empty store was started"
    )


def _connect(path: Path, synchronous: str, busy_timeout: float) -> sqlite3.Connection:
    # Switching a new file to WAL can fail with SQLITE_BUSY without SQLite's busy
    # handler ever waiting, when several processes create the store at once: retry.
    deadline = time.monotonic() + busy_timeout
    delay = 0.01
    while True:
        conn = sqlite3.connect(
            path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("PRAGMA foreign_keys=ON")
            migrate(conn)
            return conn
        except sqlite3.OperationalError as exc:
            conn.close()
            busy = getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY")
            if not (busy or "locked" in str(exc)) or time.monotonic() > deadline:
                raise
        except BaseException:
            conn.close()
            raise
        time.sleep(delay)
        delay = min(delay * 2, 0.5)
