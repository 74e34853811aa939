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

import sys
from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from pathlib import Path
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


def _source() -> bytes:
    """glossary.txt's bytes: beside this module (importlib.resources, which finds it
    inside a zip too, costs a one-shot command 6-11 ms to import)."""
    try:
        return Path(__file__).with_name("glossary.txt").read_bytes()
    except OSError:
        from importlib.resources import files

        return files("remem").joinpath("glossary.txt").read_bytes()


@cache
def _load() -> dict[str, str]:
    raw = _source().decode("utf-8")
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
    """The index, from its cache in `$REMEM_HOME/cache/` when that is current: building
    it cuts ~100 Chinese names with jieba, whose dictionary costs a one-shot command
    80-170 ms to load (or ~100 round trips to the warm service that holds it)."""
    path = _cache_path()
    table = _read(path) if path is not None else None
    if table is None:
        names = list(GLOSSARY.items())
        cut = text.terms_of([n for n, _ in names] + [k for _, k in names])
        table = {}
        for (name, _), key, kinds in zip(names, cut[: len(names)], cut[len(names) :], strict=True):
            if key:
                proper = name if name[:1].isupper() else None
                table[tuple(key)] = (tuple(dict.fromkeys(kinds)), proper)
        if path is not None:
            _save(path, table)
    return _Index(table, max(len(k) for k in table), frozenset(k[0] for k in table))


def _cache_path() -> Path | None:
    """Where the index built from these inputs is cached: its name holds a digest of
    everything the index depends on (the table, the code that turns names into terms,
    jieba's and the stemmer's builds, Python's Unicode data), so any change makes a
    new one. None when an input cannot be read (then nothing is cached)."""
    import hashlib
    import marshal
    import unicodedata
    from importlib.util import find_spec

    from remem.settings import home_dir

    digest = hashlib.sha256(f"{sys.version}|{unicodedata.unidata_version}".encode())
    try:
        digest.update(_source())
        for module in (text.__file__, __file__):
            digest.update(Path(module).read_bytes())
        for name in ("rjieba", "Stemmer"):  # found, not imported: rjieba's import is the cost
            spec = find_spec(name)
            if spec is None or spec.origin is None:
                return None
            where = Path(spec.origin)  # a package: its files (rjieba's build is beside)
            for each in sorted(where.parent.iterdir()) if spec.parent == name else [where]:
                stat = each.stat()
                digest.update(f"{each}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    except (OSError, TypeError, ValueError, ImportError):
        return None
    return home_dir() / "cache" / f"glossary-{digest.hexdigest()[:24]}-m{marshal.version}"


def _read(path: Path) -> dict[tuple[str, ...], _Kinds] | None:
    import marshal

    try:
        rows = marshal.loads(path.read_bytes())
        table = {tuple(key): (tuple(kinds), proper) for key, kinds, proper in rows}
        ok = all(
            isinstance(w, str) and isinstance(p, str | None)
            for k, (v, p) in table.items()
            for w in (*k, *v)
        )
        return table if table and ok else None
    except (OSError, EOFError, ValueError, TypeError):
        return None  # none yet, or unreadable: built again


def _save(path: Path, table: dict[tuple[str, ...], _Kinds]) -> None:
    """Write the cache whole or not at all (a few KB; one per set of inputs)."""
    import marshal

    from remem.tokens import write_whole

    write_whole(path, marshal.dumps([(k, v, p) for k, (v, p) in table.items()]))


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
