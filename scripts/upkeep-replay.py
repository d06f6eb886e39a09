#!/usr/bin/env python3
"""A server that lives through a repository's real history answers as a fresh one would: the
long differential replay of tests/upkeep.rs, on a real clone, out of CI.

A working clone of --repo (`git clone --shared` into a temporary directory) is checked out at
the commit N back from HEAD (or --until; first parents) and ONE `smart-context serve` is started on it
over stdio MCP. Then each of the last N commits is checked out in turn (`git checkout -q`)
while that server runs; once its watcher has seen the checkout (manage status: index state
fresh, nothing pending) it is asked a fixed set of questions built from the commit:

  explore {query: <pasted text>}   the commit's message, the files and functions its diff
                                   touches and lines it removes: an issue-like text, 30+ words
  explore {query: <short>} x 2     words of the diff's hunk headers
  understand {symbol: <name>}      a function or class the commit touched (defined after it)
  understand {path: <file>}        a file the commit touched (existing after it)
  manage {command: status}         of it, result.index only
  (+ those of --queries-from)

and so is a FRESH server started on a copy of the same checkout (the working tree with its
.git, without .smart-context), closed after. Answers are compared as structured content
without their volatile keys (timings, pack and cursor identities, the times of passes, stats,
memory); a running answer that differs is asked again for up to 20 s (the watcher may still be
catching up) before it counts as a difference. A call answered with isError (or INTERNAL), a
JSON-RPC error or a server that died counts as an error. The start (the commit N back) is
compared too, as step 0.

Prints per commit its calls (the questions, asked of both servers), differences (each with
the first differing JSON path and the two values, shortened; both whole answers written under
--dump) and errors; at the end the totals, the running server's RSS, and the size of its search
index on disk against the last fresh server's (deleted documents must not pile up). Exits 1
when there were differences or errors. --ignore leaves more keys out of the comparison.

--queries-from FILE adds questions asked at every step: one per line, either a JSON object
{"tool": ..., "arguments": {...}}, or a plain text asked as explore {query: <line>}.

Usage:
  scripts/upkeep-replay.py --repo DIR [--commits N] [--bin target/release/smart-context]
                           [--queries-from FILE] [--until REV] [--ignore KEY,...]
                           [--keep] [--log FILE] [--dump DIR] [--timeout S]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
from mcp_stdio import Server  # noqa: E402

VOLATILE = {
    "elapsedMs", "packMs", "packId", "pack", "cursor", "next", "nextCursor", "lastIndexedMs",
    "lastModified", "createdMs", "expiresAt", "stats", "memory",
}
# How long a running server whose answer differs is asked again (its watcher catching up).
CATCH_UP = 20.0
# What counts as code, to prefer among a commit's files for `understand {path}`.
CODE_EXT = {".py", ".pyi", ".rs", ".go", ".js", ".ts", ".tsx", ".java", ".c", ".h", ".cpp", ".rb"}
DEFINITION = re.compile(r"^\s*(?:async\s+)?(?:def|class|fn|func|function|struct|enum|trait)\s+([A-Za-z_]\w*)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


# ---------------------------------------------------------------- git


def git(repo, *args, check=True):
    return subprocess.run(["git", "-C", repo] + list(args), check=check, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors="replace").stdout


def commits(repo, n, until="HEAD"):
    """The start (n first parents back from `until`) and the n commits after it, oldest
    first; fewer when the history is shorter."""
    chain = git(repo, "rev-list", "--first-parent", "-n", str(n + 1), until).split()
    chain.reverse()
    return chain[0], chain[1:]


def diff_of(repo, commit):
    """The commit's diff against its first parent (or the empty tree for a root commit)."""
    parents = git(repo, "rev-list", "--parents", "-n", "1", commit).split()[1:]
    base = parents[0] if parents else git(repo, "hash-object", "-t", "tree", "/dev/null").strip()
    return git(repo, "diff", "-U0", "--no-color", "-M", base, commit)


def questions_for(repo, commit):
    """The questions of one step, built from the commit (see the module's doc)."""
    message = git(repo, "log", "-1", "--format=%B", commit).strip()
    diff = diff_of(repo, commit)
    files, headers, names, removed = [], [], [], []
    for line in diff.splitlines():
        if line.startswith("+++ "):
            path = line[4:].strip()
            if path != "/dev/null":
                files.append(path[2:] if path.startswith("b/") else path)
        elif line.startswith("@@"):
            context = line.split("@@", 2)[-1].strip()
            if context:
                headers.append(context)
                m = DEFINITION.match(context)
                if m:
                    names.append(m.group(1))
        elif line[:1] in "+-" and not line.startswith(("+++", "---")):
            m = DEFINITION.match(line[1:])
            if m:
                names.append(m.group(1))
            if line[:1] == "-" and len(line[1:].split()) >= 2:
                removed.append(line[1:].strip())
    names = list(dict.fromkeys(names))
    existing = set(git(repo, "ls-tree", "-r", "--name-only", commit).splitlines())
    files = [f for f in dict.fromkeys(files) if f in existing]
    code_files = [f for f in files if os.path.splitext(f)[1] in CODE_EXT]

    # A symbol the commit touched that is defined after it (else understand answers
    # NOT_FOUND, which says nothing about upkeep).
    symbol = None
    for name in names:
        hits = git(repo, "grep", "-l", "-E",
                   rf"^\s*(async\s+)?(def|class|fn|func|function|struct|enum|trait)\s+{name}\b",
                   commit, "--", *(code_files or ["."]), check=False)
        if hits.strip():
            symbol = name
            break
    if symbol is None:  # nothing the diff shows: a definition of a touched code file (a
        # document's example code defines nothing the index knows)
        for f in code_files:
            for line in git(repo, "show", f"{commit}:{f}", check=False).splitlines():
                m = DEFINITION.match(line)
                if m:
                    symbol = m.group(1)
                    break
            if symbol:
                break
    path = (code_files or files or sorted(existing)[:1] or [None])[0]

    # The pasted text: what an issue about this change would hold.
    text = message
    if files:
        text += "\n\nThis is about " + ", ".join(files[:6])
        if names:
            text += ", in particular " + ", ".join(names[:8])
        text += "."
    quoted = headers[:4] + removed[:6]
    for line in quoted:
        if len(text.split()) >= 30 and line not in headers:
            break
        text += "\n    " + line
    if len(text.split()) < 30:
        text += ("\n\nThe behaviour changed in this commit looks wrong; I expected the old "
                 "behaviour to be kept, or the documentation to say what changed and why.")

    words = [w for h in headers for w in WORD.findall(h)
             if w not in {"def", "class", "self", "fn", "pub", "return", "async", "function"}]
    words = list(dict.fromkeys(words)) or WORD.findall(message.split("\n")[0])
    short1 = " ".join(words[:2]) or "main"
    # The second: more header words, else the parts of the first ones, else the subject's.
    parts = list(dict.fromkeys(
        p.lower() for w in words for s in w.split("_") for p in CAMEL.findall(s) if len(p) > 2))
    parts = [p for p in parts if p not in short1.lower().split()]
    subject = [w.lower() for w in WORD.findall(message.split("\n")[0]) if len(w) > 3]
    short2 = next((q for q in (" ".join(words[2:4]), " ".join(parts[:3]), " ".join(subject[:3]))
                   if q and q != short1), short1)

    out = [
        ("explore", {"query": text}),
        ("explore", {"query": short1}),
        ("explore", {"query": short2}),
    ]
    if symbol:
        out.append(("understand", {"symbol": symbol}))
    if path:
        out.append(("understand", {"path": path}))
    out.append(("manage", {"command": "status"}))
    return out


def read_queries(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line:
            continue
        if line.startswith("{"):
            q = json.loads(line)
            if "tool" in q:
                out.append((q["tool"], q.get("arguments", {})))
            else:
                out.append(("explore", q))
        else:
            out.append(("explore", {"query": line}))
    return out


# ---------------------------------------------------------------- answers


def normalized(value):
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    return value


def ask(server, tool, arguments):
    """(normalized answer, error or None). BUSY is retried for a while, as a client would."""
    deadline = time.time() + 30
    while True:
        try:
            message = server.request("tools/call", {"name": tool, "arguments": arguments})
        except (OSError, ValueError) as e:  # a closed pipe, or no line: the server is gone
            return None, f"no answer ({type(e).__name__}: {e})"
        if "error" in message:
            return None, f"JSON-RPC error {json.dumps(message['error'])[:300]}"
        result = message["result"]
        structured = result.get("structuredContent") or {}
        text = "".join(c.get("text", "") for c in result.get("content", []))
        if result.get("isError") and structured.get("code") == "BUSY" and time.time() < deadline:
            time.sleep(0.2)
            continue
        error = None
        if result.get("isError") or text.startswith("INTERNAL"):
            first = text.strip().split("\n")[0][:300]
            code = structured.get("code") or "isError"
            error = first if first.startswith(code) else f"{code}: {first}"
        if tool == "manage" and arguments.get("command") == "status":
            # The index only: the store's history and the session are the running server's own.
            answer = (structured.get("result") or {}).get("index")
        else:
            answer = {"isError": bool(result.get("isError")), "structured": structured}
        return normalized(answer), error


def answers(server, questions):
    return [ask(server, tool, args) for tool, args in questions]


def status_index(server):
    message = server.request("tools/call", {"name": "manage", "arguments": {"command": "status"}})
    result = message.get("result") or {}
    if result.get("isError"):
        return None
    return ((result.get("structuredContent") or {}).get("result") or {}).get("index")


def wait_fresh(server, timeout):
    """Until the index is fresh with nothing pending (and has had a pass); seconds waited."""
    started = time.time()
    while True:
        index = status_index(server)
        if index and index.get("state") == "fresh" and not index.get("pending") \
                and (index.get("lastIndexedMs") or 0) > 0:
            return time.time() - started
        if time.time() - started > timeout:
            raise RuntimeError(f"the index was not fresh after {timeout:.0f}s: {index}")
        time.sleep(0.2)


def first_difference(a, b, at="$"):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            d = first_difference(a.get(k), b.get(k), f"{at}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            d = first_difference(a[i] if i < len(a) else None, b[i] if i < len(b) else None,
                                 f"{at}[{i}]")
            if d:
                return d
        return None
    if a == b:
        return None
    return at, a, b


def short(value, n=160):
    s = json.dumps(value, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 3] + "..."


def describe(tool, args):
    return f"{tool} {short(args, 90)}"


# ---------------------------------------------------------------- the replay


def fresh_answers(binary, work, questions, timeout, log):
    """The answers of a new server on a copy of the working clone's checkout."""
    copy = tempfile.mkdtemp(prefix="upkeep-replay-fresh-")
    try:
        shutil.rmtree(copy)
        shutil.copytree(work, copy, symlinks=True,
                        ignore=lambda d, names: [".smart-context"] if d == work else [])
        server = Server(binary, copy, stderr=log)
        try:
            waited = wait_fresh(server, timeout)
            got = answers(server, questions)
        finally:
            close(server)
        FRESH_INDEX_BYTES[0] = index_bytes(copy)
        return got, waited
    finally:
        shutil.rmtree(copy, ignore_errors=True)


# The search index's size on disk of the last fresh server, for the final comparison.
FRESH_INDEX_BYTES = [0]


def index_bytes(root):
    """Bytes of ROOT/.smart-context/index on disk."""
    total = 0
    for base, _, files in os.walk(os.path.join(root, ".smart-context", "index")):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(base, f))
            except OSError:
                pass
    return total


def close(server):
    try:
        server.close()
    except (OSError, subprocess.TimeoutExpired):
        server.p.kill()
        server.p.wait()


def step(label, running, args, work, questions, log, number=0):
    """Compares the running server with a fresh one; (calls, differences, errors) as lists."""
    time.sleep(0.5)  # the watcher's notice of the checkout
    waited = wait_fresh(running, args.timeout)
    got = answers(running, questions)
    expected, fresh_wait = fresh_answers(args.bin, work, questions, args.timeout, log)
    started = time.time()
    while True:
        differing = [i for i, ((g, _), (e, _)) in enumerate(zip(got, expected)) if g != e]
        if not differing or time.time() - started > CATCH_UP:
            break
        time.sleep(0.5)
        wait_fresh(running, args.timeout)
        for i in differing:
            got[i] = ask(running, *questions[i])
    caught_up = time.time() - started
    differences, errors = [], []
    for i, ((tool, qargs), (g, ge), (e, ee)) in enumerate(zip(questions, got, expected)):
        if ge:
            errors.append(f"running: {describe(tool, qargs)}: {ge}")
        if ee:
            errors.append(f"fresh: {describe(tool, qargs)}: {ee}")
        d = first_difference(g, e)
        if d:
            differences.append(f"{describe(tool, qargs)}: {d[0]}: running {short(d[1])} / "
                               f"fresh {short(d[2])}")
            if args.dump:
                os.makedirs(args.dump, exist_ok=True)
                stem = os.path.join(args.dump, f"step{number}-call{i}")
                for side, answer in (("running", g), ("fresh", e)):
                    with open(f"{stem}-{side}.json", "w") as f:
                        json.dump({"tool": tool, "arguments": qargs, "answer": answer}, f, indent=1)
                differences[-1] += f" (both answers in {stem}-*.json)"
    calls = 2 * len(questions)
    print(f"{label}: {calls} calls, {len(differences)} differences, {len(errors)} errors "
          f"(running fresh after {waited:.1f}s; fresh server {fresh_wait:.1f}s"
          + (f"; equal only after {caught_up:.1f}s of retries" if caught_up > 1 and not differences
             else "") + ")", flush=True)
    for line in differences + errors:
        print(f"  {line}", flush=True)
    return calls, differences, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", required=True, help="a git clone (its HEAD's history is replayed)")
    ap.add_argument("--commits", type=int, default=20, help="how many of the last commits")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "smart-context"))
    ap.add_argument("--queries-from", help="more questions asked at every step (see above)")
    ap.add_argument("--until", default="HEAD", help="the last commit replayed (default HEAD)")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds a server may take to become fresh")
    ap.add_argument("--ignore", default="",
                    help="more keys to leave out of the comparison, comma-separated")
    ap.add_argument("--keep", action="store_true", help="keep the working clone")
    ap.add_argument("--dump", default=os.path.join(tempfile.gettempdir(), "upkeep-replay-diffs"),
                    help="where both answers of each difference are written")
    ap.add_argument("--log", default=os.path.join(tempfile.gettempdir(), "upkeep-replay-serve.log"),
                    help="the servers' stderr")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    VOLATILE.update(k for k in args.ignore.split(",") if k)
    repo = os.path.abspath(args.repo)

    start, replayed = commits(repo, args.commits, args.until)
    extra = read_queries(args.queries_from) if args.queries_from else []
    base = tempfile.mkdtemp(prefix="upkeep-replay-")
    work = os.path.join(base, "work")
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", repo, work], check=True)
    git(work, "checkout", "-q", "--detach", start)
    log = open(args.log, "ab")
    print(f"working clone {work} at {start[:10]}; {len(replayed)} commits to replay; "
          f"servers' stderr in {args.log}", flush=True)

    running = Server(args.bin, work, stderr=log)
    total_calls, total_diffs, total_errors = 0, 0, 0
    try:
        steps = [(start, "step 0 (start)")] + [(c, None) for c in replayed]
        for n, (commit, label) in enumerate(steps):
            if n:
                git(work, "checkout", "-q", "--detach", commit)
            subject = git(work, "log", "-1", "--format=%s", commit).strip()
            label = label or f"{n}/{len(replayed)}"
            questions = questions_for(work, commit) + extra
            try:
                calls, differences, errors = step(f"{label} {commit[:10]} {subject[:60]}",
                                                  running, args, work, questions, log, n)
            except (RuntimeError, OSError, ValueError) as e:
                # A server that never became fresh, or is gone.
                print(f"{label} {commit[:10]}: failed: {type(e).__name__}: {e}", flush=True)
                calls, differences, errors = 0, [], [str(e)]
            total_calls += calls
            total_diffs += len(differences)
            total_errors += len(errors)
            if running.p.poll() is not None:
                print(f"the running server exited (code {running.p.returncode}); stopping",
                      flush=True)
                total_errors += 1
                break
        rss = running.rss_mb() if running.p.poll() is None else 0.0
        kept = index_bytes(work)
    finally:
        close(running)
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print(f"\ntotal: {total_calls} calls, {total_diffs} differences, {total_errors} errors; "
          f"running server's RSS {rss:.0f} MB; its search index {kept / 1e6:.1f} MB on disk, "
          f"a fresh one of the last commit {FRESH_INDEX_BYTES[0] / 1e6:.1f} MB")
    sys.exit(1 if total_diffs or total_errors else 0)


if __name__ == "__main__":
    main()
