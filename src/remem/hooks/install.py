"""Adding remem's hooks to a tool's settings file, and taking them out, without touching
anything else in it.

    change = plan(CLIENTS["claude-code"], path, command="remem", remove=False)
    change.diff        # a unified diff of the file ("" when it already holds them)
    change.write()     # atomically, only when something changed

A hook is remem's when its command runs `remem hook` (any path to remem): installing
again replaces those in place, other hooks and settings stay as they were, in order.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from remem.errors import InvalidInput
from remem.hooks.clients import Client

_OURS = re.compile(r"(?:^|[\s/\\\"'])remem(?:\.exe)?[\"']?\s+hook\s")


def is_ours(hook: object) -> bool:
    return isinstance(hook, dict) and bool(_OURS.search(str(hook.get("command", "")) + " "))


@dataclass
class Change:
    path: Path
    before: str  # the file's text ("" when it did not exist)
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def diff(self) -> str:
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            fromfile=f"{self.path} (before)",
            tofile=f"{self.path} (after)",
        )
        return "".join(lines)

    def write(self) -> None:
        """Write `after` atomically (a temporary file renamed over the old one)."""
        if not self.changed:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".remem-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(self.after)
            if self.path.exists():
                os.chmod(tmp, self.path.stat().st_mode & 0o7777)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def read_settings(path: Path) -> tuple[str, dict[str, Any]]:
    """The file's text and its JSON object ({} when absent or empty); bad JSON is an
    error, never overwritten."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "", {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}") from exc
    if not text.strip():
        return text, {}
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise InvalidInput(f"{path} is not valid JSON ({exc}); fix it first") from exc
    if not isinstance(doc, dict):
        raise InvalidInput(f"{path} does not hold a JSON object; fix it first")
    if not isinstance(doc.get("hooks", {}), dict):
        raise InvalidInput(f"{path}: 'hooks' is not an object; fix it first")
    return text, doc


def _without_ours(groups: object) -> list[Any]:
    """An event's matcher groups minus remem's hooks (a group left empty goes)."""
    if not isinstance(groups, list):
        return [groups]
    kept: list[Any] = []
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            hooks = [h for h in group["hooks"] if not is_ours(h)]
            if not hooks and group["hooks"]:
                continue
            group = {**group, "hooks": hooks}
        kept.append(group)
    return kept


def hook_entry(tool: Client, action: str, command: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "type": "command",
        "command": f"{command} hook {action} --client {tool.name}",
        "timeout": tool.timeout(action),
    }
    if tool.name == "gemini":  # named hooks can be listed and toggled with /hooks
        entry = {"name": f"remem-{action}", **entry}
    return entry


def plan(tool: Client, path: Path, *, command: str, remove: bool) -> Change:
    """The change that installs (or with `remove`, uninstalls) remem's hooks in `path`."""
    before, doc = read_settings(path)
    hooks: dict[str, Any] = dict(doc.get("hooks", {}))
    for event, action in tool.events.items():
        groups = _without_ours(hooks.get(event, []))
        if not remove:
            groups.append({"hooks": [hook_entry(tool, action, command)]})
        if groups:
            hooks[event] = groups
        else:
            hooks.pop(event, None)
    if hooks:
        doc["hooks"] = hooks
    else:
        doc.pop("hooks", None)
    after = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if json.loads(after) == (json.loads(before) if before.strip() else {}):
        after = before  # same content: keep the file's own formatting
    return Change(path, before, after)


def installed(tool: Client, path: Path) -> list[str]:
    """The events of `tool` whose remem hook is in `path`."""
    try:
        _, doc = read_settings(path)
    except InvalidInput:
        return []
    hooks = doc.get("hooks", {})
    found = []
    for event in tool.events:
        groups = hooks.get(event, [])
        if isinstance(groups, list) and any(
            isinstance(g, dict) and any(is_ours(h) for h in g.get("hooks", []) or [])
            for g in groups
        ):
            found.append(event)
    return found
