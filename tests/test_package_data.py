"""Every data file beside the code (word tables, templates, the judge's weights) is
declared as package data, so a wheel carries it: remem reads them with
importlib.resources at run time, and one missing from the wheel fails only there."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "remem"


def test_every_data_file_in_the_package_is_declared_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["remem"]
    data = [
        p
        for p in SRC.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert any(p.name == "glossary.txt" for p in data)
    undeclared = [
        str(p.relative_to(SRC)) for p in data if not any(p.relative_to(SRC).match(g) for g in globs)
    ]
    assert not undeclared, f"add to [tool.setuptools.package-data] in pyproject: {undeclared}"
