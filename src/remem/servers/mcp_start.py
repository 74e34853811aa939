"""`remem mcp` over stdio answers the client's `initialize` at once (issue 32).

Importing the MCP SDK builds ~560 pydantic models: about a second, which a client
waits for before anything else. The SDK's answer to `initialize` depends only on the
request and on the installed code, so the first answer for each (request, SDK, remem)
is kept in `$REMEM_HOME/cache/` and, from then on, sent as soon as the request is read;
the SDK loads meanwhile and is handed the same request (its session learns the
client's capabilities from it), and its own answer to it is dropped, or kept as the
cached one if it differs. Everything else passes through unchanged, in both directions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import threading
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from remem.settings import home_dir
from remem.tokens import write_whole


@contextlib.contextmanager
def answered_early(*inputs: str) -> Iterator[None]:
    """Within this block fd 0/1 are pipes the SDK serves; the first request (an
    `initialize`) was answered from the cache when it could be. `inputs`: what else
    the server's answer depends on (its options)."""
    if sys.platform == "win32":  # pipes cannot be waited on there: the SDK alone
        yield
        return
    first, rest = _first_line(0)
    request = _initialize(first)
    if request is None:  # not an initialize: nothing to answer early
        yield from _piped(first + rest, None, None)
        return
    path = _cache_path(request, inputs)
    known = _read(path) if path is not None else None
    if known is not None:
        _write_all(1, _reply(request["id"], known))
    yield from _piped(first + rest, request["id"], (path, known))


def _first_line(fd: int) -> tuple[bytes, bytes]:
    """The first line on `fd` (with its newline) and whatever was read past it."""
    data = b""
    while b"\n" not in data:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return data, b""
        data += chunk
    at = data.index(b"\n") + 1
    return data[:at], data[at:]


def _initialize(line: bytes) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "initialize":
        return None
    return message if isinstance(message.get("id"), str | int) else None


def _cache_path(request: dict[str, Any], inputs: tuple[str, ...]) -> Path | None:
    """The cache of the answer to `request`, named by a digest of all it depends on:
    the request's parameters, the SDK's files, this remem's server code and version."""
    from remem import __version__

    digest = hashlib.sha256(json.dumps(request.get("params"), sort_keys=True).encode())
    digest.update(f"{sys.version}|{__version__}|{inputs}".encode())
    try:
        for name in ("mcp", "mcp_types"):  # found, not imported: their import is the cost
            spec = find_spec(name)
            if spec is None or spec.origin is None:
                return None
            stat = Path(spec.origin).stat()
            digest.update(f"{spec.origin}|{stat.st_size}|{stat.st_mtime_ns}".encode())
        digest.update(Path(__file__).with_name("mcp.py").read_bytes())
    except (OSError, ValueError, ImportError):
        return None
    return home_dir() / "cache" / f"mcp-initialize-{digest.hexdigest()[:24]}.json"


def _read(path: Path) -> dict[str, Any] | None:
    try:
        known = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    ok = isinstance(known, dict) and set(known) <= {"result", "error"} and len(known) == 1
    return known if ok else None


def _reply(request_id: Any, answer: dict[str, Any]) -> bytes:
    message = {"jsonrpc": "2.0", "id": request_id, **answer}
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _piped(
    head: bytes, request_id: Any, cache: tuple[Path | None, dict[str, Any] | None] | None
) -> Iterator[None]:
    """Serve the block's fd 0 from `head` and then the real stdin, and send its fd 1 to
    the real stdout, but for the answer to `request_id` when `cache` says it was sent."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    os.dup2(in_r, 0)
    os.dup2(out_w, 1)
    os.close(in_r)
    os.close(out_w)
    done = threading.Event()
    feeder = threading.Thread(target=_feed, args=(head, wire_in, in_w), daemon=True)
    sender = threading.Thread(
        target=_send, args=(out_r, wire_out, request_id, cache, done), daemon=True
    )
    feeder.start()
    sender.start()
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        os.dup2(wire_out, 1)
        done.set()  # the SDK may keep a copy of the pipe open: drain it, then stop
        sender.join(5.0)
        os.dup2(wire_in, 0)


def _feed(head: bytes, wire: int, pipe: int) -> None:
    try:
        _write_all(pipe, head)
        while chunk := os.read(wire, 1 << 16):
            _write_all(pipe, chunk)
    except OSError:
        pass  # the server stopped reading
    finally:
        os.close(pipe)  # end of input: the server sees it


def _chunks(pipe: int, done: threading.Event) -> Iterator[bytes]:
    """What is written to `pipe` until its writers close it, or until `done` is set
    and nothing more is waiting in it."""
    import select

    while True:
        if not select.select([pipe], [], [], 0.05)[0]:
            if done.is_set():
                return
            continue
        chunk = os.read(pipe, 1 << 16)
        if not chunk:
            return
        yield chunk


def _send(
    pipe: int,
    wire: int,
    request_id: Any,
    cache: tuple[Path | None, dict[str, Any] | None] | None,
    done: threading.Event,
) -> None:
    pending = b""
    waiting = cache is not None  # for the SDK's answer to the initialize request
    try:
        for chunk in _chunks(pipe, done):
            if not waiting:
                _write_all(wire, chunk)
                continue
            pending += chunk
            while waiting and b"\n" in pending:
                line, _, pending = pending.partition(b"\n")
                waiting = not _answer(line + b"\n", wire, request_id, cache)
            if not waiting and pending:
                _write_all(wire, pending)
                pending = b""
        _write_all(wire, pending)
    except OSError:
        pass  # the client stopped reading: the server's next write fails, as without us
    finally:
        os.close(pipe)


def _answer(
    line: bytes,
    wire: int,
    request_id: Any,
    cache: tuple[Path | None, dict[str, Any] | None] | None,
) -> bool:
    """Pass `line` on unless it is the SDK's answer to the request already answered;
    True once that answer went by (then cached when it is new)."""
    try:
        message = json.loads(line)
    except ValueError:
        message = None
    if not isinstance(message, dict) or message.get("id") != request_id or cache is None:
        _write_all(wire, line)
        return False
    path, known = cache
    answer = {k: message[k] for k in ("result", "error") if k in message}
    if known is None:
        _write_all(wire, line)  # nothing was sent early: this is the answer
    if answer != known and path is not None and "result" in answer:
        write_whole(path, json.dumps(answer, ensure_ascii=False).encode())
    return True
