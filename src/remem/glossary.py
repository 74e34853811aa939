"""What well-known technologies are, so that a memory naming one is found by asking
for its kind: "Java 框架" finds "项目后端使用 Spring Boot 3", "数据库选型" finds
"PostgreSQL 16", "message queue" finds "Kafka" (SPEC RT3).

Small local embedding models know little of this (measured: USE ranks "Google Java
Style" and "Vue 3" above "Spring Boot" for "Java 框架"), and it is the most common
paraphrase in a coding agent's memories. The kinds are added to an entry's indexed
terms only (never to its content or to a query), in English and Chinese. The table
itself is data, `glossary.txt` beside this module.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from importlib.resources import files
from typing import NamedTuple

from remem import text


class _Glossary(Mapping[str, str]):
    """A technology's name -> its kind terms, read from glossary.txt on first use
    (never at import: most commands never look)."""

    def __getitem__(self, name: str) -> str:
        return _load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_load())

    def __len__(self) -> int:
        return len(_load())


GLOSSARY: Mapping[str, str] = _Glossary()


@cache
def _load() -> dict[str, str]:
    raw = files("remem").joinpath("glossary.txt").read_text(encoding="utf-8")
    groups: dict[str, str] = {}
    table: dict[str, str] = {}
    for line in raw.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, kinds = (part.strip() for part in line.partition(" = "))
        words = " ".join(groups.get(w, w) for w in kinds.split())  # `@group` spliced in
        if name.startswith("@"):
            groups[name] = words
        else:
            table[name] = words
    return table


# A capitalised name in GLOSSARY is also an everyday word ("react", "spring",
# "rust"): it counts only where the text writes it with a capital letter.
_Kinds = tuple[tuple[str, ...], str | None]  # (kind terms, the capitalised name or None)


class _Index(NamedTuple):
    table: dict[tuple[str, ...], _Kinds]  # a name's terms -> its kinds
    longest: int  # the most terms in one name
    firsts: frozenset[str]  # the first term of every name


@lru_cache(maxsize=1)
def _table() -> _Index:
    table: dict[tuple[str, ...], _Kinds] = {}
    for name, kinds in GLOSSARY.items():
        key = tuple(text.terms(name))
        if key:
            proper = name if name[:1].isupper() else None
            table[key] = (tuple(dict.fromkeys(text.terms(kinds))), proper)
    return _Index(table, max(len(k) for k in table), frozenset(k[0] for k in table))


def expand(terms: list[str], source: str) -> list[str]:
    """The kind terms of the technologies named in `terms` (the `text.terms` of
    `source`, in order), each once and none already present."""
    table, longest, firsts = _table()
    have = set(terms)
    out: dict[str, None] = {}
    for i in range(len(terms)):
        if terms[i] not in firsts:
            continue  # no name starts with it (most terms): nothing to look up
        for n in range(min(longest, len(terms) - i), 0, -1):
            found = table.get(tuple(terms[i : i + n]))
            if found is not None:
                kinds, proper = found
                if proper is None or proper in source:
                    out.update((k, None) for k in kinds if k not in have)
                break
    return list(out)
