"""The one door every stored entry passes (SPEC SE3): which of an entry's fields are read
for secrets (content, entity, facts, metadata, linked paths; an imported audit record's
detail), and the refusal that names what was found, never the value. `Store.insert`
calls `admit`, so no path can go round it; the detector itself is `remem.secrets`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from remem.secrets import AUTOMATIC, KIND_LABELS, kinds_of
from remem.secrets_shapes import Lazy

__all__ = ["admit", "admit_change", "detail_secrets", "entry_secrets", "refusal"]

if TYPE_CHECKING:
    from remem.entry import Entry
    from remem.errors import SecretRefused


def _flat(value: Any) -> Iterator[tuple[str, str]]:
    """(key path, text) of every scalar in nested metadata, without recursion (a deep
    document must not raise RecursionError here)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, Mapping):
            stack += [(f"{path}.{k}" if path else str(k), v) for k, v in item.items()]
        elif isinstance(item, list | tuple):
            stack += [(path, v) for v in item]
        elif isinstance(item, str | int | float) and not isinstance(item, bool):
            yield path, str(item)


def _fields(entry: Entry) -> Iterator[tuple[str, str]]:
    """(field, text) of everything `entry` would put on disk that a person or a model
    wrote. A key goes with its value: {"password": "hunter22"} reads "password: hunter22"."""
    yield "content", entry.content
    if entry.entity:
        yield "entity", entry.entity
    bare = "".join(entry.content.split())
    for key, value in entry.facts.items():
        if "".join(str(value).split()) not in bare:  # one read from the content: checked there
            yield "facts", f"{key}: {value}"
    for key, value in _flat(entry.metadata):
        yield "metadata", f"{key}: {value}"
    for path in entry.linked_paths:
        yield _PATH_FIELD, path  # a token's shape in a name ("/tmp/ghp_…"), by the rules
        for part in _path_words(path):
            yield _PATH_FIELD, part


_PATH_FIELD = "linked path"
_PATH_CUE = Lazy(r"(?i)pass|pin|code|cvv|ssn|combo|密码|口令")  # values said with a number


def _path_words(path: str) -> list[str]:
    """Each name of a path that names a secret beside a digit, as words ("/tmp/bank-pin-
    2272.txt": "bank pin 2272 txt"): a rule reads "pin 2272" where "pin-2272" is one token
    to it. Name by name, so that a folder "pin-codes" and a folder "2024" make no "pin
    codes 2024"; read by the rules alone (`kinds`), as the model suspects random names."""
    names = (" ".join(re.split(r"[-_.\s]+", name)).strip() for name in re.split(r"[/\\]+", path))
    return [n for n in names if any(c.isdigit() for c in n) and _PATH_CUE.search(n)]


def entry_secrets(entry: Entry) -> list[tuple[str, str]]:
    """(field, kind) of each sensitive item in what `entry` would store: its content,
    entity, facts and metadata ("metadata", "password"). A contact detail counts only in
    an automatic save (EX3); one the user or their agent saves is an ordinary fact."""
    contacts = entry.source in AUTOMATIC
    found: list[tuple[str, str]] = []
    for field, text in _fields(entry):
        kinds = kinds_of(text, contacts, field != _PATH_FIELD)
        found += [(field, kind) for kind in kinds if (field, kind) not in found]
    return found


def detail_secrets(detail: Mapping[str, Any]) -> list[str]:
    """The kinds of secret in an audit record's detail (what an import brings from a
    file): each text with its key, as metadata is read."""
    found: list[str] = []
    for key, value in _flat(detail):
        if _ENTRY_ID.fullmatch(value):
            continue  # a version's id ("by", "supersedes"): random hex the model may suspect
        found += [kind for kind in kinds_of(f"{key}: {value}", False) if kind not in found]
    return found


_ENTRY_ID = Lazy(r"[0-9a-f]{12}")  # `entry.new_id`'s shape


def admit(entry: Entry, *, allow_secret: bool) -> None:
    """The secret check of every write (SPEC SE3): raises SecretRefused when `entry`
    holds something `find_secrets` reports in any field, unless `allow_secret` (the
    user's own --force). `Store.insert` calls it, so no path can go round it."""
    if allow_secret:
        return
    if found := entry_secrets(entry):
        raise refusal(found)


def admit_change(entry: Entry, old: Entry | None, *, allow_secret: bool) -> None:
    """The same check for an update of a stored row: every text `entry` would newly put
    on disk. A text the row already holds (a --force'd secret now marked superseded or
    verified) is not asked again; an edited one is."""
    if allow_secret:
        return
    kept = set(_fields(old)) if old is not None else set()
    contacts = entry.source in AUTOMATIC
    found: list[tuple[str, str]] = []
    for field, text in _fields(entry):
        if (field, text) not in kept:
            kinds = kinds_of(text, contacts, field != _PATH_FIELD)
            found += [(field, kind) for kind in kinds if (field, kind) not in found]
    if found:
        raise refusal(found)


def refusal(found: list[tuple[str, str]]) -> SecretRefused:
    """The refusal of an entry whose fields hold these kinds, [(field, kind)]; it names
    what was found, never the value."""
    from remem.errors import SecretRefused

    kinds = tuple(dict.fromkeys(kind for _, kind in found))
    labels = " and ".join(KIND_LABELS.get(k, k) for k in kinds[:2]) or "a secret"
    fields = list(dict.fromkeys(field for field, _ in found))
    where = "the text" if fields == ["content"] else "its " + " and ".join(fields)
    reason = f"not saved: {where} looks like it holds {labels}; memories should not keep secrets"
    return SecretRefused(
        f"{reason} (add --force, or pass force=True, to save it anyway)", kinds=kinds, reason=reason
    )
