"""What remem last left in a store file, kept beside it as `<name>-state`, so that a change
made by something else is noticed when the store next opens (issue 29): bytes written over
a page, the file cut short or emptied, its write-ahead log deleted or cut.

SQLite keeps no page checksums, and its quick check reads the whole file: run on every
open it would cost time in proportion to the store. The record costs two `stat`s, one
read and one write of 128 bytes per commit, and says when the check is worth its cost:
the file is no longer what remem left (its inode, size or modification time differ).
Inside the store, `meta` keeps a random store id and a write generation raised by every
commit; a generation behind the record's means commits remem made are gone.

Several processes write one store: each writes the record after its own commits, so the
last one may be a little stale. Stale only ever means an extra quick check (the file's
details) or a loss missed (a lower generation), never a false alarm: the generation in a
record was committed before it was written. A record that does not parse is no record:
a store without one (made by an older remem) opens as it always did."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import zlib
from dataclasses import dataclass
from pathlib import Path

from remem.store.sqlite import damage

SUFFIX = "-state"
_SIZE = 128  # one fixed-size write in place: no rename, no trailing bytes of a longer one
_MAGIC = "remem-state 1"
BUMP = "UPDATE meta SET value = value + 1 WHERE key = 'generation' RETURNING value"

Stat = tuple[int, int, int]  # inode, size, modification time (ns) of the store file


@dataclass(frozen=True)
class Left:
    """What remem last left: which store, after how many commits, in what file."""

    store_id: str
    generation: int
    file: Stat


def record_of(path: Path) -> Path:
    return path.with_name(path.name + SUFFIX)


def file_stat(path: Path) -> Stat | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _encode(left: Left) -> bytes:
    body = f"{_MAGIC} {left.store_id} {left.generation} {' '.join(map(str, left.file))}"
    line = f"{body} {zlib.crc32(body.encode()):08x}"
    return line.encode().ljust(_SIZE - 1) + b"\n"


def _decode(raw: bytes) -> Left | None:
    """The record in `raw`, or None when it does not parse (torn, foreign, older)."""
    try:
        body, crc = raw.decode("ascii").strip().rsplit(" ", 1)
        if f"{zlib.crc32(body.encode()):08x}" != crc or not body.startswith(_MAGIC + " "):
            return None
        store_id, gen, ino, size, mtime = body[len(_MAGIC) + 1 :].split(" ")
        return Left(store_id, int(gen), (int(ino), int(size), int(mtime)))
    except ValueError:
        return None


def read(path: Path) -> Left | None:
    """The record beside the store at `path` (None: none, or one that does not parse)."""
    try:
        with record_of(path).open("rb") as fh:
            return _decode(fh.read(_SIZE))
    except OSError:
        return None


def suspicion(path: Path, left: Left | None) -> tuple[str | None, str | None]:
    """(why the store is damaged for certain, why damage is likely), from what remem left."""
    now = file_stat(path)
    if left is None or now is None:
        return None, None
    size, was = now[1], left.file[1]
    if size == 0 and was > 0:
        # remem never empties a store: a new one starts with no record (`forget`)
        return f"it is empty (0 bytes), though remem last left {was:,} bytes in it", None
    if size < was:
        # remem never makes its file smaller (no VACUUM): someone else did. A VACUUM leaves
        # whole pages, which the quick check judges; a part page was cut short.
        cut = f"it shrank from {was:,} to {size:,} bytes since remem last wrote it"
        page = damage.page_size(path)
        return (cut, None) if page is None or size % page else (None, cut)
    if now != left.file:
        return None, "it was changed since remem last wrote it"
    return None, None


def forget(path: Path) -> None:
    """A new store begins where none is: a record left by one gone before is no guide."""
    with contextlib.suppress(OSError):
        record_of(path).unlink()


def identity(conn: sqlite3.Connection) -> tuple[str, int] | None:
    """The store's id and write generation (None before the migration that adds them)."""
    try:
        rows = dict(
            conn.execute("SELECT key, value FROM meta WHERE key IN ('store_id', 'generation')")
        )
        return str(rows["store_id"]), int(rows["generation"])
    except (sqlite3.Error, KeyError, ValueError):
        return None


class Keeper:
    """The record of one open store, rewritten in place after each commit and at close.

    It is rewritten only when the file is as the record says it was before the commit:
    a change made by something else meanwhile is left for the next open to check, never
    taken for remem's own. Failing to write it (a full disk, a read-only folder) is
    not an error: the record only decides when to check."""

    def __init__(self, path: Path, fd: int, store_id: str) -> None:
        self.path, self._fd, self._id = path, fd, store_id

    @classmethod
    def start(
        cls, path: Path, conn: sqlite3.Connection, left: Left | None, *, create: bool
    ) -> tuple[Keeper | None, str | None]:
        """The keeper of the store just opened (None: no record is kept) and, when commits
        remem made to it are gone, a line that says so. Opening found the file sound, so
        what it is now is recorded; without `create` (a command that only reads) a
        record is updated, never created."""
        ident = identity(conn)
        if ident is None:
            return None, None
        store_id, gen = ident
        lost = None
        if left is not None and left.store_id == store_id and gen < left.generation:
            gone = left.generation - gen
            writes = "write" if gone == 1 else f"{gone:,} writes"
            lost = (
                f"remem: the store {path} lacks the last {writes} remem made to it (its "
                "write-ahead log was deleted or cut short, or an older copy was put in its "
                "place): what they saved is gone; save it again if you still have it"
            )
        flags = os.O_RDWR | (os.O_CREAT if create else 0)
        try:
            fd = os.open(record_of(path), flags, 0o600)
        except OSError:
            return None, lost
        keeper = cls(path, fd, store_id)
        now = file_stat(path)
        if now is not None and Left(store_id, gen, now) != left:
            keeper._write(Left(store_id, gen, now))
        return keeper, lost

    def before(self) -> Stat | None:
        """The file's details before a commit or a close: see `after`."""
        return file_stat(self.path)

    def after(self, generation: int | None, before: Stat | None) -> None:
        """Record the file as a commit or a close (which may checkpoint) left it, when it
        was as recorded just before (else something else changed it: not ours to bless)."""
        if generation is None or before is None:
            return
        try:
            on_disk = _decode(_pread(self._fd))
        except OSError:
            return
        if on_disk is not None and on_disk.file != before:
            return
        now = file_stat(self.path)
        if now is not None:
            self._write(Left(self._id, generation, now))

    def _write(self, left: Left) -> None:
        with contextlib.suppress(OSError):
            _pwrite(self._fd, _encode(left))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def _pread(fd: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, _SIZE, 0)
    os.lseek(fd, 0, os.SEEK_SET)  # (Windows has no pread; one thread writes at a time)
    return os.read(fd, _SIZE)


def _pwrite(fd: int, data: bytes) -> None:
    if hasattr(os, "pwrite"):
        os.pwrite(fd, data, 0)
        return
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, data)
