"""The hook a terminal agent runs: its JSON payload on stdin, the answer on stdout.

- `start`: the project's standing preferences and decisions, as a memory block.
- `prompt`: the memory block for this prompt (budgeted, background, never a memory
  this session was already given); the prompt is kept for capture.
- `status`: the session's one-line status, plain text ("remem: 6 loaded · 2 captured"),
  for Claude Code's `statusLine` command.
- `stop`, `compact`, `end`: the kept prompts (the user's own words only, never the
  model's answer or a tool's output) go through remem's extractor and land as
  `unverified` memories for `remem review`; once the session read external content
  (web, MCP, a network command: seen in the tool's transcript) only an explicit
  "remember ..." is taken (SPEC SE2). After a compaction (or /clear) the memories given
  before may be given again: the context no longer holds them.

The answer is `hookSpecificOutput.additionalContext` (Claude Code, Codex and Gemini CLI
read the same field) and, when something was captured, a `systemMessage` status line.
The project is the payload's `cwd`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remem.hooks import state as session_state
from remem.settings import Settings

if TYPE_CHECKING:
    from remem.extract.guard import ExternalGuard
    from remem.memory import Memory

TRANSCRIPT_TAIL = 4_000_000  # bytes of a transcript read for tool calls
START_TYPES = ("preference", "decision")
START_ENTRIES = 8


@dataclass(frozen=True, slots=True)
class HookConfig:
    client: str
    home: Path
    budget: int | None = None  # tokens of a prompt's block (None: remem's default)
    start_budget: int = 400


def read_payload(text: str) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"the payload on stdin is not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise ValueError("the hook payload is not a JSON object")
    return doc


def _answer(event: str, context: str = "", message: str = "") -> str:
    out: dict[str, Any] = {}
    if context:
        out["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": context}
    if message:
        out["systemMessage"] = message
    return json.dumps(out, ensure_ascii=False) if out else ""


def handle(
    action: str,
    payload: Mapping[str, Any],
    cfg: HookConfig,
    open_memory: Callable[[Settings], Memory],
    save: Callable[[Path, session_state.SessionState], None] = session_state.save,
) -> str:
    """What the hook prints for `action` (see the module's doc); the session's state is
    given to `save` (the warm service hands it to the hook process instead)."""
    session = str(payload.get("session_id") or "unknown")
    st = session_state.load(cfg.home, cfg.client, session)
    if action == "status":
        return st.status_line
    cwd = Path(str(payload.get("cwd") or os.getcwd()))
    settings = Settings.resolve(cwd=cwd)
    st.project = settings.project
    event = str(payload.get("hook_event_name") or action)
    prompt = payload.get("prompt")
    prompt = prompt if isinstance(prompt, str) and prompt.strip() else None
    if action == "compact" or payload.get("source") in ("clear", "compact"):
        st.forget_given()  # the context lost its blocks: their memories may come again
    if action == "start":
        session_state.prune(cfg.home)  # one small file per session, not kept forever
    if action in ("start", "prompt"):
        if action == "prompt" and prompt is None:
            return ""
        with open_memory(settings) as memory:
            block = _block(memory, st, cfg, prompt)
        if prompt is not None:
            st.pending.append(prompt)
        save(cfg.home, st)
        return _answer(event, block)
    if prompt is not None and prompt not in st.pending and event == "AfterAgent":
        st.pending.append(prompt)  # Gemini names the turn's prompt again at its end
    saved: list[str] = []
    if st.pending:
        with open_memory(settings) as memory:
            saved = capture(memory, st.pending, _guard(payload, cfg.client))
        st.captured += saved
        st.pending = []
    save(cfg.home, st)
    if not saved or action == "end":
        return ""
    return _answer(event, message=f"{st.status_line} (check them: remem review)")


def _block(
    memory: Memory, st: session_state.SessionState, cfg: HookConfig, prompt: str | None
) -> str:
    if prompt is not None:
        exclude = [prompt, *st.given_texts]
        block = memory.context_for(prompt, max_tokens=cfg.budget, exclude_texts=exclude)
        chosen = memory.last_injected
    else:
        block, chosen = _standing(memory, st, cfg.start_budget)
    for entry in chosen:
        if entry.id not in st.given:
            st.given.append(entry.id)
            st.given_texts.append(entry.content)
            st.loaded += 1
    return block


def _standing(memory: Memory, st: session_state.SessionState, budget: int) -> tuple[str, list[Any]]:
    """A session's opening block: this project's (and global) preferences and decisions,
    newest first, within `budget` tokens. Nothing else is relevant before a prompt."""
    from remem.retrieval import block
    from remem.retrieval.ranking import Hit
    from remem.tokens import count_tokens

    used = count_tokens(block.frame())
    hits: list[Hit] = []
    for entry in memory.list(limit=200):
        if entry.type not in START_TYPES or entry.id in st.given:
            continue
        if entry.source == "auto_extracted" and entry.confidence == "unverified":
            continue  # not reviewed yet: only a prompt that needs it brings it in
        hit = Hit(entry, score=1.0, relevance=1.0, decay=1.0, stale=False)
        cost = count_tokens(block.line(hit)) + 1
        if used + cost > budget:
            break
        hits.append(hit)
        used += cost
        if len(hits) >= START_ENTRIES:
            break
    return block.render(hits), [h.entry for h in hits]


def capture(memory: Memory, prompts: list[str], guard: ExternalGuard) -> list[str]:
    """Extract from the user's prompts; the ids saved (unverified, for review)."""
    from remem.extract.extractor import Extractor
    from remem.extract.guard import explicit_request

    guarded = Extractor(memory, guard=guard)
    asked = Extractor(memory)
    saved: list[str] = []
    for prompt in prompts:
        explicit = not guard.allows_extraction() and explicit_request(prompt) is not None
        result = (asked if explicit else guarded).extract(prompt)
        saved += [e.id for e in result.entries]
    return saved


# -- the session's tool calls, from the tool's own transcript ------------------------------


def _guard(payload: Mapping[str, Any], client: str) -> ExternalGuard:
    from remem.extract.guard import ExternalGuard

    guard = ExternalGuard()
    path = payload.get("transcript_path")
    if isinstance(path, str) and path:
        for name, args in tool_calls(Path(path)):
            if client == "gemini" and name.startswith("mcp_") and not name.startswith("mcp__"):
                name = "mcp__" + name[4:]  # Gemini names MCP tools mcp_<server>_<tool>
            elif name == "run_shell_command":
                name = "run_command"
            guard.observe_tool(name, args)
    return guard


def tool_calls(path: Path) -> Iterator[tuple[str, Any]]:
    """(name, arguments) of every tool call in a transcript: Claude Code's `tool_use`
    blocks, Codex's `function_call` / `local_shell_call` items, Gemini's `functionCall`
    parts and `toolCalls`, in JSON Lines or one JSON document."""
    try:
        with path.open("rb") as f:
            f.seek(max(0, path.stat().st_size - TRANSCRIPT_TAIL))
            raw = f.read().decode("utf-8", "replace")
    except OSError:
        return
    try:
        docs: list[Any] = [json.loads(raw)]
    except ValueError:
        docs = []
        for line in raw.splitlines():
            try:
                docs.append(json.loads(line))
            except ValueError:
                continue
    for doc in docs:
        yield from _walk(doc)


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        kind, name = item.get("type"), item.get("name")
        if kind in ("tool_use", "function_call", "custom_tool_call") and isinstance(name, str):
            yield name, item.get("input", item.get("arguments"))
        elif kind == "local_shell_call":
            yield "shell", (item.get("action") or {})
        elif isinstance(call := item.get("functionCall"), dict) and isinstance(
            call.get("name"), str
        ):
            yield call["name"], call.get("args")
        elif isinstance(name, str) and "args" in item and "id" in item:
            yield name, item.get("args")  # a Gemini toolCalls record
        stack.extend(v for v in item.values() if isinstance(v, dict | list))
