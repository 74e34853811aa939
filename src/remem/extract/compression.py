"""Semantic compression (SPEC EX6, EX7; SimpleMem's three stages).

1. trigger: rules (explicit "remember", decision, changed value, milestone, a preference
   said [3] times), then a model, when given, must be [0.7] sure (explicit asks excepted);
2. structure: entity, type, one-sentence summary, facts, confidence, by rules or by a
   model in strict JSON (validated; one retry, then rules); the back-check then requires
   every number, amount, date, version, time and ID of the source in the summary or a
   fact value, else the item is redone once, else kept verbatim;
3. merge: the same entity and kind of statement within [7] days supersedes the older entry
   (its other facts carried over); later only a changed value does (LT11 keeps history).

The number back-check lives in `remem.numbers`, the cue words and the rule heuristics
(trimming, entity, facts) in `remem.extract.compression_rules`.

    Compressor().process("预算调整为 8 万", memory).result.status     # "replaced", ...
"""

from __future__ import annotations

import json
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, get_args

from remem import text
from remem.entry import Entry, to_utc, utcnow
from remem.errors import InvalidInput
from remem.extract.compression_rules import (
    CONFIDENCE,
    EXPLICIT,
    QUESTION,
    TENTATIVE,
    Kind,
    find_cue,
    find_entity,
    rule_facts,
    split_sentences,
    trim,
)
from remem.llm import LLMError
from remem.messages import unfenced
from remem.numbers import NumberToken, missing_numbers, number_tokens

if TYPE_CHECKING:
    from remem.llm import ChatModel
    from remem.memory import Memory, SaveResult
    from remem.messages import Message

__all__ = [
    "CompressedItem",
    "CompressionConfig",
    "Compressor",
    "ItemType",
    "NumberToken",
    "Outcome",
    "Trigger",
    "compress_by_rules",
    "missing_numbers",
    "number_tokens",
    "parse_item",
]

ItemType = Literal["fact", "preference", "decision", "milestone", "change"]
ITEM_TYPES: tuple[str, ...] = get_args(ItemType)
# Statements of how things stand merge with each other: "预算调整为 8 万" (a change)
# replaces "预算 5 万" (a fact). Preferences and milestones merge only with their own kind.
_STATE: tuple[ItemType, ...] = ("fact", "decision", "change")
_MERGES: dict[str, tuple[ItemType, ...]] = {t: _STATE for t in _STATE}
_MERGES |= {"preference": ("preference",), "milestone": ("milestone",)}


# -- structured items ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class CompressedItem:
    """One compressed memory. `verbatim`: the back-check failed twice, so the summary is
    the source itself; `redone`: the first attempt lost a number."""

    entity: str
    type: ItemType
    summary: str
    facts: dict[str, str]
    confidence: float
    source_text: str
    verbatim: bool = False
    redone: bool = False
    method: Literal["rules", "model"] = "rules"


def _verbatim(source: str) -> str:
    return " ".join(source.split())


Redo = Callable[[list[str]], "CompressedItem | None"]


def _back_check(item: CompressedItem, redo: Redo) -> CompressedItem:
    """EX7: `item` if it kept every number; else `redo(missing)` once; else verbatim."""
    missing = missing_numbers(item.source_text, item.summary, item.facts)
    if not missing:
        return item
    again = redo(missing)
    if again is not None and not missing_numbers(again.source_text, again.summary, again.facts):
        return replace(again, redone=True)
    summary = _verbatim(item.source_text)
    return replace(again or item, summary=summary, verbatim=True, redone=True)


def compress_by_rules(source: str) -> CompressedItem:
    """Offline structuring: the sentence with the cue (else the first with a number),
    trimmed, is the summary; the redo trims the whole text instead."""
    sentences = split_sentences(source) or [source]
    cued = [(s, c) for s in sentences if (c := find_cue(s))]
    main = cued[0][0] if cued else next((s for s in sentences if re.search(r"\d", s)), source)
    kind: ItemType = cued[0][1][0] if cued else "fact"
    entity = find_entity(trim(main)) or find_entity(trim(source))
    confidence = 0.9 if EXPLICIT.search(source) else CONFIDENCE.get(kind, 0.7)
    summary = trim(main) or _verbatim(source)
    item = CompressedItem(
        entity=entity,
        type=kind,
        summary=summary,
        facts=rule_facts(source, entity),
        confidence=confidence,
        source_text=source,
    )
    return _back_check(item, lambda _: replace(item, summary=trim(source) or summary))


# -- strict JSON from a model -------------------------------------------------------------
_FIELDS = {"entity", "type", "summary", "facts", "confidence"}
STRUCTURE_PROMPT = """Compress the user's text into one long-term memory entry. Reply with \
only a JSON object with exactly these keys: {"entity": "<the named thing it is about>", \
"type": "fact" | "preference" | "decision" | "milestone" | "change", "summary": "<one \
sentence>", "facts": {"<name>": "<value>"}, "confidence": <0..1>}. Keep every number, \
amount, date, version and ID of the text exactly as written in the summary or a fact value; \
drop filler and small talk. decision: something was decided; change: a value changed; \
milestone: something was done or released; preference: how the user wants things; fact: \
anything else. confidence: 1 when stated outright, lower when inferred."""
RETRY_PROMPT = "That reply is not valid: {errors}. Reply with only the JSON object."
REDO_PROMPT = """Your entry lost these values of the text: {missing}. Write it again keeping \
each of them exactly as written in the summary or a fact value. Only the JSON object."""
TRIGGER_PROMPT = """Is this message from the user worth keeping in long-term memory (a \
decision, a changed value, a milestone, a lasting preference or fact; not small talk, not a \
tentative remark)? Reply with only {"remember": true|false, "confidence": <0..1>}."""


def _user(content: str) -> Message:
    return {"role": "user", "content": content}


def _messages(system: str, source: str) -> list[Message]:
    return [{"role": "system", "content": system}, _user(source)]


def _json_object(reply: str) -> tuple[dict[str, Any] | None, str]:
    try:
        data = json.loads(unfenced(reply))
    except ValueError as exc:
        return None, f"not JSON ({exc})"
    return (data, "") if isinstance(data, dict) else (None, "not a JSON object")


def _is_score(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and 0.0 <= value <= 1.0


def parse_item(reply: str, source: str) -> tuple[CompressedItem | None, list[str]]:
    """A model's reply as an item, or None and everything wrong with it."""
    data, problem = _json_object(reply)
    if data is None:
        return None, [problem]
    errors = [] if set(data) == _FIELDS else [f"keys must be exactly {', '.join(sorted(_FIELDS))}"]
    entity, summary, facts = data.get("entity"), data.get("summary"), data.get("facts")
    if not isinstance(entity, str) or not entity.strip() or len(entity) > 100:
        errors.append("entity must be a non-empty string of at most 100 characters")
    if data.get("type") not in ITEM_TYPES:
        errors.append(f"type must be one of {', '.join(ITEM_TYPES)}")
    if not isinstance(summary, str) or not summary.strip():
        errors.append("summary must be a non-empty string")
    if not isinstance(facts, dict) or not all(
        isinstance(k, str) and k.strip() and isinstance(v, str) for k, v in facts.items()
    ):
        errors.append("facts must map names to string values")
    if not _is_score(data.get("confidence")):
        errors.append("confidence must be a number from 0 to 1")
    if errors:
        return None, errors
    item = CompressedItem(
        entity=" ".join(str(entity).split()),
        type=data["type"],
        summary=" ".join(str(summary).split()),
        facts=dict(facts or {}),
        confidence=float(data["confidence"]),
        source_text=source,
        method="model",
    )
    return item, []


# -- the pipeline -------------------------------------------------------------------------
TriggerReason = Literal[Kind, "explicit", "question", "tentative", "none", "model"]


@dataclass(frozen=True, slots=True)
class Trigger:
    """Whether a text is worth compressing, why, and the words (`cue`) that said so."""

    fired: bool
    reason: TriggerReason
    cue: str = ""
    confidence: float = 1.0
    detail: str = ""


@dataclass(frozen=True, slots=True)
class CompressionConfig:
    """The defaults (SPEC EX6): merge window [7] days, a preference counts once said [3]
    times, a model must be [0.7] sure that a text is worth remembering."""

    window_days: float = 7.0
    repeat_threshold: int = 3
    model_threshold: float = 0.7
    max_tokens: int = 600
    counter_size: int = 256  # preferences counted per Compressor (oldest forgotten first)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What `Compressor.process` did; no item and no result when the trigger did not fire."""

    trigger: Trigger
    item: CompressedItem | None = None
    result: SaveResult | None = None


def _entity_key(entity: str | None) -> str:
    return text.canonicalize(entity or "").replace(" ", "")


def _when(entry: Entry) -> datetime:
    return entry.created_at


class Compressor:
    """Trigger, structure, back-check and merge (SPEC EX6, EX7); offline without a model.
    An instance counts how often each preference was said: keep one per user or session."""

    def __init__(self, model: ChatModel | None = None, config: CompressionConfig | None = None):
        self.model = model
        self.config = config or CompressionConfig()
        self._said: OrderedDict[str, int] = OrderedDict()

    def trigger(self, source: str) -> Trigger:
        """Rules first; then a model, when set, must confirm (explicit instructions excepted)."""
        if found := EXPLICIT.search(source):
            return Trigger(True, "explicit", found.group().strip(" .,;:!"))
        if QUESTION.search(source):
            return Trigger(False, "question")
        if found := TENTATIVE.search(source):
            return Trigger(False, "tentative", found.group())
        if (cue := find_cue(source)) is None:
            return Trigger(False, "none")
        if cue[0] != "preference":
            return self._confirm(source, Trigger(True, cue[0], cue[1]))
        key = text.canonicalize(trim(source))
        said = self._said[key] = self._said.pop(key, 0) + 1
        while len(self._said) > self.config.counter_size:
            self._said.popitem(last=False)
        detail = f"said {said} of {self.config.repeat_threshold} times"
        if said < self.config.repeat_threshold:
            return Trigger(False, "preference", cue[1], detail=detail)
        return self._confirm(source, Trigger(True, "preference", cue[1], detail=detail))

    def _confirm(self, source: str, rule: Trigger) -> Trigger:
        if self.model is None:
            return rule
        ask = _messages(TRIGGER_PROMPT, source)
        try:
            reply = self.model.complete(ask, max_tokens=60, purpose="compression").content
        except LLMError as exc:
            return replace(rule, detail=f"model unavailable, rules only: {exc}")
        data, _ = _json_object(reply)
        if not (
            data
            and set(data) == {"remember", "confidence"}
            and _is_score(data["confidence"])
            and isinstance(data["remember"], bool)
        ):
            return replace(rule, detail="model reply unusable, rules only")
        score = float(data["confidence"]) if data["remember"] else 0.0
        if score < self.config.model_threshold:
            detail = f"{rule.reason} not confirmed by the model ({score:.2f})"
            return Trigger(
                fired=False, reason="model", cue=rule.cue, confidence=score, detail=detail
            )
        return replace(rule, confidence=score)

    def compress(self, source: str) -> CompressedItem:
        """A structured item that keeps every number of `source` (EX7)."""
        if not isinstance(source, str) or not source.strip():
            raise InvalidInput("nothing to compress")
        item = self._compress_with_model(source) if self.model is not None else None
        return item or compress_by_rules(source)

    def _ask(
        self, chat: list[Message], source: str, tries: int
    ) -> tuple[CompressedItem | None, list[Message]]:
        """An item from the model (retried once when `tries` is 2), and the conversation."""
        assert self.model is not None
        for attempt in range(tries):
            cap = self.config.max_tokens
            reply = self.model.complete(chat, max_tokens=cap, purpose="compression").content
            item, errors = parse_item(reply, source)
            chat = [*chat, {"role": "assistant", "content": reply}]
            if item is not None or attempt == tries - 1:
                return item, chat
            chat.append(_user(RETRY_PROMPT.format(errors="; ".join(errors))))
        return None, chat

    def _compress_with_model(self, source: str) -> CompressedItem | None:
        """Strict JSON, one retry when invalid, one redo when a number is lost; None (use
        the rules) when the model fails or never answers validly."""
        try:
            item, chat = self._ask(_messages(STRUCTURE_PROMPT, source), source, tries=2)

            def redo(missing: list[str]) -> CompressedItem | None:
                ask = _user(REDO_PROMPT.format(missing=", ".join(missing)))
                return self._ask([*chat, ask], source, tries=1)[0]

            return _back_check(item, redo) if item is not None else None
        except LLMError:
            return None

    def process(self, source: str, memory: Memory, *, at: datetime | str | None = None) -> Outcome:
        """Trigger, compress and apply one thing the user said."""
        trigger = self.trigger(source)
        if not trigger.fired:
            return Outcome(trigger)
        item = self.compress(source)
        return Outcome(trigger, item, self.apply(item, memory, at=at))

    def apply(
        self, item: CompressedItem, memory: Memory, *, at: datetime | str | None = None
    ) -> SaveResult:
        """Save `item` to project scope as auto_extracted, superseding the entry it updates:
        the newest of the same entity and kind within the window (its other facts carried
        over), else one whose value for a shared fact changed, else a conflicting older one.
        A conflict with a newer entry writes nothing (the item is the stale one)."""
        when = to_utc(at) if at else utcnow()
        target, merge = self._target(item, memory, when)
        carried = {
            k: v
            for k, v in (target.facts if target and merge else {}).items()
            if k not in item.facts and not k.endswith("_before")
        }
        content = item.summary
        if carried:
            content += " (" + "; ".join(f"{k}: {v}" for k, v in carried.items()) + ")"
        meta = {"source_text": item.source_text, "verbatim": item.verbatim, "method": item.method}
        fields: dict[str, Any] = {
            "type": item.type,
            "source": "auto_extracted",
            "entity": item.entity or None,
            "facts": {**carried, **item.facts},
            "importance": round(item.confidence, 3),
            "created_at": when,
            "metadata": {"compression": meta},
        }
        if target is not None:
            return memory.save(content, replace_id=target.id, **fields)
        result = memory.save(content, **fields)
        older = [c for c in result.conflicts if c.created_at <= when]
        if result.status != "conflict" or not older:
            return result
        return memory.save(content, replace_id=max(older, key=_when).id, **fields)

    def _target(
        self, item: CompressedItem, memory: Memory, when: datetime
    ) -> tuple[Entry | None, bool]:
        """The entry `item` supersedes, and whether it merges with it (within the window)."""
        key = _entity_key(item.entity)
        pool = [
            e
            for kind in _MERGES[item.type]
            for e in memory.list(type=kind, scope="project")
            if e.created_at <= when and (not e.entity or _entity_key(e.entity) == key)
        ]
        same = sorted((e for e in pool if key and e.entity), key=_when)
        if (
            same
            and same[-1].type == item.type
            and (_entity_key(same[-1].content) == _entity_key(item.summary))
        ):
            return None, False  # said again: the store refreshes it as a duplicate
        if same and when - same[-1].created_at <= timedelta(days=self.config.window_days):
            return same[-1], True
        changed = [e for e in pool if _contradicts(e, item.facts, loose=not e.entity)]
        return (max(changed, key=_when) if changed else None), False


def _value(value: str) -> tuple[str, ...]:
    return tuple(t.key for t in number_tokens(value)) or (_entity_key(value),)


def _contradicts(entry: Entry, facts: Mapping[str, str], *, loose: bool) -> bool:
    """A shared fact with another value; for an entry without an entity only named facts
    count ("jdk", "预算"), not those named by kind ("date", "amount_2")."""
    generic = {"date", "time", "amount", "percent", "id", "version"}
    return any(
        k in entry.facts
        and _value(entry.facts[k]) != _value(v)
        and not k.endswith("_before")
        and not (loose and re.sub(r"_\d+$", "", k) in generic)
        for k, v in facts.items()
    )
