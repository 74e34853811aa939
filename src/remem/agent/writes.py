"""Which of the agent's file writes need the user's approval (SPEC SE4; issue 29).

Every write outside the user's allow-list (`remem chat --allow-write PATTERN`) is asked
about, or refused where nobody can be asked. Some paths are never written without the
user's approval, not even with `--yes`, unless the allow-list names them: what agents
read as instructions next session (REMEM.md and what it @-includes, AGENTS.md, CLAUDE.md,
.cursor/rules/ ...), and what runs as code (anything under .git, or a `.git` file that
points git elsewhere, editor tasks, direnv). The list is data (`protected_paths.txt`),
matched case-insensitively on the path as written ("..": normalised) and as resolved
(through symlinks):

    policy = WritePolicy(root, allow=("src/**", "docs/*.md"))
    policy.check("src/app.py", included=())          # allowed, not protected
    policy.check("sub/../.GIT/config", included=())   # protected: under .git
"""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path

__all__ = [
    "WriteCheck",
    "WritePolicy",
    "protected_command",
    "protected_part",
    "protected_patterns",
]

_WILD = frozenset("*?[")


@cache
def protected_patterns() -> tuple[tuple[str, ...], ...]:
    """The protected list, each pattern as its normalised parts."""
    text = files("remem.agent").joinpath("protected_paths.txt").read_text(encoding="utf-8")
    lines = (line.strip() for line in text.splitlines())
    return tuple(_parts(line) for line in lines if line and not line.startswith("#"))


def _part(name: str) -> str:
    """One path part as compared: compatibility forms, case folded, without what
    Windows ignores at the end of a name (dots, spaces, an `::$DATA` stream)."""
    name = unicodedata.normalize("NFKC", name).casefold()
    name = name.split(":", 1)[0] if ":" in name else name
    return name.rstrip(". ") or name


def _parts(path: str) -> tuple[str, ...]:
    return tuple(_part(p) for p in path.replace("\\", "/").split("/") if p not in ("", "."))


def _protected_by(parts: tuple[str, ...]) -> str | None:
    """The pattern `parts` contains as a run of parts, or None."""
    for pattern in protected_patterns():
        n = len(pattern)
        for start in range(len(parts) - n + 1):
            if all(fnmatch.fnmatchcase(parts[start + i], pattern[i]) for i in range(n)):
                return "/".join(pattern)
    return None


def protected_part(rel: str) -> str | None:
    """The protected pattern the root-relative path `rel` matches, or None."""
    return _protected_by(_parts(rel))


@dataclass(frozen=True, slots=True)
class WriteCheck:
    rel: str  # the path relative to the root, as resolved
    why: str | None  # why it is protected, or None
    allowed: bool  # by the allow-list (by name when protected): no question asked


@dataclass(frozen=True)
class WritePolicy:
    root: Path
    allow: tuple[str, ...] = ()

    def check(self, path: str, *, included: Collection[Path] = ()) -> WriteCheck:
        """What writing `path` (as the model gave it; inside the root) needs. `included`:
        files the project memory reads (REMEM.md's @-includes, found or not)."""
        root = self.root.resolve()
        lexical = Path(os.path.normpath(root / path))
        real = lexical.resolve()
        rels = [
            _parts(p.relative_to(root).as_posix())
            for p in (lexical, real)
            if p.is_relative_to(root)
        ]
        why = next((f"matches {hit}" for r in rels if (hit := _protected_by(r))), None)
        if why is None and (lexical in included or real in included):
            why = "included by the project memory (REMEM.md / AGENTS.md)"
        if why is None and _hard_linked(real):
            why = "a file with other hard links (writing it changes them too)"
        rel = real.relative_to(root).as_posix() if real.is_relative_to(root) else str(real)
        allowed = bool(rels) and all(self._allows(r, by_name=why is not None) for r in rels)
        return WriteCheck(rel, why, allowed)

    def _allows(self, parts: tuple[str, ...], *, by_name: bool) -> bool:
        text = "/".join(parts)
        for entry in self.allow:
            if Path(entry).is_absolute() and Path(entry).is_relative_to(self.root.resolve()):
                entry = Path(entry).relative_to(self.root.resolve()).as_posix()
            want = _parts(entry)
            if not want:
                continue
            if by_name:
                # A protected path is allowed only by an entry without wildcards that
                # names it or a folder of it and is itself protected: "src" or "*"
                # never lets src/CLAUDE.md or .git/config through.
                named = not any(c in _WILD for c in entry) and parts[: len(want)] == want
                if named and _protected_by(want) is not None:
                    return True
                continue
            pattern = "/".join(want)
            if fnmatch.fnmatchcase(text, pattern) or text.startswith(pattern + "/"):
                return True
            if pattern.endswith("/**") and text == pattern[:-3]:
                return True
        return False


def _hard_linked(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_nlink > 1
    except OSError:
        return False


_OPERATORS = re.compile(r"[<>|;&`()=]+")  # "x>CLAUDE.md", "a;b", "$(cat .git/config)"
_GIT_CONFIG = re.compile(r"\bgit\b[^|;&\n]*?\s(?:config|-c|submodule)\b")


def protected_command(command: str, root: Path) -> str | None:
    """Why a shell command touches a protected path (names one, or sets git's
    configuration: core.fsmonitor and hooksPath run code), or None. Even with --yes
    such a command is asked about; reading one is asked about too (cheap, and rare)."""
    if _GIT_CONFIG.search(command):
        return "it changes git's configuration"
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        words = command.split()
    root = root.resolve()
    for word in (w for part in words for w in _OPERATORS.split(part)):
        if not word or word.startswith("-"):
            continue
        path = Path(word)
        if path.is_absolute():
            if not path.is_relative_to(root):
                continue
            word = path.relative_to(root).as_posix()
        if hit := _protected_by(_parts(word)):
            return f"it names {word} (matches {hit})"
    return None
