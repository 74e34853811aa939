"""One-shot commands answered by the running warm service (`remem.retrieval.warm`).

A `remem save` in a fresh process spends most of its time loading what every save
needs and no save changes: remem's modules, the compiled rules, the judges' weights,
numpy (for the vectors the judges read) and jieba's dictionary. The warm service has
them loaded already. So `save`, `search`, `context`, `list`, `show`, `history` and
`stats` send their arguments, folder and REMEM_* / OPENAI_* variables to a service
that is running, which runs the same command with click's own runner and sends back
what it printed and its exit code; this process prints them. It imports neither
click nor `remem.memory`.

The command runs in this process instead, as before, when no service is running
(then one is started behind it, not waited for: the next command finds it; keyword-
only, nothing else would start one), `REMEM_WARM=0`, the store is a server (PostgreSQL) or
named relative to this folder, the command reads standard input (`-`), the service
is busy past `START_WITHIN` seconds, or it cannot have the store's write lock at once
(it waits `BUSY`: a process holding the lock may be waiting on the service).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from remem.retrieval.warm import WarmClient

SERVED = frozenset({"save", "search", "context", "list", "show", "history", "stats"})
GLOBAL_OPTIONS = ("--db", "--project", "--user", "--agent")  # each takes a value
START_WITHIN = 5.0  # seconds: a service busy longer (a big store's vectors loading) is
# not waited for, and it no longer starts the command once they have passed
TIMEOUT = 120.0  # a started command's answer (a save into a large store: well under 1 s)


def command_of(args: Sequence[str]) -> str | None:
    """The command `args` run (after the group's options), None for an option of the
    group itself (--help, --version)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in GLOBAL_OPTIONS:
            i += 2
        elif arg.split("=", 1)[0] in GLOBAL_OPTIONS:
            i += 1
        elif arg.startswith("-"):
            return None
        else:
            return arg
    return None


def _stores_named(args: Sequence[str]) -> list[str]:
    """The values of every --db in `args` (the group's option, before or after the command)."""
    named = [b for a, b in zip(args, args[1:], strict=False) if a == "--db"]
    return named + [a.split("=", 1)[1] for a in args if a.startswith("--db=")]


def servable(args: Sequence[str], env: Mapping[str, str] | None = None) -> bool:
    """Whether the service may run `args` for this process."""
    from remem.settings import is_url, locations, warm_service_wanted

    if command_of(args) not in SERVED or "-" in args or {"-h", "--help"} & set(args):
        return False
    places = [*locations(env), *_stores_named(args)]
    if not warm_service_wanted(env) or any(map(is_url, places)):
        return False  # a PostgreSQL store's command runs here: the service keeps no pool
    # relative to this process's folder: the service's own could differ
    return all(os.path.isabs(os.path.expanduser(p)) for p in places)


def ask(args: Sequence[str]) -> int | None:
    """Run `args` by the running warm service: what it printed is printed here and its
    exit code returned; None when it did not (then run them in this process)."""
    if not servable(args):
        return None
    import atexit

    from remem.retrieval.warm import WarmClient, carried
    from remem.settings import home_dir

    client = WarmClient(home_dir())
    if not client.path.exists():  # none running: this command runs here, the next there
        atexit.register(start_behind, client)
        return None
    message = {
        "op": "cli",
        "args": list(args),
        "cwd": os.getcwd(),
        "env": {k: v for k, v in os.environ.items() if carried(k)},
        "start_by": time.time() + START_WITHIN,
    }
    reply = client.ask(message, timeout=START_WITHIN + TIMEOUT)
    if reply is None and _died(client.path):  # killed: nothing else would start another
        atexit.register(start_behind, client, left=True)
    if reply is None or not isinstance(code := reply.get("code"), int):
        return None
    out, err, mixed = (str(reply.get(k) or "") for k in ("out", "err", "mixed"))
    try:
        if _one_terminal():
            _write(sys.stdout, mixed)  # the order the lines came in, as in-process
        else:
            _write(sys.stderr, err)
            _write(sys.stdout, out)
    except BrokenPipeError:  # a reader like `head` stopped reading: as in-process
        from remem.cli.common import silence_stdout

        silence_stdout()
        return 1
    return code


def _died(path: Path) -> bool:
    """Whether the socket file at `path` is one a service that died left (nothing
    listens on it)."""
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.25)
        try:
            sock.connect(str(path))
        except ConnectionRefusedError:
            return True
        except OSError:
            return False
    return False


def start_behind(client: WarmClient, *, left: bool = False) -> None:
    """Start the service of `client`'s home from a child process, which waits for it:
    this one exits at once. The child holds none of this process's files open (a
    reader of its output waits for their end). `left`: its socket file is one a dead
    service left (the start replaces it)."""
    import fcntl  # noqa: F401  what the child's start uses, imported before the fork
    import subprocess  # noqa: F401

    if client.path.exists() and not left:
        return  # the command started one itself (a save embedding its text)
    try:
        if os.fork():
            return
    except OSError:
        return  # no child: the next command runs here too
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        client.request({"op": "ping"})  # starts it (one, however many ask at once)
    except BaseException:  # noqa: S110  the child says nothing: it has no terminal
        pass
    finally:
        os._exit(0)


def _one_terminal() -> bool:
    try:
        return sys.stdout.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _write(stream: Any, text: str) -> None:
    if text:
        stream.write(text)
        stream.flush()


# -- the service --------------------------------------------------------------------------------


def answer(message: Mapping[str, Any]) -> dict[str, Any]:
    """The service's side of `ask`: the command run with the client's folder and
    variables in place, its output and exit code."""
    args, env, cwd = message.get("args"), message.get("env"), message.get("cwd")
    if (
        not isinstance(args, list)
        or not all(isinstance(a, str) for a in args)
        or not isinstance(env, dict)
        or not isinstance(cwd, str)
        or not servable(args, {str(k): str(v) for k, v in env.items()})
    ):
        return {"error": "not a command the service runs"}
    if time.time() > float(message.get("start_by") or 0):
        return {"error": "too late: the client runs it itself"}
    from click.testing import CliRunner

    from remem.cli import common
    from remem.cli.app import cli
    from remem.errors import StoreBusy
    from remem.retrieval.warm import environment

    here = os.getcwd()
    with environment(env):
        try:
            os.chdir(cwd)
        except OSError as exc:
            return {"error": f"the client's folder: {exc}"}
        common.SERVED = True
        try:
            result = CliRunner().invoke(cli, args, prog_name="remem")
        finally:
            common.SERVED = False
            os.chdir(here)
    if isinstance(result.exception, StoreBusy):
        return {"error": "the store is busy: the client runs it itself"}
    failed = result.exception
    if failed is not None and not isinstance(failed, SystemExit):
        return {"error": f"{type(failed).__name__}: {failed}"}  # the client runs it, says so
    return {
        "code": result.exit_code,
        "out": result.stdout,
        "err": result.stderr,
        "mixed": result.output,
    }
