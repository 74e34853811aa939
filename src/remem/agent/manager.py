"""`MemoryManager`: the one object an agent talks to (SPEC IF1).

It wires the long-term store (`Memory`), the short-term context (`ContextManager`,
recorded to a `SessionLedger`, tool results offloaded), retrieval into the system
prompt (PR1), automatic extraction (guarded by `ExternalGuard`, SE2) and token
accounting together:

    mm = MemoryManager.open(project_root())             # ~/.remem store, new session
    mm.add_user_message("帮我再创建一个项目")
    messages = mm.prepare("帮我再创建一个项目")            # memories end the system prompt
    reply = model.complete(messages)
    mm.add_assistant_message(reply.content)
    mm.extract_in_background("帮我再创建一个项目")        # never blocks the next prompt
    print(mm.status_text())
    mm.close()                                          # flushes session and memory
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remem.context.compaction import CompactionConfig, CompactionReport
from remem.context.ledger import SessionLedger
from remem.context.ledger import resume as resume_messages
from remem.context.manager import ContextManager, ContextStatus
from remem.context.offload import Offloader
from remem.context.prompt import PromptParts, assemble, load_project_memory
from remem.context.sessions import list_sessions
from remem.extract.guard import (
    DENY_REASON,
    UNASKED_REASON,
    UNSTATED_REASON,
    Decision,
    ExternalGuard,
    explicit_request,
)
from remem.memory import Memory, SaveResult
from remem.messages import Message, is_real_user, text_of

if TYPE_CHECKING:
    from remem.context.summarizer import Summarizer
    from remem.entry import Entry
    from remem.extract.extractor import ExtractionResult
    from remem.llm import ChatModel, TokenAccount

__all__ = ["ManagerStatus", "MemoryManager"]


@dataclass(frozen=True, slots=True)
class ManagerStatus:
    """What /memory and the status line show (one snapshot, so both show the same numbers)."""

    session_id: str
    project: str
    context: ContextStatus
    calls: int
    prompt_tokens: int
    completion_tokens: int
    extracted: int
    external_sources: list[str] = field(default_factory=list)


class MemoryManager:
    """Long-term memory, the short-term context and the guards behind one facade."""

    def __init__(
        self,
        memory: Memory,
        *,
        root: Path,
        ledger: SessionLedger | None = None,
        config: CompactionConfig | None = None,
        summarizer: Summarizer | None = None,
        guard: ExternalGuard | None = None,
        account: TokenAccount | None = None,
        parts: PromptParts | None = None,
        home: Path | None = None,
        extraction_model: ChatModel | None = None,
    ) -> None:
        self.memory = memory
        self.root = Path(root)
        self.home = home if home is not None else memory.settings.home
        self.ledger = ledger
        self.guard = guard or ExternalGuard()
        self.account = account
        self.parts = parts or PromptParts()
        self.extraction_model = extraction_model
        session = ledger.id if ledger is not None else "session"
        self.context = ContextManager(
            config=config,
            summarizer=summarizer,
            offloader=Offloader(self.root, session),
            recorder=ledger,
        )
        self.project_memory = load_project_memory(self.root, self.home).text
        self.extracted: list[ExtractionResult] = []
        self.remembered: list[str] = []  # what the model and extraction saved, in order
        self.injected: dict[str, Entry] = {}  # memories put into the prompt this turn
        self.timings: dict[str, float] = {}
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._generation = 0  # bumped by every user message and explicit save
        self._prompt_key: tuple[str, int] | None = None
        self._tool_output = False  # a tool result was added since the start or /clear
        self.context.set_system(self.system_prompt(""))

    @classmethod
    def open(
        cls,
        root: Path,
        *,
        memory: Memory | None = None,
        session_id: str | None = None,
        fsync: bool = False,
        **kwargs: Any,
    ) -> MemoryManager:
        """A manager for the project at `root` with a new (or continued) session ledger."""
        mem = memory or Memory(project=root)
        ledger = SessionLedger(
            root, session_id, fsync=fsync, metadata={"project": mem.project, "root": str(root)}
        )
        return cls(mem, root=root, ledger=ledger, **kwargs)

    @property
    def session_id(self) -> str:
        return self.ledger.id if self.ledger is not None else ""

    @property
    def messages(self) -> list[Message]:
        return self.context.messages

    # -- storing messages ------------------------------------------------------------------
    def add_user_message(self, text: str) -> Message:
        self._generation += 1
        self.injected = {}
        return self.context.add_user(text)

    def add_assistant_message(
        self, content: str | None, tool_calls: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        return self.context.add_assistant(content, tool_calls)

    def add_tool_result(
        self, call_id: str, name: str, content: str, *, args: dict[str, Any] | None = None
    ) -> Message:
        """Store a tool's output (offloaded if huge, wrapped as untrusted data); a
        web / MCP / network tool turns the external-content guard on (SE2)."""
        self.guard.observe_tool(name, args)
        self._tool_output = True
        return self.context.add_tool_result(call_id, name, content, args=args)

    # -- the memory context ----------------------------------------------------------------
    def context_for(self, query: str, *, max_tokens: int | None = None) -> str:
        """The retrieved long-term memory block for `query` ("" when nothing is relevant)."""
        return self.memory.context_for(
            query, max_tokens=max_tokens, window=self.context.config.window
        )

    def system_prompt(self, query: str) -> str:
        """PR1: stable parts first, then runtime, then project files and memories last."""
        memories = self.context_for(query) if query.strip() else ""
        if memories:
            self.injected.update((e.id, e) for e in self.memory.last_injected)
        parts = PromptParts(
            base_rules=self.parts.base_rules,
            persona=self.parts.persona,
            memory_policy=self.parts.memory_policy,
            context_notes=self.parts.context_notes,
            skills=self.parts.skills,
            today=self.parts.today or date.today(),
            timezone=self.parts.timezone or time.strftime("%Z"),
            runtime=(("Project root", str(self.root)), *self.parts.runtime),
            project_memory=self.project_memory,
            memories=memories,
        )
        return assemble(parts)

    def refresh_prompt(self) -> None:
        """The prompt's parts changed (/skill): rebuild it now and at the next `prepare`."""
        self._prompt_key = None
        self.context.set_system(self.system_prompt(""))

    def prepare(self, query: str) -> list[Message]:
        """The list to send for the user's `query`: the system prompt refreshed with the
        memories for it (never the user's message), measured and compacted (ST4)."""
        start = time.perf_counter()
        key = (query, self._generation)
        if key != self._prompt_key:  # retrieve once per user message, not per model call
            self.context.set_system(self.system_prompt(query))
            self._prompt_key = key
        mid = time.perf_counter()
        wire = self.context.prepare()
        self.timings = {
            "retrieval_prompt": mid - start,
            "compaction_check": time.perf_counter() - mid,
        }
        return wire

    # -- long-term memory ------------------------------------------------------------------
    def save(self, content: str, **kwargs: Any) -> SaveResult:
        """An explicit save (the user's /save, or the agent's allowed `save_memory`)."""
        self._generation += 1
        result = self.memory.save(content, **kwargs)
        if kwargs.get("source") == "model" and result.status in ("added", "replaced", "superseded"):
            with self._lock:
                self.remembered.append(result.entry.content)
        return result

    def allows_save(self, user_text: str, content: str | None = None) -> Decision:
        """May the agent's `save_memory` of `content` run this turn? Only when the user's
        own message of this turn asks to remember (SPEC SE2, EX1): a file, a grep hit or
        a command's output can carry an injected instruction as well as a web page can,
        so every tool result is untrusted and the model's own wish to save never
        suffices. Once the context holds untrusted text (a tool result, injected
        memories), the memory must also be stated by that message (`remem.extract.stated`)."""
        word = explicit_request(user_text)
        if word is None:
            return Decision(False, DENY_REASON if self.guard.external_consumed else UNASKED_REASON)
        if content is not None and self.holds_untrusted():
            from remem.extract.stated import unstated

            missing = unstated(content, user_text)
            if missing:
                return Decision(False, UNSTATED_REASON.format(words=", ".join(missing[:8])))
        return Decision(True, f"the user asked to remember this turn ({word!r})")

    def holds_untrusted(self) -> bool:
        """Has this context seen a tool result, or memories injected this turn?"""
        if self.injected or self._tool_output:
            return True
        return any(m.get("role") == "tool" for m in self.context.messages)

    def extract_and_save(self, user_text: str) -> ExtractionResult:
        """Extract stable facts from the user's own words and save them (guarded)."""
        from remem.extract.extractor import Extractor

        extractor = Extractor(self.memory, model=self.extraction_model, guard=self.guard)
        result = extractor.extract(user_text)
        with self._lock:
            self.extracted.append(result)
            self.remembered.extend(c.content for c in result.saved)
        if self.ledger is not None and not self.ledger.closed and result.saved:
            self.ledger.event("extraction", saved=[c.content for c in result.saved])
        return result

    def extract_in_background(self, user_text: str) -> threading.Thread:
        """Run `extract_and_save` in a thread so the next prompt is not kept waiting."""
        thread = threading.Thread(target=self._extract_quietly, args=(user_text,), daemon=True)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
        thread.start()
        return thread

    def _extract_quietly(self, user_text: str) -> None:
        from remem.errors import RememError

        try:
            self.extract_and_save(user_text)
        except RememError:  # memory work never breaks the chat
            pass

    def wait(self, timeout: float | None = 10.0) -> None:
        """Wait for background memory work (before /clear, exit, or in tests)."""
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(timeout)

    # -- the session -----------------------------------------------------------------------
    def clear(self) -> None:
        """/clear: finish memory work (facts already saved per turn), then start over
        with only the system prompt; the ledger keeps everything before."""
        self.wait()
        self.project_memory = load_project_memory(self.root, self.home).text
        self._prompt_key = None
        self._tool_output = False
        self.context.replace_all(
            [{"role": "system", "content": self.system_prompt("")}], source="clear"
        )

    def compact(self, *, manual: bool = True) -> CompactionReport:
        return self.context.compact(manual=manual)

    def resume(self, session: str | None = None) -> str:
        """Continue an earlier session (SS2): its ledger becomes this manager's (so the
        session keeps one id and one file however often it is resumed) and the context
        is the list its model saw last. `session` is an id or a unique prefix; None is
        the latest other session that holds a conversation. Returns its id."""
        from remem.context.ledger import find_session

        if session is None:
            earlier = [s for s in list_sessions(self.root) if s.id != self.session_id and s.title]
            if not earlier:
                from remem.errors import NotFound

                raise NotFound("no earlier session in this project")
            session = earlier[0].id
        path = find_session(session, self.root)
        sid = path.name.removesuffix(".jsonl")
        if self.ledger is None or sid != self.ledger.id:
            self._switch_ledger(sid)
        messages = resume_messages(path)
        self.context.replace_all(messages, source="resume")
        self._prompt_key = None
        return sid

    def _switch_ledger(self, session_id: str) -> None:
        """Record from now on into `session_id`'s ledger; the current one is closed."""
        self.wait()
        fsync = self.ledger.fsync if self.ledger is not None else False
        ledger = SessionLedger(self.root, session_id, fsync=fsync)
        previous, self.ledger = self.ledger, ledger
        if previous is not None and not previous.closed:
            previous.flush()
            previous.close(f"continued in {session_id}")
        self.context.recorder = ledger
        self.context.offloader = Offloader(self.root, session_id)
        ledger.event("resumed", **({"from_session": previous.id} if previous else {}))

    def last_user_text(self) -> str:
        for message in reversed(self.context.messages):
            if is_real_user(message):
                return text_of(message)
        return ""

    def status(self) -> ManagerStatus:
        totals = self.account.total() if self.account is not None else None
        with self._lock:
            extracted = sum(len(r.saved) for r in self.extracted)
        return ManagerStatus(
            session_id=self.session_id,
            project=self.memory.project,
            context=self.context.status(),
            calls=totals.calls if totals else 0,
            prompt_tokens=totals.prompt_tokens if totals else 0,
            completion_tokens=totals.completion_tokens if totals else 0,
            extracted=extracted,
            external_sources=list(self.guard.sources),
        )

    def status_text(self) -> str:
        """One line: context tokens, usage, model calls and tokens spent."""
        st = self.status()
        ctx = st.context
        return (
            f"context {ctx.tokens:,}/{ctx.available:,} tokens ({ctx.usage_ratio:.1%})"
            f" · {st.calls} calls · in {st.prompt_tokens:,} / out {st.completion_tokens:,}"
        )

    def flush(self) -> None:
        if self.ledger is not None and not self.ledger.closed:
            self.ledger.flush()

    def close(self, reason: str = "exit") -> None:
        """SS3: finish memory work, flush and close the session, close the store."""
        self.wait()
        if self.ledger is not None and not self.ledger.closed:
            self.ledger.flush()
            self.ledger.close(reason)
        self.memory.close()

    def __enter__(self) -> MemoryManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
