"""The short-term context of one execution unit (SPEC ST1, ST3, ST4, CP1-CP5).

`ContextManager` owns the one message list sent to the model. Messages are added
through it (tool results offloaded and wrapped as untrusted data on the way in),
and `prepare()` measures and compacts before every model call. Every change is
recorded to an optional session recorder (the ledger) so a session can resume.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from remem.context import compaction
from remem.context.compaction import CompactionConfig, CompactionReport
from remem.context.offload import Offloader
from remem.context.summarizer import ExtractiveSummarizer, Summarizer, transcript
from remem.messages import (
    Message,
    assistant,
    message_tokens,
    messages_tokens,
    system_end,
    to_wire,
    tool_result,
    user,
)


class Recorder(Protocol):
    """Where the context reports its changes (remem.context.ledger.SessionLedger)."""

    def message(self, message: Message) -> int: ...

    def checkpoint(
        self, messages: Sequence[Message], source: str = "turn", *, tokens: int | None = None
    ) -> int: ...

    def event(self, kind: str, **data: Any) -> int: ...


def wrap_tool_output(name: str, content: str, call_id: str | None = None) -> str:
    from remem.context.prompt import wrap_tool_result

    return wrap_tool_result(name, content, call_id=call_id)


@dataclass(frozen=True, slots=True)
class ContextStatus:
    """The numbers behind /context and the status line (SPEC ST3)."""

    tokens: int
    messages: int
    window: int
    available: int
    clear_threshold: int
    summary_threshold: int
    usage_ratio: float
    compactions: int
    levels_fired: dict[str, int] = field(default_factory=dict)


class ContextManager:
    def __init__(
        self,
        *,
        system: str | None = None,
        config: CompactionConfig | None = None,
        summarizer: Summarizer | None = None,
        offloader: Offloader | None = None,
        recorder: Recorder | None = None,
        messages: Sequence[Message] | None = None,
        presummarise: bool = False,
    ) -> None:
        self.config = config or CompactionConfig()
        self.summarizer: Summarizer = summarizer or ExtractiveSummarizer()
        self.offloader = offloader
        self.recorder = recorder
        self.messages: list[Message] = [dict(m) for m in messages or []]
        self.reports: list[CompactionReport] = []
        self._system_dirty = False
        self._pre = Presummary(self) if presummarise else None
        if system is not None:
            self.set_system(system)

    # -- building the list -----------------------------------------------------------------
    def set_system(self, text: str) -> None:
        """Set (or replace) the system prompt; recorded at the next checkpoint."""
        if self.messages and self.messages[0].get("role") == "system":
            if self.messages[0].get("content") == text:
                return
            self.messages[0] = {"role": "system", "content": text}
        else:
            self.messages.insert(0, {"role": "system", "content": text})
        self._system_dirty = True

    def _append(self, message: Message) -> Message:
        self.messages.append(message)
        if self.recorder is not None:
            self.recorder.message(message)
        if self._pre is not None:
            self._pre.poke()
        return message

    def add_user(self, text: str, *, internal: str | None = None, **extra: Any) -> Message:
        return self._append(user(text, internal=internal, **extra))

    def add_assistant(
        self, content: str | None, tool_calls: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        return self._append(assistant(content, tool_calls))

    def add_message(self, message: Message) -> Message:
        return self._append(dict(message))

    def add_tool_result(
        self, call_id: str, name: str, content: str, *, args: dict[str, Any] | None = None
    ) -> Message:
        """CP1 then SE1: offload an oversized result, wrap it as untrusted tool data."""
        if self.offloader is not None:
            content = self.offloader.process(name, content, args).text
        wrapped = wrap_tool_output(name, content, call_id)
        return self._append(tool_result(call_id, wrapped, name=name))

    def replace_all(self, messages: Sequence[Message], *, source: str) -> None:
        """Swap in another list (/clear, /resume) and checkpoint it."""
        self.messages = [dict(m) for m in messages]
        self.checkpoint(source)

    # -- measuring and compacting ----------------------------------------------------------
    def tokens(self) -> int:
        return messages_tokens(self.messages)

    def checkpoint(self, source: str) -> None:
        self._system_dirty = False
        if self.recorder is not None:
            self.recorder.checkpoint(self.messages, source=source, tokens=self.tokens())

    def prepare(self) -> list[Message]:
        """ST4: measure, compact if a threshold is crossed, return the list to send."""
        tokens = self.tokens()
        if tokens >= self.config.clear_threshold or tokens > self.config.available:
            self.compact()
        elif self._system_dirty:
            self.checkpoint("turn")
        return to_wire(self.messages)

    def compact(self, *, manual: bool = False, keep_turns: int | None = None) -> CompactionReport:
        summarizer = self._pre.take() if self._pre is not None else None
        new, report = compaction.compact(
            self.messages,
            summarizer or self.summarizer,
            self.config,
            manual=manual,
            keep_turns=keep_turns,
        )
        self.reports.append(report)
        if report.levels:
            self.messages = new
        if self.recorder is not None:
            self.recorder.event("compaction", **report.as_dict())
        if report.levels or self._system_dirty:
            self.checkpoint("compaction" if report.levels else "turn")
        return report

    def status(self) -> ContextStatus:
        cfg = self.config
        fired: dict[str, int] = {}
        for report in self.reports:
            for level in report.levels:
                fired[level] = fired.get(level, 0) + 1
        tokens = self.tokens()
        return ContextStatus(
            tokens=tokens,
            messages=len(self.messages),
            window=cfg.window,
            available=cfg.available,
            clear_threshold=cfg.clear_threshold,
            summary_threshold=cfg.summary_threshold,
            usage_ratio=tokens / cfg.available,
            compactions=sum(1 for r in self.reports if r.levels),
            levels_fired=fired,
        )

    def largest(self, n: int = 5) -> list[tuple[int, int]]:
        """(index, tokens) of the biggest messages, for /context."""
        sized = [(i, message_tokens(m)) for i, m in enumerate(self.messages)]
        return sorted(sized, key=lambda x: -x[1])[:n]


class Presummary:
    """CP5: from 60% of the summary threshold, summarise the old part in a background
    thread and refresh it every 4000 new tokens; compaction uses it only if it still
    covers exactly the part being summarised and has the four sections."""

    start_ratio = 0.6
    refresh_tokens = 4000
    background = True  # False runs it inline (deterministic tests)

    def __init__(self, ctx: ContextManager) -> None:
        self.ctx = ctx
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._ready: tuple[str, str] | None = None  # (fingerprint, summary)
        self._last_tokens = 0
        self.used = 0  # compactions that took the prepared summary

    def poke(self) -> None:
        cfg = self.ctx.config
        tokens = self.ctx.tokens()
        if tokens < cfg.summary_threshold * self.start_ratio:
            return
        if self._ready and tokens - self._last_tokens < self.refresh_tokens:
            return
        if self._thread is not None and self._thread.is_alive():
            return
        self._last_tokens = tokens
        snapshot = [dict(m) for m in self.ctx.messages]
        if not self.background:
            self._run(snapshot)
            return
        self._thread = threading.Thread(target=self._run, args=(snapshot,), daemon=True)
        self._thread.start()

    def _run(self, messages: list[Message]) -> None:
        old = _old_part(messages, self.ctx.config)
        if old is None:
            return
        report = CompactionReport()
        summary = compaction.summarise(old, self.ctx.summarizer, self.ctx.config, report)
        if summary is not None:
            with self._lock:
                self._ready = (_fingerprint(old), summary)

    def take(self) -> Summarizer | None:
        """A summariser that answers with the prepared summary if it still fits."""
        old = _old_part(self.ctx.messages, self.ctx.config)
        with self._lock:
            ready = self._ready
        if ready is None or old is None or ready[0] != _fingerprint(old):
            return None
        self.used += 1
        return _Prepared(ready[1], self.ctx.summarizer)


def _old_part(messages: Sequence[Message], cfg: CompactionConfig) -> list[Message] | None:
    cleared, _ = compaction.clear_old_tool_results(
        messages, keep_recent=cfg.keep_recent_tools, min_chars=cfg.clear_min_chars
    )
    split = compaction.split_index(cleared, cfg.keep_turns)
    return None if split is None else cleared[system_end(cleared) : split]


def _fingerprint(messages: Sequence[Message]) -> str:
    return hashlib.sha256(transcript(messages).encode()).hexdigest()


class _Prepared:
    uses_llm = False

    def __init__(self, summary: str, fallback: Summarizer) -> None:
        self.summary = summary
        self.fallback = fallback

    def summarise(self, transcript: str, *, max_chars: int) -> str:
        return self.summary

    def merge(self, parts: Sequence[str], *, max_chars: int) -> str:
        return self.summary

    def repair(self, draft: str) -> str:
        return self.fallback.repair(draft)
