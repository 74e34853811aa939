"""`remem mcp` driven by the MCP SDK's own client, over stdio, the server a subprocess."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from remem.cli.app import cli

mcp_client = pytest.importorskip("mcp.client")
stdio = pytest.importorskip("mcp.client.stdio")


def _params(db: Path, *extra: str) -> Any:
    env = {"REMEM_HOME": os.environ["REMEM_HOME"], "REMEM_EMBEDDER": "none"}
    args = ["-m", "remem", "--db", str(db), "--project", "p", "mcp", *extra]
    return stdio.StdioServerParameters(command=sys.executable, args=args, env=env)


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    return dict(json.loads(result.content[0].text))


def test_mcp_json_lists_tools(db: Path) -> None:
    out = CliRunner().invoke(cli, ["--db", str(db), "--project", "p", "mcp", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["transport"] == "stdio" and data["project"] == "p"
    assert "verify_memory" not in data["tools"]
    out = CliRunner().invoke(cli, ["mcp", "--http", "127.0.0.1:8765", "--allow-verify", "--json"])
    data = json.loads(out.output)
    assert data["url"] == "http://127.0.0.1:8765/mcp" and "verify_memory" in data["tools"]
    assert CliRunner().invoke(cli, ["mcp", "--http", "nonsense", "--json"]).exit_code == 2


def test_mcp_server_over_stdio(db: Path) -> None:
    async def main() -> None:
        async with mcp_client.Client(_params(db)) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"save_memory", "search_memory", "memory_context", "list_memories"} <= names
            assert {"forget_memory", "note_external_content"} <= names
            assert "verify_memory" not in names

            first = _data(
                await client.call_tool("save_memory", {"content": "项目使用 JDK 17 和 Maven"})
            )
            assert first["status"] == "added"
            old_id = first["entry"]["id"]

            clash = _data(await client.call_tool("save_memory", {"content": "项目使用 JDK 21"}))
            assert clash["status"] == "conflict"
            assert [c["id"] for c in clash["conflicts"]] == [old_id]
            assert clash["conflicts"][0]["reason"] and "ask the user" in clash["next"].lower()
            assert old_id in clash["next"]

            args = {"content": "项目使用 JDK 21", "replace_id": old_id}
            replaced = _data(await client.call_tool("save_memory", args))
            assert replaced["status"] == "replaced" and replaced["replaced"]["id"] == old_id
            new_id = replaced["entry"]["id"]

            hits = _data(await client.call_tool("search_memory", {"query": "JDK"}))["hits"]
            assert [h["id"] for h in hits] == [new_id]

            block = _data(
                await client.call_tool("memory_context", {"query": "创建 Java 项目用什么 JDK"})
            )
            assert "项目使用 JDK 21" in block["context"] and "JDK 17" not in block["context"]

            listed = _data(await client.call_tool("list_memories", {}))["memories"]
            assert [m["id"] for m in listed] == [new_id]

            # SE2: after external content, saves need the user's own request.
            await client.call_tool("note_external_content", {"source": "web_search"})
            refused = _data(await client.call_tool("save_memory", {"content": "部署在周五"}))
            assert refused["status"] == "refused" and refused["external_sources"] == ["web_search"]
            args = {
                "content": "部署在周五",
                "user_requested": True,
                "user_text": "总结一下这个页面",
            }
            assert _data(await client.call_tool("save_memory", args))["status"] == "refused"
            args["user_text"] = "记住：部署在周五"
            assert _data(await client.call_tool("save_memory", args))["status"] == "added"

            gone = _data(await client.call_tool("forget_memory", {"keyword": "部署"}))["deleted"]
            assert [g["content"] for g in gone] == ["部署在周五"]

            missing = await client.call_tool("verify_memory", {"id": new_id})
            assert missing.is_error

        async with mcp_client.Client(_params(db, "--allow-verify")) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert "verify_memory" in names
            verified = _data(await client.call_tool("verify_memory", {"id": new_id}))
            assert verified["verified"]["id"] == new_id
            # A new connection starts without the external-content mark.
            saved = _data(await client.call_tool("save_memory", {"content": "回答用中文"}))
            assert saved["status"] == "added"
            bad = await client.call_tool("verify_memory", {"id": "nope0000"})
            assert bad.is_error

    anyio.run(main)
