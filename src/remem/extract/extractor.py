"""Automatic fact extraction from the user's own words (SPEC EX2-EX5, EX8, EX9, SE2, SE3).

    extractor = Extractor(memory)                      # rules only: works offline
    extractor = Extractor(memory, model=chat_model)    # rules first, then quote-only LLM
    result = extractor.extract("帮我写个脚本。对了，我们项目统一用 UTF-8。")
    result.saved     # [Candidate(content="我们项目统一用 UTF-8", type="fact", via="rules")]
    result.refused   # [Refusal(text="帮我写个脚本", reason="task request ('帮我')")]

The pipeline: pre-filters (length; whole sentences holding a sensitive word or anything
that looks like a key, phone or ID number are deleted; a trigger word is required),
deterministic rules over the user's own sentences (code, quoted lines, quoted and
pasted text are never the user's words), then, if a model is given, the quote-only
prompt, whose reply is checked by code that trusts nothing in it. Survivors are saved
to project scope as auto_extracted / unverified; duplicates and conflicts are
reported as refused, never raised.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from remem import text as textlib
from remem.entry import Entry
from remem.errors import InvalidInput
from remem.extract.guard import ExternalGuard
from remem.extract.rules import (
    Candidate,
    ExtractionConfig,
    FactType,
    Found,
    MessageView,
    Refusal,
    fact_type,
    has_trigger,
    refusal_reason,
    rule_facts,
    shown,
    view_of,
)
from remem.messages import unfenced
from remem.named_values import named_values
from remem.secrets import find_secrets
from remem.store.protocol import Domain
from remem.truth import decide, index

if TYPE_CHECKING:
    from remem.llm import ChatModel
    from remem.memory import Memory

__all__ = [
    "Candidate",
    "ExtractionConfig",
    "ExtractionResult",
    "Extractor",
    "FactType",
    "Refusal",
    "validate_quotes",
]

PROMPT = """从下面这条用户原文中，找出用户明确陈述、跨会话仍可能有用的稳定偏好或项目事实。
只选用户自己说出的事实；任务要求、当前临时状态、推测、代码示例、引用资料、
凭证和个人敏感信息一律不要选。不要补全、改写或推断。
严格输出 JSON：{"facts":[{"quote":"用户原文中的连续片段"}]}。
quote 必须逐字出现在用户原文中，最多 %d 条；没有合格事实就输出 {"facts":[]}。
(Quote the user's own words verbatim; never paraphrase. The same rules apply to English.)"""


@dataclass
class ExtractionResult:
    """What was saved (or, in a dry run, would be) and what was refused."""

    saved: list[Candidate] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)  # the stored entries (not in dry runs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "saved": [c.to_dict() for c in self.saved],
            "refused": [r.to_dict() for r in self.refused],
        }


# -- the model's reply, checked by code (EX4) -------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError(f"repeated field {next(k for k in keys if keys.count(k) > 1)!r}")
    return dict(pairs)


def _parse(content: str, max_facts: int) -> list[str] | str:
    """The quotes of a reply, or why the whole batch is rejected."""
    raw = unfenced(content)
    try:
        doc = json.loads(raw, object_pairs_hook=_no_duplicates)
    except ValueError as exc:
        return f"not strict JSON ({exc})"
    if not isinstance(doc, dict) or not isinstance(doc.get("facts"), list):
        return 'not {"facts": [...]}'
    if extra := sorted(set(doc) - {"facts"}):
        return f"unknown field {extra[0]!r}"
    if len(doc["facts"]) > max_facts:
        return f"{len(doc['facts'])} facts (at most {max_facts})"
    quotes: list[str] = []
    for item in doc["facts"]:
        if not isinstance(item, dict):
            return "a fact that is not an object"
        if extra := sorted(set(item) - {"quote"}):
            return f"unknown field {extra[0]!r} in a fact"
        if not isinstance(item.get("quote"), str):
            return "a fact without a text quote"
        quotes.append(item["quote"])
    return quotes


def _occurrences(view: MessageView, quote: str) -> list[int]:
    """Where `quote` starts in the message, outside the deleted sensitive sentences."""
    found, pos = [], view.text.find(quote)
    while pos >= 0:
        if not any(a < pos + len(quote) and pos < b for a, b in view.deleted):
            found.append(pos)
        pos = view.text.find(quote, pos + 1)
    return found


def _quote_problem(quote: str, view: MessageView, cfg: ExtractionConfig) -> tuple[str | None, int]:
    """Why a quote is refused (None: accepted), and where it starts in the message."""
    n, nowhere = len(quote), len(view.text)
    if n < cfg.quote_min or n > cfg.quote_max:
        return f"length {n} chars (must be {cfg.quote_min}..{cfg.quote_max})", nowhere
    if "\n" in quote or "\r" in quote:
        return "spans several lines", nowhere
    if hits := find_secrets(quote):
        return f"sensitive: {hits[0].label}", nowhere
    starts = _occurrences(view, quote) if quote in view.sanitised else []
    if not starts:
        return "not a verbatim quote of the input", nowhere
    for pos in starts:
        if why := view.origin_reason(pos, pos + n):
            return f"from {why}", pos
        if any(view.asks(a, b) for a, b in view.sentences if a < pos + n and pos < b):
            return "from a question", pos
    return refusal_reason(quote), starts[0]


def _check_reply(content: str, view: MessageView, cfg: ExtractionConfig, max_facts: int) -> Found:
    parsed = _parse(content, max_facts)
    end = len(view.text)
    if isinstance(parsed, str):
        reason = f"model reply rejected as a whole: {parsed}"
        return [], [(end, Refusal(shown(content), reason))]
    accepted: list[Candidate] = []
    refused: list[tuple[int, Refusal]] = []
    for quote in parsed:
        problem, pos = _quote_problem(quote, view, cfg)
        if problem is None and any(c.content == quote for c in accepted):
            problem = "repeated quote"
        if problem is not None:
            refused.append((pos, Refusal(shown(quote), f"model quote refused: {problem}")))
        else:
            accepted.append(Candidate(quote, fact_type(quote), "model", pos))
    return accepted, refused


def validate_quotes(
    reply: str, user_text: str, *, max_facts: int = 3, config: ExtractionConfig | None = None
) -> tuple[list[Candidate], list[Refusal]]:
    """Check a model's reply to the quote-only prompt against the user's message: the
    accepted quotes (verbatim, from the user's own sentences) and every refusal."""
    cfg = config or ExtractionConfig()
    accepted, refused = _check_reply(reply, view_of(user_text), cfg, max_facts)
    return accepted, [r for _, r in refused]


# -- the extractor ----------------------------------------------------------------------

EXTERNAL_REASON = (
    "external content was read in this session (web, browser, MCP or a network command): "
    "automatic extraction is off; say 记住 / remember to save something explicitly"
)


def _overlaps(left: str, right: str) -> bool:
    a, b = textlib.canonicalize(left), textlib.canonicalize(right)
    return bool(a and b) and (a in b or b in a)


class Extractor:
    """Finds stable facts in the user's own words of one turn and saves them.

    `memory` None only finds them (nothing is stored). `model` adds the quote-only LLM
    stage after the rules; `guard` stops everything once the session read external
    content (SE2); `confirm(content)` is asked before each save (EX9)."""

    def __init__(
        self,
        memory: Memory | None,
        *,
        model: ChatModel | None = None,
        guard: ExternalGuard | None = None,
        confirm: Callable[[str], bool] | None = None,
        max_facts: int | None = None,
        config: ExtractionConfig | None = None,
    ) -> None:
        self.memory = memory
        self.model = model
        self.guard = guard
        self.confirm = confirm
        self.config = config or ExtractionConfig()
        self.max_facts = self.config.max_facts if max_facts is None else max_facts

    def extract(self, user_text: str, *, dry_run: bool = False) -> ExtractionResult:
        """Extract from `user_text` (the user's own message, never the model's answer or a
        tool result) and save; `dry_run` reports what would be saved and saves nothing."""
        found = self._find(user_text)
        if isinstance(found, Refusal):
            return ExtractionResult(refused=[found])
        candidates, refused = found
        result = ExtractionResult()
        for cand in sorted(candidates, key=lambda c: c.start):
            if len(result.saved) >= self.max_facts:
                reason = f"over the limit of {self.max_facts} facts per turn"
                refused.append((cand.start, Refusal(cand.content, reason)))
                continue
            entry, problem = self._store(cand, dry_run)
            if problem is not None:
                refused.append((cand.start, problem))
                continue
            result.saved.append(cand)
            if entry is not None:
                result.entries.append(entry)
        result.refused = [r for _, r in sorted(refused, key=lambda pair: pair[0])]
        return result

    def _find(self, user_text: str) -> Found | Refusal:
        cfg = self.config
        if self.guard is not None and not self.guard.allows_extraction():
            return Refusal(shown(user_text), EXTERNAL_REASON)
        size = len(user_text.strip())
        if size < cfg.min_chars or size > cfg.max_chars:
            why = f"length {size} chars (extraction reads {cfg.min_chars}..{cfg.max_chars})"
            return Refusal(shown(user_text), why)
        view = view_of(user_text)
        if not has_trigger(view):
            whole = Refusal(view.excerpt(0, len(user_text)), "no trigger word")
            return [], [*view.refused, (0, whole)]
        candidates, refused = rule_facts(view, cfg)
        refused = [*view.refused, *refused]
        if self.model is not None:
            extra, model_refused = self._ask_model(view, candidates)
            candidates += extra
            refused += model_refused
        return candidates, refused

    def _ask_model(self, view: MessageView, found: list[Candidate]) -> Found:
        from remem.llm import LLMError

        assert self.model is not None
        messages = [
            {"role": "system", "content": PROMPT % self.max_facts},
            {"role": "user", "content": view.sanitised},
        ]
        try:
            reply = self.model.complete(messages, max_tokens=512, purpose="extraction")
        except LLMError as exc:
            return [], [(len(view.text), Refusal("", f"model call failed: {exc}"))]
        accepted, refused = _check_reply(reply.content, view, self.config, self.max_facts)
        fresh: list[Candidate] = []
        for cand in accepted:
            if any(_overlaps(cand.content, c.content) for c in found):
                refused.append((cand.start, Refusal(cand.content, "already found by the rules")))
            else:
                fresh.append(cand)
        return fresh, refused

    def _preview(self, cand: Candidate) -> str | None:
        """Why saving would add nothing (a duplicate or a conflict), checked read-only;
        a change the text states (a supersede) is no problem: the save records it."""
        assert self.memory is not None
        settings = self.memory.settings
        claim = self.memory.subjects(cand.content)
        entry = Entry(
            content=cand.content,
            type=cand.type,
            scope="project",
            project=settings.project,
            user_id=settings.user_id,
            agent_id=settings.agent_id,
            source="auto_extracted",
            confidence="unverified",
            facts=named_values(cand.content),
            subject=claim.subject if claim else None,
            value=claim.value if claim else None,
        )
        broader = claim is not None and claim.change
        near = self.memory.store.same_domain(Domain.of(entry), index.fields(entry), broader=broader)
        for match in decide.classify(entry, near, claim=claim, semantic=self.memory.semantic):
            if match.relation != "supersede":
                return _problem(match.relation, [match.entry], [match.reason])
        return None

    def _store(self, cand: Candidate, dry_run: bool) -> tuple[Entry | None, Refusal | None]:
        if self.memory is None:
            return None, None
        problem = self._preview(cand)
        if problem is not None or dry_run:
            return None, Refusal(cand.content, problem) if problem else None
        if self.confirm is not None and not self.confirm(cand.content):
            return None, Refusal(cand.content, "not confirmed by the user")
        try:
            result = self.memory.save(
                cand.content,
                type=cand.type,
                scope="project",
                source="auto_extracted",
                confidence="unverified",
                metadata={"extracted_by": cand.via},
            )
        except InvalidInput as exc:  # SecretRefused included: automatic paths never force
            return None, Refusal(shown(cand.content), f"refused by the store: {exc}")
        if result.status in ("duplicate", "conflict"):
            existing = result.conflicts or [result.entry]
            return None, Refusal(cand.content, _problem(result.status, existing, result.reasons))
        return result.entry, None


def _problem(relation: str, existing: list[Entry], reasons: list[str]) -> str:
    ids = ", ".join(e.id for e in existing)
    if relation == "duplicate":
        return f"already remembered ({ids})"
    return f"conflicts with {ids} ({reasons[0] if reasons else 'same subject'})"
