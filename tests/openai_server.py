"""A real local HTTP server speaking the OpenAI chat completions protocol (stdlib only).

It runs in a background thread on 127.0.0.1 (a free port) so that the real client
code path — the `openai` SDK, HTTP, JSON, server-sent events — is exercised offline.

    with OpenAIServer() as srv:              # or the `openai_server` fixture
        srv.script(["hello", {"tool_calls": [{"name": "search", "arguments": {"q": "x"}}]}])
        srv.fail(2, status=429)              # the next 2 requests get HTTP 429
        srv.delay(1.0)                       # the next request waits 1 s first
        ... srv.base_url ...                 # "http://127.0.0.1:PORT/v1"
        srv.requests[0]["messages"]          # every request body, parsed

A reply is text, or a dict with "content", "tool_calls" ([{"name", "arguments"}] or
OpenAI format), "finish_reason", "usage" ({"prompt_tokens", "completion_tokens"};
None to send no usage at all), "stream_error" (a message: a stream sends its
content, then an error event), and "pace" (seconds between streamed content pieces,
for a slow stream). Streaming follows OpenAI's chunk shapes: a role delta,
content in pieces, each tool call's id and name then its arguments in pieces, a final
chunk with finish_reason, a usage chunk when stream_options.include_usage, [DONE].
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Reply = str | Mapping[str, Any]
CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")
MODEL_PATHS = ("/v1/models", "/models")


@dataclass
class Failure:
    status: int
    message: str
    headers: dict[str, str] = field(default_factory=dict)


class OpenAIServer:
    def __init__(self, model: str = "test-model", piece: int = 3) -> None:
        self.model = model
        self.piece = piece  # characters per streamed content/arguments piece
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._replies: deque[Reply] = deque()
        self._failures: deque[Failure] = deque()
        self._delays: deque[float] = deque()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.app = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,), daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, replies: Sequence[Reply]) -> None:
        with self._lock:
            self._replies.extend(replies)

    def clear(self) -> None:
        """Forget the replies not used yet."""
        with self._lock:
            self._replies.clear()

    def fail(
        self,
        times: int = 1,
        *,
        status: int = 500,
        message: str = "the server had an error",
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """The next `times` chat requests get `status` with an OpenAI-style error body."""
        with self._lock:
            self._failures.extend(
                Failure(status, message, dict(headers or {})) for _ in range(times)
            )

    def delay(self, seconds: float, times: int = 1) -> None:
        """The next `times` chat requests wait `seconds` before being answered."""
        with self._lock:
            self._delays.extend([seconds] * times)

    def start(self) -> OpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what the handler asks ---------------------------------------------------------

    def _arrived(self, body: dict[str, Any], headers: dict[str, str]) -> float:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            return self._delays.popleft() if self._delays else 0.0

    def _next(self) -> Failure | dict[str, Any]:
        with self._lock:
            if self._failures:
                return self._failures.popleft()
            if not self._replies:
                n = len(self.requests)
                return Failure(400, f"openai_server: no scripted reply left for request #{n}")
            reply = self._replies.popleft()
        return {"content": reply} if isinstance(reply, str) else dict(reply)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    app: OpenAIServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client hanging up is fine
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, chunked streams: like a real server
    server: _HTTPServer
    timeout = 10

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        if self.path.split("?")[0] not in MODEL_PATHS:
            return self._error(Failure(404, f"no route {self.path}"))
        model = {"id": self.server.app.model, "object": "model", "created": 0, "owned_by": "tests"}
        self._json(200, {"object": "list", "data": [model]})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.split("?")[0] not in CHAT_PATHS:
            return self._error(Failure(404, f"no route {self.path}"))
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            return self._error(Failure(400, f"invalid JSON: {exc}"))
        app = self.server.app
        wait = app._arrived(body, {k.lower(): v for k, v in self.headers.items()})
        if wait and app._stopped.wait(wait):
            return  # the server is stopping: leave without answering
        outcome = app._next()
        try:
            if isinstance(outcome, Failure):
                self._error(outcome)
            elif body.get("stream"):
                self._stream(_chunks(app, body, outcome))
            else:
                self._json(200, _completion(app, body, outcome))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)

    def _json(self, status: int, payload: Any, headers: Mapping[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _error(self, failure: Failure) -> None:
        kind = "rate_limit_exceeded" if failure.status == 429 else "server_error"
        if failure.status < 500 and failure.status != 429:
            kind = "invalid_request_error"
        error = {"message": failure.message, "type": kind, "param": None, "code": None}
        self._json(failure.status, {"error": error}, failure.headers)

    def _stream(self, chunks: Iterator[dict[str, Any]]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        events = (json.dumps(c, ensure_ascii=False) for c in chunks)
        for data in itertools.chain(events, ["[DONE]"]):  # each chunk as soon as it is made
            event = f"data: {data}\n\n".encode()
            self.wfile.write(f"{len(event):X}\r\n".encode() + event + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


# -- reply → protocol ------------------------------------------------------------------


def _tool_calls(reply: Mapping[str, Any], n: int) -> list[dict[str, Any]]:
    calls = []
    for i, spec in enumerate(reply.get("tool_calls") or []):
        function = spec.get("function") or {
            "name": spec["name"],
            "arguments": spec.get("arguments"),
        }
        arguments = function.get("arguments") or ""
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False)
        calls.append(
            {
                "id": spec.get("id") or f"call_{n}_{i}",
                "type": "function",
                "function": {"name": function["name"], "arguments": arguments},
            }
        )
    return calls


def _usage(body: Mapping[str, Any], reply: Mapping[str, Any]) -> dict[str, int] | None:
    if "usage" in reply:
        given = reply["usage"]
        if given is None:
            return None
        prompt, completion = given["prompt_tokens"], given["completion_tokens"]
    else:  # a deterministic stand-in for a tokenizer: 1 token per 4 characters
        chars = sum(len(str(m.get("content") or "")) for m in body.get("messages", []))
        prompt = chars // 4 + len(body.get("messages", []))
        completion = len(str(reply.get("content") or "")) // 4 + 1
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _finish(reply: Mapping[str, Any], calls: list[dict[str, Any]]) -> str:
    return str(reply.get("finish_reason") or ("tool_calls" if calls else "stop"))


def _completion(app: OpenAIServer, body: Mapping[str, Any], reply: Mapping[str, Any]) -> Any:
    n = len(app.requests)
    calls = _tool_calls(reply, n)
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("content") or None}
    if calls:
        message["tool_calls"] = calls
    result: dict[str, Any] = {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model") or app.model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": _finish(reply, calls),
            }
        ],
    }
    usage = _usage(body, reply)
    if usage is not None:
        result["usage"] = usage
    return result


def _split(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _chunks(app: OpenAIServer, body: Mapping[str, Any], reply: Mapping[str, Any]) -> Iterator[Any]:
    n = len(app.requests)
    calls = _tool_calls(reply, n)
    include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
    base = {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model") or app.model,
        **({"usage": None} if include_usage else {}),
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return {**base, "choices": [choice]}

    yield chunk({"role": "assistant", "content": ""})
    content = str(reply.get("content") or "")
    pace = float(reply.get("pace") or 0)
    if content:
        for n, piece in enumerate(_split(content, app.piece)):
            if pace and n and app._stopped.wait(pace):
                return  # the server is stopping
            yield chunk({"content": piece})
    if reply.get("stream_error"):  # the stream breaks off with an error event
        yield {"error": {"message": reply["stream_error"], "type": "server_error"}}
        return
    for i, call in enumerate(calls):
        head = {"name": call["function"]["name"], "arguments": ""}
        yield chunk(
            {"tool_calls": [{"index": i, "id": call["id"], "type": "function", "function": head}]}
        )
        for piece in _split(call["function"]["arguments"], app.piece):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield chunk({}, _finish(reply, calls))
    usage = _usage(body, reply)
    if include_usage and usage is not None:
        yield {**base, "choices": [], "usage": usage}


@pytest.fixture(name="openai_server")
def openai_server_fixture() -> Iterator[OpenAIServer]:
    """A running server; import `openai_server_fixture` (or list this module in
    `pytest_plugins`) to use it as `openai_server`."""
    with OpenAIServer() as srv:
        yield srv
