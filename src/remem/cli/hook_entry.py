"""`remem hook ACTION [--client NAME]` as the agents run it: no click, no command group
(a hook runs on every prompt), and no exit code 2, which the agents read as 'block this
prompt'. The work is `remem.hooks.run.handle`, by the warm service when one is running
(`remem.hooks.served`), else here."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from remem.hooks import ACTIONS, CLIENT_NAMES

if TYPE_CHECKING:
    from remem.memory import Memory
    from remem.settings import Settings


def run_hook(action: str, client: str) -> NoReturn:
    """Answer one hook call and exit: 0 with the answer, or 1 with one line on stderr."""
    try:
        from remem.hooks.run import HookConfig, handle, read_payload
        from remem.settings import estimate_tokens_unless_set, home_dir, hook_tokens

        estimate_tokens_unless_set()  # a block's budget needs no exact count
        cfg = HookConfig(client, home_dir(), hook_tokens())
        payload = read_payload(sys.stdin.read())
        from remem.hooks.served import ask

        out = ask(action, payload, cfg)  # from a running warm service, if any
        if out is None:
            opener = _open_memory_at_start if action == "start" else _open_memory
            out = handle(action, payload, cfg, opener)
    except BaseException as exc:  # any failure must let the prompt through
        if isinstance(exc, SystemExit) and exc.code in (0, None):
            raise
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"remem: {action} hook failed: {why}", file=sys.stderr, flush=True)
        os._exit(1)  # no cleanup may turn this into another exit code
    if out:
        sys.stdout.write(out + "\n")
    sys.stdout.flush()
    sys.exit(0)


def _open_memory_at_start(settings: Settings) -> Memory:
    """As `_open_memory`, and keyword-only, with the warm service started: a session's
    hooks then have Chinese cut and tagged there instead of each loading jieba's
    dictionary (~150-200 ms of CPU a prompt). A hybrid session's service is started by
    its first search; one that cannot start costs nothing but jieba here."""
    memory = _open_memory(settings)
    if memory.vectors is None:
        from remem.retrieval.warm import WarmClient, WarmUnavailable
        from remem.settings import warm_service_wanted

        if warm_service_wanted():
            try:
                WarmClient(settings.home).request({"op": "ping"})
            except WarmUnavailable:
                pass
    return memory


def _open_memory(settings: Settings) -> Memory:
    """The store with the embedder of any one-shot command: a local model is asked
    through the warm vector service, which also cuts and tags Chinese (jieba's dictionary
    costs a process ~100-200 ms), as `remem search` does."""
    from remem import text
    from remem.memory import Memory
    from remem.retrieval.warm import one_shot_cutter, one_shot_embedder

    def notify(message: str) -> None:
        print(message, file=sys.stderr)

    embedder = one_shot_embedder(settings)
    client = one_shot_cutter(settings, embedder)
    if client is not None:  # tags too: the read-time check of newer lines reads subjects
        text.cut_elsewhere(client.cut, client.tag)
    return Memory(settings=settings, embedder=embedder, notify=notify)


def hook_main(args: Sequence[str]) -> NoReturn:
    action, client, rest = (args[0] if args else ""), "claude-code", list(args[1:])
    while rest:
        arg = rest.pop(0)
        if arg == "--client" and rest:
            client = rest.pop(0)
        elif arg.startswith("--client="):
            client = arg.split("=", 1)[1]
        elif arg != "--json":
            print(f"remem: hook: unknown argument {arg!r}", file=sys.stderr)
            sys.exit(1)
    if action not in ACTIONS or client not in CLIENT_NAMES:
        print(
            f"remem: hook: use one of {', '.join(ACTIONS)} and --client {'|'.join(CLIENT_NAMES)}",
            file=sys.stderr,
        )
        sys.exit(1)
    run_hook(action, client)
