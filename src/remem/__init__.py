"""remem: local-first memory for LLM agents.

from remem import Memory
mem = Memory()                                  # ~/.remem/memory.db, this git project
mem.save("项目使用 JDK 17 和 Maven")
mem.search("创建 Java 项目用什么 JDK")[0].entry.content
mem.context_for("帮我再创建一个 Java 项目")       # the block to put in a prompt
"""

# Names load on first use (PEP 562), so `import remem` and the CLI start fast and
# a command only pays for the modules it uses.
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    __version__: str
    from remem.agent.manager import ManagerStatus, MemoryManager
    from remem.context.compaction import CompactionConfig, CompactionReport
    from remem.context.ledger import SessionLedger
    from remem.context.manager import ContextManager, ContextStatus
    from remem.context.offload import Offloader
    from remem.context.summarizer import ExtractiveSummarizer, LLMSummarizer
    from remem.entry import AuditRecord, Entry
    from remem.errors import AmbiguousId, InvalidInput, NotFound, RememError, StoreError
    from remem.exchange import ImportConflict, ImportResult
    from remem.extract.compression import CompressedItem, CompressionConfig, Compressor
    from remem.llm import (
        ChatModel,
        ChatResponse,
        LLMError,
        LLMSettings,
        OpenAIChatModel,
        TokenAccount,
    )
    from remem.llm.scripted import ScriptedChatModel
    from remem.memory import History, Memory, SaveResult, Stats
    from remem.retrieval.embedding import Embedder
    from remem.retrieval.ranking import Hit
    from remem.settings import RankingConfig, Settings
    from remem.store.protocol import Store
    from remem.tokens import count_tokens, estimate_tokens

_LAZY = {
    "AmbiguousId": "remem.errors",
    "AuditRecord": "remem.entry",
    "ChatModel": "remem.llm",
    "ChatResponse": "remem.llm",
    "CompactionConfig": "remem.context.compaction",
    "CompactionReport": "remem.context.compaction",
    "CompressedItem": "remem.extract.compression",
    "CompressionConfig": "remem.extract.compression",
    "Compressor": "remem.extract.compression",
    "ContextManager": "remem.context.manager",
    "ContextStatus": "remem.context.manager",
    "Embedder": "remem.retrieval.embedding",
    "Entry": "remem.entry",
    "ExtractiveSummarizer": "remem.context.summarizer",
    "History": "remem.memory",
    "Hit": "remem.retrieval.ranking",
    "ImportConflict": "remem.exchange",
    "ImportResult": "remem.exchange",
    "InvalidInput": "remem.errors",
    "LLMError": "remem.llm",
    "LLMSettings": "remem.llm",
    "LLMSummarizer": "remem.context.summarizer",
    "ManagerStatus": "remem.agent.manager",
    "Memory": "remem.memory",
    "MemoryManager": "remem.agent.manager",
    "NotFound": "remem.errors",
    "Offloader": "remem.context.offload",
    "OpenAIChatModel": "remem.llm",
    "RankingConfig": "remem.settings",
    "RememError": "remem.errors",
    "SaveResult": "remem.memory",
    "ScriptedChatModel": "remem.llm.scripted",
    "SessionLedger": "remem.context.ledger",
    "Settings": "remem.settings",
    "Stats": "remem.memory",
    "Store": "remem.store.protocol",
    "StoreError": "remem.errors",
    "TokenAccount": "remem.llm",
    "count_tokens": "remem.tokens",
    "estimate_tokens": "remem.tokens",
}

__all__ = [
    "Embedder",
    "AmbiguousId",
    "AuditRecord",
    "ChatModel",
    "ChatResponse",
    "CompactionConfig",
    "CompactionReport",
    "CompressedItem",
    "CompressionConfig",
    "Compressor",
    "ContextManager",
    "ContextStatus",
    "Entry",
    "ExtractiveSummarizer",
    "History",
    "Hit",
    "ImportConflict",
    "ImportResult",
    "InvalidInput",
    "LLMError",
    "LLMSettings",
    "LLMSummarizer",
    "ManagerStatus",
    "Memory",
    "MemoryManager",
    "NotFound",
    "Offloader",
    "OpenAIChatModel",
    "RankingConfig",
    "RememError",
    "SaveResult",
    "ScriptedChatModel",
    "SessionLedger",
    "Settings",
    "Stats",
    "Store",
    "StoreError",
    "TokenAccount",
    "count_tokens",
    "estimate_tokens",
]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("remem")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":  # from the installed package's metadata, read on first use
        globals()[name] = value = _version()
        return value
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'remem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
