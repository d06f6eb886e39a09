#!/usr/bin/env python3
"""The first seconds of a server on a machine it never ran on: time from start to the answer
to `initialize`, to `tools/list`, and to the first `explore` answer, with an empty component
cache (every component still to compile) and a root without an index.

    scripts/cold-start.py BINARY ROOT QUERY [--runs 5] [--load N]

Each run gives the server a new empty cache directory (XDG_CACHE_HOME) and deletes
ROOT/.smart-context, then speaks raw JSON-RPC over stdio as a client would: initialize,
notifications/initialized, tools/list, tools/call explore {query}. With --load N, N busy
processes (one per core for a loaded 2-core machine: --load 2) run beside the server for the
whole run. Prints each run and the medians, in milliseconds.
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


def run_once(binary, root, query):
    shutil.rmtree(os.path.join(root, ".smart-context"), ignore_errors=True)
    cache = tempfile.mkdtemp(prefix="sc-cold-cache-")
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    started = time.monotonic()
    proc = subprocess.Popen([binary, "--root", root, "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env)

    def send(msg):
        proc.stdin.write(json.dumps(msg) + "\n")
        proc.stdin.flush()

    def recv(want_id):
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            msg = json.loads(line)
            if msg.get("id") == want_id:
                return msg

    def ms():
        return round((time.monotonic() - started) * 1000)

    out = {}
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "cold-start", "version": "1"}}})
    recv(1)
    out["initialize_ms"] = ms()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    tools = recv(2)["result"]["tools"]
    out["tools_list_ms"] = ms()
    out["tools"] = len(tools)
    send({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
          "params": {"name": "explore", "arguments": {"query": query}}})
    result = recv(3)["result"]
    out["first_explore_ms"] = ms()
    s = result.get("structuredContent", {})
    out["explore_status"] = s.get("status")
    out["explore_items"] = len(s.get("data", {}).get("code", [])) + len(
        s.get("data", {}).get("docs", []))
    out["reasons"] = s.get("reasons", [])
    proc.stdin.close()
    proc.wait(timeout=60)
    shutil.rmtree(cache, ignore_errors=True)
    return out


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
    finally:
        for b in burners:
            b.kill()
    for r in results:
        print(json.dumps(r))
    summary = {k: statistics.median(r[k] for r in results)
               for k in ("initialize_ms", "tools_list_ms", "first_explore_ms")}
    summary.update(runs=args.runs, load=args.load, cores=os.cpu_count())
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
