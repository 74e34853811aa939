"""A prompt's hook answered by the warm service (`remem.retrieval.warm`), whose process
has remem's modules loaded, jieba's dictionary too, and a hybrid store's vectors: the
hook process then costs little more than Python's start (no `remem.memory`, no click,
no jieba), ~100 ms of CPU less a prompt.

The hook process (`ask`) sends the payload, its REMEM_* / OPENAI_* variables and HOME
and the block's budget; the service (`answer`) runs `remem.hooks.run.handle` as the
hook would, with those variables in place, and sends back what the hook prints, the
session's new state (which the hook process saves, so a hook that gives up waiting
and works in-process never finds it saved twice) and what `Memory` said on the way.
Only a running service is asked; none, an error or no answer in time, and the hook
works in-process, with the same answer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from remem.errors import StoreBusy
from remem.hooks import state as session_state
from remem.hooks.run import HookConfig, handle
from remem.retrieval.warm import BUSY, WarmClient, WarmUnavailable, carried, environment
from remem.settings import ModelEnv, home_dir, is_url, locations, warm_service_wanted

if TYPE_CHECKING:
    from remem.memory import Memory
    from remem.settings import Settings

ACTIONS = ("start", "prompt")
CAPTURES = ("stop", "compact", "end")
# A busy service (a hybrid store's vectors loading, a backlog embedding) is waited for
# this long; the in-process hook would wait on it for a query's cosines anyway.
TIMEOUT = 5.0


# -- the hook process -------------------------------------------------------------------------


def ask(action: str, payload: Mapping[str, Any], cfg: HookConfig) -> str | None:
    """What the hook prints, from the running warm service; None: work in-process."""
    paths = [str(payload.get("cwd") or os.getcwd()), *locations()]
    if isinstance(transcript := payload.get("transcript_path"), str) and transcript:
        paths.append(transcript)
    if not served(action) or not warm_service_wanted() or any(map(is_url, paths)):
        return None  # a PostgreSQL store's hook runs here: the service keeps no pool
    if not all(os.path.isabs(os.path.expanduser(path)) for path in paths):
        return None  # relative to this process's folder, not the service's
    cwd = paths[0]
    message = {
        "op": "hook",
        "action": action,
        "client": cfg.client,
        "budget": cfg.budget,
        "start_budget": cfg.start_budget,
        "payload": {**payload, "cwd": cwd},
        "env": {k: v for k, v in os.environ.items() if carried(k)},
    }
    reply = WarmClient(cfg.home).ask(message, timeout=TIMEOUT)
    if reply is None or not isinstance(reply.get("out"), str):
        return None
    state = reply.get("state")
    try:
        new = session_state.SessionState(**state) if isinstance(state, dict) else None
    except TypeError:
        return None  # not this remem's state: work in-process
    for note in reply.get("notes") or ():
        print(note, file=sys.stderr)
    if new is not None:
        session_state.save(cfg.home, new)
    return str(reply["out"])


def served(action: str) -> bool:
    """Whether the service may answer `action` here. A capture calls no model but a
    remote embedder (`REMEM_EMBEDDER=openai`, or an embedding model named): the
    extractor is given none (`run.capture`) and the hook's `Memory` no referee."""
    if action in ACTIONS:
        return True
    env = ModelEnv.read()
    return (
        action in CAPTURES and (env.embedder or ("openai" if env.embed_model else "")) != "openai"
    )


# -- the service --------------------------------------------------------------------------------


def answer(message: Mapping[str, Any]) -> dict[str, Any]:
    """The service's side of `ask`: the hook's answer, the state to save, the notes."""
    action = str(message.get("action"))
    payload, env = message.get("payload"), message.get("env")
    if (
        action not in ACTIONS + CAPTURES
        or not isinstance(payload, dict)
        or not isinstance(env, dict)
    ):
        return {"error": "not a hook request"}
    budget, start_budget = message.get("budget"), message.get("start_budget")
    notes: list[str] = []
    states: list[session_state.SessionState] = []

    def open_memory(settings: Settings) -> Memory:
        return _open_memory(settings, notes, held=action in CAPTURES)

    with environment(env):
        if action in CAPTURES and not served(action):
            return {"error": "a capture that calls a model runs in the hook's process"}
        cfg = HookConfig(str(message.get("client")), home_dir(), _int(budget))
        if start_budget is not None:
            cfg = replace(cfg, start_budget=int(start_budget))
        try:
            out = handle(action, payload, cfg, open_memory, lambda _home, st: states.append(st))
        except StoreBusy as exc:  # nothing saved: the hook saves, waiting as long as it must
            return {"error": str(exc)}
    state = asdict(states[-1]) if states else None
    return {"out": out, "state": state, "notes": notes}


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _open_memory(settings: Settings, notes: list[str], *, held: bool) -> Memory:
    """As the hook's own (`remem.cli.hook_entry._open_memory`), with this process's
    jieba and the service's vectors asked directly, not over the socket. Its writes
    (the record of an injection, which a busy store skips) wait for another process's
    lock no longer than the service's own: a save that holds it may be asking the
    service (issue 32). `held`: a capture's, whose saves are one transaction from the
    start (`HeldMemory`: StoreBusy, nothing saved, when the lock is not had in time)."""
    from remem.hooks.held import HeldMemory
    from remem.memory import Memory
    from remem.retrieval.warm import one_shot_embedder
    from remem.store.backends import open_store

    if is_url(settings.db):
        raise WarmUnavailable("a PostgreSQL store's hook runs in its own process")
    embedder = one_shot_embedder(settings)  # asks the service here, not over the socket
    store = open_store(
        settings.db, synchronous=settings.synchronous, notify=notes.append, busy_timeout=BUSY
    )
    kind = HeldMemory if held else Memory
    return kind(settings=settings, store=store, embedder=embedder, notify=notes.append)
