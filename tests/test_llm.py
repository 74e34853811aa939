"""remem.llm: the real OpenAIChatModel against a real local HTTP server speaking the
OpenAI protocol (tests/openai_server.py), the scripted model, and token accounting."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem.llm import (
    ChatModel,
    ChatResponse,
    LLMError,
    LLMSettings,
    OpenAIChatModel,
    ScriptExhausted,
    TokenAccount,
    TokenTotals,
    Usage,
)
from remem.llm.scripted import ScriptedChatModel
from remem.tokens import count_tokens

MakeModel = Callable[..., OpenAIChatModel]
USER = [{"role": "user", "content": "Say hello"}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search memory",
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
        },
    }
]


@pytest.fixture
def account() -> TokenAccount:
    return TokenAccount()


@pytest.fixture
def make_model(openai_server: OpenAIServer, account: TokenAccount) -> Iterator[MakeModel]:
    """OpenAIChatModels pointed at the local server, with tiny timeouts and backoff."""
    made: list[OpenAIChatModel] = []
    base = LLMSettings(
        base_url=openai_server.base_url, model="test-model", timeout=5.0, backoff=0.001
    )

    def make(**changes: Any) -> OpenAIChatModel:
        made.append(OpenAIChatModel(replace(base, **changes), account=account))
        return made[-1]

    yield make
    for model in made:
        model.close()


@pytest.fixture
def model(make_model: MakeModel) -> OpenAIChatModel:
    return make_model()


# -- plain and streamed completions ------------------------------------------------------


def test_a_plain_completion_sends_the_messages_and_counts_the_tokens(
    model: OpenAIChatModel, openai_server: OpenAIServer, account: TokenAccount
) -> None:
    openai_server.script([{"content": "Hello there!", "usage": usage(11, 3)}])
    reply = model.complete(USER)
    assert reply == ChatResponse("Hello there!", [], Usage(11, 3), "stop", "test-model")
    assert reply.as_message() == {"role": "assistant", "content": "Hello there!"}
    [body] = openai_server.requests
    assert body["model"] == "test-model"
    assert body["messages"] == USER
    assert not body.get("stream")
    assert "tools" not in body and "max_tokens" not in body
    assert account.total() == TokenTotals(calls=1, prompt_tokens=11, completion_tokens=3)


def test_streaming_text_reaches_on_text_and_is_assembled(
    model: OpenAIChatModel, openai_server: OpenAIServer, account: TokenAccount
) -> None:
    openai_server.script([{"content": "The quick brown fox", "usage": usage(20, 5)}])
    deltas: list[str] = []
    reply = model.complete(USER, on_text=deltas.append)
    assert deltas == ["The", " qu", "ick", " br", "own", " fo", "x"]
    assert reply.content == "The quick brown fox"
    assert reply.finish_reason == "stop" and reply.tool_calls == []
    assert reply.usage == Usage(20, 5)
    body = openai_server.requests[0]
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert account.total() == TokenTotals(1, 20, 5)


TWO_CALLS = {
    "content": "让我查一下。",
    "tool_calls": [
        {"id": "call_a", "name": "search", "arguments": {"q": "JDK 版本", "limit": 5}},
        {"id": "call_b", "name": "read_file", "arguments": {"path": "/项目/README.md"}},
    ],
}
EXPECTED_CALLS = [
    {
        "id": "call_a",
        "type": "function",
        "function": {"name": "search", "arguments": '{"q": "JDK 版本", "limit": 5}'},
    },
    {
        "id": "call_b",
        "type": "function",
        "function": {"name": "read_file", "arguments": '{"path": "/项目/README.md"}'},
    },
]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_two_tool_calls_are_assembled(
    model: OpenAIChatModel, openai_server: OpenAIServer, stream: bool
) -> None:
    openai_server.script([TWO_CALLS])
    deltas: list[str] = []
    reply = model.complete(USER, tools=TOOLS, on_text=deltas.append if stream else None)
    assert reply.tool_calls == EXPECTED_CALLS
    assert json.loads(reply.tool_calls[0]["function"]["arguments"]) == {"q": "JDK 版本", "limit": 5}
    assert reply.finish_reason == "tool_calls"
    assert reply.content == "让我查一下。"
    assert "".join(deltas) == ("让我查一下。" if stream else "")
    assert reply.as_message() == {
        "role": "assistant",
        "content": "让我查一下。",
        "tool_calls": EXPECTED_CALLS,
    }


def test_tool_call_round_trip_in_the_request_body(
    model: OpenAIChatModel, openai_server: OpenAIServer
) -> None:
    openai_server.script([{"tool_calls": [{"id": "c1", "name": "search", "arguments": "{}"}]}])
    openai_server.script(["JDK 17."])
    first = model.complete(USER, tools=TOOLS, max_tokens=50)
    assert first.as_message()["content"] is None  # tool calls only: content is null
    history = [
        *USER,
        first.as_message(),
        {"role": "tool", "tool_call_id": "c1", "content": "项目使用 JDK 17"},
    ]
    second = model.complete(history, tools=TOOLS, max_tokens=50, on_text=lambda _: None)
    assert second.content == "JDK 17."
    body = openai_server.requests[1]
    assert body["messages"] == history
    assert body["messages"][1]["tool_calls"][0]["id"] == "c1"
    assert body["messages"][2]["tool_call_id"] == "c1"
    assert body["tools"] == TOOLS
    assert body["max_tokens"] == 50


def test_remem_private_keys_are_not_sent(
    model: OpenAIChatModel, openai_server: OpenAIServer
) -> None:
    openai_server.script(["ok"])
    skill = {"role": "user", "content": "[REMEM_SKILL_INJECTION name=x]", "remem_internal": "skill"}
    model.complete([skill])
    assert openai_server.requests[0]["messages"] == [
        {"role": "user", "content": "[REMEM_SKILL_INJECTION name=x]"}
    ]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_chinese_text_is_intact_both_ways(
    model: OpenAIChatModel, openai_server: OpenAIServer, stream: bool
) -> None:
    text = "记住：项目使用 JDK 17 和 Maven，部署在「上海」机房 🚀"
    openai_server.script([text])
    messages = [{"role": "user", "content": "帮我再创建一个 Java 项目，用什么 JDK？"}]
    deltas: list[str] = []
    reply = model.complete(messages, on_text=deltas.append if stream else None)
    assert reply.content == text
    assert "".join(deltas) == (text if stream else "")
    assert openai_server.requests[0]["messages"] == messages


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_usage_is_estimated_when_the_server_sends_none(
    model: OpenAIChatModel, openai_server: OpenAIServer, account: TokenAccount, stream: bool
) -> None:
    openai_server.script([{"content": "项目使用 JDK 17 和 Maven", "usage": None}])
    reply = model.complete(USER, on_text=(lambda _: None) if stream else None)
    assert reply.usage.completion_tokens == count_tokens("项目使用 JDK 17 和 Maven")
    assert reply.usage.prompt_tokens > count_tokens("Say hello")
    assert account.total() == TokenTotals(
        1, reply.usage.prompt_tokens, reply.usage.completion_tokens
    )


def test_key_is_sent_and_a_keyless_local_server_works(
    make_model: MakeModel, openai_server: OpenAIServer
) -> None:
    openai_server.script(["a", "b"])
    make_model().complete(USER)
    make_model(api_key="sk-test").complete(USER)
    assert [h["authorization"] for h in openai_server.headers] == [
        "Bearer not-needed",
        "Bearer sk-test",
    ]


# -- retries, timeouts, errors -----------------------------------------------------------


def test_rate_limit_is_retried_until_success(
    model: OpenAIChatModel, openai_server: OpenAIServer, account: TokenAccount
) -> None:
    openai_server.fail(2, status=429, message="Rate limit reached")
    openai_server.script(["finally"])
    assert model.complete(USER).content == "finally"
    assert len(openai_server.requests) == 3
    assert account.total().calls == 1  # one call, however many attempts


def test_server_errors_beyond_max_retries_raise_llm_error(
    make_model: MakeModel, openai_server: OpenAIServer
) -> None:
    openai_server.fail(10, status=500, message="upstream\nexploded")
    with pytest.raises(LLMError) as caught:
        make_model(max_retries=2).complete(USER, on_text=lambda _: None)
    error = caught.value
    assert (error.status, error.attempts) == (500, 3)
    assert "HTTP 500" in str(error) and "upstream exploded" in str(error)
    assert openai_server.base_url in str(error)
    assert "\n" not in str(error)
    assert len(openai_server.requests) == 3


@pytest.mark.parametrize("status", [400, 401, 404])
def test_client_errors_are_not_retried(
    model: OpenAIChatModel, openai_server: OpenAIServer, status: int
) -> None:
    openai_server.fail(1, status=status, message="Incorrect API key provided")
    openai_server.script(["never"])
    with pytest.raises(LLMError, match=f"HTTP {status} .*Incorrect API key") as caught:
        model.complete(USER)
    assert caught.value.status == status
    assert len(openai_server.requests) == 1


def test_retry_after_is_honoured(make_model: MakeModel, openai_server: OpenAIServer) -> None:
    openai_server.fail(1, status=503, headers={"retry-after-ms": "30"})
    openai_server.script(["ok"])
    started = time.monotonic()
    assert make_model(backoff=60.0).complete(USER).content == "ok"  # 60 s if ignored
    assert time.monotonic() - started < 5


def test_a_long_retry_after_is_not_waited_for(
    model: OpenAIChatModel, openai_server: OpenAIServer
) -> None:
    openai_server.fail(1, status=429, message="daily quota", headers={"retry-after": "3600"})
    with pytest.raises(LLMError, match="HTTP 429"):
        model.complete(USER)
    assert len(openai_server.requests) == 1


def test_timeouts_are_retried_then_raise(
    make_model: MakeModel, openai_server: OpenAIServer
) -> None:
    openai_server.delay(10.0, times=2)
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"timed out after 0.2 s .*\(2 attempts\)") as caught:
        make_model(timeout=0.2, max_retries=1).complete(USER)
    assert time.monotonic() - started < 5
    assert caught.value.status is None
    assert len(openai_server.requests) == 2


def test_a_timeout_then_success(make_model: MakeModel, openai_server: OpenAIServer) -> None:
    openai_server.delay(10.0)
    openai_server.script(["made it"])
    assert make_model(timeout=0.2).complete(USER, on_text=lambda _: None).content == "made it"
    assert len(openai_server.requests) == 2


def test_an_unreachable_endpoint_is_one_error_after_the_retries(make_model: MakeModel) -> None:
    with OpenAIServer() as gone:
        url = gone.base_url
    with pytest.raises(LLMError, match=r"cannot reach the LLM at .*\(2 attempts\)"):
        make_model(base_url=url, max_retries=1).complete(USER)


def test_no_retry_once_text_was_streamed(
    model: OpenAIChatModel, openai_server: OpenAIServer
) -> None:
    openai_server.script([{"content": "partial answer", "stream_error": "overloaded"}, "again"])
    deltas: list[str] = []
    with pytest.raises(LLMError, match="overloaded"):
        model.complete(USER, on_text=deltas.append)
    assert "".join(deltas) == "partial answer"  # shown once, never repeated
    assert len(openai_server.requests) == 1


# -- settings ------------------------------------------------------------------------------


def test_settings_prefer_remem_variables() -> None:
    env = {
        "REMEM_LLM_BASE_URL": "http://localhost:8000/v1",
        "REMEM_LLM_API_KEY": "remem-key",
        "REMEM_LLM_MODEL": "qwen2.5",
        "OPENAI_BASE_URL": "https://example.com/v1",
        "OPENAI_API_KEY": "sk-openai",
        "OPENAI_MODEL": "gpt-4o",
    }
    s = LLMSettings.from_env(env)
    assert (s.base_url, s.api_key, s.model) == ("http://localhost:8000/v1", "remem-key", "qwen2.5")
    assert s.configured
    assert "remem-key" not in repr(s)


def test_settings_fall_back_to_openai_variables() -> None:
    s = LLMSettings.from_env({"OPENAI_API_KEY": "sk-openai", "OPENAI_MODEL": "gpt-4o"})
    assert (s.base_url, s.api_key, s.model) == (None, "sk-openai", "gpt-4o")
    assert s.configured
    s = LLMSettings.from_env({"REMEM_LLM_MODEL": "m", "OPENAI_BASE_URL": "http://h/v1"})
    assert (s.base_url, s.api_key, s.model) == ("http://h/v1", None, "m")
    assert s.configured  # a local server needs no key


def test_openai_key_is_not_sent_to_another_endpoint() -> None:
    env = {"REMEM_LLM_BASE_URL": "http://proxy.example/v1", "OPENAI_API_KEY": "sk-openai"}
    assert LLMSettings.from_env(env).api_key is None
    env["REMEM_LLM_BASE_URL"] = "https://api.openai.com/v1/"
    assert LLMSettings.from_env(env).api_key == "sk-openai"


def test_without_a_model_name_the_llm_is_unconfigured_and_refuses_to_start() -> None:
    assert not LLMSettings.from_env({}).configured
    assert not LLMSettings.from_env({"OPENAI_API_KEY": "sk"}).configured  # no model
    assert not LLMSettings.from_env({"REMEM_LLM_MODEL": "m", "REMEM_LLM_API_KEY": " "}).configured
    with pytest.raises(LLMError, match="REMEM_LLM_MODEL"):
        OpenAIChatModel(LLMSettings())


def test_importing_remem_llm_does_not_import_openai() -> None:
    code = (
        "import sys, remem.llm as llm\n"
        "llm.OpenAIChatModel(llm.LLMSettings(base_url='http://x/v1', model='m'))\n"
        "assert 'openai' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_server_lists_models(openai_server: OpenAIServer) -> None:
    with urllib.request.urlopen(openai_server.base_url + "/models", timeout=5) as response:
        assert json.load(response)["data"][0]["id"] == "test-model"


# -- accounting ------------------------------------------------------------------------------


def test_account_totals_per_purpose_and_report(
    model: OpenAIChatModel, openai_server: OpenAIServer, account: TokenAccount
) -> None:
    openai_server.script(
        [
            {"content": "a", "usage": usage(100, 10)},
            {"content": "b", "usage": usage(200, 20)},
            {"content": "summary", "usage": usage(5000, 800)},
        ]
    )
    model.complete(USER)
    model.complete(USER, on_text=lambda _: None)
    model.complete(USER, purpose="summary")
    assert account.by_purpose() == {
        "chat": TokenTotals(2, 300, 30),
        "summary": TokenTotals(1, 5000, 800),
    }
    assert account.total() == TokenTotals(3, 5300, 830)
    lines = account.report().splitlines()
    assert lines[0].split() == ["purpose", "calls", "input", "output", "total"]
    assert lines[2].split() == ["chat", "2", "300", "30", "330"]
    assert lines[3].split() == ["summary", "1", "5,000", "800", "5,800"]
    assert lines[4].split() == ["total", "3", "5,300", "830", "6,130"]


def test_empty_account_report() -> None:
    assert TokenAccount().report().splitlines()[-1].split() == ["total", "0", "0", "0", "0"]


# -- the scripted model ----------------------------------------------------------------------


def test_scripted_model_replays_in_order_and_records_requests() -> None:
    account = TokenAccount()
    scripted = ScriptedChatModel(
        ["first", {"content": "second", "usage": usage(7, 2)}, ChatResponse("third")],
        account=account,
    )
    model: ChatModel = scripted
    messages: list[dict[str, Any]] = [{"role": "user", "content": "你好"}]
    assert model.complete(messages, max_tokens=9).content == "first"
    messages.append({"role": "user", "content": "changed after the call"})
    assert model.complete(messages, tools=TOOLS, purpose="summary").usage == Usage(7, 2)
    assert model.complete(messages).content == "third"
    first, second, _ = scripted.requests
    assert first.messages == [{"role": "user", "content": "你好"}]  # a copy, not a reference
    assert (first.max_tokens, first.tools, first.purpose) == (9, None, "chat")
    assert (second.tools, second.purpose) == (TOOLS, "summary")
    assert account.by_purpose()["summary"] == TokenTotals(1, 7, 2)
    assert account.total().calls == 3
    assert scripted.remaining == 0


def test_scripted_model_runs_out_loudly() -> None:
    scripted = ScriptedChatModel(["only"])
    scripted.complete(USER)
    with pytest.raises(ScriptExhausted, match="request #2 but was given only 1 replies"):
        scripted.complete(USER)
    scripted.add("more")
    assert scripted.complete(USER).content == "more"


def test_scripted_model_tool_calls_streaming_and_errors() -> None:
    scripted = ScriptedChatModel(
        [
            {"content": "查一下", "tool_calls": [{"name": "search", "arguments": {"q": "JDK"}}]},
            {"tool_calls": EXPECTED_CALLS},
            LLMError("simulated outage"),
        ]
    )
    deltas: list[str] = []
    reply = scripted.complete(USER, on_text=deltas.append)
    assert len(deltas) > 1 and "".join(deltas) == "查一下"
    assert reply.finish_reason == "tool_calls"
    assert reply.tool_calls == [
        {
            "id": "call_1_0",
            "type": "function",
            "function": {"name": "search", "arguments": '{"q": "JDK"}'},
        }
    ]
    assert scripted.complete(USER).tool_calls == EXPECTED_CALLS
    with pytest.raises(LLMError, match="simulated outage"):
        scripted.complete(USER)


def test_scripted_usage_is_estimated_with_remem_tokenizer() -> None:
    reply = ScriptedChatModel(["项目使用 JDK 17"]).complete(USER)
    assert reply.usage.completion_tokens == count_tokens("项目使用 JDK 17")
    assert reply.usage.prompt_tokens > 0


def usage(prompt: int, completion: int) -> dict[str, int]:
    return {"prompt_tokens": prompt, "completion_tokens": completion}
