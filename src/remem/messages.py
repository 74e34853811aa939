"""OpenAI-format message lists: token counts, internal messages, and the pairing rules.

A message is a plain dict (`role`, `content`, `tool_calls`, `tool_call_id`). remem
marks its own user-role messages (skill text, loop-guard notices) with
`"remem_internal": "<kind>"`; such keys start with `remem_` and are stripped
before a request is sent (`to_wire`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from remem.tokens import count_tokens

Message = dict[str, Any]

MESSAGE_OVERHEAD = 4  # role and framing tokens per message in the chat format
SKILL_PREFIX = "[REMEM_SKILL_INJECTION"
GUARD_PREFIX = "[runaway guard]"


def text_of(message: Message) -> str:
    """The message's text, whether content is a string or a list of parts."""
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p
        )
    return str(content)


def message_tokens(message: Message) -> int:
    tokens = MESSAGE_OVERHEAD + count_tokens(text_of(message))
    for call in message.get("tool_calls") or []:
        fn = call.get("function", {})
        tokens += count_tokens(str(fn.get("name", ""))) + count_tokens(str(fn.get("arguments", "")))
        tokens += MESSAGE_OVERHEAD
    return tokens


def messages_tokens(messages: Iterable[Message]) -> int:
    return sum(message_tokens(m) for m in messages)


def internal_kind(message: Message) -> str | None:
    """ "skill" / "guard" / another marker for remem's own user-role messages, else None."""
    if message.get("role") != "user":
        return None
    marker = message.get("remem_internal")
    if marker:
        return str(marker)
    text = text_of(message).lstrip()
    if text.startswith(SKILL_PREFIX):
        return "skill"
    if text.startswith(GUARD_PREFIX):
        return "guard"
    return None


def is_real_user(message: Message) -> bool:
    """A user message the user typed (not skill text or a guard notice)."""
    return message.get("role") == "user" and internal_kind(message) is None


def skill_name(message: Message) -> str | None:
    if internal_kind(message) != "skill":
        return None
    name = message.get("remem_skill")
    if name:
        return str(name)
    first = text_of(message).lstrip().splitlines()[0] if text_of(message).strip() else ""
    if "name=" in first:
        return first.split("name=", 1)[1].rstrip("]").strip() or None
    return None


def user(text: str, *, internal: str | None = None, **extra: Any) -> Message:
    message: Message = {"role": "user", "content": text}
    if internal:
        message["remem_internal"] = internal
    message.update(extra)
    return message


def assistant(text: str | None, tool_calls: Sequence[dict[str, Any]] | None = None) -> Message:
    message: Message = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = [dict(c) for c in tool_calls]
    return message


def tool_result(call_id: str, content: str, *, name: str | None = None) -> Message:
    message: Message = {"role": "tool", "tool_call_id": call_id, "content": content}
    if name:
        message["name"] = name
    return message


def to_wire(messages: Iterable[Message]) -> list[Message]:
    """The list as a provider should see it: remem's private keys removed."""
    return [{k: v for k, v in m.items() if not k.startswith("remem_")} for m in messages]


def system_end(messages: Sequence[Message]) -> int:
    """Index of the first non-system message."""
    i = 0
    while i < len(messages) and messages[i].get("role") == "system":
        i += 1
    return i


def structure_problems(messages: Sequence[Message]) -> list[str]:
    """Why a provider would reject this list (empty when it is valid):
    system messages only at the start; every tool call answered by exactly one tool
    message right after its assistant message; no tool message without its call."""
    problems: list[str] = []
    pending: set[str] = set()
    start = system_end(messages)
    for i, m in enumerate(messages):
        role = m.get("role")
        if role == "system" and i >= start:
            problems.append(f"#{i}: system message after the start")
        if role == "tool":
            cid = m.get("tool_call_id")
            if cid not in pending:
                problems.append(f"#{i}: tool result {cid!r} without a pending call")
            pending.discard(str(cid))
            continue
        if pending:
            problems.append(f"#{i}: calls {sorted(pending)} have no result")
            pending = set()
        if role == "assistant":
            pending = {str(c.get("id")) for c in m.get("tool_calls") or []}
    if pending:
        problems.append(f"end: calls {sorted(pending)} have no result")
    return problems


def describe_call(call: dict[str, Any]) -> str:
    fn = call.get("function", {})
    args = fn.get("arguments", "")
    try:
        parsed = json.loads(args) if isinstance(args, str) and args else args
        args = json.dumps(parsed, ensure_ascii=False)
    except json.JSONDecodeError:
        pass
    return f"{fn.get('name', '?')}({args})"


def unfenced(reply: str) -> str:
    """A model's reply without the ```json fence models put around JSON, stripped."""
    raw = reply.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", raw, re.DOTALL)
    return fenced[1] if fenced else raw
