#!/usr/bin/env python3
"""Team mode under load: calls per second and latency for 1, 2 and 3 `serve --http` replicas
sharing one PostgreSQL, against the single server on SQLite, with N concurrent MCP sessions;
then a replica killed under load and how long its sessions' calls take to go on; then how
long after an edit through one replica another's search finds the new text (each replica
keeps its own index of the shared tree).

Each session is a real MCP session over streamable HTTP (initialize, initialized, then tool
calls with its Mcp-Session-Id); a round-robin "balancer" in this script sends every request
to the next replica and, like nginx's `proxy_next_upstream error`, a refused connection to
the one after. The calls: explore queries (a new pack each), explore on the session's pack
(by reference), a memory recall, and one note remembered in ten.

    python3 scripts/team-bench.py --bin target/release/smart-context --root DIR \
        [--pg URL] [--sessions 32] [--seconds 20]

--pg defaults to the URL scripts/test-postgres.sh prints (it starts the cluster if needed).
Each configuration gets a database of its own, and every replica a state directory of its
own, as on separate machines. Prints a table and the kill measurement.
"""

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TOKEN = "team-bench-token-0123456789"
QUERIES = [
    "where is the config parsed",
    "how are errors reported to the client",
    "what writes files atomically",
    "retry when the connection is refused",
    "parse command line arguments",
    "how is the index kept fresh after an edit",
    "where are tests discovered",
    "cache expiry time to live",
]


def start(binary, root, state, data, extra, env):
    cmd = [binary, "--root", root, "--state-dir", state] + extra + [
        "serve", "--http", "127.0.0.1:0", "--token", TOKEN]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            env=dict(env, XDG_DATA_HOME=data, SMART_CONTEXT_LOG="info"))
    for line in proc.stderr:
        if "listening on " in line:
            url = line.split("listening on ", 1)[1].strip()
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
            return proc, url
    raise SystemExit(f"server exited before listening: {cmd}")


class Balancer:
    """Round-robin over replica URLs; a refused connection goes to the next."""

    def __init__(self, urls):
        self.urls = urls
        self.next = 0
        self.lock = threading.Lock()

    def pick(self):
        with self.lock:
            url = self.urls[self.next % len(self.urls)]
            self.next += 1
            return url


class Session:
    def __init__(self, balancer):
        self.balancer = balancer
        self.conns = {}
        self.session = None
        self.id = 0

    def _conn(self, url):
        if url not in self.conns:
            parsed = urllib.parse.urlparse(url)
            self.conns[url] = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
        return self.conns[url]

    def post(self, message):
        # Bytes: http.client then sends headers and body in one write (no Nagle stall).
        body = json.dumps(message).encode()
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream",
                   "Authorization": f"Bearer {TOKEN}"}
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        for _ in range(len(self.balancer.urls)):
            url = self.balancer.pick()
            conn = self._conn(url)
            try:
                conn.request("POST", urllib.parse.urlparse(url).path, body, headers)
                response = conn.getresponse()
                data = response.read().decode()
            except (ConnectionRefusedError, ConnectionResetError, http.client.RemoteDisconnected,
                    BrokenPipeError, OSError):
                conn.close()
                self.conns.pop(url, None)
                continue
            if response.status >= 400:
                raise RuntimeError(f"{url}: HTTP {response.status}: {data[:300]}")
            sid = response.getheader("Mcp-Session-Id")
            if sid:
                self.session = sid
            if "id" not in message:
                return None
            for line in data.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    reply = json.loads(line[5:])
                    if reply.get("id") == message["id"]:
                        return reply
            if data.strip().startswith("{"):
                return json.loads(data)
            raise RuntimeError(f"no reply in {data[:300]}")
        raise RuntimeError("every replica refused")

    def request(self, method, params):
        self.id += 1
        return self.post({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})

    def open(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "team-bench", "version": "0"}})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, tool, arguments):
        reply = self.request("tools/call", {"name": tool, "arguments": arguments})
        result = reply.get("result") or {}
        if "error" in reply or result.get("isError"):
            raise RuntimeError(f"{tool} failed: {json.dumps(reply)[:400]}")
        return result.get("structuredContent") or {}


def wait_indexed(url):
    session = Session(Balancer([url]))
    session.open()
    deadline = time.time() + 600
    while time.time() < deadline:
        status = session.call("manage", {"command": "status"})
        index = status.get("result", {}).get("index", {})
        if index.get("state") == "fresh" and index.get("lastIndexedMs", 0) > 0:
            return
        time.sleep(0.2)
    raise SystemExit(f"{url} never finished indexing")


def workload(session, number, stop, latencies, errors, stamps):
    pack = None
    i = number
    while not stop.is_set():
        i += 1
        kind = i % 10
        try:
            began = time.perf_counter()
            if kind in (0, 1, 2, 3):
                found = session.call("explore", {"query": QUERIES[i % len(QUERIES)],
                                                 "limits": {"maxResults": 3}})
                pack = found.get("pack", {}).get("packId") or pack
            elif kind in (4, 5, 6) and pack:
                session.call("explore", {"packId": pack, "limits": {"maxResults": 3}})
            elif kind in (7, 8):
                session.call("explore", {"query": QUERIES[(i * 7) % len(QUERIES)],
                                         "include": {"memory": True}, "limits": {"maxResults": 1}})
            else:
                session.call("manage", {"command": "remember",
                                        "content": f"session {number} noted call {i}"})
            ended = time.perf_counter()
            latencies.append((ended - began) * 1000)
            stamps.append((time.time(), (ended - began) * 1000, kind))
        except Exception as err:  # noqa: BLE001 - counted and shown
            errors.append(str(err)[:200])


def run_load(urls, sessions, seconds, kill=None):
    balancer = Balancer(urls)
    opened = []
    for _ in range(sessions):
        s = Session(balancer)
        s.open()
        opened.append(s)
    stop = threading.Event()
    latencies, errors, stamps = [], [], []
    threads = [threading.Thread(target=workload, args=(s, n, stop, latencies, errors, stamps))
               for n, s in enumerate(opened)]
    began = time.time()
    for t in threads:
        t.start()
    killed_at = None
    if kill:
        time.sleep(seconds / 2)
        killed_at = time.time()
        kill()
        time.sleep(seconds / 2)
    else:
        time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.time() - began
    return latencies, errors, elapsed, stamps, killed_at


def staleness(binary, root, admin, key, env, work, edits=10):
    """Milliseconds from a write through replica A until replica B's explore finds it."""
    import uuid
    db = f"team_bench_stale_{os.getpid()}"
    psql(admin, f"CREATE DATABASE {db}")
    url = admin.rsplit("/", 1)[0] + "/" + db
    tree = os.path.join(work, "stale-root")
    shutil.copytree(root, tree)
    procs = [start(binary, tree, os.path.join(work, f"stale-{n}-state"),
                   os.path.join(work, f"stale-{n}-data"), ["--store", url, "--store-key", key], env)
             for n in range(2)]
    try:
        for _, url_ in procs:
            wait_indexed(url_)
        a, b = Session(Balancer([procs[0][1]])), Session(Balancer([procs[1][1]]))
        a.open()
        b.open()
        waits = []
        for n in range(edits):
            token = "zq" + uuid.uuid4().hex[:10]
            began = time.time()
            a.call("write", {"intent": "staleness", "targetPath": f"notes/n{n}.md",
                             "content": f"# note\n\nthe {token} marker\n"})
            while True:
                found = b.call("explore", {"query": token, "limits": {"maxResults": 1}})
                data = found.get("data", {})
                if any(f"n{n}.md" in item.get("filePath", "")
                       for item in (data.get("docs") or []) + (data.get("code") or [])):
                    break
                if time.time() - began > 60:
                    raise SystemExit("replica B never found the edit")
                time.sleep(0.02)
            waits.append((time.time() - began) * 1000)
        return waits
    finally:
        for proc, _ in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        psql(admin, f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def pg_url(arg):
    if arg:
        return arg
    here = os.path.dirname(os.path.abspath(__file__))
    return subprocess.check_output(["bash", os.path.join(here, "test-postgres.sh")], text=True).strip()


def psql(admin, statement):
    """Runs one statement with Debian's psql (not on PATH: under /usr/lib/postgresql)."""
    import glob
    found = shutil.which("psql") or sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
    subprocess.run([found, admin, "-qtAc", statement], check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="target/release/smart-context")
    parser.add_argument("--root", required=True)
    parser.add_argument("--pg")
    parser.add_argument("--sessions", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    root = os.path.abspath(args.root)
    admin = pg_url(args.pg)
    work = tempfile.mkdtemp(prefix="team-bench-")
    key = os.path.join(work, "team.key")
    with open(key, "w") as f:
        f.write(os.urandom(32).hex())
    os.chmod(key, 0o600)
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
    rows = []
    kill_report = None
    waits = None
    try:
        for label, replicas in [("SQLite, 1 server", 0), ("PostgreSQL, 1 replica", 1),
                                ("PostgreSQL, 2 replicas", 2), ("PostgreSQL, 3 replicas", 3)]:
            procs = []
            extra = []
            db = None
            if replicas:
                db = f"team_bench_{replicas}_{os.getpid()}"
                psql(admin, f"CREATE DATABASE {db}")
                url = admin.rsplit("/", 1)[0] + "/" + db
                extra = ["--store", url, "--store-key", key]
            count = max(replicas, 1)
            for n in range(count):
                state = os.path.join(work, f"{label[:3]}-{replicas}-{n}-state")
                data = os.path.join(work, f"{label[:3]}-{replicas}-{n}-data")
                procs.append(start(binary, root, state, data, extra, env))
            try:
                for _, url in procs:
                    wait_indexed(url)
                urls = [url for _, url in procs]
                kill = None
                if replicas == 3:
                    kill = lambda: (procs[0][0].send_signal(signal.SIGKILL), procs[0][0].wait())
                latencies, errors, elapsed, stamps, killed_at = run_load(
                    urls, args.sessions, args.seconds)
                rows.append((label, len(latencies) / elapsed, statistics.median(latencies),
                             percentile(latencies, 0.99), len(errors)))
                if os.environ.get("TEAM_BENCH_KINDS"):
                    for kinds, name in [((0, 1, 2, 3), "query"), ((4, 5, 6), "pack"),
                                        ((7, 8), "memory"), ((9,), "remember")]:
                        ms = [m for _, m, k in stamps if k in kinds]
                        if ms:
                            print(f"  {name}: n={len(ms)} median={statistics.median(ms):.1f} "
                                  f"p99={percentile(ms, 0.99):.1f}", file=sys.stderr)
                print(f"{label}: {len(latencies)} calls in {elapsed:.1f} s, "
                      f"{len(errors)} errors {errors[:2]}", file=sys.stderr)
                if replicas == 3:
                    latencies, errors, elapsed, stamps, killed_at = run_load(
                        urls, args.sessions, args.seconds, kill)
                    before = [ms for at, ms, _ in stamps if at < killed_at]
                    after = [(at, ms) for at, ms, _ in stamps if at >= killed_at]
                    first_second = [ms for at, ms in after if at < killed_at + 1.0]
                    rest = [ms for at, ms in after if at >= killed_at + 1.0]
                    kill_report = {
                        "calls": len(latencies), "errors": len(errors),
                        "error_samples": errors[:3],
                        "p99_before_ms": percentile(before, 0.99) if before else None,
                        "max_first_second_after_ms": max(first_second) if first_second else None,
                        "p99_after_ms": percentile(rest, 0.99) if rest else None,
                    }
            finally:
                for proc, _ in procs:
                    if proc.poll() is None:
                        proc.send_signal(signal.SIGKILL)
                        proc.wait()
                if db:
                    psql(admin, f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
        waits = staleness(binary, root, admin, key, env, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = rows[0][1]
    print(f"\n{args.sessions} sessions, {args.seconds:.0f} s each\n")
    print("| configuration | calls/s | vs SQLite | median ms | p99 ms | errors |")
    print("|---|---|---|---|---|---|")
    for label, rate, median, p99, errors in rows:
        print(f"| {label} | {rate:.0f} | {rate / base:.2f}x | {median:.1f} | {p99:.1f} | {errors} |")
    if kill_report:
        print("\nOne of 3 replicas killed halfway:", json.dumps(kill_report))
    if waits:
        print(f"\nA write through replica A found by replica B's explore after (ms): "
              f"{[round(w) for w in waits]}, median {statistics.median(waits):.0f}")


if __name__ == "__main__":
    main()
