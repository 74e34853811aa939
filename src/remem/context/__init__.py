"""Short-term context of one execution unit: the `ContextManager` (`manager`), staged
compaction (`compaction`, `summarizer`, `offload`), the append-only session ledger
(`ledger`) and the sessions listed from it (`sessions`), what is written beside a
project, private and redacted (`private`), and prompt assembly (`prompt`). Imports
remem's core and `remem.llm`."""

# `from remem.context import ContextManager` keeps working (remem.context was one module);
# the names load on first use, so `import remem.context.ledger` stays light.
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remem.context.manager import ContextManager, ContextStatus, wrap_tool_output

__all__ = ["ContextManager", "ContextStatus", "wrap_tool_output"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'remem.context' has no attribute {name!r}")
    return getattr(importlib.import_module("remem.context.manager"), name)
