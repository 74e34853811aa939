"""Homes holding one store, copied (the same entries, the same ids): a command or hook
run in one and in the other, by the warm service and in its own process, compared."""

from __future__ import annotations

import shutil
from pathlib import Path

from remem import Memory
from remem.retrieval.embedding import FakeEmbedder


def filled(
    tmp_path: Path, project: Path, embedder: str, facts: list[str], *names: str
) -> list[Path]:
    """`names` homes under `tmp_path`, each with `facts` saved for `project` (embedder
    "fake" or "none")."""
    first = tmp_path / names[0]
    kind = FakeEmbedder() if embedder == "fake" else None
    with Memory(first / "memory.db", project=project, embedder=kind) as mem:
        for fact in facts:
            mem.save(fact, force=True)
    for name in names[1:]:
        shutil.copytree(first, tmp_path / name)
    return [tmp_path / name for name in names]
