"""`remem bench retrieval`: evidence recall on LoCoMo-format conversations.

Every turn is saved as a `conversation` memory (its session date as `created_at`,
its speaker as entity, its `dia_id` and the turn it replies to in metadata, which is
indexed for keywords); every question of categories
1-4 is asked; a question's recall@k is the share of its annotated evidence turns
among the k retrieved memories. remem is compared in the same run with plain BM25
and plain vector search over the bare turn texts.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remem import text
from remem.errors import InvalidInput
from remem.tokens import count_tokens

if TYPE_CHECKING:
    from remem.retrieval.embedding import Embedder

CATEGORIES = (1, 2, 3, 4)
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    evidence: frozenset[str]
    category: int


@dataclass(frozen=True, slots=True)
class Conversation:
    name: str
    turns: list[Turn]
    questions: list[Question]


def _session_time(value: str) -> datetime:
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return datetime.strptime(value.strip(), fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise InvalidInput(f"unreadable session date {value!r}")


def load(path: str | Path) -> Conversation:
    """One LoCoMo conversation file; malformed evidence ids are normalised."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        data = raw.get("conversation", raw)
    except (OSError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"{path}: not a LoCoMo conversation ({exc})") from exc
    turns: list[Turn] = []
    n = 1
    while f"session_{n}_date_time" in data:
        at = _session_time(data[f"session_{n}_date_time"])
        for turn in data.get(f"session_{n}", []):
            words = turn["text"]
            if turn.get("blip_caption"):
                words += f" [shares a photo: {turn['blip_caption']}]"
            turns.append(Turn(turn["dia_id"], turn["speaker"], words, at))
        n += 1
    questions = [
        Question(
            qa["question"],
            frozenset(f"D{a}:{b}" for e in qa.get("evidence", []) for a, b in _EVIDENCE.findall(e)),
            int(qa["category"]),
        )
        for qa in raw.get("qa", [])
        if int(qa.get("category", 0)) in CATEGORIES
    ]
    return Conversation(Path(path).stem, turns, [q for q in questions if q.evidence])


@dataclass
class SystemScore:
    """Recall, injected tokens and latency of one system over every question."""

    name: str
    ks: tuple[int, ...]
    recall: dict[int, list[float]] = field(default_factory=dict)
    tokens: dict[int, list[int]] = field(default_factory=dict)
    query_ms: list[float] = field(default_factory=list)
    ingest_ms: list[float] = field(default_factory=list)

    def add(self, retrieved: Sequence[tuple[str, int]], evidence: frozenset[str]) -> None:
        for k in self.ks:
            top = retrieved[:k]
            found = evidence & {dia for dia, _ in top}
            self.recall.setdefault(k, []).append(len(found) / len(evidence))
            self.tokens.setdefault(k, []).append(sum(t for _, t in top))

    def to_dict(self) -> dict[str, Any]:
        def pct(values: list[float], q: float) -> float:
            s = sorted(values)
            return round(s[min(len(s) - 1, int(q * len(s)))], 3) if s else 0.0

        return {
            "system": self.name,
            "recall": {k: round(sum(v) / len(v), 4) for k, v in self.recall.items() if v},
            "tokens": {k: round(sum(v) / len(v), 1) for k, v in self.tokens.items() if v},
            "query_ms": {"p50": pct(self.query_ms, 0.5), "p95": pct(self.query_ms, 0.95)},
            "ingest_ms": {"p50": pct(self.ingest_ms, 0.5), "p95": pct(self.ingest_ms, 0.95)},
        }


def _timed(score: SystemScore, fn: Callable[[], list[tuple[str, int]]], q: Question) -> None:
    start = time.perf_counter()
    retrieved = fn()
    score.query_ms.append((time.perf_counter() - start) * 1000)
    score.add(retrieved, q.evidence)


def run_remem(conv: Conversation, score: SystemScore, embedder: Embedder | None) -> None:
    from remem.memory import Memory
    from remem.retrieval import block

    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(Path(tmp) / "bench.db", project=conv.name, embedder=embedder)
        previous = ""
        for turn in conv.turns:
            # A reply is found by what it answers: the previous turn is indexed with it.
            meta = {"dia_id": turn.dia_id, "speaker": turn.speaker, "context": previous}
            start = time.perf_counter()
            mem.save(
                turn.text, type="conversation", source="import", created_at=turn.at,
                entity=turn.speaker, force=True, metadata=meta,
            )  # fmt: skip
            previous = turn.text
            score.ingest_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        embedded = mem.reindex()
        if embedded:  # batch embedding, spread over the turns it served
            per_turn = (time.perf_counter() - start) * 1000 / len(conv.turns)
            score.ingest_ms = [ms + per_turn for ms in score.ingest_ms]
        k = max(score.ks)
        for q in conv.questions:

            def ask(q: Question = q) -> list[tuple[str, int]]:
                return [
                    (h.entry.metadata.get("dia_id", ""), count_tokens(block.line(h)))
                    for h in mem.search(q.text, limit=k)
                ]

            _timed(score, ask, q)
        mem.close()


def run_bm25(conv: Conversation, score: SystemScore) -> None:
    """Plain Okapi BM25 over the bare turn texts (no dates, speakers, decay, fusion)."""
    from remem.retrieval.ranking import bm25_relevance
    from remem.settings import RankingConfig
    from remem.store.protocol import CorpusStats

    start = time.perf_counter()
    docs = [text.terms(t.text) for t in conv.turns]
    df: dict[str, int] = {}
    for terms in docs:
        for term in set(terms):
            df[term] = df.get(term, 0) + 1
    stats = CorpusStats(len(docs), sum(map(len, docs)) / max(1, len(docs)), df)
    per_turn = (time.perf_counter() - start) * 1000 / max(1, len(docs))
    score.ingest_ms += [per_turn] * len(docs)
    cfg = RankingConfig(pseudo_docs=0)
    costs = [count_tokens(t.text) for t in conv.turns]
    k = max(score.ks)
    for q in conv.questions:

        def ask(q: Question = q) -> list[tuple[str, int]]:
            query = text.query_terms(q.text)
            scored = sorted(
                ((bm25_relevance(d, query, stats, cfg), i) for i, d in enumerate(docs)),
                reverse=True,
            )
            return [(conv.turns[i].dia_id, costs[i]) for s, i in scored[:k] if s > 0]

        _timed(score, ask, q)


def run_vector(conv: Conversation, score: SystemScore, embedder: Embedder) -> None:
    """Plain cosine top-k over the bare turn texts."""
    import numpy as np

    start = time.perf_counter()
    matrix = embedder.embed([t.text for t in conv.turns])
    per_turn = (time.perf_counter() - start) * 1000 / max(1, len(conv.turns))
    score.ingest_ms += [per_turn] * len(conv.turns)
    costs = [count_tokens(t.text) for t in conv.turns]
    k = max(score.ks)
    for q in conv.questions:

        def ask(q: Question = q) -> list[tuple[str, int]]:
            sims = matrix @ embedder.embed([q.text], query=True)[0]
            top = np.argsort(-sims)[:k]
            return [(conv.turns[i].dia_id, costs[i]) for i in top]

        _timed(score, ask, q)


def run(
    paths: Sequence[str | Path], ks: tuple[int, ...], embedder: Embedder | None
) -> list[SystemScore]:
    """remem, plain BM25 and (with an embedder) plain vector search on every file."""
    systems = [SystemScore("remem", ks), SystemScore("bm25", ks)]
    if embedder is not None:
        systems.append(SystemScore(f"vector ({embedder.name})", ks))
    for path in paths:
        conv = load(path)
        run_remem(conv, systems[0], embedder)
        run_bm25(conv, systems[1])
        if embedder is not None:
            run_vector(conv, systems[2], embedder)
    return systems


def chart(systems: Sequence[SystemScore], out: str | Path) -> None:
    """Recall against injected tokens, one line per system, one point per k."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for s in systems:
        d = s.to_dict()
        ks = sorted(d["recall"])
        ax.plot([d["tokens"][k] for k in ks], [d["recall"][k] for k in ks], marker="o",
                label=s.name)  # fmt: skip
        for k in ks:
            ax.annotate(f"k={k}", (d["tokens"][k], d["recall"][k]), fontsize=7)
    ax.set_xlabel("tokens injected per query")
    ax.set_ylabel("evidence recall")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
