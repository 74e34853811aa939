"""The `ChatModel` for any OpenAI-compatible endpoint, and where it lives (`LLMSettings`).

The `openai` SDK is imported on first use (it takes about a second), so importing
remem stays fast.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from remem.llm.model import (
    MAX_BACKOFF,
    MAX_RETRY_AFTER,
    ChatResponse,
    LLMError,
    TokenAccount,
    Usage,
    build_response,
)
from remem.messages import Message, to_wire
from remem.settings import ModelEnv

if TYPE_CHECKING:
    import openai
    from openai.types.chat.chat_completion_chunk import ChoiceDeltaToolCall

DEFAULT_BASE_URL = "https://api.openai.com/v1"
NO_KEY = "not-needed"  # what the SDK is given for a local server that wants no key

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

        mine = ModelEnv.read(env)
        openai_url = get("OPENAI_BASE_URL")
        base_url = mine.llm_base_url or openai_url
        api_key = mine.llm_api_key
        if api_key is None and _endpoint(base_url) == _endpoint(openai_url):
            api_key = get("OPENAI_API_KEY")
        model = mine.llm_model or get("OPENAI_MODEL")
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
