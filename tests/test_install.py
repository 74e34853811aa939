"""The wheel installs a working `remem` on PATH: built from a copy of the source tree,
installed into a fresh venv (no network: no dependencies fetched, they come from this
test's own environment through a .pth line), then run from that venv's bin/."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds and installs a wheel

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, **kwargs: object) -> str:
    proc = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=240, **kwargs
    )  # type: ignore[call-overload]
    assert proc.returncode == 0, f"{args}\n{proc.stdout}\n{proc.stderr}"
    return str(proc.stdout)


def test_the_wheel_puts_a_working_remem_on_path(tmp_path: Path) -> None:
    source = tmp_path / "source"  # build from a copy: the work tree gets no build/ files
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    skip = shutil.ignore_patterns("*.egg-info", "__pycache__")
    shutil.copytree(ROOT / "src", source / "src", ignore=skip)
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
        "-w", dist, source)  # fmt: skip
    wheel = next(dist.glob("remem-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for data in ("remem/py.typed", "remem/servers/templates/memory.html",
                 "remem/servers/static/style.css", "remem/servers/static/app.js"):  # fmt: skip
        assert data in names, data

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install",
        "--no-deps", "--no-index", "-q", wheel)  # fmt: skip
    # The dependencies: this environment's, appended after the venv's own site-packages.
    (purelib,) = (venv / "lib").glob("python3*/site-packages")
    (purelib / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")

    remem = venv / "bin" / "remem"
    path = f"{venv / 'bin'}:/usr/bin:/bin"
    env = {**os.environ, "REMEM_HOME": str(tmp_path / "home"), "PATH": path}
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    assert run(remem, "--version", env=env, cwd=cwd).split()[-1] == _version()
    run(remem, "save", "项目使用 JDK 17 和 Maven", env=env, cwd=cwd)
    assert "项目使用 JDK 17 和 Maven" in run(remem, "search", "JDK 版本", env=env, cwd=cwd)
    probe = (
        "import remem, remem.servers.http as h, pathlib; print(remem.__version__, "
        f"pathlib.Path(h.__file__).is_relative_to(pathlib.Path(r'{venv}')))"
    )
    assert run(venv / "bin" / "python", "-c", probe, env=env, cwd=cwd).split() == [
        _version(),
        "True",
    ]


def _version() -> str:
    import remem

    return remem.__version__


def test_a_missing_extra_names_the_command_for_how_remem_was_installed() -> None:
    from remem.install import Installation, installation

    here = Installation("pipx", "/home/me/remem", False, ("embed", "serve"))
    assert here.command("postgres") == "pipx install --force '/home/me/remem[embed,postgres,serve]'"
    uv = Installation("uv", "/home/me/my remem", False, ())
    assert uv.command("embed") == "uv tool install --force '/home/me/my remem[embed]'"
    pip = Installation("pip", "/src/remem", True, ("serve",)).command("postgres")
    assert pip.endswith("-m pip install -e '/src/remem[postgres,serve]'")
    assert "(in the clone of remem)" in Installation("pip", None, False, ()).command("e5")
    assert installation("/home/me/.local/share/pipx/venvs/remem").tool == "pipx"
    assert installation("/home/me/.local/share/uv/tools/remem").tool == "uv"
    mine = installation()  # this test's: an editable install of this clone
    assert (mine.tool, mine.source, mine.editable) == ("pip", str(ROOT), True)
    assert "postgres" in mine.extras and "e5" not in mine.extras
