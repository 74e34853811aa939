"""A local model server for the terminal agents' own clients (stdlib only, 127.0.0.1):
Anthropic Messages (Claude Code), OpenAI Responses (Codex CLI) and Gemini
generateContent / streamGenerateContent (Gemini CLI), each streamed the way its client
reads it. Every request body is kept; every answer is the text `reply`.

    with AgentModels(reply="Noted.") as srv:
        ... ANTHROPIC_BASE_URL=srv.url ...
        srv.bodies("/v1/messages")     # the request bodies, parsed
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class AgentModels:
    def __init__(self, reply: str = "Noted.") -> None:
        self.reply = reply
        self.requests: list[tuple[str, Any]] = []  # (path, parsed body)
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.models = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> AgentModels:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def record(self, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append((path, body))

    def bodies(self, contains: str) -> list[Any]:
        with self._lock:
            return [b for p, b in self.requests if contains in p]

    def seen(self, contains: str) -> str:
        """Every request body sent to a path containing `contains`, as one text."""
        return "\n".join(json.dumps(b, ensure_ascii=False) for b in self.bodies(contains))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    @property
    def models(self) -> AgentModels:
        return self.server.models  # type: ignore[attr-defined,no-any-return]

    def do_GET(self) -> None:  # model lists and the like: empty, but well formed
        self.models.record(self.path, None)
        self._json({"data": [], "models": [], "object": "list"})

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(size) if size else b""
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.models.record(self.path, body)
        text = self.models.reply
        path = self.path.split("?")[0]
        if path.endswith("/messages/count_tokens"):
            self._json({"input_tokens": 10})
        elif path.endswith("/messages"):
            self._anthropic(body, text)
        elif path.endswith("/responses"):
            self._responses(text)
        elif path.endswith(":streamGenerateContent"):
            self._sse([("", _gemini(text))])
        elif path.endswith(":generateContent"):
            self._json(_gemini(text))
        elif path.endswith(":countTokens"):
            self._json({"totalTokens": 10})
        else:
            self._json({})

    # -- the three protocols -------------------------------------------------------------

    def _anthropic(self, body: Any, text: str) -> None:
        model = body.get("model", "claude") if isinstance(body, dict) else "claude"
        usage = {"input_tokens": 10, "output_tokens": 2}
        message = {
            "id": "msg_1", "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage,
        }  # fmt: skip
        if not (isinstance(body, dict) and body.get("stream")):
            message.update(content=[{"type": "text", "text": text}], stop_reason="end_turn")
            self._json(message)
            return
        self._sse([
            ("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": {"type": "text", "text": ""}}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": text}}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "usage": {"output_tokens": 2},
                               "delta": {"stop_reason": "end_turn", "stop_sequence": None}}),
            ("message_stop", {"type": "message_stop"}),
        ])  # fmt: skip

    def _responses(self, text: str) -> None:
        item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}  # fmt: skip
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 2, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 12}  # fmt: skip
        response = {"id": "resp_1", "object": "response", "status": "completed",
                    "output": [item], "usage": usage}  # fmt: skip
        self._sse([
            ("response.created", {"type": "response.created",
                                  "response": {**response, "status": "in_progress", "output": []}}),
            ("response.output_item.added", {"type": "response.output_item.added",
                                            "output_index": 0, "item": {**item, "content": []}}),
            ("response.output_text.delta", {"type": "response.output_text.delta",
                                            "item_id": "msg_1", "output_index": 0,
                                            "content_index": 0, "delta": text}),
            ("response.output_item.done", {"type": "response.output_item.done",
                                           "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": response}),
        ])  # fmt: skip

    # -- the wire ------------------------------------------------------------------------

    def _json(self, data: Any) -> None:
        raw = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _sse(self, events: list[tuple[str, Any]]) -> None:
        chunks = []
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            chunks.append(f"{head}data: {json.dumps(data)}\n\n")
        raw = "".join(chunks).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


def _gemini(text: str) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 2,
                          "totalTokenCount": 12},
        "modelVersion": "gemini-2.5-flash",
    }  # fmt: skip
