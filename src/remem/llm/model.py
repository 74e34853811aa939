"""LLM access (SPEC IF3) and per-call token accounting (SPEC ST3).

One small interface, `ChatModel`, with two implementations: `OpenAIChatModel`
(`remem.llm.openai_client`) for any OpenAI-compatible endpoint (OpenAI, vLLM,
llama.cpp, Ollama, a proxy...) and `ScriptedChatModel` (`remem.llm.scripted`), which
replays canned replies so tests never patch our code.

    settings = LLMSettings.from_env()      # REMEM_LLM_* first, then OPENAI_*
    account = TokenAccount()
    with OpenAIChatModel(settings, account=account) as model:
        reply = model.complete([{"role": "user", "content": "你好"}], on_text=print)
    print(account.report())

Messages are plain OpenAI-format dicts (remem.messages). The `openai` SDK is
imported on first use (it takes about a second), so importing remem stays fast.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from remem.errors import RememError
from remem.messages import Message, messages_tokens
from remem.tokens import count_tokens

if TYPE_CHECKING:
    pass


MAX_BACKOFF = 30.0  # seconds; longest wait between two attempts
MAX_RETRY_AFTER = 60.0  # a server asking for a longer wait gets no retry


class LLMError(RememError):
    """A model call failed (after any retries); the message is one line."""

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


class ScriptExhausted(AssertionError):
    """A `ScriptedChatModel` was asked for more replies than it was given.

    Deliberately not an `LLMError`, so code that falls back on LLM failures does
    not hide a test that forgot to script a reply."""


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one call consumed: input (prompt) and output (completion)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class ChatResponse:
    """A full reply: text, tool calls (OpenAI format), usage, why it stopped."""

    content: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = Usage()
    finish_reason: str = "stop"
    model: str = ""

    def as_message(self) -> Message:
        """The reply as an assistant message, ready to append to the conversation."""
        if not self.tool_calls:
            return {"role": "assistant", "content": self.content}
        return {
            "role": "assistant",
            "content": self.content or None,
            "tool_calls": copy.deepcopy(self.tool_calls),
        }


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """What a `ScriptedChatModel` was asked (deep copies, safe to inspect later)."""

    messages: list[Message]
    tools: list[dict[str, Any]] | None
    max_tokens: int | None
    purpose: str


class ChatModel(Protocol):
    """Anything that can complete a conversation.

    With `on_text`, the reply is streamed and `on_text` receives each text delta;
    the full response is returned either way. `purpose` labels the call in the
    token account ("chat", "summary", ...)."""

    name: str

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
        on_text: Callable[[str], None] | None = None,
        purpose: str = "chat",
    ) -> ChatResponse: ...


# -- token accounting (ST3) --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TokenTotals:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, usage: Usage) -> TokenTotals:
        return TokenTotals(
            self.calls + 1,
            self.prompt_tokens + usage.prompt_tokens,
            self.completion_tokens + usage.completion_tokens,
        )


class TokenAccount:
    """Records every model call's input/output tokens under a purpose label.

    Thread-safe: a background summary (CP5) may record while the chat does."""

    def __init__(self) -> None:
        self._by_purpose: dict[str, TokenTotals] = {}
        self._lock = threading.Lock()

    def record(self, purpose: str, usage: Usage) -> None:
        with self._lock:
            self._by_purpose[purpose] = self._by_purpose.get(purpose, TokenTotals()).add(usage)

    def by_purpose(self) -> dict[str, TokenTotals]:
        with self._lock:
            return dict(self._by_purpose)

    def total(self) -> TokenTotals:
        totals = self.by_purpose().values()
        return TokenTotals(
            sum(t.calls for t in totals),
            sum(t.prompt_tokens for t in totals),
            sum(t.completion_tokens for t in totals),
        )

    def report(self) -> str:
        """A readable table: calls and input/output/total tokens per purpose."""
        rows = [(name, t) for name, t in sorted(self.by_purpose().items())]
        rows.append(("total", self.total()))
        width = max(len("purpose"), *(len(name) for name, _ in rows))
        header = f"{'purpose':<{width}}  {'calls':>6}  {'input':>10}  {'output':>10}  {'total':>10}"
        lines = [header, "-" * len(header)]
        for name, t in rows:
            lines.append(
                f"{name:<{width}}  {t.calls:>6,}  {t.prompt_tokens:>10,}  "
                f"{t.completion_tokens:>10,}  {t.total_tokens:>10,}"
            )
        return "\n".join(lines)


# -- shared helpers ------------------------------------------------------------------


def build_response(
    params: Mapping[str, Any],
    content: str,
    tool_calls: list[dict[str, Any]],
    usage: Usage | None,
    finish_reason: str,
    model: str,
) -> ChatResponse:
    if usage is None:  # the server did not say: estimate with our tokenizer
        usage = estimate_usage(params["messages"], params.get("tools"), content, tool_calls)
    return ChatResponse(content, tool_calls, usage, finish_reason, model)


def estimate_usage(
    messages: Iterable[Message],
    tools: Sequence[Mapping[str, Any]] | None,
    content: str,
    tool_calls: list[dict[str, Any]],
) -> Usage:
    prompt = messages_tokens(messages)
    if tools:
        prompt += count_tokens(json.dumps(list(tools), ensure_ascii=False))
    completion = count_tokens(content)
    for call in tool_calls:
        function = call.get("function") or {}
        completion += count_tokens(str(function.get("name", "")))
        completion += count_tokens(str(function.get("arguments", "")))
    return Usage(prompt, completion)
