"""remem inside the terminal agents (Claude Code, Codex CLI, Gemini CLI): what their
settings files hold (`clients`, `install`), the per-session state of the hooks (`state`)
and the hook itself (`run`: inject the memory block, capture the user's own words; by
the warm service when it runs, `served`, a capture's saves there in one transaction,
`held`), and the queue of captured memories a person reviews (`review`).
Imports remem's core, `remem.store` (the service opens a hook's store),
`remem.memory`, `remem.retrieval` and `remem.extract`."""

# What `remem hook` accepts; `clients` says what each tool calls them (kept here so the
# hook process validates its arguments without building the clients' table).
ACTIONS = ("start", "prompt", "stop", "compact", "end", "status")
CLIENT_NAMES = ("claude-code", "codex", "gemini")
