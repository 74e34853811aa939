"""remem inside other agent frameworks: a LangGraph `BaseStore` (`langgraph`, the
`remem[langgraph]` extra) and an OpenAI Agents SDK `Session` (`agents`, `remem[agents]`).
Each module imports its framework when it is imported itself, never before; they use the
memory facade, the store, retrieval, truth and the short-term context."""
