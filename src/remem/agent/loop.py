"""The ReAct loop of `remem chat` (SPEC AG1): ask the model with the tools, run the
calls it makes, feed the results back, until it answers in text. A loop guard stops
runaway repeated calls; a cancelled turn (Ctrl+C) leaves a valid message list and
no extraction."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from remem.messages import GUARD_PREFIX

if TYPE_CHECKING:
    from remem.agent.manager import MemoryManager
    from remem.agent.tools import Toolbox
    from remem.llm import ChatModel

__all__ = ["Agent", "LoopGuard", "TurnResult"]

CANCELLED = "(cancelled by the user)"


@dataclass
class LoopGuard:
    """Stops a turn that repeats the same call (`max_repeats`) or makes too many
    model calls (`max_steps`)."""

    max_repeats: int = 3
    max_steps: int = 25
    seen: Counter[str] = field(default_factory=Counter)
    steps: int = 0

    def reset(self) -> None:
        self.seen.clear()
        self.steps = 0

    def step(self) -> bool:
        """Count one model call; False when the turn has had enough."""
        self.steps += 1
        return self.steps <= self.max_steps

    def allows(self, name: str, arguments: str) -> bool:
        """Count a call; False once it is repeated more than `max_repeats` times."""
        try:
            key = name + json.dumps(json.loads(arguments or "{}"), sort_keys=True)
        except ValueError:
            key = name + arguments
        self.seen[key] += 1
        return self.seen[key] <= self.max_repeats


@dataclass
class TurnResult:
    answer: str
    steps: int
    tool_calls: list[str] = field(default_factory=list)
    cancelled: bool = False
    stopped: str | None = None  # why the loop guard ended the turn


class Agent:
    """One agent: a model, a toolbox and a `MemoryManager`.

    `on_text` receives streamed answer text; `on_wait()` is told before each model call
    (a spinner until the first token); `on_tool(name, arguments)` before each call runs,
    `on_result(name, output)` after it ran."""

    def __init__(
        self,
        manager: MemoryManager,
        model: ChatModel,
        tools: Toolbox,
        *,
        on_text: Callable[[str], None] | None = None,
        on_tool: Callable[[str, str], None] | None = None,
        guard: LoopGuard | None = None,
        max_tokens: int | None = None,
    ) -> None:
        self.manager = manager
        self.model = model
        self.tools = tools
        self.on_text = on_text
        self.on_tool = on_tool
        self.on_wait: Callable[[], None] | None = None
        self.on_result: Callable[[str, str], None] | None = None
        self.guard = guard or LoopGuard()
        self.max_tokens = max_tokens
        # asked before each model call: a reason to stop now (a unit's token budget), or None
        self.stop_when: Callable[[], str | None] | None = None
        self.turn_text = ""
        tools.user_text = lambda: self.turn_text

    def run_turn(self, user_text: str, *, extract: bool = True) -> TurnResult:
        """Answer one user message. KeyboardInterrupt cancels: the list is repaired
        (every call gets a result), the exception propagates, nothing is extracted."""
        self.manager.add_user_message(user_text)
        result = self.go_on(user_text)
        if extract and not result.cancelled:
            self.manager.extract_in_background(user_text)
        return result

    def go_on(self, user_text: str) -> TurnResult:
        """The loop of `run_turn` on the list as it is, for the user's `user_text` (remem
        added its own message after it, e.g. a team's results); nothing is extracted."""
        self.turn_text = user_text
        self.guard.reset()
        self.tools.take_pending()  # nothing queued by a cancelled turn carries over
        try:
            result = self._loop(user_text)
        except KeyboardInterrupt:
            self._repair()
            self.manager.flush()
            raise
        self.manager.flush()
        return result

    def _loop(self, user_text: str) -> TurnResult:
        calls: list[str] = []
        while True:
            why = self.stop_when() if self.stop_when is not None else None
            done = self.guard.steps
            if why is None and not self.guard.step():
                why = f"stopped after {self.guard.max_steps} model calls"
            if why is not None:
                note = f"{GUARD_PREFIX} {why}"
                self.manager.add_assistant_message(note)
                return TurnResult(note, done, calls, stopped=note)
            messages = self.manager.prepare(user_text)
            if self.on_wait is not None:
                self.on_wait()
            response = self.model.complete(
                messages,
                tools=self.tools.specs,
                max_tokens=self.max_tokens,
                on_text=self.on_text,
                purpose="chat",
            )
            self.manager.add_assistant_message(response.content or None, response.tool_calls)
            if not response.tool_calls:
                return TurnResult(response.content, self.guard.steps, calls)
            for call in response.tool_calls:
                calls.append(self._run_call(call))
            for message in self.tools.take_pending():  # a loaded skill: after the results
                self.manager.context.add_message(message)

    def _run_call(self, call: dict[str, Any]) -> str:
        fn = call.get("function") or {}
        name, arguments = str(fn.get("name", "")), str(fn.get("arguments") or "")
        if self.on_tool is not None:
            self.on_tool(name, arguments)
        if self.guard.allows(name, arguments):
            output = self.tools.run(name, arguments)
        else:
            output = (
                f"{GUARD_PREFIX} refused: {name} was already called {self.guard.max_repeats} "
                "times with the same arguments this turn. Change approach or answer the user."
            )
        if self.on_result is not None:
            self.on_result(name, output)
        args = _args_dict(arguments)
        self.manager.add_tool_result(str(call.get("id", "")), name, output, args=args)
        return name

    def _repair(self) -> None:
        """After a cancel: answer every pending call and end with an assistant note."""
        messages = self.manager.messages
        pending: list[dict[str, Any]] = []
        for message in messages:
            if message.get("role") == "assistant":
                pending = list(message.get("tool_calls") or [])
            elif message.get("role") == "tool":
                done = message.get("tool_call_id")
                pending = [c for c in pending if c.get("id") != done]
        for call in pending:
            name = str((call.get("function") or {}).get("name", ""))
            self.manager.add_tool_result(str(call.get("id", "")), name, CANCELLED)
        if not messages or messages[-1].get("role") != "assistant" or pending:
            self.manager.add_assistant_message(CANCELLED)


def _args_dict(arguments: str) -> dict[str, Any] | None:
    try:
        value = json.loads(arguments) if arguments else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
