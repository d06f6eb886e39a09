#!/usr/bin/env python3
"""The first seconds of a server on a machine it never ran on: time from start to the answer
to `initialize`, to `tools/list`, and to the first `explore` answer, with an empty component
cache (every component still to compile) and a root without an index.

    scripts/cold-start.py BINARY ROOT QUERY [--runs 5] [--load N]

Each run gives the server a new empty cache directory (XDG_CACHE_HOME) and deletes
ROOT/.smart-context, then speaks JSON-RPC over stdio as a client would (scripts/mcp_stdio.py):
initialize, notifications/initialized, tools/list, tools/call explore {query}. With --load N, N busy
processes (one per core for a loaded 2-core machine: --load 2) run beside the server for the
whole run. Prints each run and the medians, in milliseconds.

The baseline, in the same run: `BINARY plugins` with an empty cache compiles every component
before it answers, which is what every start did before initialize until plugins were
declared from their headers and compiled on demand.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_stdio import Server  # noqa: E402


def run_once(binary, root, query):
    shutil.rmtree(os.path.join(root, ".smart-context"), ignore_errors=True)
    cache = tempfile.mkdtemp(prefix="sc-cold-cache-")
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    started = time.monotonic()

    def ms():
        return round((time.monotonic() - started) * 1000)

    out = {}
    server = Server(binary, Path(root), env=env)  # returns once initialize is answered
    out["initialize_ms"] = ms()
    tools = server.request("tools/list", {})["result"]["tools"]
    out["tools_list_ms"] = ms()
    out["tools"] = len(tools)
    result = server.request("tools/call", {"name": "explore",
                                           "arguments": {"query": query}})["result"]
    out["first_explore_ms"] = ms()
    s = result.get("structuredContent", {})
    out["explore_status"] = s.get("status")
    out["explore_items"] = len(s.get("data", {}).get("code", [])) + len(
        s.get("data", {}).get("docs", []))
    out["reasons"] = s.get("reasons", [])
    server.close()
    shutil.rmtree(cache, ignore_errors=True)
    return out


def baseline_ms(binary, root):
    """Compiling every component with an empty cache: the old cost before initialize."""
    cache = tempfile.mkdtemp(prefix="sc-cold-cache-")
    started = time.monotonic()
    subprocess.run([binary, "--root", root, "plugins"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=dict(os.environ, XDG_CACHE_HOME=cache))
    shutil.rmtree(cache, ignore_errors=True)
    return round((time.monotonic() - started) * 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("root")
    ap.add_argument("query")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--load", type=int, default=0, help="busy processes beside the server")
    args = ap.parse_args()
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(args.load)]
    try:
        results = [run_once(args.binary, args.root, args.query) for _ in range(args.runs)]
        for r in results:
            r["compile_all_ms"] = baseline_ms(args.binary, args.root)
    finally:
        for b in burners:
            b.kill()
    for r in results:
        print(json.dumps(r))
    summary = {k: statistics.median(r[k] for r in results)
               for k in ("initialize_ms", "tools_list_ms", "first_explore_ms", "compile_all_ms")}
    summary.update(runs=args.runs, load=args.load, cores=os.cpu_count())
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
