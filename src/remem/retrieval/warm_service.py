"""The background process of `remem.retrieval.warm`: embedders by name and each SQLite
store's vector matrix, kept warm for one-shot commands; one request per connection
on a private unix socket."""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from remem import text
from remem.errors import RememError
from remem.retrieval import warm
from remem.retrieval.embedding import Embedder, bundled
from remem.retrieval.vector_index import VectorIndex
from remem.retrieval.warm import BUSY, PROTOCOL, blob, receive, send, vectors_of

SYNC_BUDGET = 1.0  # seconds of embedding a backlog per request (the rest between them)


class Service:
    """What the background process holds: embedders by name, vector indexes by store."""

    def __init__(self) -> None:
        self.embedders: dict[str, Embedder] = {}
        self.indexes: dict[tuple[str, str], VectorIndex] = {}
        # reentrant: a hook's request (`remem.hooks.served`) asks `handle` for cosines
        self.lock = threading.RLock()
        self.requests = 0
        self.loads = 0
        self.hooks = 0  # agents' hooks answered here
        self.commands = 0  # one-shot commands run here
        self.warm = False  # `warm_up` done

    def embedder(self, name: str) -> Embedder:
        if name not in self.embedders:
            self.embedders[name] = bundled(name)
            self.loads += 1
        return self.embedders[name]

    def index(self, location: str, model: str) -> VectorIndex:
        from remem.store.backends import open_store

        key = (location, model)
        if key not in self.indexes:
            path = Path(location)
            if not path.is_absolute() or not path.is_file():
                raise RememError(f"not a store file: {location}")
            # A write waits at most BUSY for another process's lock: no save waits on
            # the service while the service waits on a save (issue 32).
            index = VectorIndex(open_store(path, busy_timeout=BUSY), self.embedder(model))
            index.yield_to_writers, index.sync_budget = True, SYNC_BUDGET
            self.indexes[key] = index
        return self.indexes[key]

    def catch_up(self) -> None:
        """Between requests: embed more of the memories stored without a vector; the
        first time, have what a one-shot command's save and search read loaded."""
        for index in [i for i in self.indexes.values() if i.behind]:
            with self.lock:
                index.refresh()
        if not self.warm:
            self.warm = True
            with self.lock:
                warm_up()

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        op = message.get("op")
        if op == "ping":
            return {
                "ok": True,
                "pid": os.getpid(),
                "requests": self.requests,
                "loads": self.loads,
                "hooks": self.hooks,
                "commands": self.commands,
                "protocol": PROTOCOL,
            }
        if op != "stop" and message.get("protocol") != PROTOCOL:
            return {"stale": True, "protocol": PROTOCOL}
        if op == "cut":  # jieba's dictionary stays loaded here (`remem.text.cut_elsewhere`)
            with self.lock:
                return {"cuts": text.cut_for_search([str(run) for run in message["runs"]])}
        if op == "tag":
            with self.lock:
                return {"tags": [text.jieba_tag(str(t)) for t in message["texts"]]}
        if op == "hook":  # the hook's code, imported only once a hook asks
            from remem.hooks.served import answer

            with self.lock:
                self.hooks += 1
                return answer(message)
        if op == "cli":  # a one-shot command run whole (`remem.cli.served`)
            from remem.cli.served import answer as run_command

            with self.lock:
                self.commands += 1
                return run_command(message)
        with self.lock:
            self.requests += 1
            if op == "embed":
                vectors = self.embedder(str(message["model"])).embed(
                    [str(t) for t in message["texts"]], query=bool(message.get("query"))
                )
                return {"vectors": blob(vectors)}
            if op == "nearest":
                index = self.index(str(message["store"]), str(message["model"]))
                if "vector" in message:
                    vector = vectors_of(str(message["vector"]), index.embedder.dim)[0]
                else:
                    vector = index.embed_query(str(message["text"]), _names(message))
                return {"hits": index.nearest(vector, int(message["n"]))}
            if op == "near_entry":
                index = self.index(str(message["store"]), str(message["model"]))
                vector = index.embedder.embed([str(message["text"])])[0]
                return {"vector": blob(vector), "hits": index.nearest(vector, int(message["n"]))}
            if op == "cosines":
                index = self.index(str(message["store"]), str(message["model"]))
                vector = index.embed_query(str(message["text"]), _names(message))
                return {"cosines": index.cosines(vector, [str(i) for i in message["ids"]])}
        return {"error": f"unknown request {op!r}"}


WARM_UP = ("The weekly sync moved to 10:30 on Mondays", "周会改到周一上午十点半")


def warm_up() -> None:
    """A save and a search in a throwaway store: the modules a command imports, the
    rules' compiled patterns and the judges' weights loaded before the first command
    asks (~1 s of this process's time, once, while it waits)."""
    import importlib
    import tempfile

    from remem.memory import Memory
    from remem.truth import judge

    for module in ("click.testing", "remem.cli.app", "remem.cli.served"):
        importlib.import_module(module)
    for kind in ("words", "embed", "vectors"):
        judge.load(kind)
    with (
        tempfile.TemporaryDirectory() as folder,
        Memory(Path(folder) / "warm-up.db", project="warm-up", embedder=None) as memory,
    ):
        for fact in WARM_UP:
            memory.save(fact)
        memory.search(WARM_UP[0])


def _names(message: dict[str, Any]) -> tuple[str, ...]:
    """The entities a query names (`vector_index.query_vector`), as the request gives them."""
    return tuple(str(n) for n in message.get("names") or ())


def serve(path: Path, idle: float) -> None:
    """Answer requests on the unix socket `path` until `idle` seconds pass without one,
    a `stop` request comes, or the socket file is removed."""
    service = Service()
    warm.answer_here(service.handle)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        old = os.umask(0o077)
        try:
            server.bind(str(path))
        finally:
            os.umask(old)
        server.listen(16)
        server.settimeout(1.0)
        for conn in _connections(server, path, idle, service):
            with conn:
                try:
                    conn.settimeout(30.0)
                    message = receive(conn)
                    if message.get("op") == "stop":
                        send(conn, {"ok": True})
                        break
                    send(conn, _answer(service, message))
                except (OSError, ValueError):
                    continue  # a client that went away: serve the next
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _connections(
    server: socket.socket, path: Path, idle: float, service: Service
) -> Iterator[socket.socket]:
    """Connections as they come, while the socket file exists and one came within
    `idle` seconds; in the gaps, the service catches up on its backlog."""
    last = time.monotonic()
    while time.monotonic() - last <= idle and path.exists():
        try:
            conn, _ = server.accept()
        except TimeoutError:
            with contextlib.suppress(Exception):  # a store gone or busy: next time
                service.catch_up()
            continue
        last = time.monotonic()
        yield conn


def _answer(service: Service, message: dict[str, Any]) -> dict[str, Any]:
    try:
        return service.handle(message)
    except Exception as exc:  # one bad request must not end the service
        return {"error": f"{type(exc).__name__}: {exc}"}


if __name__ == "__main__":
    serve(Path(sys.argv[1]), float(sys.argv[2]))
