"""What a body must be before the REST API reads it: JSON (Content-Type application/json),
strict (no NaN or Infinity, no number out of range, no duplicate keys, no byte order mark,
no lone surrogate, nested at most 64 deep) and bounded in size. Anything else is a 4xx
with a one-line JSON `detail`, never a 500 (issue 29)."""

from __future__ import annotations

import json
import math
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY", "MAX_IMPORT_BODY", "StrictJSON", "validation_error"]

MAX_BODY = 1 << 20  # a memory is at most 32,000 characters, each field likewise
MAX_IMPORT_BODY = 64 << 20  # an export to import
MAX_DEPTH = 64
_NO_BODY = ("GET", "HEAD", "OPTIONS")


class BadBody(ValueError):
    """Why a body is refused, and with which status."""

    def __init__(self, detail: str, status: int = 400) -> None:
        super().__init__(detail)
        self.status = status


def _constant(name: str) -> Any:
    raise BadBody(f"the JSON holds {name}, which is not a number JSON allows")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadBody(f"the JSON number {text[:40]} is out of range")
    return value


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadBody(f"the JSON object has the key {ascii(key)[:60]} twice")
        out[key] = value
    return out


def parse(body: bytes) -> Any:
    """The strict reading of a JSON body, or BadBody."""
    if body.startswith(b"\xef\xbb\xbf"):
        raise BadBody("the body starts with a byte order mark: send plain UTF-8 JSON")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadBody(f"the body is not UTF-8 ({exc.reason})") from exc
    try:
        doc = json.loads(
            text, parse_constant=_constant, parse_float=_float, object_pairs_hook=_pairs
        )
    except RecursionError as exc:
        raise BadBody(f"the JSON is nested deeper than {MAX_DEPTH} levels") from exc
    except BadBody:
        raise
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise BadBody(f"the body is not JSON ({where}: {exc.msg})") from exc
    except ValueError as exc:  # an integer of thousands of digits, ...
        raise BadBody(f"the JSON could not be read: {str(exc)[:120]}") from exc
    _check_values(doc)
    return doc


def _check_values(doc: Any) -> None:
    """No lone surrogate in any string or key, no nesting deeper than MAX_DEPTH."""
    stack = [(doc, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BadBody(f"the JSON is nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise BadBody("the JSON holds broken Unicode (a lone surrogate)") from exc
        elif isinstance(item, dict):
            stack += [(k, depth) for k in item]
            stack += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, depth + 1) for v in item]


class StrictJSON:
    """An ASGI wrapper checking every /api/ request body (see the module) before the
    route reads it; the checked body is handed on unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/") or scope["method"] in _NO_BODY:
            await self.app(scope, receive, send)
            return
        limit = MAX_IMPORT_BODY if path.rstrip("/") == "/api/import" else MAX_BODY
        try:
            body = await _read(receive, limit)
            if body is None:
                return  # the client went away
            if body:
                _check_type(scope)
                parse(body)
        except BadBody as exc:
            await JSONResponse({"detail": str(exc)}, status_code=exc.status)(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _read(receive: Receive, limit: int) -> bytes | None:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BadBody(f"the body is larger than {limit >> 20} MB", 413)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _check_type(scope: Scope) -> None:
    headers = dict(scope.get("headers") or [])
    kind = headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()
    if kind != "application/json" and not kind.endswith("+json"):
        raise BadBody(
            f"the body must be JSON (Content-Type: application/json), not {kind or 'untyped'}",
            415,
        )


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422, in one line that names the fields and never echoes their values
    (a 10 MB value, or one JSON cannot even encode)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    parts = []
    for error in errors[:3]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {str(error.get('msg', 'invalid'))[:120]}")
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    detail = "invalid request: " + ("; ".join(parts) or "malformed") + more
    return JSONResponse({"detail": detail.replace("\n", " ")}, status_code=422)
