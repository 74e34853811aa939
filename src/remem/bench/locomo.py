"""LoCoMo-format conversations for `remem bench retrieval`.

Each session goes in through `Memory.add_messages` exactly as a user's would: one
message per turn (`role` user, the speaker as `name`, the `dia_id` in `metadata`), the
session's date as `at`. Every question of categories 1-4 is asked; its relevant keys
are its annotated evidence turns (`remem.bench.harness` scores them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remem.bench.harness import Corpus, Query
from remem.errors import InvalidInput

if TYPE_CHECKING:
    from remem.memory import Memory

CATEGORIES = (1, 2, 3, 4)
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    at: datetime
    session: int = 1


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
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{path}: not a LoCoMo conversation ({exc})") from exc
    return _conversation(raw, path, Path(path).stem)


def load_all(path: str | Path) -> list[Conversation]:
    """Every conversation of a file: one, or the published `locomo10.json` (a list of
    ten, named `<file>-<sample_id>`)."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{path}: not a LoCoMo conversation ({exc})") from exc
    if not isinstance(raw, list):
        return [_conversation(raw, path, Path(path).stem)]
    stem = Path(path).stem
    named = (
        (one, one.get("sample_id", n) if isinstance(one, dict) else n)
        for n, one in enumerate(raw, start=1)
    )
    return [_conversation(one, path, f"{stem}-{sample}") for one, sample in named]


def _conversation(raw: Any, path: str | Path, name: str) -> Conversation:
    try:
        data = raw.get("conversation", raw)
    except AttributeError as exc:
        raise InvalidInput(f"{path}: not a LoCoMo conversation ({exc})") from exc
    turns: list[Turn] = []
    n = 1
    while f"session_{n}_date_time" in data:
        at = _session_time(data[f"session_{n}_date_time"])
        for turn in data.get(f"session_{n}", []):
            words = turn["text"]
            if turn.get("blip_caption"):
                words += f" [shares a photo: {turn['blip_caption']}]"
            turns.append(
                Turn(dia_id=turn["dia_id"], speaker=turn["speaker"], text=words, at=at, session=n)
            )
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
    return Conversation(name, turns, [q for q in questions if q.evidence])


def sessions(conv: Conversation) -> list[tuple[datetime, list[dict[str, object]]]]:
    """The conversation as `add_messages` takes it: (date, messages) per session."""
    out: list[tuple[datetime, list[dict[str, object]]]] = []
    for i, turn in enumerate(conv.turns):
        if i == 0 or conv.turns[i - 1].session != turn.session:
            out.append((turn.at, []))
        out[-1][1].append(
            {
                "role": "user",
                "name": turn.speaker,
                "content": turn.text,
                "metadata": {"dia_id": turn.dia_id},
            }
        )
    return out


def corpus(conv: Conversation) -> Corpus:
    """`conv` as a benchmark corpus: ingested session by session through add_messages."""

    def ingest(mem: Memory) -> int:
        for n, (at, messages) in enumerate(sessions(conv), 1):
            mem.add_messages(messages, at=at, session_id=f"{conv.name}-{n}")
        return len(conv.turns)

    queries = [Query(q.text, q.evidence) for q in conv.questions]
    texts = {t.dia_id: t.text for t in conv.turns}
    return Corpus(conv.name, ingest, texts, queries, key="dia_id")
