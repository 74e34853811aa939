"""Opening a SQLite store file: WAL, migrations, a damaged file moved aside, a file that
is no store refused, a read-only folder still readable, and one-line errors for
everything else."""

from __future__ import annotations

import dataclasses
import errno
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from remem.entry import utcnow
from remem.errors import StoreBusy, StoreError
from remem.store.sqlite import damage, reading, state
from remem.store.sqlite.schema import LATEST, migrate

_CORRUPT_CODES = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}
_READONLY_CODES = {"SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_READONLY_DIRECTORY"}


@dataclass(frozen=True, slots=True)
class Opened:
    """An open store: its connection, whether it may only be read, for a store of an
    older remem opened by a command that only reads the schema version the file has (the
    connection is then an upgraded copy in memory), and the keeper of the record of what
    remem left in the file (`state`; None where the file is not the one in use)."""

    conn: sqlite3.Connection
    read_only: bool
    older: int | None = None
    keeper: state.Keeper | None = None


def open_file(
    path: Path, synchronous: str, busy_timeout: float, notices: list[str], *, create: bool = True
) -> Opened:
    """A migrated connection to the store at `path`.

    A file that is not a store is refused untouched. A damaged store (SQLite says so, or a
    quick check finds it where damage is likely: a killed writer's log, a size that is not
    whole pages, a file no longer as remem left it) is moved aside whole, with its log, and
    a new store started in its place, told in `notices` before anything is written. With
    `create` off (a command that only reads) nothing is created, moved, renamed or
    migrated: a missing or empty store reads as empty, a damaged one is an error, and an
    older remem's store is read from an upgraded copy in memory (`reading.py`)."""
    if not damage.check_regular(path):
        if not create:
            return Opened(reading.empty(), True)
        state.forget(path)
        _make_folder(path.parent)
        _make_file(path)
    if damage.foreign(path):
        if not (create and damage.looks_like_lost_store(path)):
            raise _not_a_store(path)
        _move_aside(path, "it is not a SQLite database", notices)
        _make_file(path)
    left = state.read(path)
    logs = [] if create else [p for p in _logs(path) if not p.exists()]
    why = _damaged(path, synchronous, busy_timeout, left, upgrade=create)
    if isinstance(why, sqlite3.Connection):
        if create:
            return Opened(why, False, keeper=_keeper(path, why, left, notices, create))
        found = _as_found(why, path, notices)
        if found.conn is not why:  # nothing, or an upgraded copy: the file is left alone
            return found
        return dataclasses.replace(found, keeper=_keeper(path, why, left, notices, create))
    if isinstance(why, sqlite3.Error):  # read-only: never migrated, by any command
        return _as_found(_connect_read_only(path, why), path, notices, read_only=True)
    if not create:
        _remove_empty(logs)  # the failed open's, not the user's: a reading creates nothing
        rescue = f"Rescue what it holds with: {damage.rescue_line(path)}"
        if damage.holds_nothing(path):
            rescue = "It holds nothing to rescue: restore a backup if you have one"
        raise StoreError(f"the store {path} is damaged ({why}); nothing was changed. {rescue}")
    _move_aside(path, why, notices)
    _make_file(path)
    try:
        conn = _connect(path, synchronous, busy_timeout)
    except sqlite3.Error as again:
        raise store_error(str(path), again) from again
    return Opened(conn, False, keeper=_keeper(path, conn, None, notices, create))


def _logs(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def _remove_empty(made: list[Path]) -> None:
    """Remove the log files an open made (a log with anything in it is kept)."""
    for log in made:
        try:
            if log.name.endswith("-shm") or log.stat().st_size == 0:
                log.unlink()
        except OSError:
            pass


def _keeper(
    path: Path, conn: sqlite3.Connection, left: state.Left | None, notices: list[str], create: bool
) -> state.Keeper | None:
    keeper, lost = state.Keeper.start(path, conn, left, create=create)
    if lost:
        notices.append(lost)
    return keeper


def _as_found(
    conn: sqlite3.Connection, path: Path, notices: list[str], *, read_only: bool = False
) -> Opened:
    """A healthy store not to be migrated (a command that only reads it, or a file this
    process may not write), as it may be used: a store not begun reads as empty, an older
    remem's from an upgraded copy in memory."""
    try:
        version = reading.schema_version(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise store_error(str(path), exc) from exc
    if version is None:
        conn.close()
        return Opened(reading.empty(), True)
    if version >= LATEST:
        return Opened(conn, read_only)
    try:
        copy = reading.upgraded_copy(conn, path, version)
    except sqlite3.Error as exc:
        raise store_error(str(path), exc) from exc
    notices.append(reading.older_notice(path, version))
    return Opened(copy, False, older=version)


def _damaged(
    path: Path, synchronous: str, busy_timeout: float, left: state.Left | None, *, upgrade: bool
) -> sqlite3.Connection | str | sqlite3.Error:
    """The open store (migrated if `upgrade`), or why it is damaged, or the error that
    says it may only be read."""
    emptied, changed = state.suspicion(path, left)
    certain, likely = damage.suspicion(path)
    certain, likely = certain or emptied, likely or changed
    if certain:
        return certain
    # Where damage is likely, SQLite's quick check first. Elsewhere no log waits to be
    # checkpointed by a failing connection's close (none, or another process's in use).
    if likely and (why := _probe(path, busy_timeout)):
        return f"{likely}; {why}"
    try:
        return _connect(path, synchronous, busy_timeout, upgrade=upgrade)
    except sqlite3.DatabaseError as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name in _READONLY_CODES or "readonly" in str(exc):
            return exc
        if name not in _CORRUPT_CODES:
            raise store_error(str(path), exc) from exc
        return f"SQLite reports it damaged ({exc})"


def _probe(path: Path, busy_timeout: float) -> str | None:
    """Why SQLite's quick check finds the store damaged, asked through a read-only
    connection: closing a writable one would checkpoint the log into the damaged file
    before it is kept aside."""
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout, check_same_thread=False)
    except sqlite3.Error:
        return None  # the writable open says why
    try:
        return damage.quick_check(conn)
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorname", "") in _CORRUPT_CODES:
            return f"SQLite reports it damaged ({exc})"
    finally:
        conn.close()
    return None


def _not_a_store(path: Path) -> StoreError:
    return StoreError(
        f"{path} is not a remem store (not a SQLite database); nothing was changed: "
        "give the path of a store, or of a file that does not exist yet"
    )


def refuse_foreign(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse another program's SQLite database (it has tables, and not the one every
    remem store has from its first open on): migrating it would add remem's tables to
    someone's own data. An empty database is a store not begun yet."""
    tables = {
        str(row[0])
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    }
    if tables and "schema_migrations" not in tables:
        conn.close()
        raise StoreError(
            f"{path} is not a remem store (a SQLite database of another program); nothing "
            "was changed: give the path of a store, or of a file that does not exist yet"
        )


def _make_folder(folder: Path) -> None:
    """The store's folder and any missing parent, each 0700 whatever the umask: the
    memories of one user are no one else's to list."""
    missing = []
    at = folder
    while not at.exists() and at != at.parent:
        missing.append(at)
        at = at.parent
    try:
        for made in reversed(missing):
            made.mkdir(mode=0o700, exist_ok=True)
            os.chmod(made, 0o700)
    except OSError as exc:
        raise StoreError(f"cannot create the store directory {folder}: {exc}") from exc


def _make_file(path: Path) -> None:
    """A new, empty store file readable by its owner only (0600 whatever the umask;
    SQLite gives its -wal and -shm files the same mode). An existing one is kept as is."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        name = getattr(exc, "strerror", None) or str(exc)
        if exc.errno in (errno.EACCES, errno.EROFS, errno.EPERM):
            return  # SQLite says it better (a read-only folder is read, not written)
        raise StoreError(f"cannot create the store {path}: {name}") from exc
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


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
            f"backup, or rescue what it holds with: {damage.rescue_line(Path(path))}"
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
        refuse_foreign(conn, path)
        conn.execute("SELECT count(*) FROM entries").fetchone()
    except sqlite3.Error as exc:
        raise store_error(str(path), why) from exc
    return conn


def _move_aside(path: Path, why: str, notices: list[str]) -> None:
    """Keep the damaged file and its log whole beside it, before anything is written."""
    if damage.in_use(path):
        # what another process reads and writes would be torn from under it, or, where the
        # verdict came from sizes read while it wrote, a sound store set aside
        raise StoreError(
            f"the store {path} looks damaged ({why}) but is open in another process; nothing "
            "was changed: stop what uses it and try again"
        )
    stamp = utcnow().strftime("%Y%m%dT%H%M%S%fZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    rescue = f"rescue its rows with: {damage.rescue_line(target)}"
    if damage.holds_nothing(path):
        rescue = "it held nothing to rescue: restore a backup if you have one"
    try:
        path.rename(target)
        for suffix in ("-wal", "-shm", state.SUFFIX):
            if damage.side(path, suffix).exists():
                damage.side(path, suffix).rename(damage.side(target, suffix))
    except OSError as exc:
        raise StoreError(f"the store {path} is damaged and cannot be moved aside: {exc}") from exc
    notices.append(
        f"remem: the store {path} was unreadable ({why}); it was kept as {target} "
        f"and a new, empty store was started ({rescue})"
    )


def _connect(
    path: Path, synchronous: str, busy_timeout: float, *, upgrade: bool = True
) -> sqlite3.Connection:
    """A connection in WAL mode, migrated; without `upgrade` (a command that only reads)
    as the file is: neither its journal mode nor its schema is changed."""
    # Switching a new file to WAL can fail with SQLITE_BUSY without SQLite's busy
    # handler ever waiting, when several processes create the store at once: retry.
    deadline = time.monotonic() + busy_timeout
    delay = 0.01
    while True:
        conn = sqlite3.connect(
            path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            refuse_foreign(conn, path)  # before WAL mode, which rewrites the header
            if upgrade:
                conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("PRAGMA foreign_keys=ON")
            if upgrade:
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
