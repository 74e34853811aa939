"""What remem writes beside a project about a session (SPEC SS1, CP1, SE3): private
folders (0700), a `.gitignore`, and secrets redacted from what is written."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from remem.secrets import redact

__all__ = ["ignore_all", "private_folder", "redacted"]


def private_folder(path: Path) -> Path:
    """`path` created if needed and readable by its owner only (0700): sessions and
    tool outputs hold what was said and read, and other users of the machine need not."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)
    return path


def ignore_all(folder: Path) -> None:
    """A `.gitignore` of `*` in `folder`, if there is none (best effort: a full disk or a
    read-only folder must not stop the chat over a convenience)."""
    with suppress(OSError), open(folder / ".gitignore", "x") as f:
        f.write("*\n")


_MEMO_SIZE = 4096


def redacted(value: Any, memo: dict[str, str]) -> Any:
    """`value` with what the secret detector finds in its strings replaced by
    `[REDACTED:<kind>]` (SPEC SE3: a ledger keeps no secrets). `memo` remembers strings
    already seen: a checkpoint repeats every message of the conversation."""
    if isinstance(value, str):
        done = memo.get(value)
        if done is None:
            done = redact(value, contacts=False)  # the user's own contacts stay (issue 29)
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[value] = done
        return done
    if isinstance(value, Mapping):
        return {k: redacted(v, memo) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redacted(v, memo) for v in value]
    return value
