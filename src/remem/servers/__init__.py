"""remem for other programs: the MCP server (`mcp`) and `remem serve` (`http` assembles
the app from `backend`, `auth` tokens, the REST `api` reading strict JSON (`strict`)
and the `web` page). Imports
`remem.memory` and below; the web stack is imported only by `remem serve`."""
