"""remem: local-first memory for LLM agents.

from remem import Memory
mem = Memory()                                  # ~/.remem/memory.db, this git project
mem.save("项目使用 JDK 17 和 Maven")
mem.search("创建 Java 项目用什么 JDK")[0].entry.content
mem.context_for("帮我再创建一个 Java 项目")       # the block to put in a prompt
"""

from remem.entry import AuditRecord, Entry
from remem.errors import AmbiguousId, InvalidInput, NotFound, RememError, StoreError
from remem.exchange import ImportConflict, ImportResult
from remem.memory import History, Memory, SaveResult, Stats
from remem.retrieval import Hit, RankingConfig
from remem.settings import Settings
from remem.store import Store
from remem.tokens import count_tokens, estimate_tokens

__all__ = [
    "AmbiguousId",
    "AuditRecord",
    "Entry",
    "History",
    "Hit",
    "ImportConflict",
    "ImportResult",
    "InvalidInput",
    "Memory",
    "NotFound",
    "RankingConfig",
    "RememError",
    "SaveResult",
    "Settings",
    "Stats",
    "Store",
    "StoreError",
    "count_tokens",
    "estimate_tokens",
]
