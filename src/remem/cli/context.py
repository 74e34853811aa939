"""`remem compact` and `remem sessions`: the short-term context from the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from remem.cli.common import emit, json_option
from remem.context.compaction import CompactionConfig, CompactionReport
from remem.context.compaction import compact as compact_messages
from remem.context.offload import Offloader
from remem.context.summarizer import ExtractiveSummarizer, LLMSummarizer, Summarizer
from remem.entry import utcnow
from remem.errors import InvalidInput
from remem.files import check_output, json_file, read_text
from remem.messages import Message, message_tokens, messages_tokens, structure_problems, to_wire
from remem.settings import project_root


def _read_messages(path: Path) -> list[Message]:
    if path.suffix == ".jsonl":
        from remem.context.ledger import resume

        return resume(path)
    try:
        doc = json.loads(read_text(path, "the messages file"))
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    except RecursionError as exc:
        raise InvalidInput(f"{path} is nested too deeply to be messages") from exc
    if isinstance(doc, dict) and isinstance(doc.get("messages"), list):
        doc = doc["messages"]
    if not isinstance(doc, list) or not all(
        isinstance(m, dict) and isinstance(m.get("role"), str) for m in doc
    ):
        raise InvalidInput(f"{path} must hold a JSON array of messages with a 'role' each")
    return doc


def _summarizer(offline: bool) -> tuple[Summarizer, str]:
    from remem.llm import LLMSettings, OpenAIChatModel

    settings = LLMSettings.from_env()
    if offline or not settings.configured:
        return ExtractiveSummarizer(), "offline extractive summariser"
    return LLMSummarizer(OpenAIChatModel(settings)), f"LLM {settings.model}"


def _offload_all(messages: list[Message], root: Path) -> int:
    """CP1 on a list that arrived whole: oversized tool results go to files."""
    off = Offloader(root, "compact-" + utcnow().strftime("%Y%m%d-%H%M%S"))
    names = {
        c.get("id"): c.get("function", {}).get("name", "tool")
        for m in messages
        for c in m.get("tool_calls") or []
    }
    count = 0
    for m in messages:
        if m.get("role") == "tool" and isinstance(m.get("content"), str):
            name = str(m.get("name") or names.get(m.get("tool_call_id")) or "tool")
            done = off.process(name, m["content"])
            if done.path is not None:
                m["content"] = done.text
                count += 1
    return count


def _report_lines(report: CompactionReport, offloaded: int, how: str) -> list[str]:
    lines = [
        f"tokens: {report.tokens_before} -> {report.tokens_after}",
        f"offloaded:  {offloaded} tool results (to files)",
        f"cleared:    {report.cleared} old tool results",
        f"summarised: {report.summarised} messages with the {how} "
        f"({report.summary_calls} LLM calls, {report.summary_chars} chars)",
    ]
    if report.dropped:
        lines.append(f"dropped (hard limit): {report.dropped} messages")
    if report.abandoned:
        lines.append(f"note: {report.abandoned}")
    return lines


def _is_message_list(path: Path) -> bool:
    """Whether `path` holds what `compact` writes (a JSON list of chat messages), so an
    earlier result may be written over and nothing else is."""
    doc = json_file(path)
    return isinstance(doc, list) and all(isinstance(m, dict) and "role" in m for m in doc)


@click.command("compact")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--window", type=click.IntRange(min=1000), required=True, help="Context window in tokens."
)
@click.option("--keep-turns", type=click.IntRange(min=1), default=3, show_default=True)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the result here."
)
@click.option("--report", "show_report", is_flag=True, help="Say what each level did (stderr).")
@click.option("--all-levels", is_flag=True, help="Run every level even below the thresholds.")
@click.option("--offline", is_flag=True, help="Never call an LLM, even if one is configured.")
@json_option
def compact(
    source: Path,
    window: int,
    keep_turns: int,
    out: Path | None,
    show_report: bool,
    all_levels: bool,
    offline: bool,
    as_json: bool,
) -> None:
    """Compact an OpenAI-format message list (JSON array or session .jsonl).

    Offloads huge tool results to files, clears old ones and summarises old turns
    as remem's own agent does, with an LLM when REMEM_LLM_* is set.

    \b
    Example:
      remem compact history.json --window 32000 --out small.json --report
    """
    messages = _read_messages(source)
    problems = structure_problems(messages)
    if problems:
        click.echo(f"remem: warning: the input breaks tool-call pairing: {problems[0]}", err=True)
    offloaded = _offload_all(messages, project_root())
    summarizer, how = _summarizer(offline)
    cfg = CompactionConfig(window=window, keep_turns=keep_turns)
    result, report = compact_messages(messages, summarizer, cfg, manual=all_levels)
    text = json.dumps(to_wire(result), ensure_ascii=False, indent=1)
    if out is not None:
        check_output(out, made_by=_is_message_list, source=source)
        out.write_text(text + "\n", encoding="utf-8")
    else:
        click.echo(text)
    data: dict[str, Any] = {**report.as_dict(), "offloaded": offloaded, "summariser": how}
    lines = _report_lines(report, offloaded, how)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False), err=out is None)
    elif show_report or out is not None:
        for line in lines:
            click.echo(line, err=out is None)


@click.group()
def sessions() -> None:
    """List and inspect session ledgers (.remem/sessions/ under the project root).

    \b
    Example:
      remem sessions list
      remem sessions show 20261130-0915
    """


@sessions.command("list")
@json_option
def sessions_list(as_json: bool) -> None:
    """List sessions, most recently active first.

    \b
    Example:
      remem sessions list --json
    """
    from remem.context.sessions import list_sessions

    infos = list_sessions(project_root())
    data = [
        {
            "id": i.id,
            "started_at": i.started_at.isoformat(),
            "updated_at": i.updated_at.isoformat(),
            "messages": i.visible,  # what `sessions show` lists
            "recorded": i.messages,  # every message ever appended, compacted ones too
            "checkpoints": i.checkpoints,
            "tokens": i.last_checkpoint_tokens,
            "title": i.title,
            "ended": i.ended,
        }
        for i in infos
    ]

    def human() -> None:
        if not infos:
            click.echo("No sessions in this project.")
        for i in infos:
            tokens = "?" if i.last_checkpoint_tokens is None else i.last_checkpoint_tokens
            click.echo(
                f"{i.id}  {i.updated_at:%Y-%m-%d %H:%M}  {i.visible:>4} msgs  "
                f"{tokens:>7} tokens  {i.title}"
            )

    emit(as_json, data, human)


def _session_file(session_id: str) -> str:
    """An id or prefix as given; a path only to a ledger in this project's sessions folder
    (`sessions show` is no way to print any file)."""
    from remem.context.ledger import SUFFIX, sessions_dir

    if "/" not in session_id and os.sep not in session_id and not session_id.endswith(SUFFIX):
        return session_id
    folder = sessions_dir(project_root()).resolve()
    path = Path(session_id).expanduser().resolve()
    if path.parent != folder or path.suffix != SUFFIX:
        raise InvalidInput(
            f"{session_id} is not a session ledger of this project ({folder}): give a "
            "session id from `remem sessions list`"
        )
    return str(path)


@sessions.command("show")
@click.argument("session_id", metavar="ID")
@json_option
def sessions_show(session_id: str, as_json: bool) -> None:
    """Show what the model saw at the last checkpoint (and after), with token counts.

    \b
    Example:
      remem sessions show 20261130-0915
    """
    from remem.context.sessions import load

    session = load(_session_file(session_id), project_root())
    rows = [(m, message_tokens(m)) for m in session.messages]
    data = {
        "id": session.info.id,
        "tokens": messages_tokens(session.messages),
        "messages": [{"tokens": t, "message": m} for m, t in rows],
        "skipped_lines": session.skipped,
    }

    def human() -> None:
        click.echo(f"session {session.info.id}: {len(rows)} messages, {data['tokens']} tokens")
        for m, tokens in rows:
            body = str(m.get("content") or "").replace("\n", " ")
            calls = ", ".join(
                c.get("function", {}).get("name", "?") for c in m.get("tool_calls") or []
            )
            extra = f" -> {calls}" if calls else ""
            click.echo(f"{tokens:>6}  {m.get('role', '?'):<9} {body[:100]}{extra}")
        for line in session.skipped:
            click.echo(f"(skipped {line})", err=True)

    emit(as_json, data, human)
