#!/usr/bin/env python3
"""A client that floods stdio and reads nothing: how much the server takes and holds.

    scripts/stdio-flood.py BINARY ROOT [--requests 200000] [--seconds 30]

Starts `BINARY --root ROOT serve`, initializes, then writes REQUESTS pipelined `tools/list`
requests (about 16 MB) from a thread without reading a single answer, for at most SECONDS.
Prints how many requests the server let the client write (the rest block in the pipe once
the server stops reading), the server's RSS before and at the end (VmRSS, and VmHWM, its
peak), then reads every answer back and counts them. Last, a message nested 200,000 deep
with an id: the answer must be a JSON-RPC parse error (-32700) carrying that id.
"""

import argparse
import json
import subprocess
import threading
import time
from pathlib import Path


def rss_mb(pid, field="VmRSS"):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("root")
    ap.add_argument("--requests", type=int, default=200_000)
    ap.add_argument("--seconds", type=float, default=30.0)
    args = ap.parse_args()

    p = subprocess.Popen([args.binary, "--root", args.root, "serve"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(msg):
        p.stdin.write((json.dumps(msg) + "\n").encode())
        p.stdin.flush()

    def read():
        return json.loads(p.stdout.readline())

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "stdio-flood", "version": "1"}}})
    while read().get("id") != 0:
        pass
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    time.sleep(1.0)
    before = rss_mb(p.pid)

    written = [0]
    done = threading.Event()

    def flood():
        try:
            for i in range(args.requests):
                p.stdin.write(b'{"jsonrpc":"2.0","id":%d,"method":"tools/list"}\n' % (i + 1))
                written[0] += 1
            p.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
        done.set()

    writer = threading.Thread(target=flood, daemon=True)
    started = time.perf_counter()
    writer.start()
    done.wait(args.seconds)
    taken = written[0]
    held = rss_mb(p.pid)
    peak = rss_mb(p.pid, "VmHWM")
    print(f"requests written in {time.perf_counter() - started:.1f} s without reading: "
          f"{taken} of {args.requests}")
    print(f"server RSS: {before:.1f} MB before, {held:.1f} MB while flooded (peak {peak:.1f} MB)")

    answered = 0
    while answered < args.requests:
        line = p.stdout.readline()
        if not line:
            break
        if b'"result"' in line:
            answered += 1
    writer.join()
    print(f"answers read back: {answered} of {args.requests}")

    deep = ('{"jsonrpc":"2.0","method":"tools/list","params":{"x":' + "[" * 200_000
            + "]" * 200_000 + '},"id":"deep"}')
    p.stdin.write((deep + "\n").encode())
    p.stdin.flush()
    while True:
        msg = read()
        if msg.get("id") == "deep":
            print(f"200,000-deep message: error {msg.get('error', {}).get('code')} "
                  f"with its id")
            break
    p.stdin.close()
    p.wait(timeout=30)


if __name__ == "__main__":
    main()
