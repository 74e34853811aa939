"""The terminal agent: `MemoryManager`, the one object an agent loop talks to
(`manager`), the ReAct loop (`loop`), its tools (`tools`) and the REPL of `remem chat`
(`repl`). Imports `remem.memory` and everything below it."""
