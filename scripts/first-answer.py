#!/usr/bin/env python3
"""Time from `smart-context serve` on a fresh tree to the first correct explore answer.

    scripts/first-answer.py BINARY ROOT QUERY EXPECTED_PATH [--runs N]

Each run deletes ROOT/.smart-context (a new project), starts the server over stdio, sends
initialize and then explore {query} immediately, repeating the query until EXPECTED_PATH is
among the first five code items. Prints, per run and as medians: the time to the first
answer, whether that first answer was correct, its status and degraded reasons, and the time
to the first correct answer. Raw JSON-RPC, no SDK: nothing but the server is measured.
"""
import json, os, shutil, statistics, subprocess, sys, time

def run_once(binary, root, query, expected):
    shutil.rmtree(os.path.join(root, ".smart-context"), ignore_errors=True)
    started = time.monotonic()
    proc = subprocess.Popen([binary, "--root", root, "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    def send(msg):
        proc.stdin.write(json.dumps(msg) + "\n"); proc.stdin.flush()
    def recv(want_id):
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            msg = json.loads(line)
            if msg.get("id") == want_id:
                return msg
    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "first-answer", "version": "1"}}})
    recv(0)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    first = None
    for i in range(1, 400):
        send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "explore", "arguments": {"query": query}}})
        result = recv(i)["result"]
        s = result.get("structuredContent", {})
        paths = [it.get("filePath") for it in s.get("data", {}).get("code", [])][:5]
        ok = expected in paths
        elapsed = time.monotonic() - started
        if first is None:
            first = {"first_s": round(elapsed, 3), "first_correct": ok,
                     "status": s.get("status"), "reasons": s.get("reasons", [])}
        if ok:
            first["correct_s"] = round(elapsed, 3)
            break
        time.sleep(0.1)
    proc.stdin.close(); proc.wait(timeout=30)
    return first

def main():
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        at = args.index("--runs"); runs = int(args[at + 1]); del args[at:at + 2]
    binary, root, query, expected = args
    results = [run_once(binary, root, query, expected) for _ in range(runs)]
    for r in results:
        print(json.dumps(r))
    print(json.dumps({
        "median_first_s": statistics.median(r["first_s"] for r in results),
        "median_correct_s": statistics.median(r.get("correct_s", float("inf")) for r in results),
        "first_answers_correct": sum(r["first_correct"] for r in results), "runs": runs}))

if __name__ == "__main__":
    main()
