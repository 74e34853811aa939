"""The slash commands of the modes beyond ReAct, in the one registry
(remem.agent.commands): `/plan` and `/team` (remem.agent.planrun) and `/skill`
(remem.agent.skills)."""

from __future__ import annotations

from remem.agent.commands import Choices, Repl, command

PLAN_USAGE = "/plan GOAL | /plan continue | /plan"
SKILL_SUBCOMMANDS = {
    "list": "the skills found, on or off",
    "enable": "turn one on: /skill enable NAME",
    "disable": "turn one off: /skill disable NAME",
    "reload": "read the SKILL.md files again",
}


def _unfinished(repl: Repl) -> object:
    from remem.agent.plan import find_unfinished
    from remem.context.ledger import read_events

    ledger = repl.manager.ledger
    return find_unfinished(read_events(ledger.path)) if ledger is not None else None


def _runner(repl: Repl) -> object:
    from remem.agent.planrun import PlanRunner
    from remem.errors import RememError

    if repl.agent is None:
        raise RememError("no LLM endpoint is configured, so no plan can run (see /help)")
    return PlanRunner(repl.units, repl.io)


def _after(repl: Repl) -> None:
    memory = repl.memory_line()
    if memory:
        repl.io.line(memory, "dim")
    repl.io.line(f"[{repl.manager.status_text()}]", "dim")


def _plan_args(repl: Repl, words: list[str]) -> Choices:
    return (
        [("continue", "go on with the unfinished plan of this session")] if len(words) == 1 else []
    )


@command(
    "plan",
    PLAN_USAGE,
    "Plan a goal as tasks, each in its own context; review, then run.",
    _plan_args,
)
def _plan(repl: Repl, rest: str) -> None:
    from remem.agent.plan import PlanState
    from remem.agent.planrun import PlanRunner

    if not rest:
        state = _unfinished(repl)
        if not isinstance(state, PlanState):
            repl.io.line(f"No unfinished plan in this session. usage: {PLAN_USAGE}")
            return
        repl.io.line(f"Plan {state.id} ({state.status}): {state.goal[:80]}")
        for line in state.lines():
            repl.io.line(f"  {line}")
        repl.io.line("/plan continue goes on with it.", "dim")
        return
    runner = _runner(repl)
    assert isinstance(runner, PlanRunner)
    if rest == "continue":
        state = _unfinished(repl)
        if not isinstance(state, PlanState):
            repl.io.line("No unfinished plan in this session.")
            return
        _ended(repl, runner.resume(state))
    else:
        _ended(repl, runner.start(rest))


def _ended(repl: Repl, state: object) -> None:
    """The memory and status lines; a plan that stopped is an error (exit 1 for --plan)."""
    from remem.agent.plan import PlanState
    from remem.errors import RememError

    repl.units.last_plan = state.checkpoint() if isinstance(state, PlanState) else None
    _after(repl)
    if isinstance(state, PlanState) and state.status not in ("done", "cancelled"):
        task = next((n.id for n in state.nodes if n.state not in ("done", "skipped")), "?")
        sid = repl.manager.session_id
        raise RememError(
            f"plan {state.id} stopped at task {task}; /plan continue "
            f"(or remem chat --resume {sid}) goes on from there"
        )


@command("team", "/team GOAL", "A planner hands the tasks to sub-agents; the lead answers.")
def _team(repl: Repl, rest: str) -> None:
    from remem.agent.planrun import PlanRunner

    if not rest:
        repl.io.line("usage: /team GOAL")
        return
    runner = _runner(repl)
    assert isinstance(runner, PlanRunner)
    _ended(repl, runner.start(rest, team=True))


def _skill_args(repl: Repl, words: list[str]) -> Choices:
    library = repl.units.skills
    if len(words) == 1:
        return list(SKILL_SUBCOMMANDS.items())
    if len(words) == 2 and words[0] in ("enable", "disable"):
        on = words[0] == "disable"
        return [
            (s.name, s.description[:60])
            for s in library.skills.values()
            if (s.name not in library.disabled) == on
        ]
    return []


@command(
    "skill",
    "/skill [list|enable|disable|reload] [NAME]",
    "Skills: instructions the agent loads when a job needs them.",
    _skill_args,
)
def _skill(repl: Repl, rest: str) -> None:
    units = repl.units
    library = units.skills
    sub, _, name = rest.partition(" ")
    name = name.strip()
    if sub in ("enable", "disable") and name:
        skill = library.set_enabled(name, sub == "enable")
        units.refresh_skills()
        repl.io.line(
            f"Skill {skill.name} {'enabled' if sub == 'enable' else 'disabled'} "
            "(the system prompt's skill list changed)."
        )
        return
    if sub == "reload":
        before = set(library.skills)
        library.reload()
        units.refresh_skills()
        added, gone = set(library.skills) - before, before - set(library.skills)
        repl.io.line(
            f"Reloaded {len(library.skills)} skills"
            + (f"; new: {', '.join(sorted(added))}" if added else "")
            + (f"; gone: {', '.join(sorted(gone))}" if gone else "")
            + "."
        )
    elif sub not in ("", "list"):
        repl.io.line("usage: /skill [list|enable|disable|reload] [NAME]")
        return
    if not library.skills:
        repl.io.line(
            f"No skills. Put a folder holding SKILL.md in {library.home / 'skills'} "
            "or .remem/skills/ of the project."
        )
    for skill in sorted(library.skills.values(), key=lambda s: s.name):
        mark = "off" if skill.name in library.disabled else "on "
        repl.io.line(f"{mark} {skill.name:<24} {skill.description[:70]}")
        repl.io.line(f"      {skill.label(library.root)}", "dim")
    for note in library.notes:
        repl.io.line(f"note: {note}", "dim")
