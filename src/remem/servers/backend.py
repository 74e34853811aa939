"""What every request of `remem serve` shares: the settings, the open store, the token
check, the MCP sessions' guards and a pool of `Memory` objects, one per token partition
and project in use. Free of the web framework (the API, the web page and MCP use it)."""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from remem.errors import InvalidInput, RememError
from remem.extract.guard import ExternalGuard
from remem.memory import Memory
from remem.servers.auth import TokenCheck, bearer
from remem.servers.mcp import MemoryTools
from remem.settings import Settings
from remem.store.protocol import ApiToken, Store

if TYPE_CHECKING:
    from remem.retrieval.embedding import Embedder

__all__ = ["PROJECT_HEADER", "Backend"]

POOL = 256  # Memory objects kept (one per token and project in use)
PROJECT_HEADER = "x-remem-project"


class Backend:
    """What every request shares: settings, the open store, the token check and a small
    pool of `Memory` objects, one per (user, agent, project) in use."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        if store is None:
            from remem.store.backends import open_store

            store = open_store(settings.db, synchronous=settings.synchronous)
        self.settings = settings
        self.store = store
        self.embedder = embedder
        self.check = TokenCheck(store)
        self.guards: dict[str, ExternalGuard] = {}  # MCP sessions' SE2 marks, by token
        self.csrf_key = secrets.token_bytes(32)  # the web page's forms, for this process
        self._pool: OrderedDict[tuple[str, str | None, str], Memory] = OrderedDict()
        self._lock = threading.Lock()
        # An in-process vector matrix is not safe for concurrent use: with an embedder,
        # requests take turns (keyword-only serving runs them side by side).
        self._vector_turns = threading.Lock() if embedder is not None else None

    def project(self, given: str | None) -> str:
        """The project a request names (verbatim: a name, not a path of this machine)."""
        if given is None or not given.strip():
            return self.settings.project
        value = given.strip()
        if len(value) > 500 or any(ord(c) < 32 for c in value):
            raise InvalidInput("a project is one line of at most 500 characters")
        return value

    def memory(self, token: ApiToken, project: str | None = None) -> Memory:
        """The `Memory` of `token`'s partition in `project`."""
        key = (token.user_id, token.agent_id, self.project(project))
        with self._lock:
            mem = self._pool.get(key)
            if mem is not None:
                self._pool.move_to_end(key)
                return mem
        settings = replace(
            self.settings, user_id=key[0], agent_id=key[1], project=key[2], session_id=None
        )
        mem = Memory(settings=settings, store=self.store, embedder=self.embedder)
        with self._lock:
            mem = self._pool.setdefault(key, mem)
            while len(self._pool) > POOL:
                self._pool.popitem(last=False)  # never closed: they share the store
        return mem

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """Hold while a request works on its Memory (see `_vector_turns`)."""
        if self._vector_turns is None:
            yield
            return
        with self._vector_turns:
            yield

    def tools(self, ctx: Any) -> MemoryTools:
        """The MCP tools of the token in an MCP call's headers (the gate checked it)."""
        headers = ctx.headers or {}
        token = self.check(bearer(headers.get("authorization")))
        if token is None:
            raise RememError("the API token is missing, unknown or revoked")
        return MemoryTools(
            self.memory(token, headers.get(PROJECT_HEADER)),
            guards=self.guards,
            owner=token.id,
            read_only=token.read_only,
        )

    def warm(self) -> threading.Thread:
        """Load what the first save and search would otherwise wait for (the tokenizer,
        jieba's dictionary, the secret patterns, the truth rules, the embedder: 2-9 s on
        a small machine) in a thread, so the server answers at once (issue 32); a
        request that needs one of them meanwhile waits for it alone."""

        def load() -> None:
            from remem import text
            from remem.secrets import looks_secret
            from remem.tokens import count_tokens
            from remem.truth import writes  # noqa: F401  (the rules a save reads)

            count_tokens("预热 warm-up")
            text.terms("预热 warm-up")
            looks_secret("预热 warm-up")
            if (preload := getattr(self.embedder, "load", None)) is not None:
                preload()

        def quietly() -> None:
            try:
                load()
            except Exception:  # noqa: S110 - the request that needs it says what failed
                pass

        thread = threading.Thread(target=quietly, name="remem-warm-up", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self.store.close()
