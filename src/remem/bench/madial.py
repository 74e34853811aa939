"""MADial-Bench memory recall (NAACL 2025) for `remem bench retrieval`.

A user's memories (`MADial-Bench-{lang}-memory.json`: id -> {time, event, ...}) are
saved through `Memory.save`, the event as the content and its time as `created_at`; the
query of a dialogue is every turn before its test turn, joined; its relevant keys are
its `relevant-id`s. One corpus per user (a store holds one user's memories).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remem.bench.harness import Corpus, Query
from remem.errors import InvalidInput

if TYPE_CHECKING:
    from remem.memory import Memory

_MARKERS = re.compile(r"^\s*<(?:BOD|EOD)>\s*$")


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{path}: not a MADial-Bench file ({exc})") from exc


def query_of(dialogue: list[str], test_turn: int) -> str:
    """The dialogue before its test turn, one line per turn, markers dropped."""
    lines = (t.strip() for t in dialogue[:test_turn] if not _MARKERS.match(t))
    return "\n".join(line for line in lines if line)


def _memories(raw: Any, path: Path) -> dict[str, Mapping[str, Any]]:
    if not isinstance(raw, list) or not all(isinstance(m, dict) for m in raw):
        raise InvalidInput(f"{path}: expected a list of {{id: memory}} objects")
    return {str(k): v for group in raw for k, v in group.items()}


def load(dialogue_path: str | Path) -> list[Corpus]:
    """The corpora of a `…-dialogue.json` file and the `…-memory.json` beside it."""
    path = Path(dialogue_path)
    memory_path = path.with_name(path.name.replace("-dialogue", "-memory"))
    if memory_path == path or not memory_path.exists():
        raise InvalidInput(f"{path}: no -memory.json beside this -dialogue.json")
    memories = _memories(_read(memory_path), memory_path)
    dialogues = _read(path)
    if not isinstance(dialogues, list):
        raise InvalidInput(f"{path}: expected a list of dialogues")
    by_user: dict[str, list[Query]] = {}
    try:
        for d in dialogues:
            relevant = frozenset(str(r) for r in d["relevant-id"]) & memories.keys()
            if relevant:
                q = Query(query_of(d["dialogue"], int(d["test-turn"][0])), relevant)
                by_user.setdefault(str(d["user-id"]), []).append(q)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InvalidInput(f"{path}: not a MADial-Bench dialogue file ({exc})") from exc
    stem = path.name.replace("-dialogue.json", "")
    return [
        _corpus(f"{stem}-user{user}", mine, queries)
        for user, queries in sorted(by_user.items())
        if (mine := {k: m for k, m in memories.items() if str(m.get("user-id")) == user})
    ]


def _date(value: object) -> datetime | None:
    try:
        return datetime.strptime(str(value), "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None


def _corpus(name: str, memories: dict[str, Mapping[str, Any]], queries: list[Query]) -> Corpus:
    def ingest(mem: Memory) -> int:
        for key, m in memories.items():
            # An event, not a statement of how things are: never merged by meaning.
            mem.save(
                str(m["event"]),
                type="milestone",
                created_at=_date(m.get("time")),
                metadata={"memory_id": key},
            )
        return len(memories)

    texts = {key: str(m["event"]) for key, m in memories.items()}
    return Corpus(name, ingest, texts, queries, key="memory_id")
