"""LLM access (SPEC IF3) and per-call token accounting (SPEC ST3).

One small interface, `ChatModel`, with two implementations: `OpenAIChatModel` for
any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp, Ollama, a proxy...) and
`ScriptedChatModel`, which replays canned replies so tests never patch our code.

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
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from remem.errors import RememError
from remem.messages import Message, messages_tokens, to_wire
from remem.tokens import count_tokens

if TYPE_CHECKING:
    import openai
    from openai.types.chat.chat_completion_chunk import ChoiceDeltaToolCall

__all__ = [
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "LLMError",
    "LLMSettings",
    "OpenAIChatModel",
    "ScriptExhausted",
    "TokenAccount",
    "TokenTotals",
    "Usage",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
NO_KEY = "not-needed"  # what the SDK is given for a local server that wants no key
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


# -- settings ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LLMSettings:
    """Where the model lives. `backoff` is the first retry's wait in seconds; each
    further retry doubles it (with jitter), up to `MAX_BACKOFF`."""

    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    model: str | None = None
    timeout: float = 60.0
    max_retries: int = 3
    backoff: float = 0.5

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> LLMSettings:
        """REMEM_LLM_BASE_URL / _API_KEY / _MODEL, each falling back to OPENAI_*.

        OPENAI_API_KEY is not sent to a REMEM_LLM_BASE_URL other than OpenAI's own
        endpoint: a key only goes where it was configured to go."""
        env = os.environ if env is None else env

        def get(name: str) -> str | None:
            return env.get(name, "").strip() or None

        openai_url = get("OPENAI_BASE_URL")
        base_url = get("REMEM_LLM_BASE_URL") or openai_url
        api_key = get("REMEM_LLM_API_KEY")
        if api_key is None and _endpoint(base_url) == _endpoint(openai_url):
            api_key = get("OPENAI_API_KEY")
        model = get("REMEM_LLM_MODEL") or get("OPENAI_MODEL")
        return cls(base_url=base_url, api_key=api_key, model=model)

    @property
    def configured(self) -> bool:
        return bool(self.model and (self.base_url or self.api_key))


def _endpoint(url: str | None) -> str:
    return (url or DEFAULT_BASE_URL).rstrip("/")


# -- the OpenAI-compatible implementation ------------------------------------------


class OpenAIChatModel:
    """A `ChatModel` for any endpoint speaking the OpenAI chat completions protocol.

    Retries 408/429/5xx, connection errors and timeouts with exponential backoff
    and jitter (honouring Retry-After), but never once text has been streamed to
    `on_text`. Failures end in an `LLMError` naming the status and server message."""

    def __init__(self, settings: LLMSettings, *, account: TokenAccount | None = None) -> None:
        if not settings.configured or settings.model is None:
            raise LLMError(
                "no LLM configured: set REMEM_LLM_MODEL and REMEM_LLM_BASE_URL "
                "or REMEM_LLM_API_KEY (or the OPENAI_* equivalents)"
            )
        self.settings = settings
        self.name: str = settings.model
        self.account = account
        self._client: openai.OpenAI | None = None
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return self.settings.base_url or DEFAULT_BASE_URL

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
        on_text: Callable[[str], None] | None = None,
        purpose: str = "chat",
    ) -> ChatResponse:
        import openai

        params: dict[str, Any] = {"model": self.name, "messages": to_wire(messages)}
        if tools:
            params["tools"] = list(tools)
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        streamed = False

        def emit(text: str) -> None:
            nonlocal streamed
            streamed = True
            if on_text is not None:
                on_text(text)

        for attempt in range(1, max(0, self.settings.max_retries) + 2):
            try:
                response = self._stream(params, emit) if on_text else self._call(params)
                break
            except openai.APIError as exc:
                delay = None if streamed else self._retry_delay(exc, attempt)
                if delay is None:
                    raise self._error(exc, attempt) from exc
                time.sleep(delay)
        if self.account is not None:
            self.account.record(purpose, response.usage)
        return response

    def _call(self, params: dict[str, Any]) -> ChatResponse:
        completion = self._sdk().chat.completions.create(**params)
        if not completion.choices:
            raise LLMError(f"the LLM at {self.base_url} returned no choices")
        choice = completion.choices[0]
        calls = [
            tc.model_dump(mode="json", exclude_none=True) for tc in choice.message.tool_calls or []
        ]
        usage = completion.usage
        return build_response(
            params,
            choice.message.content or "",
            calls,
            Usage(usage.prompt_tokens, usage.completion_tokens) if usage else None,
            choice.finish_reason or "",
            completion.model or self.name,
        )

    def _stream(self, params: dict[str, Any], emit: Callable[[str], None]) -> ChatResponse:
        stream = self._sdk().chat.completions.create(
            **params, stream=True, stream_options={"include_usage": True}
        )
        text: list[str] = []
        calls: dict[int, dict[str, Any]] = {}
        usage: Usage | None = None
        finish_reason, model = "", self.name
        with stream:
            for chunk in stream:
                model = chunk.model or model
                if chunk.usage is not None:
                    usage = Usage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens)
                for choice in chunk.choices:
                    if choice.index != 0:
                        continue
                    if choice.delta.content:
                        text.append(choice.delta.content)
                        emit(choice.delta.content)
                    for delta in choice.delta.tool_calls or []:
                        _merge_tool_call(calls, delta)
                    finish_reason = choice.finish_reason or finish_reason
        tool_calls = [calls[i] for i in sorted(calls)]
        return build_response(params, "".join(text), tool_calls, usage, finish_reason, model)

    def _sdk(self) -> openai.OpenAI:
        with self._lock:
            if self._client is None:
                import openai

                self._client = openai.OpenAI(
                    api_key=self.settings.api_key or NO_KEY,
                    base_url=self.base_url,
                    timeout=self.settings.timeout,
                    max_retries=0,  # we retry ourselves: see complete()
                )
            return self._client

    def _retry_delay(self, exc: openai.APIError, attempt: int) -> float | None:
        """Seconds to wait before the next attempt, or None to give up."""
        import openai

        if attempt > self.settings.max_retries:
            return None
        if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
            hinted = None
        elif isinstance(exc, openai.APIStatusError):
            headers = exc.response.headers
            should = headers.get("x-should-retry")
            retryable = exc.status_code in (408, 429) or exc.status_code >= 500
            if should == "false" or not (retryable or should == "true"):
                return None
            hinted = _retry_after(headers)
            if hinted is not None and hinted > MAX_RETRY_AFTER:
                return None
        else:  # an error event inside a stream, or a malformed response
            return None
        if hinted is not None:
            return hinted
        wait = min(self.settings.backoff * 2.0 ** (attempt - 1), MAX_BACKOFF)
        return wait * (0.5 + random.random() / 2)

    def _error(self, exc: openai.APIError, attempts: int) -> LLMError:
        import openai

        tries = f" ({attempts} attempts)" if attempts > 1 else ""
        status = exc.status_code if isinstance(exc, openai.APIStatusError) else None
        if isinstance(exc, openai.APITimeoutError):
            message = f"LLM request timed out after {self.settings.timeout:g} s"
            message += f" at {self.base_url}{tries}"
        elif isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.message
            message = f"cannot reach the LLM at {self.base_url}: {cause}{tries}"
        elif status is not None:
            message = f"LLM request failed: HTTP {status} from {self.base_url}: "
            message += f"{_server_message(exc)}{tries}"
        else:
            message = f"LLM request to {self.base_url} failed: {_server_message(exc)}"
        return LLMError(_one_line(message), status=status, attempts=attempts)

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def __enter__(self) -> OpenAIChatModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _merge_tool_call(calls: dict[int, dict[str, Any]], delta: ChoiceDeltaToolCall) -> None:
    """Fold one streamed tool-call fragment into the call at its index."""
    call = calls.setdefault(
        delta.index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
    )
    call["id"] = call["id"] or delta.id or ""
    if delta.function is not None:
        function = call["function"]
        function["name"] = function["name"] or delta.function.name or ""
        function["arguments"] += delta.function.arguments or ""


def _retry_after(headers: Mapping[str, str]) -> float | None:
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:  # an HTTP date: fall back to our own backoff
                return None
    return None


def _server_message(exc: openai.APIError) -> str:
    body = exc.body
    if isinstance(body, Mapping) and isinstance(body.get("message"), str):
        return str(body["message"])
    if isinstance(body, str) and body.strip():
        return body.strip()[:300]
    return exc.message


def _one_line(text: str) -> str:
    return " ".join(text.split())


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
