"""remem for other programs: the MCP server (`mcp`). Imports `remem.memory` and below."""
