from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import remem

ROOT = Path(__file__).resolve().parents[1]


def test_all_is_complete_and_exists() -> None:
    public = {n for n in dir(remem) if not n.startswith("_") and n[0].isupper()}
    modules = {n for n in dir(remem) if not n.startswith("_") and not n[0].isupper()}
    assert public <= set(remem.__all__), public - set(remem.__all__)
    assert all(hasattr(remem, n) for n in remem.__all__)
    assert {"count_tokens", "estimate_tokens"} <= modules


def test_import_has_no_side_effects(tmp_path: Path) -> None:
    env = {**os.environ, "REMEM_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    code = "import remem, remem.cli, remem.memory, remem.store.sqlite.store"
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


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
