"""remem for other programs: the MCP server (`mcp`; `mcp_start` answers a client's
initialize request before the SDK has loaded) and `remem serve` (`http` assembles
the app from `backend`, `auth` tokens, the REST `api` reading strict JSON (`strict`)
and the `web` page). Imports
`remem.memory` and below; the web stack is imported only by `remem serve`."""
