"""The terminal agent: `MemoryManager`, the one object an agent loop talks to
(`manager`), the ReAct loop (`loop`), its tools (`tools`, file writes asked for in
`writes`, protected files a command changed unasked put back by `guard`), execution
units and sub-agents (`units`), plans and teams (`plan`, `planrun`), skills (`skills`)
and the REPL of `remem chat` (`repl`, its slash commands in `commands` and
`mode_commands`, its I/O in `io` and `console`, drawing in `render`; only `console` and
`render` import prompt_toolkit and rich). Imports `remem.memory` and everything below
it."""
