"""`remem hooks install|uninstall|status` (the terminal agents' settings files) and
`remem hook ACTION` (what those agents run, `remem.hooks.run`)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import click

from remem.cli.common import RememGroup, emit, json_option
from remem.hooks.clients import ACTIONS, CLIENTS, Client, Scope

CLIENT_CHOICE = click.Choice(sorted(CLIENTS))


def remem_command() -> str:
    """How the agent should start remem: `remem` when that is this program on PATH, else
    this program's absolute path (a virtualenv's, say)."""
    here = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    found = shutil.which("remem")
    if here is None or here.name not in ("remem", "remem.exe"):
        return found or "remem"
    if found and Path(found).resolve() == here:
        return "remem"
    return str(here)


def _scope_option(fn: Any) -> Any:
    fn = click.option(
        "--user",
        "scope",
        flag_value="user",
        help="Your own settings (~/.claude, ~/.codex, ~/.gemini).",
    )(fn)
    return click.option(
        "--project",
        "scope",
        flag_value="project",
        default=True,
        help="This project's settings (the default).",
    )(fn)


def _project_dir() -> Path:
    from remem.settings import project_root

    return project_root()


# What each tool asks before it runs a new hook (said after installing).
TRUST = {
    "codex": "Codex runs a new hook once you trust it: open codex and review it with /hooks "
    "(a project's .codex/ is read only in a trusted project).",
    "gemini": "Gemini CLI names new project hooks when it starts; trust the project to run them.",
}


def _change(tool: Client, scope: Scope, remove: bool, command: str | None) -> dict[str, Any]:
    from remem.hooks.install import plan

    path = tool.settings_path(scope, _project_dir(), os.environ)
    change = plan(tool, path, command=command or remem_command(), remove=remove)
    change.write()
    note = TRUST.get(tool.name, "") if not remove else ""
    return {
        "client": tool.name,
        "scope": scope,
        "path": str(path),
        "changed": change.changed,
        "diff": change.diff,
        "note": note,
    }


def _show(data: dict[str, Any], done: str, same: str) -> None:
    if data["changed"]:
        click.echo(data["diff"], nl=False)
        click.echo(f"{done} {data['path']}")
    else:
        click.echo(f"{same} {data['path']}")
    if data["note"]:
        click.echo(data["note"])


@click.group(cls=RememGroup)
def hooks() -> None:
    """Memory in Claude Code, Codex CLI and Gemini CLI through their hooks.

    \b
    Example:
      remem hooks install claude-code
      remem hooks status
    """


@hooks.command()
@click.argument("client", type=CLIENT_CHOICE)
@_scope_option
@click.option("--command", metavar="PATH", help="How the agent runs remem (default: found).")
@json_option
def install(client: str, scope: Scope, command: str | None, as_json: bool) -> None:
    """Add remem's hooks to a tool's settings file and show the change.

    Other settings and hooks stay as they are; installing again changes nothing.
    Each prompt then gets the memories that concern it, and what you tell the agent
    to remember lands in `remem review`.

    \b
    Example:
      remem hooks install claude-code            # .claude/settings.json
      remem hooks install codex --user           # ~/.codex/hooks.json
      remem hooks install gemini --json
    """
    data = _change(CLIENTS[client], scope, False, command)
    emit(as_json, data, lambda: _show(data, "Installed remem's hooks in", "Already installed in"))


@hooks.command()
@click.argument("client", type=CLIENT_CHOICE)
@_scope_option
@json_option
def uninstall(client: str, scope: Scope, as_json: bool) -> None:
    """Take remem's hooks out of a tool's settings file (nothing else changes).

    \b
    Example:
      remem hooks uninstall claude-code
      remem hooks uninstall gemini --user
    """
    data = _change(CLIENTS[client], scope, True, None)
    emit(as_json, data, lambda: _show(data, "Removed remem's hooks from", "No remem hooks in"))


@hooks.command()
@json_option
def status(as_json: bool) -> None:
    """Where remem's hooks are installed, and what the last session loaded and captured.

    \b
    Example:
      remem hooks status
      remem hooks status --json
    """
    from remem.hooks import state
    from remem.hooks.install import installed
    from remem.settings import home_dir

    rows = []
    for tool in CLIENTS.values():
        for scope in ("project", "user"):
            path = tool.settings_path(scope, _project_dir(), os.environ)
            rows.append(
                {
                    "client": tool.name,
                    "scope": scope,
                    "path": str(path),
                    "events": installed(tool, path),
                }
            )
    last = state.latest(home_dir())
    data = {"installed": rows, "last_session": last.to_dict() if last else None}

    def human() -> None:
        for row in rows:
            events = ", ".join(row["events"]) or "not installed"
            click.echo(f"{row['client']:<12} {row['scope']:<8} {events}  ({row['path']})")
        if last is not None:
            click.echo(f"last session ({last.client}): {last.status_line}")

    emit(as_json, data, human)


# -- the hook itself ------------------------------------------------------------------------


@click.command()
@click.argument("action", type=click.Choice(ACTIONS))
@click.option("--client", type=CLIENT_CHOICE, default="claude-code", show_default=True)
@json_option
def hook(action: str, client: str, as_json: bool) -> None:
    """Run by the agent (not by you): read its JSON payload on stdin, print the answer.

    start / prompt answer (in the agent's JSON) with the memory block to add; stop /
    compact / end read the user's own words of the session for memories and save them
    unverified, for `remem review`; status prints the session's line ("remem: 6 loaded ·
    2 captured") as plain text, for Claude Code's statusLine. A failure prints one line
    on stderr and exits 1, which lets the prompt through.

    \b
    Example:
      echo '{"prompt": "which JDK?", "cwd": "."}' | remem hook prompt --client codex
    """
    from remem.cli.hook_entry import run_hook

    run_hook(action, client)
