"""`remem chat`: the terminal agent (SPEC AG1-AG3), built from `MemoryManager`,
`Agent`, `Toolbox` and `Repl`. Heavy parts (the openai SDK) load on the first call."""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import click

from remem.cli.common import emit, json_option
from remem.settings import Settings, project_key, project_root

if TYPE_CHECKING:
    from remem.agent.io import BufferIO
    from remem.agent.loop import Agent
    from remem.agent.manager import MemoryManager
    from remem.agent.repl import Repl
    from remem.memory import Memory

HISTORY_FILE = "chat-history"  # in the data folder: what was typed, across sessions


def _settings(project: str | None) -> Settings:
    """The group's settings (--db, --user ...), with chat's own --project if given."""
    parent = click.get_current_context().find_root().obj
    base: Settings | None = getattr(parent, "settings", None)
    if base is None:
        return Settings.resolve(project=project)
    if project is None:
        return base
    return dataclasses.replace(base, project=project_key(project))


def _resume_target(root: Path, wanted: str) -> str:
    """The session `--resume` names: an id, a unique prefix, or 'last' (the latest one
    holding a conversation)."""
    from remem.context.ledger import find_session
    from remem.context.sessions import list_sessions

    if wanted == "last":
        talks = [s for s in list_sessions(root) if s.title]
        if not talks:
            from remem.errors import NotFound

            raise NotFound(f"no earlier session in {root}")
        return talks[0].id
    return find_session(wanted, root).name.removesuffix(".jsonl")


def _assemble(
    settings: Settings,
    window: int | None,
    summarizer: str,
    yes: bool,
    session: str | None,
    allow_write: tuple[str, ...] = (),
) -> tuple[MemoryManager, Agent | None]:
    """The manager, and the agent when an LLM endpoint is configured."""
    from remem.agent.loop import Agent
    from remem.agent.manager import MemoryManager
    from remem.agent.tools import Toolbox
    from remem.context.compaction import CompactionConfig
    from remem.context.summarizer import LLMSummarizer
    from remem.llm import LLMSettings, OpenAIChatModel, TokenAccount
    from remem.memory import Memory
    from remem.retrieval.embedding import embedder_from_env

    # A chat process lives long enough to amortise the model load: hybrid by default.
    memory = Memory(
        settings=settings,
        embedder=embedder_from_env(default="use"),
        notify=lambda message: click.echo(message, err=True),
    )
    for notice in memory.notices:
        click.echo(notice, err=True)
    account = TokenAccount()
    llm = LLMSettings.from_env()
    model = OpenAIChatModel(llm, account=account) if llm.configured else None
    summary = LLMSummarizer(model) if model is not None and summarizer == "llm" else None
    manager = MemoryManager.open(
        project_root(),
        memory=memory,
        account=account,
        summarizer=summary,
        session_id=session,
        config=CompactionConfig(window=window) if window else None,
    )
    if model is None:
        return manager, None
    toolbox = Toolbox(manager.root, manager=manager, allow_commands=yes, write_allow=allow_write)
    return manager, Agent(manager, model, toolbox)


def _load_behind(memory: Memory, *, with_sdk: bool) -> None:
    """Load the embedder and the model's SDK (`openai`: ~1-4 s each on a small machine)
    in a thread while the prompt waits for the user (issue 32); a turn that needs one
    first waits for that load alone. Started once the prompt is drawn: before, it took
    the interpreter from the imports that draw it (prompt 1.5 -> 3.3 s on a busy machine)."""
    embedder = memory.vectors.embedder if memory.vectors is not None else None

    def load() -> None:
        try:
            if with_sdk:
                import openai  # noqa: F401
            if (preload := getattr(embedder, "load", None)) is not None:
                preload()
        except Exception:  # noqa: S110 - the turn that needs it says what failed
            pass

    threading.Thread(target=load, name="remem-load", daemon=True).start()


def _repl(
    settings: Settings, manager: MemoryManager, agent: Agent | None, *, as_json: bool, yes: bool
) -> tuple[Repl, BufferIO | None]:
    """The REPL on the terminal, or (--json) on a buffer whose output goes in the JSON."""
    from remem.agent.io import BufferIO
    from remem.agent.repl import Repl

    if as_json:
        buffer = BufferIO(approve=yes)
        return Repl(manager, buffer, agent), buffer
    from remem.agent.console import ConsoleIO

    console = ConsoleIO(yes=yes, history=settings.home / HISTORY_FILE)
    repl = Repl(manager, console, agent)
    console.complete = repl.complete
    return repl, None


def _continue_plan(repl: Repl) -> None:
    """After --resume: a plan the session left unfinished goes on (asked on a terminal)."""
    from remem.agent.plan import find_unfinished
    from remem.context.ledger import read_events

    ledger = repl.manager.ledger
    state = find_unfinished(read_events(ledger.path)) if ledger is not None else None
    if state is None or repl.agent is None:
        return
    open_task = next((n.id for n in state.nodes if n.state not in ("done", "skipped")), None)
    question = f"Plan {state.id} stopped at task {open_task} of {len(state.tasks)}. Go on?"
    if repl.units.auto or repl.io.confirm(question):
        repl.run_one("/plan continue")


@click.command("chat")
@click.option("--project", metavar="NAME|PATH", help="Keep memories apart under this project.")
@click.option("--message", "-m", metavar="TEXT", help="Answer one message (or /command), exit.")
@click.option(
    "--plan",
    "plan_goal",
    metavar="GOAL",
    help="Plan GOAL as tasks, each in its own context; review, run, exit.",
)
@click.option(
    "--team",
    "team_goal",
    metavar="GOAL",
    help="Like --plan, with a sub-agent per task and a lead that answers.",
)
@click.option(
    "--yes",
    "-y",
    is_flag=True,
    help="Run commands, write files (not instruction files or .git) and accept plans "
    "without asking.",
)
@click.option(
    "--allow-write",
    "allow_write",
    multiple=True,
    metavar="PATTERN",
    help="Let the agent write these paths without asking (repeatable; 'src/**', "
    "'docs/*.md'); instruction files and .git only when named ('CLAUDE.md').",
)
@click.option(
    "--resume", "resume_id", metavar="ID", help="Continue a session ('last': the latest)."
)
@click.option(
    "--window",
    type=click.IntRange(min=2000),
    envvar="REMEM_CONTEXT_WINDOW",
    help="Context window in tokens [env REMEM_CONTEXT_WINDOW; default 200000].",
)
@click.option(
    "--summarizer",
    type=click.Choice(["llm", "offline"]),
    default="llm",
    show_default=True,
    help="Who writes compaction summaries (offline: extractive, no model call).",
)
@json_option
def chat(
    project: str | None,
    message: str | None,
    plan_goal: str | None,
    team_goal: str | None,
    yes: bool,
    allow_write: tuple[str, ...],
    resume_id: str | None,
    window: int | None,
    summarizer: str,
    as_json: bool,
) -> None:
    """Chat with an agent that remembers (any OpenAI-compatible endpoint).

    Configure the endpoint with REMEM_LLM_MODEL, REMEM_LLM_BASE_URL and
    REMEM_LLM_API_KEY; without one, the memory commands still work.

    \b
    Example:
      remem chat
      remem chat --message "帮我再创建一个项目"
      remem chat -m "/memory list"
      remem chat --json -m "部署脚本在哪？"
      remem chat --plan "给 myapp 加上健康检查接口并写测试" --yes
    """
    message = _one_message(message, plan_goal, team_goal, as_json=as_json)
    settings = _settings(project)
    session = _resume_target(project_root(), resume_id) if resume_id else None
    manager, agent = _assemble(settings, window, summarizer, yes, session, allow_write)
    repl, buffer = _repl(settings, manager, agent, as_json=as_json, yes=yes)
    load = functools.partial(_load_behind, manager.memory, with_sdk=agent is not None)
    if message is None and hasattr(repl.io, "on_prompt"):
        repl.io.on_prompt = load  # the terminal's prompt first, then the loads
    else:
        load()
    repl.units.auto = yes or as_json or not sys.stdin.isatty()
    if session:
        repl.run_one(f"/resume {session}")
        _continue_plan(repl)
    if message is None:
        repl.run()
    else:
        _answer_one(repl, buffer, manager, message)


def _one_message(
    message: str | None, plan_goal: str | None, team_goal: str | None, *, as_json: bool
) -> str | None:
    """The one message to answer (--plan and --team as their commands), or None for a
    session; a usage error for options that cannot go together."""
    given = [
        o
        for o, v in (("--message", message), ("--plan", plan_goal), ("--team", team_goal))
        if v is not None
    ]
    if len(given) > 1:
        raise click.UsageError(f"{' and '.join(given)} cannot be used together")
    if plan_goal is not None or team_goal is not None:
        message = f"/plan {plan_goal}" if plan_goal is not None else f"/team {team_goal}"
    if as_json and message is None:
        raise click.UsageError("--json needs --message (or --plan / --team)")
    return message


def _answer_one(repl: Repl, buffer: BufferIO | None, manager: MemoryManager, message: str) -> None:
    """Answer `message`, print the JSON result (--json), exit 1 if it failed."""
    try:
        outcome = repl.run_one(message)
    finally:
        repl.close()
    if buffer is not None:
        turn = repl.last_turn
        data = {
            "session": manager.session_id,  # after the turn: /new or /resume change it
            "outcome": outcome,
            "output": buffer.output,
            "answer": turn.answer if turn else None,
            "tool_calls": turn.tool_calls if turn else [],
            "plan": repl.units.last_plan,
        }
        emit(True, data, lambda: None)
    if outcome in ("error", "cancelled"):
        raise SystemExit(1)
