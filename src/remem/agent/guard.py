"""What a command run without asking may not change: the protected files (other agents'
instructions, their settings, git's config and hooks) as they were before it ran. A
command's text is checked for such paths before it runs (`writes.protected_command`),
but a shell can build a name no text shows (`echo x > $(printf 'AGE%sS.md' NT)`, a
script, base64): after the command, whatever it changed among them is put back and the
model is told.

    before = Snapshot.take(root)
    ...  # the command runs
    changed = before.restore(root)   # ["AGENTS.md"]: put back as it was
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from remem.agent.writes import protected_part

__all__ = ["Snapshot"]

_MAX_FILES = 500  # a protected folder larger than this is not kept whole
_MAX_BYTES = 1 << 20  # nor a file larger than this
_DEPTH = 2  # protected names looked for this deep below the root (sub/AGENTS.md)
# inside .git, what runs code or points git elsewhere; the rest is git's own work
_GIT_KEPT = ("config", "hooks", "info")
# folders of tools' own output, never walked (a node_modules has thousands of folders)
_SKIPPED = frozenset(
    "node_modules .venv venv __pycache__ dist build target .tox .mypy_cache .pytest_cache"
    " .ruff_cache .cache .gradle .next".split()
)


@dataclass
class Snapshot:
    """The protected files under a root, by path relative to it, and their bytes."""

    files: dict[str, bytes] = field(default_factory=dict)
    # the repositories there were (`git init` makes one: its own config and hooks are git's)
    gits: set[str] = field(default_factory=set)

    @classmethod
    def take(cls, root: Path) -> Snapshot:
        snap = cls()
        for path in _protected_files(root, snap.gits):
            try:
                if path.stat().st_size <= _MAX_BYTES:
                    snap.files[path.relative_to(root).as_posix()] = path.read_bytes()
            except OSError:
                continue
        return snap

    def restore(self, root: Path, allowed: Callable[[str], bool] = lambda rel: False) -> list[str]:
        """Put back what changed since `take` but the paths `allowed` (the user's
        allow-list): a file changed or removed is written as it was, one made is removed.
        Returns the paths put back."""
        gits: set[str] = set()
        found = _protected_files(root, gits)
        new_repos = gits - self.gits
        now = {
            rel: p
            for p in found
            if not allowed(rel := p.relative_to(root).as_posix())
            and not any(rel.startswith(f"{repo}/") for repo in new_repos)
        }
        changed = []
        for rel, path in now.items():
            if rel not in self.files:
                if _removable(path):
                    path.unlink()
                    changed.append(rel)
                continue
            try:
                if path.read_bytes() != self.files[rel]:
                    path.write_bytes(self.files[rel])
                    changed.append(rel)
            except OSError:
                continue
        for rel, data in self.files.items():
            if rel not in now and not allowed(rel):
                target = root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                changed.append(rel)
        return sorted(changed)


def _removable(path: Path) -> bool:
    return path.is_file() and not path.is_symlink() or path.is_symlink()


def _protected_files(root: Path, gits: set[str]) -> list[Path]:
    """The protected files under `root`: protected names to `_DEPTH` levels, every file of
    a protected folder (bounded), and each repository's config, hooks and info (the
    repositories' folders added to `gits`)."""
    found: list[Path] = []
    for top, dirs, names in os.walk(root):
        here = Path(top)
        depth = len(here.relative_to(root).parts)
        if here.name == ".git" and depth > 0:
            gits.add(here.relative_to(root).as_posix())
            found += _git_files(here)
            dirs[:] = []
            continue
        inside = protected_part(here.relative_to(root).as_posix()) is not None and depth > 0
        for name in names:
            path = here / name
            if inside or protected_part(path.relative_to(root).as_posix()) is not None:
                found.append(path)
        if len(found) > _MAX_FILES:
            break
        dirs[:] = [
            d
            for d in dirs
            if inside or _protected_dir(here / d, root) or (depth < _DEPTH and d not in _SKIPPED)
        ]
    return found[:_MAX_FILES]


def _protected_dir(path: Path, root: Path) -> bool:
    return protected_part(path.relative_to(root).as_posix()) is not None


def _git_files(git: Path) -> list[Path]:
    out = []
    for name in _GIT_KEPT:
        part = git / name
        if part.is_file():
            out.append(part)
        elif part.is_dir():
            out += [p for p in sorted(part.rglob("*")) if p.is_file()][:_MAX_FILES]
    return out
