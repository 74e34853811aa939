"""The three terminal agents and where their hooks live, as each documents it.

- Claude Code: `hooks` in `.claude/settings.json` (project) or `~/.claude/settings.json`
  (user; `CLAUDE_CONFIG_DIR` replaces ~/.claude); events SessionStart, UserPromptSubmit, Stop,
  PreCompact, SessionEnd; timeouts in seconds.
- Codex CLI: `hooks` in `.codex/hooks.json` or `~/.codex/hooks.json` (`CODEX_HOME` replaces
  ~/.codex); the same shape, events and payloads as Claude Code's (SessionEnd too, in
  0.171, the version tested).
- Gemini CLI: `hooks` in `.gemini/settings.json` or `~/.gemini/settings.json`
  (`GEMINI_CLI_HOME` replaces ~); events
  SessionStart, BeforeAgent (a prompt), AfterAgent (a turn's end), PreCompress,
  SessionEnd; timeouts in milliseconds, and stdout must be JSON only.

Each event maps onto one action of `remem hook`: `start` and `prompt` inject the
memory block, `stop`, `compact` and `end` capture what the user said.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from remem.hooks import ACTIONS, CLIENT_NAMES

__all__ = ["ACTIONS", "CLIENTS", "CLIENT_NAMES", "Client", "Scope", "client"]

Scope = Literal["project", "user"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Client:
    name: str  # as typed: claude-code, codex, gemini
    title: str
    events: Mapping[str, str]  # the tool's event name -> our action
    folder: str  # the project's settings folder (.claude) and the user's (~/.claude)
    file: str  # the settings file in it
    home_env: str  # the env var that moves the user's folder (Gemini: the home above it)
    timeout_unit: int  # 1: seconds, 1000: milliseconds

    def settings_path(self, scope: Scope, project: Path, env: Mapping[str, str]) -> Path:
        if scope == "project":
            return project / self.folder / self.file
        moved = env.get(self.home_env, "").strip()
        if not moved:
            return Path.home() / self.folder / self.file
        base = Path(moved).expanduser()
        return base / self.folder / self.file if self.name == "gemini" else base / self.file

    def timeout(self, action: str) -> int:
        """Long enough for a cold start; the capture may read a long transcript."""
        seconds = 10 if action in ("start", "prompt") else 30
        return seconds * self.timeout_unit


CLIENTS: dict[str, Client] = {
    "claude-code": Client(
        name="claude-code",
        title="Claude Code",
        events={
            "SessionStart": "start",
            "UserPromptSubmit": "prompt",
            "Stop": "stop",
            "PreCompact": "compact",
            "SessionEnd": "end",
        },
        folder=".claude",
        file="settings.json",
        home_env="CLAUDE_CONFIG_DIR",
        timeout_unit=1,
    ),
    "codex": Client(
        name="codex",
        title="Codex CLI",
        events={
            "SessionStart": "start",
            "UserPromptSubmit": "prompt",
            "Stop": "stop",
            "PreCompact": "compact",
            "SessionEnd": "end",
        },
        folder=".codex",
        file="hooks.json",
        home_env="CODEX_HOME",
        timeout_unit=1,
    ),
    "gemini": Client(
        name="gemini",
        title="Gemini CLI",
        events={
            "SessionStart": "start",
            "BeforeAgent": "prompt",
            "AfterAgent": "stop",
            "PreCompress": "compact",
            "SessionEnd": "end",
        },
        folder=".gemini",
        file="settings.json",
        home_env="GEMINI_CLI_HOME",
        timeout_unit=1000,
    ),
}


def client(name: str) -> Client:
    from remem.errors import InvalidInput

    if name not in CLIENTS:
        raise InvalidInput(f"unknown client {name!r}: use {', '.join(CLIENTS)}")
    return CLIENTS[name]
