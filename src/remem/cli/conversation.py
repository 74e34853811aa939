"""`remem add-messages`: remember a conversation given as OpenAI-style messages."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import click

from remem.cli.common import current_memory, emit, json_option, short
from remem.errors import InvalidInput
from remem.files import read_text

BAR_FROM = 200  # messages: a progress bar for inputs that take a while


def _read_messages(file: str) -> Any:
    raw = read_text(file, "the messages file")
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise InvalidInput(f"{file}: not JSON ({exc})") from exc
    except RecursionError as exc:
        raise InvalidInput(f"{file}: nested too deeply to be messages") from exc
    if isinstance(data, dict) and "messages" in data:
        data = data["messages"]  # a chat request body works too
    return data


@click.command("add-messages")
@click.argument("file", metavar="FILE.json|-")
@click.option(
    "--at", metavar="WHEN", help="When the conversation took place (ISO 8601; default now)."
)
@click.option("--session", "session_id", metavar="ID", help="The conversation's session id.")
@json_option
def add_messages(file: str, at: str | None, session_id: str | None, as_json: bool) -> None:
    """Remember a conversation: FILE holds a JSON list of messages ({"role", "content",
    optional "name" and "metadata"}), or an object with "messages". Each user and
    assistant turn becomes a `conversation` memory with its speaker, the turn it
    answers and the session's date; system and tool messages are skipped, turns that
    look like secrets are refused (exit 1 when any is).

    \b
    Example:
      remem add-messages chat.json --at 2025-05-08T13:56 --session s1
      echo '[{"role": "user", "name": "Ann", "content": "我下周去杭州出差"}]' | remem add-messages -
    """
    messages, mem = _read_messages(file), current_memory()
    many = isinstance(messages, list) and len(messages) >= BAR_FROM
    if many and sys.stderr.isatty() and not as_json:  # a bar on a terminal only
        with click.progressbar(length=len(messages), label="remembering", file=sys.stderr) as bar:
            results = mem.add_messages(messages, at=at, session_id=session_id, progress=bar.update)
    else:
        results = mem.add_messages(messages, at=at, session_id=session_id)
    counts = Counter(r.status for r in results)
    data = {
        "counts": dict(counts),
        "results": [
            {"status": r.status, "entry": r.entry.to_dict(), "reasons": r.reasons} for r in results
        ],
    }

    def human() -> None:
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "nothing"
        click.echo(f"{len(results)} turns: {summary}.")
        for r in results:
            why = f"  <- {r.reasons[0]}" if r.status == "refused" and r.reasons else ""
            click.echo(f"  {r.status:<9} {short(r.entry)}{why}")

    emit(as_json, data, human)
    if counts.get("refused"):
        raise SystemExit(1)
