"""Subjects and values read by a model where the rules read none, checked by code.

    memory = Memory(path, subjects=LLMSubjects(model))

The rules (`remem.truth.subject.read`) go first; only a memory they cannot read is
sent, with a prompt asking for strict JSON `{"subject": ..., "value": ..., "change":
...}`. Nothing in the reply is trusted: the value must be written in the memory, the
subject's words too (but for the attribute words remem itself adds: location, port,
time, ...), the subject must have a key, nothing else may be in the reply. A reply
failing any check, or a failed call, means no subject: the surface rules decide then.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from remem.messages import unfenced
from remem.truth import keys, lexicon
from remem.truth.segment import normal
from remem.truth.subject import Claim, read

if TYPE_CHECKING:
    from remem.llm import ChatModel

PROMPT = """这条记忆陈述的是什么对象（subject）的什么值（value）？
限定语属于对象（"测试环境的数据库"、"billing service port"）。值必须逐字出现在记忆中。
记忆说明了变化（改用、换成、不再、switched to、no longer…）时 change 为 true。
严格输出 JSON：{"subject": "...", "value": "..." 或 null, "change": true/false}；
记忆不是关于某个对象的某个值（事件、经历、多件事）时输出 {"subject": null}。
(The same for English memories: the subject and value in the memory's own words.)"""

_MAX = 80
# Words remem adds to a subject itself ("部署脚本 location", "the user's editor").
_ADDED = frozenset(
    "the user's user location port time name owner platform launch".split()
    + [k.replace("_", " ") for k in lexicon.KINDS]
)


def _words(text: str) -> list[str]:
    return re.findall(r"[\w.+#/-]+", normal(text).lower())


def check_reply(reply: str, content: str) -> Claim | str:
    """The claim in a model's reply to PROMPT about `content`, or why it is refused."""
    raw = unfenced(reply)
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        return f"not strict JSON ({exc})"
    if not isinstance(doc, dict) or set(doc) - {"subject", "value", "change"}:
        return "not {subject, value, change}"
    subject, value, change = doc.get("subject"), doc.get("value"), doc.get("change", False)
    if subject is None:
        return "no subject"
    if not isinstance(subject, str) or not isinstance(change, bool):
        return "subject must be text and change true or false"
    if value is not None and not isinstance(value, str):
        return "value must be text or null"
    text = normal(content).lower()
    if not subject.strip() or len(subject) > _MAX or (value and len(value) > _MAX):
        return "subject or value empty or too long"
    if value is not None and normal(value).lower().strip() not in text:
        return "the value is not written in the memory"
    unknown = [w for w in _words(subject) if w not in text and w not in _ADDED]
    if unknown:
        return f"subject words not in the memory: {', '.join(unknown)}"
    if not keys.keys(subject, value)[0]:
        return "the subject has no key"
    return Claim(subject.strip(), value.strip() if value else None, change=change, via="model")


class LLMSubjects:
    """A `remem.truth.decide.Reader`: the rules, then the model for what they miss."""

    def __init__(self, model: ChatModel) -> None:
        self.model = model
        self.refusals: list[str] = []  # why replies were refused, newest last

    def __call__(self, content: str) -> Claim | None:
        found = read(content)
        if found is not None:
            return found
        from remem.llm import LLMError

        messages = [
            {"role": "system", "content": PROMPT},
            {"role": "user", "content": content},
        ]
        try:
            reply = self.model.complete(messages, max_tokens=200, purpose="subjects")
        except LLMError as exc:
            self.refusals.append(f"model call failed: {exc}")
            return None
        checked = check_reply(reply.content, content)
        if isinstance(checked, str):
            self.refusals.append(checked)
            return None
        return checked
