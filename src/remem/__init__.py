"""remem: local-first memory for LLM agents.

from remem import Memory
mem = Memory()                                  # ~/.remem/memory.db, this git project
mem.save("项目使用 JDK 17 和 Maven")
mem.search("创建 Java 项目用什么 JDK")[0].entry.content
mem.context_for("帮我再创建一个 Java 项目")       # the block to put in a prompt
"""

from remem.compaction import CompactionConfig, CompactionReport
from remem.compression import CompressedItem, CompressionConfig, Compressor
from remem.context import ContextManager, ContextStatus
from remem.entry import AuditRecord, Entry
from remem.errors import AmbiguousId, InvalidInput, NotFound, RememError, StoreError
from remem.exchange import ImportConflict, ImportResult
from remem.ledger import SessionLedger
from remem.llm import (
    ChatModel,
    ChatResponse,
    LLMError,
    LLMSettings,
    OpenAIChatModel,
    TokenAccount,
)
from remem.memory import History, Memory, SaveResult, Stats
from remem.offload import Offloader
from remem.retrieval import Hit, RankingConfig
from remem.scripted import ScriptedChatModel
from remem.settings import Settings
from remem.store import Store
from remem.summarizer import ExtractiveSummarizer, LLMSummarizer
from remem.tokens import count_tokens, estimate_tokens

__all__ = [
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
    "Memory",
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
