#!/usr/bin/env python3
"""How long a cancelled `manage rebuild` takes to stop, over stdio.

    scripts/cancel-latency.py BINARY ROOT [--runs N]

Starts the server on ROOT, waits for the start-up pass, then per run sends a full rebuild
with a progressToken, cancels it (notifications/cancelled) after its second progress
notification, and polls `manage status` until the index is no longer "rebuilding". Prints
per-run latencies (cancel sent -> status not rebuilding; the poll adds at most ~10 ms) and
their median, plus how many progress notifications arrived before the cancel.
"""
import json, os, statistics, subprocess, sys, time

def main():
    args = sys.argv[1:]
    runs = 5
    if "--runs" in args:
        at = args.index("--runs"); runs = int(args[at + 1]); del args[at:at + 2]
    binary, root = args
    proc = subprocess.Popen([binary, "--root", root, "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            stderr=open(os.environ["SERVER_LOG"], "w") if "SERVER_LOG" in os.environ else subprocess.DEVNULL)
    ids = iter(range(1, 1 << 30))
    def send(msg):
        proc.stdin.write(json.dumps(msg) + "\n"); proc.stdin.flush()
    def read():
        return json.loads(proc.stdout.readline())
    def request(method, params):
        i = next(ids)
        send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while True:
            msg = read()
            if msg.get("id") == i:
                return msg
    def status():
        r = request("tools/call", {"name": "manage", "arguments": {"command": "status"}})
        return r["result"]["structuredContent"]["projectState"]["indexStatus"]
    request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                           "clientInfo": {"name": "cancel-latency", "version": "1"}})
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    while status() != "fresh":
        time.sleep(0.2)
    latencies, reports = [], []
    for _ in range(runs):
        rid = next(ids)
        send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {
            "name": "manage", "arguments": {"command": "rebuild", "scope": "full"},
            "_meta": {"progressToken": f"r{rid}"}}})
        seen = 0
        while seen < 2:
            msg = read()
            if msg.get("method") == "notifications/progress":
                seen += 1
            elif msg.get("id") == rid:
                raise SystemExit("the rebuild finished before two progress reports")
        sent = time.monotonic()
        send({"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": rid, "reason": "measuring"}})
        while status() == "rebuilding":
            time.sleep(0.005)
        latencies.append(round((time.monotonic() - sent) * 1000, 1))
        reports.append(seen)
        while status() != "fresh":  # the next run starts from a settled index
            request("tools/call", {"name": "manage", "arguments": {"command": "rebuild"}})
    proc.stdin.close(); proc.wait(timeout=30)
    print(json.dumps({"latencies_ms": latencies, "median_ms": statistics.median(latencies),
                      "progress_before_cancel": reports}))

if __name__ == "__main__":
    main()
