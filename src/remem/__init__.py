"""remem: local-first memory for LLM agents.

from remem import Memory
mem = Memory()                                  # ~/.remem/memory.db, this git project
mem.save("项目使用 JDK 17 和 Maven")
mem.search("创建 Java 项目用什么 JDK")[0].entry.content
mem.context_for("帮我再创建一个 Java 项目")       # the block to put in a prompt
"""

# Names load on first use (PEP 562), so `import remem` and the CLI start fast and
# a command only pays for the modules it uses. `_LAZY` is the one list of the public
# names; `__all__` is derived from it, and tests/test_package.py checks that the
# imports for type checkers below name the same things from the same modules.
import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    __version__: str
    from remem.agent.manager import ManagerStatus as ManagerStatus
    from remem.agent.manager import MemoryManager as MemoryManager
    from remem.context.compaction import CompactionConfig as CompactionConfig
    from remem.context.compaction import CompactionReport as CompactionReport
    from remem.context.ledger import SessionLedger as SessionLedger
    from remem.context.manager import ContextManager as ContextManager
    from remem.context.manager import ContextStatus as ContextStatus
    from remem.context.offload import Offloader as Offloader
    from remem.context.summarizer import ExtractiveSummarizer as ExtractiveSummarizer
    from remem.context.summarizer import LLMSummarizer as LLMSummarizer
    from remem.entry import AuditRecord as AuditRecord
    from remem.entry import Entry as Entry
    from remem.errors import AmbiguousId as AmbiguousId
    from remem.errors import InvalidInput as InvalidInput
    from remem.errors import NotFound as NotFound
    from remem.errors import RememError as RememError
    from remem.errors import StoreError as StoreError
    from remem.exchange import ImportConflict as ImportConflict
    from remem.exchange import ImportResult as ImportResult
    from remem.extract.compression import CompressedItem as CompressedItem
    from remem.extract.compression import CompressionConfig as CompressionConfig
    from remem.extract.compression import Compressor as Compressor
    from remem.llm import ChatModel as ChatModel
    from remem.llm import ChatResponse as ChatResponse
    from remem.llm import LLMError as LLMError
    from remem.llm import LLMSettings as LLMSettings
    from remem.llm import OpenAIChatModel as OpenAIChatModel
    from remem.llm import TokenAccount as TokenAccount
    from remem.llm.scripted import ScriptedChatModel as ScriptedChatModel
    from remem.memory import History as History
    from remem.memory import Memory as Memory
    from remem.memory import SaveResult as SaveResult
    from remem.memory import Stats as Stats
    from remem.retrieval.embedding import Embedder as Embedder
    from remem.retrieval.ranking import Hit as Hit
    from remem.settings import RankingConfig as RankingConfig
    from remem.settings import Settings as Settings
    from remem.store.protocol import Store as Store
    from remem.tokens import count_tokens as count_tokens
    from remem.tokens import estimate_tokens as estimate_tokens

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

__all__ = sorted(_LAZY)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("remem")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> _typing.Any:
    if name == "__version__":  # from the installed package's metadata, read on first use
        globals()[name] = value = _version()
        return value
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'remem' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
