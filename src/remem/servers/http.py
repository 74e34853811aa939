"""`remem serve`: one ASGI application over the configured store — the REST API
(`/api/...`, schema at `/openapi.json`), MCP over streamable HTTP (`/mcp`) and the web
page (`/`) — run by uvicorn.

Every request carries an API token (`remem.servers.auth`): a bearer header for the API
and MCP, an HttpOnly cookie for the web page. A request acts through a `Memory` of the
token's user and agent and the project it names (`?project=`, `X-Remem-Project`, else
the server's), so partitions are enforced where they are for the CLI: in `Memory`.
All requests share one open store; FastAPI runs the (blocking) handlers in threads.

Imported only by `remem serve` (and tests): the web stack never slows other commands.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from remem.errors import (
    AmbiguousId,
    InvalidInput,
    NotFound,
    RememError,
    SecretRefused,
    StoreError,
)
from remem.servers import api, strict, web
from remem.servers.auth import ReadOnlyToken, bearer, is_loopback
from remem.servers.backend import Backend
from remem.servers.mcp import tool_server

if TYPE_CHECKING:
    import uvicorn

__all__ = ["build_app", "running"]


class BearerGate:
    """An ASGI wrapper that lets through only requests with a valid bearer token."""

    def __init__(self, app: ASGIApp, backend: Backend) -> None:
        self.app = app
        self.backend = backend

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if self.backend.check(bearer(headers.get("authorization"))) is None:
            response = JSONResponse(
                {"detail": "an API token is required: Authorization: Bearer <token>"},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="remem"'},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class NoFraming:
    """An ASGI wrapper adding headers that keep every page out of another site's frame
    (a click on a hidden remem page inside it) and its answers read as what they say."""

    HEADERS = [
        (b"x-frame-options", b"DENY"),
        (b"content-security-policy", b"frame-ancestors 'none'"),
        (b"x-content-type-options", b"nosniff"),
    ]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, framed)


class LoopbackHost:
    """An ASGI wrapper for a server listening on loopback: it answers only requests whose
    Host names loopback (127.0.0.1, localhost, [::1], any port). A page of another site
    whose name was made to resolve to 127.0.0.1 (DNS rebinding) sends its own name, and
    would otherwise be "same origin" with this server in the browser's eyes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
            if not is_loopback(host_name(host)):
                response = JSONResponse(
                    {"detail": "this server answers only to a loopback host name "
                     "(127.0.0.1, localhost, [::1])"},
                    status_code=421,
                )  # fmt: skip
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def host_name(host: str) -> str:
    """The name in a Host header, without its port ("[::1]:8000" -> "::1")."""
    host = host.strip()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else ""
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


# remem's errors as HTTP statuses: what went wrong is always one line in "detail".
_STATUS: list[tuple[type[RememError], int]] = [
    (ReadOnlyToken, 403),
    (SecretRefused, 422),
    (InvalidInput, 400),
    (NotFound, 404),
    (AmbiguousId, 400),
    (StoreError, 503),
]


def _status_of(exc: RememError) -> int:
    return next((status for kind, status in _STATUS if isinstance(exc, kind)), 400)


def build_app(backend: Backend, *, host: str = "127.0.0.1") -> FastAPI:
    """The whole server over `backend`; `host` is where it listens (the MCP transport's
    DNS-rebinding protection allows only loopback host names when that is loopback)."""
    from mcp.server.transport_security import TransportSecuritySettings

    from remem import __version__

    mcp = tool_server(backend.tools)
    security = (
        None
        if is_loopback(host)
        else TransportSecuritySettings(enable_dns_rebinding_protection=False)
    )
    mcp_app = mcp.streamable_http_app(
        streamable_http_path="/mcp", host=host, transport_security=security
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        backend.warm()  # in a thread, now that the server's own imports are done
        async with mcp.session_manager.run():
            yield

    app = FastAPI(
        title="remem",
        version=__version__,
        summary="Local-first long-term memory for LLM agents, for a team.",
        description=api.DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # Swagger UI / ReDoc would load scripts from a CDN: the schema
        redoc_url=None,  # itself is at /openapi.json for any OpenAPI viewer
    )
    app.state.backend = backend

    _add_error_handlers(app)
    app.include_router(api.router)
    app.add_middleware(strict.StrictJSON)
    web.mount(app)
    endpoint = mcp_app.routes[0]
    assert isinstance(endpoint, Route)
    app.router.routes.append(Route("/mcp", endpoint=BearerGate(endpoint.app, backend)))
    if is_loopback(host):
        app.add_middleware(LoopbackHost)
    app.add_middleware(NoFraming)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    """Errors as one line: JSON under /api/, a page for the browser."""

    @app.exception_handler(RememError)
    async def remem_error(request: Request, exc: RememError) -> Response:
        if not request.url.path.startswith("/api/"):
            return web.error_page(request, str(exc), _status_of(exc))
        return JSONResponse({"detail": str(exc)}, status_code=_status_of(exc))

    app.add_exception_handler(RequestValidationError, strict.validation_error)

    # Bad input that slipped past the checks (a value the library could not take) is the
    # client's, told in one line: never a 500 and a traceback in the log.
    async def bad_value(request: Request, exc: Exception) -> Response:
        detail = f"invalid request: {str(exc)[:300]}".replace("\n", " ")
        if not request.url.path.startswith("/api/"):
            return web.error_page(request, detail, 400)
        return JSONResponse({"detail": detail}, status_code=400)

    for kind in (ValueError, TypeError, OverflowError, RecursionError):
        app.add_exception_handler(kind, bad_value)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/") or exc.status_code == 404:
            return await http_exception_handler(request, exc)
        return web.error_page(request, str(exc.detail), exc.status_code)


@contextlib.contextmanager
def running(app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve `app` with uvicorn in a thread (tests, benchmarks); yields its base URL and
    stops it on leaving. Port 0 picks a free one."""
    import uvicorn

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        _wait_started(server, thread)
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _wait_started(server: uvicorn.Server, thread: threading.Thread) -> None:
    import time

    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RememError("the server did not start")
        time.sleep(0.01)
