"""A throwaway PostgreSQL 16 + pgvector server for the tests, from pgserver's wheel.

pgserver's own `get_server()` listens on a unix socket only; the stores under test
connect over TCP like any real deployment, so this starts the bundled binaries itself:
`initdb` into a temp dir, `pg_ctl start` on 127.0.0.1 and a free port with durability
off (fsync, synchronous_commit, full_page_writes: the data is thrown away), and
`pg_ctl stop` at the end. Running as root, the server runs as the system user
`pgserver`, as pgserver does (PostgreSQL refuses to run as root).

Connections over TCP need the password (scram-sha-256), so a wrong password fails
like it would against a real server; the unix socket (used by nobody) trusts.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

SYSTEM_USER = "pgserver"
SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "shared_buffers": "64MB",
}


class ServerUnavailable(RuntimeError):
    """The test server could not be started (or reached)."""


def bin_dir() -> Path:
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise ServerUnavailable(
            "pgserver is not installed (pip install -e '.[dev]'); set REMEM_TEST_PG to a "
            "postgresql:// URL, or REMEM_TEST_PG=skip to skip the PostgreSQL tests"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def with_database(url: str, name: str) -> str:
    """`url` pointing at database `name` instead."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@dataclass
class Server:
    """A running server: `url` reaches its `postgres` database as superuser."""

    url: str
    root: Path | None = None  # the temp dir holding the data directory, when we own it
    user: str | None = None

    @property
    def data(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    def stop(self) -> None:
        """Stop the server (immediately: its data is thrown away) and delete its files."""
        if self.root is None:
            return
        try:
            if (self.data / "postmaster.pid").exists():
                try:
                    _run(["pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop"], self)
                except ServerUnavailable:
                    _kill_postmaster(self.data)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None


def _kill_postmaster(data: Path) -> None:
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)  # the postmaster's children exit when it dies
    except (OSError, ValueError, IndexError):
        pass


def _run(args: list[str], server: Server, timeout: float = 60) -> str:
    kwargs: dict[str, Any] = {}
    if server.user is not None:
        kwargs.update(user=server.user, group=server.user, extra_groups=[])
    try:
        proc = subprocess.run(
            [str(bin_dir() / args[0]), *args[1:]],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
            cwd=server.root,
            **kwargs,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise ServerUnavailable(f"{args[0]} failed: {exc}") from exc
    if proc.returncode != 0:
        raise ServerUnavailable(f"{args[0]} failed (exit {proc.returncode}):\n{proc.stdout}")
    return proc.stdout


def _as_system_user(root: Path) -> str | None:
    """Running as root: the user the server runs as (created if needed), with access to
    the binaries and to `root`. Otherwise None (the server runs as the current user)."""
    if os.geteuid() != 0:
        return None
    import pwd

    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "-s", "/bin/bash", SYSTEM_USER], check=True)
    # What pgserver itself does as root: make the wheel's binaries and `root` reachable.
    # (pgserver's own helpers are not imported: importing pgserver warns without
    # XDG_RUNTIME_DIR, and warnings are errors here.)
    binaries = bin_dir()
    for path in (binaries, root):
        _open_prefix(path)
    _open_tree(binaries, 0o055)
    _open_tree(binaries.parent / "lib", 0o044)
    entry = pwd.getpwnam(SYSTEM_USER)
    os.chown(root, entry.pw_uid, entry.pw_gid)
    return SYSTEM_USER


def _open_prefix(path: Path) -> None:
    """Let everyone traverse the folders above `path`."""
    for folder in path.parents:
        mode = folder.stat().st_mode
        if mode & 0o055 != 0o055:
            folder.chmod(mode | 0o055)


def _open_tree(path: Path, file_bits: int) -> None:
    """Let everyone list the folders under `path` and read (run) their files."""
    for folder, _, files in os.walk(path):
        os.chmod(folder, os.stat(folder).st_mode | 0o055)
        for name in files:
            file = os.path.join(folder, name)
            if not os.path.islink(file):
                os.chmod(file, os.stat(file).st_mode | file_bits)


def start(attempts: int = 3) -> Server:
    """initdb and start a server on a free loopback port (retried if the port was taken)."""
    root = Path(tempfile.mkdtemp(prefix="remem-pg-"))
    server = Server(url="", root=root)
    try:
        server.user = _as_system_user(root)
        password = secrets.token_hex(8)
        (root / "pw").write_text(password + "\n")
        if server.user is not None:
            shutil.chown(root / "pw", server.user, server.user)
        _run(
            ["initdb", "-D", str(server.data), "-U", "postgres", "--encoding=UTF8",
             "--locale=C", "--auth-local=trust", "--auth-host=scram-sha-256",
             f"--pwfile={root / 'pw'}", "--no-sync"],
            server,
        )  # fmt: skip
        options = " ".join(f"-c {k}={v}" for k, v in SETTINGS.items())
        for attempt in range(attempts):
            port = free_port()
            try:
                _run(
                    ["pg_ctl", "-D", str(server.data), "-w", "-t", "60",
                     "-l", str(root / "log"), "-o",
                     f"-h 127.0.0.1 -p {port} -k {root} {options}", "start"],
                    server,
                )  # fmt: skip
            except ServerUnavailable:
                log = (root / "log").read_text(errors="replace")
                if "could not bind" not in log or attempt == attempts - 1:
                    raise ServerUnavailable(f"postgres did not start:\n{log}") from None
                continue
            server.url = f"postgresql://postgres:{password}@127.0.0.1:{port}/postgres"
            return server
    except BaseException:
        server.stop()
        raise
    raise AssertionError("unreachable")


def connect(url: str) -> Any:
    import psycopg

    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        raise ServerUnavailable(f"cannot connect to the test server: {exc}") from exc


@contextmanager
def fresh_database(admin_url: str, prefix: str = "remem_test") -> Iterator[str]:
    """A new empty database on the server (its URL), dropped afterwards even while
    connections to it are still open."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    with connect(admin_url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(admin_url, name)
    finally:
        with connect(admin_url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def wait_until_reachable(url: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            connect(url).close()
            return
        except ServerUnavailable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
