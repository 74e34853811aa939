"""LLM access: the `ChatModel` protocol and its types (`model`), the client for any
OpenAI-compatible endpoint (`openai_client`) and a scripted model for tests
(`scripted`). Imports only remem's core (`remem.errors`, `remem.messages`,
`remem.tokens`); the openai SDK loads on first use."""

from remem.llm.model import (
    ChatModel,
    ChatRequest,
    ChatResponse,
    LLMError,
    ScriptExhausted,
    TokenAccount,
    TokenTotals,
    Usage,
    build_response,
    estimate_usage,
)
from remem.llm.openai_client import LLMSettings, OpenAIChatModel
from remem.llm.scripted import ScriptedChatModel

__all__ = [
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "LLMError",
    "LLMSettings",
    "OpenAIChatModel",
    "ScriptExhausted",
    "ScriptedChatModel",
    "TokenAccount",
    "TokenTotals",
    "Usage",
    "build_response",
    "estimate_usage",
]
