"""What the scripts share: a stdio MCP client for the built binary (JSON-RPC over the
server's stdin/stdout, one request at a time) and the Django tree from PyPI.

Imported by scripts/bench-understand.py, scripts/check-callgraph.py and scripts/doc-fidelity.py.
"""

import json
import subprocess
import sys
import tarfile
import time
from pathlib import Path

CORPUS = Path("target/bench-understand")
DJANGO = "Django==5.2.19"


def tree() -> Path:
    """The Django 5.2.19 sdist, extracted under target/bench-understand/ once."""
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
    """`smart-context serve` over stdio, initialized; `stderr` takes the server's log."""

    def __init__(self, binary: str, root: Path, stderr=subprocess.DEVNULL, env=None):
        self.p = subprocess.Popen(
            [binary, "--root", str(root), "serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env,
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
