"""A warm vector service for one-shot commands.

Loading the shipped model costs a second or more (its tokenizer is pure Python) and a
store's vectors must be read into a matrix before a search: far more than the
~0.2 s a `remem search` takes with keywords alone. So one-shot commands don't load
either. They ask a small background process — started on first need, private to the
user (a unix socket in `$REMEM_HOME/run/`, mode 0700), gone after `REMEM_WARM_IDLE`
seconds without a request (default 600) — which keeps the model and each store's
vector matrix in memory, as `remem chat` does for its own process:

- `embed`: vectors of texts (a save's new memory, a query);
- `nearest`: the entries of a SQLite store closest to a text or a vector, from the
  warm matrix (refreshed from the store whenever another process wrote).
- `cosines`: a query's cosines with given entries of a store (hybrid search scores
  its keyword candidates by them too).

Any failure to reach or start it falls back to doing the work in-process, so results
never depend on it; `REMEM_WARM=0` turns it off. PostgreSQL stores answer `nearest`
from their own HNSW index and never use it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remem.errors import RememError
from remem.settings import warm_idle

if TYPE_CHECKING:
    from remem.retrieval.embedding import Embedder, Vectors
    from remem.settings import Settings

Hit = tuple[str, float]  # an entry id and its cosine with what was asked
IDLE = 600.0  # seconds without a request before the service exits
SOCKET = "vectors.sock"
CONNECT_TIMEOUT = 0.25
START_TIMEOUT = 20.0  # the first request also waits for the model to load
CUT_TIMEOUT = 1.0  # a busy service (loading a matrix) is not waited for: jieba loads here
MAX_MESSAGE = 64 * 1024 * 1024
# What a request may ask and how it is answered; a service of another one (started by
# an older remem, still running after an upgrade) is replaced, not asked.
# 3: queries carry the entities they name (vector_index.query_vector); 4: `near_entry`
# (a new memory's vector and nearest in one request) and `tag` (jieba's tags); 5: `hook`
# (an agent's prompt hook answered whole: `remem.hooks.served`); 6: `cli` (a one-shot
# command run whole: `remem.cli.served`)
BUSY = 0.25  # seconds the service's writes (vectors it embedded) wait for the lock
PROTOCOL = 6
# Set in the service's own process: what it asks of itself (a command it runs for a
# client, embedding its save) is answered there, not over its socket, which it would
# wait on while answering.
_HERE: Callable[[dict[str, Any]], dict[str, Any]] | None = None


class WarmUnavailable(RememError):
    """The service could not be reached or started (the caller works in-process)."""


# -- the wire ----------------------------------------------------------------------------
def send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")


def receive(sock: socket.socket) -> dict[str, Any]:
    chunks: list[bytes] = []
    size = 0
    while not chunks or not chunks[-1].endswith(b"\n"):
        chunk = sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the connection closed mid-message")
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_MESSAGE:
            raise ConnectionError("message too large")
    reply = json.loads(b"".join(chunks))
    if not isinstance(reply, dict):
        raise ConnectionError("not a message")
    return reply


def blob(vectors: Vectors) -> str:
    return base64.b64encode(vectors.astype("<f4").tobytes()).decode()


def vectors_of(blob: str, dim: int) -> Vectors:
    import numpy as np

    return np.frombuffer(base64.b64decode(blob), dtype="<f4").reshape(-1, dim).copy()


# Services this process started (kept, so that one it stops again can be reaped).
_SPAWNED: list[Any] = []


def _stale(reply: dict[str, Any]) -> bool:
    """A reply of a service that speaks another protocol (an older one knows no
    'protocol' and answers a newer request as unknown)."""
    return bool(reply.get("stale")) or str(reply.get("error", "")).startswith("unknown request")


def answer_here(handle: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """In the service's process: its clients' requests go straight to `handle`."""
    global _HERE
    _HERE = handle


def carried(name: str) -> bool:
    """The variables a client's request may depend on (remem's, the OpenAI client's, and
    HOME, where ~/.remem is), sent with it and in place while the service answers."""
    return name.startswith(("REMEM_", "OPENAI_")) or name == "HOME"


@contextmanager
def environment(env: Mapping[str, Any]) -> Iterator[None]:
    """A client's variables (`carried`) in place of the service's while it answers (one
    request at a time: the service answers them in turn)."""
    kept = {k: v for k, v in os.environ.items() if carried(k)}
    try:
        for name in kept:
            del os.environ[name]
        os.environ.update({str(k): str(v) for k, v in env.items() if carried(str(k))})
        yield
    finally:
        for name in [k for k in os.environ if carried(k)]:
            del os.environ[name]
        os.environ.update(kept)


# -- the client ----------------------------------------------------------------------------
class WarmClient:
    """Requests to the service of one remem home, starting it when it is not running."""

    def __init__(self, home: Path, *, idle: float | None = None) -> None:
        self.run = home / "run"
        self.path = self.run / SOCKET
        self.idle = idle if idle is not None else warm_idle(IDLE)
        self.failed = False  # once unreachable, this process stops trying

    def request(self, message: dict[str, Any], *, timeout: float = START_TIMEOUT) -> dict[str, Any]:
        if self.failed:
            raise WarmUnavailable("the warm vector service is unavailable")
        message = {**message, "protocol": PROTOCOL}
        try:
            reply = self._exchange(message, timeout)
            if _stale(reply):
                self.stop()
                raise ValueError("a service of another remem was running")
        except (OSError, ValueError) as first:
            try:
                self._start()
                reply = self._exchange(message, timeout)
            except (OSError, ValueError, WarmUnavailable) as exc:
                self.failed = True
                raise WarmUnavailable(f"the warm vector service is unavailable: {exc}") from first
        if "error" in reply:
            raise WarmUnavailable(str(reply["error"]))
        return reply

    def ask(self, message: dict[str, Any], *, timeout: float) -> dict[str, Any] | None:
        """The answer of a service that is running (never started for this), or None:
        none running, no answer in time, another protocol's, or an error."""
        if self.failed or not self.path.exists():
            return None
        try:
            reply = self._exchange({**message, "protocol": PROTOCOL}, timeout)
        except (OSError, ValueError):
            return None
        return None if _stale(reply) or "error" in reply else reply

    def cut(self, runs: list[str], *, timeout: float = CUT_TIMEOUT) -> list[list[str]] | None:
        """jieba's cut_for_search of each Han run by a service that is running (never
        started for this: a cold service would cost more than jieba here); None when
        there is none or it does not answer in time."""
        if self.failed or not self.path.exists():
            return None
        try:
            message = {"op": "cut", "runs": runs, "protocol": PROTOCOL}
            cuts = self._exchange(message, timeout).get("cuts")
        except (OSError, ValueError):
            return None
        if not isinstance(cuts, list) or not all(isinstance(c, list) for c in cuts):
            return None  # an older service, or an error
        return [[str(token) for token in cut] for cut in cuts]

    def tag(
        self, texts: list[str], *, timeout: float = CUT_TIMEOUT
    ) -> list[list[tuple[str, str]]] | None:
        """jieba's part-of-speech tags of each text, by a service that is running (as
        `cut`: never started for this); None when there is none or it does not answer."""
        if self.failed or not self.path.exists():
            return None
        try:
            message = {"op": "tag", "texts": texts, "protocol": PROTOCOL}
            tags = self._exchange(message, timeout).get("tags")
        except (OSError, ValueError):
            return None
        if not isinstance(tags, list) or len(tags) != len(texts):
            return None  # an older service, or an error
        return [[(str(word), str(tag)) for word, tag in pairs] for pairs in tags]

    def _exchange(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        if _HERE is not None:
            try:
                return _HERE(message)
            except Exception as exc:  # as the socket's client hears a failed request
                return {"error": f"{type(exc).__name__}: {exc}"}
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_TIMEOUT)
            sock.connect(str(self.path))
            sock.settimeout(timeout)
            send(sock, message)
            return receive(sock)

    def _start(self) -> None:
        """Start the service (one, however many processes ask at once) and wait until it
        accepts connections."""
        import fcntl
        import subprocess

        self.run.mkdir(parents=True, exist_ok=True)
        os.chmod(self.run, 0o700)
        with open(self.run / "vectors.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self._alive():
                return
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()  # left by a service that died
            command = [sys.executable, "-m", "remem.retrieval.warm_service", str(self.path)]
            with open(self.run / "vectors.log", "ab") as log:
                _SPAWNED.append(
                    subprocess.Popen(
                        [*command, str(self.idle)],
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=log,
                        start_new_session=True,
                        close_fds=True,
                        env=service_env(),
                    )
                )
            deadline = time.monotonic() + START_TIMEOUT
            while not self._alive():
                if time.monotonic() > deadline:
                    raise WarmUnavailable("the warm vector service did not start")
                time.sleep(0.02)

    def _alive(self) -> bool:
        try:
            reply = self._exchange({"op": "ping"}, CONNECT_TIMEOUT * 4)
        except (OSError, ValueError):
            return False
        if reply.get("ok") and reply.get("protocol") != PROTOCOL:
            self.stop()  # an older service: wait for this one instead
            return False
        return bool(reply.get("ok"))

    def stop(self) -> bool:
        """Ask a running service to exit; False when none was running."""
        try:
            self._exchange({"op": "stop"}, 2.0)
        except (OSError, ValueError):
            return False
        for child in _SPAWNED[:]:  # one this process started: reap it
            with contextlib.suppress(Exception):
                child.wait(2.0)
                _SPAWNED.remove(child)
        return True

    def status(self) -> dict[str, Any] | None:
        try:
            return self._exchange({"op": "ping"}, 2.0)
        except (OSError, ValueError):
            return None


def service_env() -> dict[str, str]:
    """The service's environment: BLAS and OpenMP on one thread unless the user chose.
    It answers one small request at a time (a query's embedding, a scan for one vector),
    where threads only spin-wait against each other and every other busy process: on a
    shared 2-core machine, 4-5x the p95 of a hybrid search (84 vs 393 ms at 10k)."""
    env = dict(os.environ)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(name, "1")
    return env


class WarmEmbedder:
    """An `Embedder` whose vectors come from the warm service (the model stays loaded
    there); when the service is unavailable, from `local` in this process."""

    def __init__(self, local: Embedder, client: WarmClient) -> None:
        self.local = local
        self.client = client
        self.name, self.dim = local.name, local.dim
        self.low, self.high, self.weight = local.low, local.high, local.weight

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        if texts and not self.client.failed:
            try:
                reply = self.client.request(
                    {"op": "embed", "model": self.name, "texts": list(texts), "query": query}
                )
                return vectors_of(reply["vectors"], self.dim)
            except WarmUnavailable:
                pass
        return self.local.embed(texts, query=query)

    def nearest(
        self,
        location: str,
        n: int,
        *,
        text: str | None = None,
        vector: Vectors | None = None,
        names: Sequence[str] = (),
    ) -> list[tuple[str, float]] | None:
        """From the service's warm matrix of the store at `location` (for the query
        `text` naming `names`, or a vector); None when the service is unavailable (the
        caller scans its own)."""
        if self.client.failed:
            return None
        message: dict[str, Any] = {"op": "nearest", "model": self.name, "n": n}
        message["store"] = location
        if text is not None:
            message["text"] = text
            message["names"] = list(names)
        if vector is not None:
            message["vector"] = blob(vector.reshape(1, -1))
        try:
            reply = self.client.request(message)
        except WarmUnavailable:
            return None
        return [(str(eid), float(cos)) for eid, cos in reply["hits"]]

    def near_entry(self, location: str, text: str, n: int) -> tuple[bytes, list[Hit]] | None:
        """The vector (float32 bytes) of a memory whose embedded text is `text`, and the
        `n` entries of the store at `location` nearest to it, in one request: a save then
        needs neither the model nor numpy. None when the service is unavailable."""
        if self.client.failed:
            return None
        message = {"op": "near_entry", "model": self.name, "store": location, "text": text}
        try:
            reply = self.client.request({**message, "n": n})
        except WarmUnavailable:
            return None
        hits = [(str(eid), float(cos)) for eid, cos in reply["hits"]]
        return base64.b64decode(reply["vector"]), hits

    def cosines(
        self, location: str, text: str, ids: Sequence[str], *, names: Sequence[str] = ()
    ) -> dict[str, float] | None:
        """Cosines of the query `text` (naming `names`) with the vectors of `ids` in the
        store at `location`; None when the service is unavailable, {} when it cannot tell
        (an older service still running)."""
        if self.client.failed:
            return None
        message = {
            "op": "cosines",
            "model": self.name,
            "store": location,
            "text": text,
            "names": list(names),
        }
        try:
            reply = self.client.request({**message, "ids": list(ids)})
        except WarmUnavailable:
            return None if self.client.failed else {}
        return {str(eid): float(cos) for eid, cos in reply["cosines"].items()}


def one_shot_embedder(settings: Settings) -> Embedder | None:
    """`REMEM_EMBEDDER`'s embedder for a one-shot command (a CLI command, an agent's
    hook): a local model is used through this service, so the command never loads it
    nor a store's vectors itself; `REMEM_WARM=0` loads them in-process instead."""
    from remem.retrieval.embedding import FakeEmbedder, bundled_names, embedder_from_env
    from remem.settings import is_url, warm_service_wanted

    local = embedder_from_env()
    if (
        local is None
        or not warm_service_wanted()
        or is_url(settings.db)
        or local.name not in bundled_names()
    ):
        return local
    if isinstance(local, FakeEmbedder) and local.dim != FakeEmbedder().dim:
        return local
    return WarmEmbedder(local, WarmClient(settings.home))


def one_shot_cutter(settings: Settings, embedder: Embedder | None) -> WarmClient | None:
    """Whose service cuts and tags Chinese for a one-shot command (jieba's dictionary
    costs a process 80-170 ms): the embedder's; keyword-only, that of a service already
    running for this home (`cut` and `tag` never start one); none with `REMEM_WARM=0`."""
    from remem.settings import warm_service_wanted

    client = getattr(embedder, "client", None)
    if isinstance(client, WarmClient):
        return client
    return WarmClient(settings.home) if embedder is None and warm_service_wanted() else None
