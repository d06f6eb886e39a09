#!/usr/bin/env python3
"""understand on the Django tree, through a real stdio server: the graph build (cold, and
after one file changes), symbol / file / project scope warm, beside explore's default answer
in the same run, and the server's memory before and after the graphs exist.

    cargo build --release
    python3 scripts/bench-understand.py [--bin target/release/smart-context] [--runs 20]

The Django 5.2 sdist comes from PyPI into target/bench-understand/ once. Medians, in ms.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

CORPUS = Path("target/bench-understand")
DJANGO = "Django==5.2.19"


def tree() -> Path:
    root = CORPUS / "django-5.2.19"
    if not root.is_dir():
        CORPUS.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--no-binary", ":all:", DJANGO, "-d", str(CORPUS)],
            check=True,
        )
        with tarfile.open(CORPUS / "django-5.2.19.tar.gz") as t:
            t.extractall(CORPUS, filter="data")
    return root


class Server:
    def __init__(self, binary: str, root: Path):
        self.p = subprocess.Popen(
            [binary, "--root", str(root), "serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )
        self.next_id = 0
        self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench-understand", "version": "1"},
        })
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            msg = json.loads(self.p.stdout.readline())
            if msg.get("id") == self.next_id:
                return msg

    def call(self, tool, args):
        started = time.perf_counter()
        msg = self.request("tools/call", {"name": tool, "arguments": args})
        elapsed = (time.perf_counter() - started) * 1000
        result = msg["result"]
        if result.get("isError"):
            raise SystemExit(f"{tool} {args}: {result['content'][0]['text']}")
        return elapsed, result.get("structuredContent", {})

    def rss_mb(self):
        for line in Path(f"/proc/{self.p.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def wait_fresh(self):
        while True:
            _, s = self.call("manage", {"command": "status"})
            index = s["result"]["index"]
            if index["state"] == "fresh" and index["lastIndexedMs"] > 0:
                return
            time.sleep(0.2)

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def median(f, runs):
    return statistics.median(f() for _ in range(runs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/smart-context")
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    root = tree()
    subprocess.run([a.bin, "--root", str(root), "index"], check=True, stdout=subprocess.DEVNULL)
    s = Server(a.bin, root)
    s.wait_fresh()
    symbol = {"goal": "how does filter work", "path": "django/db/models/query.py",
              "symbol": "QuerySet.filter"}
    file = {"goal": "role", "path": "django/db/models/query.py"}
    project = {"goal": "architecture of the project"}
    explore = {"query": "QuerySet filter"}
    rows = []
    explore_ms = median(lambda: s.call("explore", explore)[0], a.runs)
    rows.append(("explore default answer (baseline)", explore_ms))
    rss_before = s.rss_mb()
    cold, _ = s.call("understand", project)
    rss_after = s.rss_mb()
    rows.append(("understand project, cold (builds the graphs)", cold))
    rows.append(("understand symbol QuerySet.filter, warm", median(lambda: s.call("understand", symbol)[0], a.runs)))
    rows.append(("understand file query.py, warm", median(lambda: s.call("understand", file)[0], a.runs)))
    rows.append(("understand project, warm", median(lambda: s.call("understand", project)[0], max(5, a.runs // 2))))
    rows.append(("understand goal only (resolution + symbol)", median(lambda: s.call("understand", {"goal": "how does QuerySet.filter work"})[0], a.runs)))
    # One file changes: the watcher reindexes it; the next call re-reads its facts only.
    changed = root / "django/utils/text.py"
    original = changed.read_text()
    incremental = []
    try:
        for i in range(5):
            changed.write_text(original + f"\n\ndef bench_added_{i}(x):\n    return capfirst(x)\n")
            time.sleep(1.5)
            s.wait_fresh()
            incremental.append(s.call("understand", symbol)[0])
    finally:
        changed.write_text(original)
    rows.append(("understand symbol after one file changed (graph rebuilt)", statistics.median(incremental)))
    _, r = s.call("understand", project)
    s.close()
    for name, ms in rows:
        print(f"{name:60s} {ms:9.1f} ms")
    print(f"{'server RSS before / after the graphs':60s} {rss_before:6.0f} / {rss_after:.0f} MB")
    o = r.get("overview", {})
    print(f"graph: {o.get('files')} files, {o.get('definitions')} definitions, "
          f"{o.get('callLinks')} call links, {o.get('importLinks')} import links, "
          f"{o.get('unresolvedCalls')} unresolved call sites")


if __name__ == "__main__":
    main()
