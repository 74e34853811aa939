"""The word table of the truth rules (src/remem/truth/words.tsv) stays well-formed: the
rules read it by role, so a broken row would silently change what they know."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from remem.truth import table

ROOT = Path(__file__).resolve().parents[1]
TSV = ROOT / "src" / "remem" / "truth" / "words.tsv"


def test_rows_are_phrase_lang_role_attribute_once_each() -> None:
    lines = TSV.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["phrase", "lang", "role", "attribute"]
    seen: set[tuple[str, str, str]] = set()
    roles: list[str] = []
    for number, line in enumerate(lines[1:], 2):
        fields = line.split("\t")
        assert len(fields) in (3, 4), f"line {number}: {line!r}"
        phrase, lang, role = fields[:3]
        assert phrase and phrase == phrase.strip(), f"line {number}: {phrase!r}"
        assert lang in ("zh", "en", "any"), f"line {number}: {lang!r}"
        assert (phrase, lang, role) not in seen, f"line {number} repeats {phrase!r} as {role}"
        seen.add((phrase, lang, role))
        if not roles or roles[-1] != role:
            roles.append(role)
    # a role's rows stand together, so the table reads role by role
    assert len(roles) == len(set(roles)), "a role's rows are split apart"


def test_roles_read_as_sets_orders_and_mappings() -> None:
    assert "现在" in table.words("change adverb", "zh")
    assert "now" not in table.words("change adverb", "zh")
    assert table.ordered("correction", "en")[0] == "correction"
    assert table.mapping("unit")["minutes"] == "min"
    assert table.mapping("month", "en")["sept"] == "9"
    assert table.alternation("end before date", "zh") == "直到|截至|截止到|截止"


def test_an_unknown_role_is_named() -> None:
    with pytest.raises(KeyError, match="no such role"):
        table.words("no such role")
    with pytest.raises(KeyError, match="change adverb"):
        table.words("change adverb", "any")


def test_the_table_ships_in_the_package() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "truth/words.tsv" in data["tool"]["setuptools"]["package-data"]["remem"]
