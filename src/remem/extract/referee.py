"""A model's second opinion on the changes the rules and the small judge leave unsure,
checked by code.

    memory = Memory(path, referee=LLMReferee(model))     # or REMEM_SUBJECTS=llm

The rules go first, then the learned judge (`remem.truth.verdicts`); where neither is
sure, the few memories the judge gives some chance are sent with the new text, and the
model answers strict JSON: `{"relation": "change" | "repeat" | "different", "memory":
n, "old_value": ..., "new_value": ...}`. Nothing in the reply is trusted: the memory
must be one of those sent, the old value must be written in that memory and the new
value in the new text (a model that cannot quote both has not read a change of that
memory), and a repeat may bring no number the memory lacks. A reply failing any check,
or a failed call, is no opinion: the judge's own verdict stands.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from remem.entry import Entry
from remem.messages import unfenced
from remem.truth.dedup import Match
from remem.truth.segment import normal

if TYPE_CHECKING:
    from remem.llm import ChatModel

PROMPT = """You keep a user's memories true. You get numbered memories that are true now
and a NEW text the user just wrote. Say what the new text is to them:
- "change": it says the value of one memory changed, was corrected, or no longer holds
  (the same fact about the same thing, person, place and environment, now different);
- "repeat": it says what one memory says, with nothing new;
- "different": it is about something else (another person, place, environment, project
  or time), adds a fact beside them, or is not a fact at all (an event, a question).
Reply with strict JSON only:
{"relation": "change" | "repeat" | "different", "memory": <its number, or null>,
 "old_value": "<the value in that memory, copied exactly>" or null,
 "new_value": "<the new value, copied exactly from the new text>" or null}
new_value is null when the fact simply stopped. 中文记忆同理：值逐字摘自原文。"""

_KEYS = frozenset({"relation", "memory", "old_value", "new_value"})
_MAX = 80


def _said(value: object, text: str) -> bool:
    """`value` is text written in `text` (compared as NFKC, case-folded)."""
    if not isinstance(value, str) or not value.strip() or len(value) > _MAX:
        return False
    return normal(value).lower().strip() in normal(text).lower()


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:\.\d+)?", normal(text)))


def check_ruling(reply: str, incoming: Entry, candidates: Sequence[Entry]) -> list[Match] | str:
    """The matches a model's reply to PROMPT rules for `incoming` among `candidates`
    ([] for "different"), or why the reply is refused."""
    raw = unfenced(reply)
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        return f"not strict JSON ({exc})"
    if not isinstance(doc, dict) or not set(doc) <= _KEYS or "relation" not in doc:
        return "not {relation, memory, old_value, new_value}"
    relation, number = doc["relation"], doc.get("memory")
    if relation == "different":
        return []
    if relation not in ("change", "repeat"):
        return f"unknown relation {relation!r}"
    if type(number) is not int or not 1 <= number <= len(candidates):
        return "memory is not the number of one memory sent"
    old = candidates[number - 1]
    if relation == "repeat":
        if _numbers(incoming.content) - _numbers(old.content):
            return "a repeat that brings a number the memory lacks"
        return [Match(old, "duplicate", "the model judged a repeat of it")]
    new_value = doc.get("new_value")
    if not _said(doc.get("old_value"), old.content):
        return "the old value is not written in that memory"
    if new_value is not None and not _said(new_value, incoming.content):
        return "the new value is not written in the new text"
    if new_value is not None and normal(new_value).lower() == normal(doc["old_value"]).lower():
        return "the new value is the old one"
    said = f"{doc['old_value']} → {new_value}" if new_value else f"{doc['old_value']} ended"
    return [Match(old, "supersede", f"the model judged a change of it ({said})")]


class LLMReferee:
    """A `remem.truth.verdicts.Referee`: the configured model, its answer checked."""

    def __init__(self, model: ChatModel) -> None:
        self.model = model
        self.refusals: list[str] = []  # why replies were refused, newest last

    def __call__(self, incoming: Entry, candidates: Sequence[Entry]) -> list[Match] | None:
        from remem.llm import LLMError

        listed = "\n".join(f"{i}. {c.content}" for i, c in enumerate(candidates, 1))
        messages = [
            {"role": "system", "content": PROMPT},
            {"role": "user", "content": f"Memories:\n{listed}\n\nNew text: {incoming.content}"},
        ]
        try:
            reply = self.model.complete(messages, max_tokens=200, purpose="referee")
        except LLMError as exc:
            self.refusals.append(f"model call failed: {exc}")
            return None
        checked = check_ruling(reply.content, incoming, candidates)
        if isinstance(checked, str):
            self.refusals.append(checked)
            return None
        return checked
