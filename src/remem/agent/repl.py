"""The `remem chat` REPL (SPEC AG1-AG3): `run → run_one → dispatch` around an injectable
I/O object (`remem.agent.io.IO`), slash commands from one registry
(`remem.agent.commands`), and after each answer one dim line naming the memories it
used and those newly remembered, then the status line with token use.

    repl = Repl(manager, ConsoleIO(), agent)     # agent None: memory commands only
    repl.run()                                    # or repl.run_one("/memory list")
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

import remem.agent.mode_commands  # noqa: F401  (registers /plan, /team, /skill)
from remem.agent.commands import COMMANDS, ToolCall, complete, short
from remem.agent.io import IO, BufferIO
from remem.agent.units import Units
from remem.errors import RememError

if TYPE_CHECKING:
    from remem.agent.loop import Agent, TurnResult
    from remem.agent.manager import MemoryManager
    from remem.memory import SaveResult

__all__ = ["COMMANDS", "NO_LLM_HELP", "BufferIO", "Repl", "ToolCall"]

PROMPT = "› "
THINKING = "Thinking… (Ctrl+C to cancel)"
PREVIEW_LINES = 4  # lines of a tool's output shown under its call
MEMORY_WAIT = 0.3  # seconds to wait for this turn's extraction before the memory line
NO_LLM_HELP = """\
No LLM endpoint is configured, so remem chat cannot answer yet (the /memory, /save,
/forget, /export, /import and /help commands work without one). Set:
  REMEM_LLM_MODEL      the model name            (required)
  REMEM_LLM_BASE_URL   the OpenAI-compatible URL (required unless it is OpenAI)
  REMEM_LLM_API_KEY    the key, if the endpoint needs one
(OPENAI_MODEL / OPENAI_BASE_URL / OPENAI_API_KEY work too.) Examples:
  OpenAI    REMEM_LLM_MODEL=gpt-4o-mini  REMEM_LLM_API_KEY=sk-...
  DeepSeek  REMEM_LLM_BASE_URL=https://api.deepseek.com/v1  REMEM_LLM_MODEL=deepseek-chat
  GLM       REMEM_LLM_BASE_URL=https://open.bigmodel.cn/api/paas/v4  REMEM_LLM_MODEL=glm-4-flash
  Qwen      REMEM_LLM_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1
            REMEM_LLM_MODEL=qwen-plus
  Ollama    REMEM_LLM_BASE_URL=http://localhost:11434/v1  REMEM_LLM_MODEL=qwen2.5:7b
  llama.cpp / vLLM   REMEM_LLM_BASE_URL=http://localhost:8000/v1  REMEM_LLM_MODEL=local"""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class Repl:
    def __init__(
        self, manager: MemoryManager, io: IO, agent: Agent | None = None, units: Units | None = None
    ) -> None:
        self.manager = manager
        self.io = io
        self.agent = agent
        self.units = units or Units(manager, agent)  # skills, sub-agents, plans
        self.units.notify = lambda text: io.line(text, "dim")
        self.pending: SaveResult | None = None  # the last /save that conflicted
        self.last_summary = ""
        self.last_turn: TurnResult | None = None
        self.calls: list[ToolCall] = []
        self.closed = False
        self._reported = 0  # how many of manager.remembered the memory line has named
        if agent is not None:
            agent.on_text = io.write
            agent.on_wait = lambda: io.wait(THINKING)
            agent.on_tool = self._show_tool
            agent.on_result = self._show_result
            agent.tools.approve = self._approve
            agent.tools.approve_write = self._approve_write
            agent.tools.approve_protected = self._approve_protected

    def complete(self, text: str) -> list[tuple[str, str]]:
        """What Tab proposes for `text` (the input before the cursor)."""
        return complete(self, text)

    # -- what a turn shows -------------------------------------------------------------------
    def _approve(self, command: str) -> bool:
        from remem.agent.render import visible

        return self.io.confirm(f"Run `{visible(command)}`?")  # \r, ESC ... shown, not obeyed

    def _approve_write(self, path: str, why: str | None) -> bool:
        """Asked of the person at the terminal only: --yes and piped input never answer
        it (a protected path is read as instructions or run as code)."""
        from remem.agent.render import visible

        note = f" It is protected ({why}): read as instructions or run as code." if why else ""
        return self.io.confirm(f"Let the agent write {visible(path)}?{note}", strict=True)

    def _approve_protected(self, command: str, why: str) -> bool:
        """A command that touches a protected path: asked of a person even with --yes."""
        from remem.agent.render import visible

        return self.io.confirm(f"Run `{visible(command)}`? {why}.", strict=True)

    def _show_tool(self, name: str, arguments: str) -> None:
        from remem.agent.render import visible

        self.calls.append(ToolCall(name, arguments))
        self.io.end()
        self.io.line(f"⏺ {name}({_clip(visible(arguments), 120)})", "tool")

    def _show_result(self, name: str, output: str) -> None:
        """The first lines of a tool's output, and how to see all of it."""
        from remem.agent.render import visible

        if self.calls and self.calls[-1].name == name:
            self.calls[-1].output = output
        shown = visible(output, keep="\n\t", strip_ansi=True).expandtabs(4)
        lines = shown.rstrip("\n").split("\n")
        width = max(20, self.io.width - 6)
        for i, text in enumerate(lines[:PREVIEW_LINES]):
            self.io.line(("  ⎿ " if i == 0 else "    ") + _clip(text, width), "dim")
        if len(lines) > PREVIEW_LINES:
            more = len(lines) - PREVIEW_LINES
            self.io.line(f"    … {more} more lines (/output {len(self.calls)} shows all)", "dim")

    def memory_line(self) -> str:
        """This turn's memories: the ones injected into the prompt, the ones saved."""
        self.manager.wait(MEMORY_WAIT)  # extraction runs in the background: a short look
        remembered = self.manager.remembered[self._reported :]
        self._reported += len(remembered)
        used = [e for e in self.manager.injected.values() if e.content not in remembered]
        parts = []
        if used:
            parts.append(f"used {len(used)}: " + " · ".join(_clip(e.content, 40) for e in used))
        if remembered:
            parts.append("remembered: " + " · ".join(_clip(text, 40) for text in remembered))
        return ("memory: " + "; ".join(parts)) if parts else ""

    def replay(self, turns: int = 2) -> None:
        """The last exchanges of a resumed view, so one sees where it stopped."""
        from remem.messages import is_real_user, text_of

        shown: list[tuple[str, str]] = []
        for message in reversed(self.manager.messages):
            role = message.get("role")
            if role == "assistant" and text_of(message).strip() and len(shown) < turns * 2:
                shown.append(("  ", text_of(message)))
            elif role == "user" and is_real_user(message):
                shown.append((PROMPT, text_of(message)))
                if sum(p == PROMPT for p, _ in shown) >= turns:
                    break
        for prefix, text in reversed(shown):
            self.io.line(prefix + _clip(" ".join(text.split()), 200), "dim")

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> int:
        """Read, answer, repeat; a second Ctrl+C or EOF flushes and leaves."""
        self.io.line(f"remem chat · session {self.manager.session_id} · /help for commands", "dim")
        if self.agent is None:
            self.io.line(NO_LLM_HELP)
        armed = False
        try:
            while True:
                try:
                    outcome = self.run_one(self.io.read(PROMPT))
                except EOFError:
                    break
                except KeyboardInterrupt:
                    outcome = "interrupt"
                if outcome == "exit" or (outcome == "interrupt" and armed):
                    break
                armed = outcome in ("interrupt", "cancelled")
                if outcome == "interrupt":
                    self.io.line("(Ctrl+C again or Ctrl+D to exit)", "dim")
        except KeyboardInterrupt:  # a second Ctrl+C while printing the hint
            pass
        finally:
            self.close()
            self.io.line(self.resume_hint(), "dim")
        return 0

    def resume_hint(self) -> str:
        sid = self.manager.session_id
        return f"Session {sid} saved; to continue it:\n  remem chat --resume {sid}"

    def run_one(self, line: str) -> str:
        """One input: a slash command or a message. Returns ok / exit / cancelled / error."""
        text = line.strip()
        if not text:
            return "ok"
        if text.startswith("/") and "\n" not in text.split(" ", 1)[0]:
            return self.dispatch(text)
        return self.ask(text)

    def dispatch(self, text: str) -> str:
        name, _, rest = text[1:].partition(" ")
        if name in ("exit", "quit"):
            return "exit"
        cmd = COMMANDS.get(name)
        if cmd is None:
            self.io.line(f"unknown command /{name}; /help lists them", "error")
            return "error"
        try:
            cmd.handler(self, rest.strip())
        except RememError as exc:
            self.io.line(f"error: {exc}", "error")
            return "error"
        except KeyboardInterrupt:
            self.io.line(f"[/{name} interrupted]", "dim")
            return "cancelled"
        finally:
            self.io.end()
        return "ok"

    def ask(self, text: str) -> str:
        from remem.llm import LLMError

        if self.agent is None:
            self.io.line(NO_LLM_HELP)
            return "error"
        self.io.wait(THINKING)  # at once: retrieval and counting come before the call
        try:
            self.last_turn = self.agent.run_turn(text)
        except KeyboardInterrupt:
            self.io.end()
            self.io.line("[cancelled: nothing from this turn is remembered]", "dim")
            return "cancelled"
        except LLMError as exc:
            self.io.end()
            self.io.line(f"error: {exc}", "error")
            return "error"
        self.io.end()
        memory = self.memory_line()
        if memory:
            self.io.line(memory, "dim")
        self.io.line(f"[{self.manager.status_text()}]", "dim")
        return "ok"

    def close(self) -> None:
        """SS3: flush the session and finish memory work before leaving (once)."""
        if self.closed:
            return
        self.closed = True
        try:  # a Ctrl+C now must not cut the flush short
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread: nothing to shield
            previous = None
        try:
            self.manager.close()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    # -- helpers for commands ----------------------------------------------------------------
    def report_save(self, result: SaveResult) -> None:
        if result.status == "conflict":
            self.pending = result
            self.io.line(f"Conflict: nothing was saved. new: {result.entry.content}")
            for old, why in zip(result.conflicts, result.reasons, strict=True):
                self.io.line(f"  existing: {short(old)}  ({why})")
            self.io.line("/memory replace to replace it, /save --force TEXT to keep both")
        elif result.status == "duplicate":
            self.io.line(f"Already remembered: {short(result.entry)}")
        elif result.status == "replaced" and result.replaced is not None:
            self.io.line(f"Replaced {result.replaced.id}: {short(result.entry)}")
        elif result.status == "superseded" and result.replaced is not None:
            self.io.line(f"Updated {result.replaced.id} (kept in history): {short(result.entry)}")
        else:
            self.io.line(f"Saved {short(result.entry)}")
