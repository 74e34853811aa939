"""An OpenAI Agents SDK `Session` backed by remem's session ledger (`remem[agents]`).

    from agents import Agent, Runner
    from remem.integrations.agents import RememSession

    session = RememSession("support-42")          # <project>/.remem/sessions/support-42.jsonl
    await Runner.run(agent, "Hi, I'm Ann", session=session)
    await Runner.run(agent, "What's my name?", session=session)   # the history comes along

The history is the ledger's visible list (SPEC SS1-SS3): every item is appended as one
line, so a session survives a crash and is resumed by opening the same id again (`remem
sessions list|show` see it too). After each `add_items` the list is measured and, past
the thresholds of `config`, compacted as `remem chat`'s is (CP2-CP4: old tool outputs
cleared, old turns summarised, offline by default), so `get_items` hands the Runner a
history that fits the model's window. Items the compaction did not touch come back
exactly as they were added; a summary comes back as a user message and an assistant
acknowledgement. Strings that look like secrets are written redacted (a resumed session
sees `[REDACTED:<kind>]`).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

try:
    from agents.memory import SessionSettings
except ImportError as exc:  # the extra is not installed
    from remem.errors import MissingExtra

    raise MissingExtra("remem.integrations.agents", "openai-agents", "agents") from exc

from remem.context.compaction import CompactionConfig
from remem.context.ledger import SessionLedger, read_events, view_of
from remem.context.manager import ContextManager
from remem.context.summarizer import Summarizer
from remem.messages import Message
from remem.settings import project_root

if TYPE_CHECKING:
    from agents import TResponseInputItem

__all__ = ["RememSession"]

ITEM = "item"  # the key of a ledger message holding the SDK item it was made from


class RememSession:
    """Conversation history for the Agents SDK's `Runner`, kept in a remem session
    ledger and compacted when it outgrows `config.window`."""

    def __init__(
        self,
        session_id: str | None = None,
        *,
        root: str | Path | None = None,
        config: CompactionConfig | None = None,
        summarizer: Summarizer | None = None,
        session_settings: SessionSettings | None = None,
        fsync: bool = True,
    ) -> None:
        """`session_id`: continue that session, or start it (None: a new id, see
        `.session_id`); `root`: the project whose `.remem/sessions/` holds the ledger
        (default: the git root above the current folder)."""
        self._ledger = SessionLedger(
            project_root(Path(root) if root else None),
            session_id,
            fsync=fsync,
            metadata={"client": "openai-agents"},
        )
        self.session_id: str = self._ledger.id
        self.session_settings = session_settings
        self._lock = threading.Lock()
        self._ctx = ContextManager(
            config=config,
            summarizer=summarizer,
            recorder=self._ledger,
            messages=view_of(read_events(self._ledger.path)),
        )

    @property
    def path(self) -> Path:
        """The ledger file."""
        return self._ledger.path

    # -- the Session protocol --------------------------------------------------------------
    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The history the model should see next, oldest first (the latest `limit`)."""
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        with self._lock:
            items = [item for m in self._ctx.messages for item in to_items(m)]
        if limit is None:
            return items
        return items[-limit:] if limit > 0 else []

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append `items` to the ledger, then compact if a threshold is crossed."""
        await asyncio.to_thread(self._add, list(items))

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the most recent item (None when the history is empty)."""
        return await asyncio.to_thread(self._pop)

    async def clear_session(self) -> None:
        """Start the visible history afresh (the ledger keeps what was said before)."""
        await asyncio.to_thread(self._replace, [], "clear")

    def close(self) -> None:
        self._ledger.close()

    # -- the work, off the event loop --------------------------------------------------------
    def _check_open(self) -> None:
        if self._ledger.closed:
            raise RuntimeError(f"RememSession {self.session_id} is closed")

    def _add(self, items: Sequence[Mapping[str, Any]]) -> None:
        with self._lock:
            self._check_open()
            for item in items:
                self._ctx.add_message(to_message(item))
            self._ctx.prepare()

    def _pop(self) -> TResponseInputItem | None:
        with self._lock:
            self._check_open()
            messages = list(self._ctx.messages)
            if not messages:
                return None
            *rest, last = to_items(messages.pop())
            messages += [to_message(item) for item in rest]
            self._ctx.replace_all(messages, source="pop")
            return last

    def _replace(self, messages: list[Message], source: str) -> None:
        with self._lock:
            self._check_open()
            self._ctx.replace_all(messages, source=source)


# -- SDK items <-> chat messages -----------------------------------------------------------
def to_message(item: Mapping[str, Any]) -> Message:
    """The chat message compaction reads for an SDK item, holding the item itself."""
    message = _chat_form(item)
    message[ITEM] = dict(item)
    return message


def _chat_form(item: Mapping[str, Any]) -> Message:
    kind = item.get("type")
    if kind == "function_call":
        function = {"name": item.get("name"), "arguments": item.get("arguments")}
        call = {"id": item.get("call_id"), "type": "function", "function": function}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    if kind == "function_call_output":
        output = item.get("output")
        text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
        return {"role": "tool", "tool_call_id": item.get("call_id"), "content": text}
    role = item.get("role")
    if role in ("user", "assistant", "system", "developer") and kind in (None, "message"):
        return {"role": "system" if role == "developer" else role, "content": _text(item)}
    # reasoning, hosted tool calls ...: kept for the model, counted as a little text
    return {"role": "assistant", "content": f"[{kind or 'item'}]"}


def _text(item: Mapping[str, Any]) -> str:
    content = item.get("content")
    if isinstance(content, str):
        return content
    parts = [p.get("text") or p.get("refusal") for p in content or [] if isinstance(p, dict)]
    return "\n".join(p for p in parts if isinstance(p, str))


def to_items(message: Message) -> list[TResponseInputItem]:
    """The SDK items of a ledger message: the item it was made from while compaction
    left it as it was, else items built from what the message now says."""
    item = message.get(ITEM)
    plain = {k: v for k, v in message.items() if k != ITEM}
    if isinstance(item, dict) and _chat_form(item) == plain:
        return [cast("TResponseInputItem", item)]
    out: list[dict[str, Any]] = []
    role, content = message.get("role"), message.get("content")
    if role == "tool":
        out.append(
            {
                "type": "function_call_output",
                "call_id": message.get("tool_call_id"),
                "output": content or "",
            }
        )
        return cast("list[TResponseInputItem]", out)
    if content:
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        out.append(
            {"role": role if role in ("user", "assistant", "system") else "user", "content": text}
        )
    for call in message.get("tool_calls") or []:
        fn = call.get("function") or {}
        out.append(
            {
                "type": "function_call",
                "call_id": call.get("id"),
                "name": fn.get("name"),
                "arguments": fn.get("arguments") or "",
            }
        )
    return cast("list[TResponseInputItem]", out)
