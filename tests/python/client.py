"""Drives the built smart-context binary with the official MCP Python SDK (pip package `mcp`).

Usage: client.py BINARY ROOT CACHE_HOME. Prints one JSON report for tests/python_sdk.rs to check.
"""

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

HTTP_TOKEN = "python-sdk-token-0123456789"


class KeptWarnings(logging.Handler):
    """Collects what the SDK logs at WARNING and above (a failed session end is one)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


async def over_http(binary: str, root: str, cache_home: str) -> dict:
    """One session over `serve --http`, ended by the SDK (its DELETE), with what it logged."""
    server = subprocess.Popen(
        [binary, "--root", root, "serve", "--http", "127.0.0.1:0", "--token", HTTP_TOKEN],
        env={**os.environ, "XDG_CACHE_HOME": cache_home, "SMART_CONTEXT_LOG": "info"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = None
        for line in server.stderr:
            if "listening on " in line:
                url = line.split("listening on ", 1)[1].strip()
                break
        if url is None:
            raise RuntimeError("the server exited before listening")
        threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
        kept = KeptWarnings()
        logging.getLogger("mcp").addHandler(kept)
        headers = {"Authorization": f"Bearer {HTTP_TOKEN}"}
        async with create_mcp_http_client(headers=headers) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                listed = await client.list_tools()
        logging.getLogger("mcp").removeHandler(kept)
        return {"tools": [t.name for t in listed.tools], "warnings": kept.messages}
    finally:
        server.terminate()
        server.wait()


async def main(binary: str, root: str, cache_home: str) -> None:
    params = StdioServerParameters(
        command=binary,
        args=["--root", root, "serve"],
        env={"XDG_CACHE_HOME": cache_home, "SMART_CONTEXT_LOG": "warn"},
    )
    report: dict = {}
    async with Client(params) as client:
        report["server"] = client.server_info.name if client.server_info else None
        listed = await client.list_tools()
        report["tools"] = [t.name for t in listed.tools]
        report["readOnly"] = {t.name: t.annotations.read_only_hint for t in listed.tools}
        report["hasOutputSchema"] = {t.name: t.output_schema is not None for t in listed.tools}
        calls = {
            "explore": {"paths": ["src/lib.rs"]},
            "understand": {"goal": "outline", "path": "src/lib.rs"},
            "change": {
                "intent": "from python",
                "edits": [{"filePath": "src/lib.rs", "targetString": "    42", "replacementString": "    7"}],
                "options": {"dryRun": False},
            },
            "write": {"intent": "from python", "targetPath": "py/new.txt", "content": "written by python\n"},
            "manage": {"command": "history"},
        }
        results = {}
        for name, arguments in calls.items():
            result = await client.call_tool(name, arguments)
            results[name] = {
                "isError": bool(result.is_error),
                "structured": result.structured_content,
                "text": result.content[0].text if result.content else "",
            }
        report["calls"] = results
        # Undo the write, then redo it: byte-exact both ways, through the SDK.
        undo = await client.call_tool("manage", {"command": "undo"})
        report["afterUndo"] = {"isError": bool(undo.is_error), "exists": (Path(root) / "py/new.txt").exists()}
        redo = await client.call_tool("manage", {"command": "redo"})
        report["afterRedo"] = {
            "isError": bool(redo.is_error),
            "content": (Path(root) / "py/new.txt").read_text() if (Path(root) / "py/new.txt").exists() else None,
        }
        failed = await client.call_tool(
            "change",
            {"intent": "x", "edits": [{"filePath": "src/lib.rs", "targetString": "absent", "replacementString": "y"}]},
        )
        report["error"] = {"isError": bool(failed.is_error), "structured": failed.structured_content}
    report["http"] = await over_http(binary, root, cache_home)
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
