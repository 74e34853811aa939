"""The deterministic side of extraction: the user's message cut into sentences and
clauses, the sensitive-data pre-filter (EX3), the rules that find stated preferences and
project facts (EX5, EX8), and the checks a model's quote shares with them (EX4). The
word lists themselves are in `extraction_words`.

Used through `remem.extract.extractor.Extractor`; nothing here stores or calls a model.
"""

from __future__ import annotations

import bisect
import itertools
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from remem.extract import words as W
from remem.extract.guard import Origin, Piece, pieces
from remem.extract.injection import injection_reason, injection_spans
from remem.secrets import SecretHit, find_secrets, redact, sensitive_word

FactType = Literal["fact", "preference", "decision"]
ORIGIN_REASON: dict[Origin, str] = {
    "own": "the user's own words",
    "code": "a code block",
    "output": "program output",
    "quoted_line": "a quoted line",
    "quoted": "quoted text",
    "pasted": "pasted text",
}
Found = tuple[list["Candidate"], list[tuple[int, "Refusal"]]]  # refusals with their position


@dataclass(frozen=True, slots=True)
class ExtractionConfig:
    """The default limits (SPEC EX3, EX4): input length [5..4000], quote length [5..180],
    facts [3]."""

    min_chars: int = 5
    max_chars: int = 4000
    quote_min: int = 5
    quote_max: int = 180
    max_facts: int = 3


@dataclass(frozen=True, slots=True)
class Candidate:
    """A fact to save: verbatim text from the user's message, its type, who found it."""

    content: str
    type: FactType = "fact"
    via: Literal["rules", "model"] = "rules"
    start: int = 0  # where it begins in the user's message

    def to_dict(self) -> dict[str, str]:
        return {"content": self.content, "type": self.type}


@dataclass(frozen=True, slots=True)
class Refusal:
    """Something that was not saved, and why (redacted: never a secret)."""

    text: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "reason": self.reason}


def _clip(value: str, limit: int = 120) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def shown(value: str) -> str:
    """`value` for a refusal: secrets redacted, one line, at most 120 chars."""
    return _clip(redact(value))


_MARKS = "。！？!?；;.，,"
_EDGE = " \t\r\n。！？!?；;.，,：:、…"


# -- the input cut into sentences (EX3) -------------------------------------------------


@dataclass
class MessageView:
    """A user message as the extractor sees it: pieces by origin, sentences, and what
    the sensitive-data pre-filter deleted (their spans replaced by a line break)."""

    text: str
    pieces: list[Piece]
    sentences: list[tuple[int, int]]
    hits: list[SecretHit]
    deleted: list[tuple[int, int]] = field(default_factory=list)
    sanitised: str = ""
    refused: list[tuple[int, Refusal]] = field(default_factory=list)
    _deleted_starts: set[int] = field(default_factory=set, init=False)
    _hit_ends: list[int] = field(init=False)
    low: str = field(init=False)  # the text ASCII-lowered, for the word lists

    def __post_init__(self) -> None:
        self._hit_ends = [h.span[1] for h in self.hits]
        self.low = _lower(self.text)

    def hits_in(self, start: int, end: int) -> list[SecretHit]:
        """The secrets overlapping [start, end) (hits are sorted and do not overlap)."""
        first = bisect.bisect_right(self._hit_ends, start)
        return list(itertools.takewhile(lambda h: h.span[0] < end, self.hits[first:]))

    def excerpt(self, start: int, end: int) -> str:
        """text[start:end] for a refusal: secrets redacted, one line, at most 120 chars."""
        out, pos = [], start
        for hit in self.hits_in(start, end):
            a, b = max(hit.span[0], start), min(hit.span[1], end)
            out += [self.text[pos:a], f"[REDACTED:{hit.kind}]"]
            pos = b
        out.append(self.text[pos:end])
        return _clip("".join(out))

    def origin_reason(self, start: int, end: int) -> str | None:
        """Why [start, end) is not the user's own words, or None when it is."""
        for piece in self.pieces:
            if piece.origin != "own" and piece.start < end and start < piece.end:
                return ORIGIN_REASON[piece.origin]
        return None

    def asks(self, start: int, end: int) -> bool:
        """Is the sentence [start, end) (trimmed of its end mark) a question?"""
        tail = self.text[end : end + 3].lstrip(" \t")
        asked = W.QUESTION.search(self.low[start:end]) is not None  # a slice: ^ is its start
        return asked or tail[:1] in ("?", "？")

    def own_sentences(self) -> list[tuple[int, int]]:
        return [s for s in self.sentences if not self._deleted(*s) and self._has_own(*s)]

    def _deleted(self, start: int, end: int) -> bool:
        return start in self._deleted_starts  # deleted spans start where a sentence does

    def _has_own(self, start: int, end: int) -> bool:
        return any(p.origin == "own" and p.start < end and start < p.end for p in self.pieces)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    return start, end


def _split(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    spans, pos = [], start
    for m in pattern.finditer(text, start, end):
        spans.append(_trim(text, pos, m.end()))
        pos = m.end()
    spans.append(_trim(text, pos, end))
    return [(a, b) for a, b in spans if a < b]


def view_of(user_text: str) -> MessageView:
    """Cut a message into pieces and sentences and delete its sensitive sentences."""
    view = MessageView(
        user_text,
        pieces(user_text),
        _split(user_text, 0, len(user_text), W.BOUNDARY),
        find_secrets(user_text),
    )
    steering = injection_spans(user_text)
    for start, end in view.sentences:
        hit = next(iter(view.hits_in(start, end)), None)
        word = sensitive_word(user_text[start:end])
        steer = next((why for a, b, why in steering if a < end and start < b), None)
        if hit is not None or word is not None or steer is not None:
            why = f"sensitive: {hit.label}" if hit else f"sensitive word {word!r}"
            why = f"looks like a prompt injection: {steer}" if steer else why
            while end < len(user_text) and user_text[end] in _MARKS:  # its end mark too
                end += 1
            view.deleted.append((start, end))
            view._deleted_starts.add(start)
            view.refused.append((start, Refusal(view.excerpt(start, end), why)))
    chunks, pos = [], 0
    for start, end in view.deleted:
        chunks += [user_text[pos:start], "\n"]
        pos = end
    chunks.append(user_text[pos:])
    view.sanitised = "".join(chunks)
    for piece in view.pieces:
        body = user_text[piece.start : piece.end].strip()
        if piece.origin != "own" and body and not _inside(piece, view.deleted):
            reason = ORIGIN_REASON[piece.origin]
            view.refused.append(
                (piece.start, Refusal(view.excerpt(piece.start, piece.end), reason))
            )
    return view


def _inside(piece: Piece, spans: list[tuple[int, int]]) -> bool:
    return any(a <= piece.start and piece.end <= b for a, b in spans)


# -- rules (EX5, EX8) -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Verdict:
    kind: Literal["fact", "more", "lead", "neutral", "refused"]
    reason: str = ""
    type: FactType = "fact"
    poison: bool = False  # a leading "for now," / "maybe," covers the clauses after it


_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _lower(text: str) -> str:
    """ASCII lower-casing: offsets stay valid (str.lower can change lengths)."""
    return text.translate(_LOWER)


class _Clause:
    """A clause as the rules read it: as written, ASCII-lowered (English word lists are
    lower-case), and lowered with "from now on" / "从现在开始" blanked (standing, not
    temporary); `standing` and `predicate` are asked so often they are found once."""

    __slots__ = ("text", "low", "calm", "standing", "predicate")

    def __init__(self, text: str, low: str | None = None) -> None:
        self.text = text
        self.low = _lower(text) if low is None else low
        self.calm = W.STANDING_PHRASES.sub(lambda m: " " * len(m[0]), self.low)
        self.standing = W.STANDING.search(self.calm) is not None
        self.predicate = W.PREDICATE.search(self.low) is not None

    def has(self, pattern: re.Pattern[str]) -> bool:
        return pattern.search(self.low) is not None

    def word(self, pattern: re.Pattern[str], *, calm: bool = False) -> str | None:
        """The words `pattern` finds, as the user wrote them."""
        found = pattern.search(self.calm if calm else self.low)
        return self.text[found.start() : found.end()] if found else None


def fact_type(clause: str | _Clause) -> FactType:
    c = clause if isinstance(clause, _Clause) else _Clause(clause)
    if c.has(W.DECISION):
        return "decision"
    if c.has(W.PREF_TYPE) or (c.has(W.SELF) and (c.standing or c.has(W.PREFER))):
        return "preference"
    return "fact"


def _is_fact(c: _Clause, *, explicit: bool, standing: bool) -> bool:
    if explicit:  # "remember this preference", "记住：Remember": a pointer, no fact
        lead = W.REMEMBER_LEAD.match(c.low)
        if lead is not None and lead.end() >= len(c.low.rstrip(" :：,，.。")):
            return False
        return not (c.has(W.DEICTIC) and len(c.text.split()) <= 3 and not c.predicate)
    predicate = c.predicate
    if predicate and c.has(W.SUBJECT):
        return True
    if c.has(W.SELF) and (standing or c.has(W.PREFER)):
        return True
    if standing and (predicate or c.has(W.ACTION)):
        return True
    return c.has(W.PROHIBIT) and not c.has(W.DEICTIC)


def _refusal(c: _Clause, carried: bool) -> _Verdict | None:
    """Why a clause can never be a stable fact: a task, temporary, or tentative."""
    task = c.word(W.TASK)
    if task and not ((carried or c.standing) and (c.predicate or c.has(W.ACTION))):
        return _Verdict("refused", f"task request ({task!r})")
    if word := c.word(W.TEMPORARY, calm=True):
        return _Verdict("refused", f"temporary word {word!r}", poison=True)
    if word := c.word(W.TENTATIVE):
        return _Verdict("refused", f"tentative ({word!r})", poison=True)
    return None


def _verdict(c: _Clause, *, explicit: bool, carried: bool, min_chars: int) -> _Verdict:
    """fact; more (extends a fact before it); lead (a bare "from now on," that a fact
    after it takes along); neutral; or refused with a reason."""
    if refused := _refusal(c, carried):
        return refused
    if c.has(W.FILLER):
        return _Verdict("neutral")
    long_enough = len(c.text) >= min_chars
    if long_enough and _is_fact(c, explicit=explicit or carried, standing=carried or c.standing):
        return _Verdict("fact", type=fact_type(c))
    if c.has(W.CONTINUE) or (c.predicate and not c.has(W.DEICTIC)):
        return _Verdict("more")
    if c.standing or W.STANDING_PHRASES.search(c.low):
        return _Verdict("lead", type="preference")
    if long_enough and c.has(W.TRIGGER):
        return _Verdict("refused", "no stated fact")
    return _Verdict("neutral")


def _skip(view: MessageView, start: int, end: int, pattern: re.Pattern[str]) -> tuple[int, int]:
    match = pattern.match(view.low[start:end])
    return _trim(view.text, start + (match.end() if match else 0), end)


def _clauses(
    view: MessageView, start: int, end: int, cfg: ExtractionConfig
) -> list[tuple[int, int, _Verdict]]:
    text = view.text
    explicit = False
    if (lead := W.REMEMBER_LEAD.match(view.low[start:end])) and lead.end():
        explicit, start = True, start + lead.end()
    out: list[tuple[int, int, _Verdict]] = []
    poisoned: _Verdict | None = None
    carried = False
    for a, b in _split(text, start, end, W.CLAUSE):
        a, b = _skip(view, a, b, W.CONNECTIVE)
        if a >= b:
            continue
        why = view.origin_reason(a, b)
        if why is not None:
            verdict = _Verdict("refused", f"contains {why}")
        else:
            clause = _Clause(text[a:b], view.low[a:b])
            verdict = poisoned or _verdict(
                clause, explicit=explicit, carried=carried, min_chars=cfg.quote_min
            )
        poisoned = verdict if verdict.poison else poisoned
        carried = carried or verdict.kind == "lead"
        out.append((a, b, verdict))
    return out


def _runs(clauses: list[tuple[int, int, _Verdict]]) -> Iterator[tuple[int, int]]:
    """Index ranges [first, last) of the facts in a sentence: a fact clause, the bare
    leads ("from now on,") just before it, the fact and "more" clauses just after it."""
    i = 0
    while i < len(clauses):
        if clauses[i][2].kind != "fact":
            i += 1
            continue
        first, last = i, i + 1
        while first > 0 and clauses[first - 1][2].kind == "lead":
            first -= 1
        while last < len(clauses) and clauses[last][2].kind in ("fact", "more"):
            last += 1
        yield first, last
        i = last


def _sentence_facts(view: MessageView, start: int, end: int, cfg: ExtractionConfig) -> Found:
    start, end = _skip(view, start, end, W.CONNECTIVE)
    if start >= end:
        return [], []
    if view.asks(start, end):
        return [], [(start, Refusal(view.excerpt(start, end), "question"))]
    clauses = _clauses(view, start, end, cfg)
    facts: list[Candidate] = []
    refused = [(a, Refusal(view.excerpt(a, b), v.reason)) for a, b, v in clauses if v.reason]
    for first, last in _runs(clauses):
        a, b = clauses[first][0], clauses[last - 1][1]
        types = {v.type for _, _, v in clauses[first:last] if v.kind in ("fact", "lead")}
        kind: FactType = next(t for t in ("decision", "preference", "fact") if t in types)
        if b - a > cfg.quote_max:
            refused.append((a, Refusal(view.excerpt(a, b), f"too long ({b - a} chars)")))
        else:
            facts.append(Candidate(view.text[a:b], kind, "rules", a))
    if not facts:  # one refusal for the sentence, with the first reason found
        reason = refused[0][1].reason if refused else "no stated fact"
        refused = [(start, Refusal(view.excerpt(start, end), reason))]
    return facts, sorted(refused, key=lambda pair: pair[0])


def has_trigger(view: MessageView) -> bool:
    """EX3's third pass: the user's own, non-sensitive words hold a trigger word."""
    return any(W.TRIGGER.search(view.low[a:b]) for a, b in view.own_sentences())


def rule_facts(view: MessageView, cfg: ExtractionConfig) -> Found:
    """The facts the rules find in the user's own sentences, and every refusal."""
    facts: list[Candidate] = []
    refused: list[tuple[int, Refusal]] = []
    for start, end in view.own_sentences():
        found, why = _sentence_facts(view, start, end, cfg)
        facts += found
        refused += why
    return facts, refused


def refusal_reason(quote: str) -> str | None:
    """Why a model's quote can never be a stable fact, or None: what the pre-filters
    refuse (a sensitive word, a prompt injection), EX4's temporary words, then what the
    rules refuse in any of its clauses (tentative talk, task requests)."""
    if word := sensitive_word(quote):
        return f"sensitive word {word!r}"
    if steer := injection_reason(quote):
        return f"looks like a prompt injection: {steer}"
    whole = _Clause(quote)
    if word := whole.word(W.TEMPORARY, calm=True):
        return f"temporary word {word!r}"
    clauses = [_Clause(quote[a:b]) for a, b in _split(quote, 0, len(quote), W.CLAUSE)]
    for c in (whole, *clauses):
        if word := c.word(W.TEMPORARY, calm=True):
            return f"temporary word {word!r}"
        if verdict := _refusal(c, carried=False):
            return verdict.reason
    return None
