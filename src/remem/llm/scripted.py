"""A scripted chat model for tests (like llm's MockModel, httpx's MockTransport): it
replays canned replies in order and records every request, so nobody patches remem."""

from __future__ import annotations

import copy
import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeAlias

from remem.llm.model import (
    ChatRequest,
    ChatResponse,
    ScriptExhausted,
    TokenAccount,
    Usage,
    build_response,
)
from remem.messages import Message

Reply: TypeAlias = str | ChatResponse | Mapping[str, Any] | BaseException
"""A canned reply: text; a ChatResponse; a dict with "content", "tool_calls"
([{"name", "arguments"}] or OpenAI format), optional "usage" and "finish_reason";
or an exception to raise (e.g. an LLMError, to test fallbacks)."""


class ScriptedChatModel:
    """Replays canned replies in order and records every request (like llm's
    MockModel). Usage is estimated with remem's tokenizer unless a reply gives it."""

    def __init__(
        self,
        replies: Iterable[Reply] = (),
        *,
        name: str = "scripted",
        account: TokenAccount | None = None,
    ) -> None:
        self.name = name
        self.account = account
        self.requests: list[ChatRequest] = []
        self._replies: deque[Reply] = deque(replies)
        self._given = len(self._replies)
        self._lock = threading.Lock()

    def add(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)
            self._given += len(replies)

    @property
    def remaining(self) -> int:
        return len(self._replies)

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
        on_text: Callable[[str], None] | None = None,
        purpose: str = "chat",
    ) -> ChatResponse:
        request = ChatRequest(
            copy.deepcopy(list(messages)),
            copy.deepcopy(list(tools)) if tools is not None else None,
            max_tokens,
            purpose,
        )
        with self._lock:
            self.requests.append(request)
            number = len(self.requests)
            if not self._replies:
                raise ScriptExhausted(
                    f"ScriptedChatModel got request #{number} "
                    f"but was given only {self._given} replies"
                )
            reply = self._replies.popleft()
        if isinstance(reply, BaseException):
            raise reply
        response = self.build_response(reply, request, number)
        if on_text is not None:
            for piece in _pieces(response.content):
                on_text(piece)
        if self.account is not None:
            self.account.record(purpose, response.usage)
        return response

    def build_response(
        self, reply: str | ChatResponse | Mapping[str, Any], request: ChatRequest, number: int
    ) -> ChatResponse:
        if isinstance(reply, ChatResponse):
            return reply
        if isinstance(reply, str):
            reply = {"content": reply}
        specs = reply.get("tool_calls") or []
        calls = [_tool_call(spec, f"call_{number}_{n}") for n, spec in enumerate(specs)]
        params = {"messages": request.messages, "tools": request.tools}
        usage = Usage(**reply["usage"]) if reply.get("usage") else None
        finish = reply.get("finish_reason") or ("tool_calls" if calls else "stop")
        return build_response(
            params, str(reply.get("content") or ""), calls, usage, finish, self.name
        )


def _tool_call(spec: Mapping[str, Any], default_id: str) -> dict[str, Any]:
    """A tool call in OpenAI format from either that format or {"name", "arguments"}."""
    function = dict(spec.get("function") or {"name": spec["name"]})
    arguments = function.get("arguments", spec.get("arguments", ""))
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments, ensure_ascii=False)
    function["arguments"] = arguments
    return {"id": spec.get("id") or default_id, "type": "function", "function": function}


def _pieces(text: str, parts: int = 3) -> list[str]:
    """`text` in a few chunks, the way a stream would deliver it."""
    size = max(1, -(-len(text) // parts))
    return [text[i : i + size] for i in range(0, len(text), size)]
