#!/usr/bin/env python3
"""What tools/list costs every session: the compact JSON of the server's answer, per tool and
in all, with an estimate of its tokens (bytes / 4; with `tiktoken` importable, also its
cl100k count).

Usage: scripts/tools-list-size.py [BINARY]   (default: target/release/smart-context, else
target/debug/smart-context). Starts `BINARY --root <empty temp dir> serve` over stdio, asks
initialize and tools/list, and prints the sizes.
"""

import json
import os
import subprocess
import sys
import tempfile


def binary() -> str:
    if len(sys.argv) > 1:
        return sys.argv[1]
    for candidate in ("target/release/smart-context", "target/debug/smart-context"):
        if os.path.exists(candidate):
            return candidate
    sys.exit("build the server first (cargo build), or name the binary")


def tools_list(exe: str) -> dict:
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "tools-list-size", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    with tempfile.TemporaryDirectory() as root, tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache, SMART_CONTEXT_LOG="error")
        server = subprocess.Popen([exe, "--root", root, "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                  text=True)
        for m in messages:
            server.stdin.write(json.dumps(m) + "\n")
        server.stdin.flush()
        try:
            for line in server.stdout:
                answer = json.loads(line)
                if answer.get("id") == 2:
                    return answer["result"]
        finally:
            server.kill()
    sys.exit("the server ended before answering tools/list")


def main() -> None:
    result = tools_list(binary())
    try:
        import tiktoken  # optional
        encoding = tiktoken.get_encoding("cl100k_base")
    except Exception:  # noqa: BLE001 - any failure means no exact count
        encoding = None

    def size(value) -> str:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        n = len(text.encode())
        tokens = f", {len(encoding.encode(text))} cl100k tokens" if encoding else ""
        return f"{n} bytes (~{n // 4} tokens{tokens})"

    for tool in result["tools"]:
        print(f"{tool['name']:<11} {size(tool)}")
    print(f"{'tools/list':<11} {size(result)}")


if __name__ == "__main__":
    main()
