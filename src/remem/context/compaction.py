"""Staged compaction of one message list (SPEC ST4, CP2-CP4).

Levels run only when a threshold is crossed, cheapest first: clear old tool
results in place (CP2), then summarise old turns (CP3) and rebuild (CP4). A
failed summary leaves history unchanged. If the list still does not fit the
window, the oldest low-value content is dropped with a visible notice (ST4).
Every function here takes a list and returns a new one; call/result pairs and
system messages always survive.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from remem.context.summarizer import Summarizer, chunks, has_required_structure, transcript
from remem.messages import (
    Message,
    is_real_user,
    messages_tokens,
    skill_name,
    system_end,
    text_of,
)

CLEARED_PREFIX = "[old tool result cleared]"
SUMMARY_PREFIX = "[Summary of earlier conversation]"
ACK = "Understood. I have the earlier context and will continue from here."
DROP_NOTICE = "[remem] {n} older messages were dropped to fit the context window."


@dataclass(frozen=True, slots=True)
class CompactionConfig:
    """Thresholds in tokens. The summary threshold is `summary_ratio` of the window
    less its reserves; clearing starts at min(clear_max, clear_ratio x that)."""

    window: int = 200_000
    reserve_system: int = 500
    reserve_tools: int = 800
    reserve_response: int = 2_000
    summary_ratio: float = 0.8
    clear_max: int = 100_000
    clear_ratio: float = 0.6
    keep_recent_tools: int = 3
    clear_min_chars: int = 400
    keep_turns: int = 3
    manual_keep_turns: int = 1
    chunk_chars: int = 60_000
    chunk_summary_chars: int = 8_000

    @property
    def available(self) -> int:
        return max(
            1, self.window - self.reserve_system - self.reserve_tools - self.reserve_response
        )

    @property
    def summary_threshold(self) -> int:
        return max(1, int(self.available * self.summary_ratio))

    @property
    def clear_threshold(self) -> int:
        return max(1, min(self.clear_max, int(self.summary_threshold * self.clear_ratio)))


@dataclass(slots=True)
class CompactionReport:
    """What each level did, for /context, the ledger and `remem compact --report`."""

    tokens_before: int = 0
    tokens_after: int = 0
    cleared: int = 0
    summarised: int = 0
    summary_calls: int = 0
    summary_chars: int = 0
    abandoned: str | None = None
    dropped: int = 0
    levels: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def clear_old_tool_results(
    messages: Sequence[Message], *, keep_recent: int = 3, min_chars: int = 400
) -> tuple[list[Message], int]:
    """CP2: replace the text of old tool results with a placeholder, keeping the message
    and its tool_call_id (and any offload path) so pairs stay valid."""
    out = [dict(m) for m in messages]
    tool_idx = [i for i, m in enumerate(out) if m.get("role") == "tool"]
    cleared = 0
    for i in tool_idx[: max(0, len(tool_idx) - keep_recent)]:
        body = text_of(out[i])
        if len(body) < min_chars or body.startswith(CLEARED_PREFIX):
            continue
        name = out[i].get("name") or _call_name(out, i) or "tool"
        note = f"{CLEARED_PREFIX} The output of {name} (about {len(body)} chars) was cleared"
        path = _offload_path(body)
        note += f"; the full output is in {path}" if path else ""
        out[i]["content"] = note + ". Call the tool again (or read the file) if you need it."
        cleared += 1
    return out, cleared


def _call_name(messages: Sequence[Message], tool_index: int) -> str | None:
    cid = messages[tool_index].get("tool_call_id")
    for m in reversed(messages[:tool_index]):
        for call in m.get("tool_calls") or []:
            if call.get("id") == cid:
                return str(call.get("function", {}).get("name"))
    return None


def _offload_path(body: str) -> str | None:
    for line in body.splitlines()[:6]:
        if line.startswith("file: "):
            return line[len("file: ") :].strip()
    return None


def split_index(messages: Sequence[Message], keep_turns: int) -> int | None:
    """Index of the real user message that starts the kept part: the `keep_turns`-th
    last real user message. None when there is nothing older to summarise."""
    users = [i for i, m in enumerate(messages) if is_real_user(m)]
    if len(users) <= keep_turns or keep_turns < 1:
        return None
    split = users[-keep_turns]
    return split if split > system_end(messages) else None


def rebuild(messages: Sequence[Message], split: int, summary: str) -> list[Message]:
    """CP4: system messages, the summary as a user message (with a note of dropped skill
    texts), a short assistant acknowledgement, then the kept turns unchanged."""
    start = system_end(messages)
    skills = [n for m in messages[start:split] if (n := skill_name(m))]
    note = ""
    if skills:
        names = ", ".join(dict.fromkeys(skills))
        note = f"\n\n[Skill texts left the context with this summary: {names}. Reload if needed.]"
    return [
        *[dict(m) for m in messages[:start]],
        {
            "role": "user",
            "content": f"{SUMMARY_PREFIX}\n{summary}{note}",
            "remem_internal": "summary",
        },
        {"role": "assistant", "content": ACK},
        *[dict(m) for m in messages[split:]],
    ]


def summarise(
    old: Sequence[Message], summarizer: Summarizer, cfg: CompactionConfig, report: CompactionReport
) -> str | None:
    """The checked summary of `old`, or None (abandoned, reason in the report)."""
    text = transcript(old)
    if not text.strip():
        report.abandoned = "nothing to summarise"
        return None
    parts = []
    for piece in chunks(text, cfg.chunk_chars):
        parts.append(summarizer.summarise(piece, max_chars=cfg.chunk_summary_chars))
        report.summary_calls += int(summarizer.uses_llm)
    summary = parts[0]
    if len(parts) > 1:
        summary = summarizer.merge(parts, max_chars=cfg.chunk_summary_chars)
        report.summary_calls += int(summarizer.uses_llm)
    if not has_required_structure(summary):
        summary = summarizer.repair(summary)
        report.summary_calls += int(summarizer.uses_llm)
        if not has_required_structure(summary):
            report.abandoned = "summary still lacks the four sections after one repair"
            return None
    return summary


def _summarise_level(
    messages: list[Message],
    summarizer: Summarizer,
    cfg: CompactionConfig,
    report: CompactionReport,
    keep_turns: int,
) -> list[Message]:
    split = split_index(messages, keep_turns)
    if split is None:
        report.abandoned = f"fewer than {keep_turns + 1} user turns: nothing old to summarise"
        return messages
    old = messages[system_end(messages) : split]
    summary = summarise(old, summarizer, cfg, report)
    if summary is None:
        return messages
    rebuilt = rebuild(messages, split, summary)
    if messages_tokens(rebuilt) >= messages_tokens(messages):
        report.abandoned = "the summary was not smaller than what it replaces"
        return messages
    report.summarised = len(old)
    report.summary_chars = len(summary)
    report.levels.append("summarise")
    return rebuilt


def drop_to_fit(messages: Sequence[Message], limit: int) -> tuple[list[Message], int]:
    """ST4's hard limit, lowest value first: clear every tool result but the newest, then
    drop whole turns, oldest first, behind a visible notice. Never system messages, the
    summary of earlier turns, half a call/result pair, or the last real user turn."""
    out = list(messages)
    if messages_tokens(out) > limit:
        cleared, _ = clear_old_tool_results(out, keep_recent=1, min_chars=0)
        if messages_tokens(cleared) < messages_tokens(out):
            out = cleared
    start = system_end(out)
    while start < len(out) and out[start].get("remem_internal") == "summary":
        start += 2  # the summary and its acknowledgement stay
    dropped = 0
    while messages_tokens(out) > limit:
        has_notice = start < len(out) and out[start].get("remem_internal") == "dropped"
        body = start + 2 if has_notice else start
        users = [i for i in range(body + 1, len(out)) if is_real_user(out[i])]
        if not users:
            break
        n = dropped + users[0] - body
        notice = {"role": "user", "content": DROP_NOTICE.format(n=n), "remem_internal": "dropped"}
        shorter = [*out[:start], notice, {"role": "assistant", "content": ACK}, *out[users[0] :]]
        if messages_tokens(shorter) >= messages_tokens(out):
            break
        out, dropped = shorter, n
    return out, dropped


def compact(
    messages: Sequence[Message],
    summarizer: Summarizer,
    cfg: CompactionConfig | None = None,
    *,
    manual: bool = False,
    keep_turns: int | None = None,
) -> tuple[list[Message], CompactionReport]:
    """Run the levels the list needs (all of them when `manual`); returns the new list
    (the input is not modified) and a report."""
    cfg = cfg or CompactionConfig()
    out = copy.deepcopy(list(messages))
    report = CompactionReport(tokens_before=messages_tokens(out))
    turns = keep_turns or (cfg.manual_keep_turns if manual else cfg.keep_turns)
    if manual or report.tokens_before >= cfg.clear_threshold:
        out, report.cleared = clear_old_tool_results(
            out, keep_recent=cfg.keep_recent_tools, min_chars=cfg.clear_min_chars
        )
        if report.cleared:
            report.levels.append("clear")
    if manual or messages_tokens(out) >= cfg.summary_threshold:
        out = _summarise_level(out, summarizer, cfg, report, turns)
    if messages_tokens(out) > cfg.available:
        fitted, report.dropped = drop_to_fit(out, cfg.available)
        if messages_tokens(fitted) < messages_tokens(out):
            out = fitted
            report.levels.append("hard-limit")
        if messages_tokens(out) > cfg.available:
            report.abandoned = (report.abandoned or "") + " (still over the window)"
    report.tokens_after = messages_tokens(out)
    return out, report
