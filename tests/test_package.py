from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import remem

ROOT = Path(__file__).resolve().parents[1]


def test_all_is_exactly_the_public_names() -> None:
    """As httpx does: `__all__` is sorted and equals every public name the package
    holds once its lazy names are loaded (modules aside), and the imports it shows
    type checkers name the same things from the same modules as `_LAZY`."""
    import ast
    from types import ModuleType

    for name in remem.__all__:
        assert getattr(remem, name) is not None
    public = {
        n for n, v in vars(remem).items() if not n.startswith("_") and not isinstance(v, ModuleType)
    }
    assert remem.__all__ == sorted(public)
    tree = ast.parse((ROOT / "src" / "remem" / "__init__.py").read_text(encoding="utf-8"))
    checked = {
        alias.name: node.module
        for block in tree.body
        if isinstance(block, ast.If)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    }
    assert checked == remem._LAZY
    assert {"count_tokens", "estimate_tokens"} <= set(remem.__all__)


def test_import_has_no_side_effects(tmp_path: Path) -> None:
    env = {**os.environ, "REMEM_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    code = "import remem, remem.cli, remem.memory, remem.store.sqlite.store"
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.slow
def test_demo_saves_in_one_process_and_recalls_in_the_next(tmp_path: Path) -> None:
    env = {**os.environ, "REMEM_HOME": str(tmp_path), "PYTHON": sys.executable}
    out = subprocess.run(
        ["bash", str(ROOT / "scripts" / "demo.sh")],
        env=env, capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    search = out.split("$ remem search 创建 Java 项目用什么 JDK")[1]
    assert "项目使用 JDK 17 和 Maven" in search.split("$ remem")[0]
    assert "Conflict" in out or "(exit 1" in out
    assert "项目使用 JDK 21" in out.split("$ remem context")[1]
    assert (tmp_path / "memory.db").exists()


def test_every_remem_variable_is_read_in_settings_and_documented() -> None:
    """REMEM_* names appear as strings only in remem/settings.py (where they are read)
    and as a click option's `envvar` (read by click at the command line); every one of
    them is in the README."""
    import ast
    import re

    src = ROOT / "src" / "remem"
    outside = []
    for path in src.rglob("*.py"):
        if path.name == "settings.py" and path.parent == src:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
        envvars = {id(k.value) for n in calls for k in n.keywords if k.arg == "envvar"}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"REMEM_[A-Z0-9_]+", node.value)
                and id(node) not in envvars
            ):
                outside.append(f"{path.relative_to(src)}:{node.lineno} {node.value}")
    assert not outside, outside
    names = set(re.findall(r'"(REMEM_[A-Z0-9_]+)"', (src / "settings.py").read_text("utf-8")))
    assert len(names) >= 10
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not {n for n in names if n not in readme}


def test_the_framework_extras_are_imported_only_by_their_adapters(tmp_path: Path) -> None:
    """`remem` and its command never import LangGraph or the Agents SDK; an adapter whose
    library is missing says which command adds it (here: as if neither were installed)."""
    code = """if True:
        import importlib.abc, sys

        class Missing(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] in ("langgraph", "agents"):
                    raise ImportError(f"No module named {name!r}", name=name)
                return None

        sys.meta_path.insert(0, Missing())
        import remem, remem.cli, remem.integrations
        from remem import Memory
        print(sorted({m.split(".")[0] for m in sys.modules} & {"langgraph", "agents"}))
        for name in ("langgraph", "agents"):
            try:
                __import__("remem.integrations." + name)
            except Exception as exc:
                print(type(exc).__name__, exc)
    """
    env = {**os.environ, "REMEM_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
        check=True,
    ).stdout.splitlines()  # fmt: skip
    assert out[0] == "[]"
    wanted = [("langgraph", "langgraph"), ("openai-agents", "agents")]
    for line, (module, extra) in zip(out[1:], wanted, strict=True):
        assert line.startswith(f"MissingExtra remem.integrations.{extra} needs {module}, "), line
        assert f"-m pip install -e '{ROOT}[" in line and extra in line.split("[")[1], line
