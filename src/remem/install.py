"""How this remem was installed (pipx, uv tool or pip, from which clone), and the command
that adds an optional extra to that same installation: what a missing-extra message says.

remem is installed from a clone, not from PyPI, so `pip install 'remem[postgres]'` cannot
work; the command names the clone and keeps the extras already installed."""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["Installation", "add_extra_command", "installation"]


@dataclass(frozen=True, slots=True)
class Installation:
    tool: str  # "pipx", "uv" (uv tool) or "pip"
    source: str | None  # the clone it was installed from, when known
    editable: bool
    extras: tuple[str, ...]  # the extras whose packages are all installed

    def command(self, extra: str) -> str:
        """The one command that adds `extra` here, keeping the extras already in."""
        extras = ",".join(sorted({*self.extras, extra}))
        spec = shlex.quote(f"{self.source or '.'}[{extras}]")
        where = "" if self.source else "  (in the clone of remem)"
        if self.tool == "pipx":
            return f"pipx install --force {spec}{where}"
        if self.tool == "uv":
            return f"uv tool install --force {spec}{where}"
        python = shlex.quote(sys.executable)
        return f"{python} -m pip install {'-e ' if self.editable else ''}{spec}{where}"


def installation(prefix: str | None = None) -> Installation:
    """What `importlib.metadata` and the environment's folder say about this remem."""
    from importlib import metadata

    parts = Path(prefix or sys.prefix).parts
    tool = "pip"
    if "pipx" in parts and "venvs" in parts:
        tool = "pipx"
    elif "uv" in parts and "tools" in parts:
        tool = "uv"
    try:
        dist = metadata.distribution("remem")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return Installation(tool, None, False, ())
    source, editable = _origin(dist.read_text("direct_url.json"))
    return Installation(tool, source, editable, _installed_extras(dist.requires or []))


def add_extra_command(extra: str) -> str:
    return installation().command(extra)


def _origin(direct_url: str | None) -> tuple[str | None, bool]:
    """(the local folder it was installed from, editable) per PEP 610."""
    try:
        info = json.loads(direct_url or "{}")
    except ValueError:
        return None, False
    url = str(info.get("url") or "")
    if not url.startswith("file://"):
        return None, False
    editable = bool((info.get("dir_info") or {}).get("editable"))
    return unquote(urlsplit(url).path), editable


def _installed_extras(requires: list[str]) -> tuple[str, ...]:
    from importlib import metadata

    wanted: dict[str, list[str]] = {}
    for req in requires:
        found = re.search(r"""extra\s*==\s*["']([^"']+)["']""", req)
        named = re.match(r"[A-Za-z0-9._-]+", req)
        if found and named and named.group(0) != "remem":  # `dev` names remem's own extras
            wanted.setdefault(found.group(1), []).append(named.group(0))
    have = []
    for extra, names in wanted.items():
        try:
            for name in names:
                metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        if extra != "dev":
            have.append(extra)
    return tuple(sorted(have))
