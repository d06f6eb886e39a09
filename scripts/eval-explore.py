#!/usr/bin/env python3
"""Explore on real issue texts: file hit@1/hit@5, function hit@5, answer size and latency,
beside two baselines computed in the same run (BM25 over whole files; grep of the issue's
identifiers, files by IDF-weighted count).

Each instance of the evaluation set (../shared/eval/swebench-lite-dev.jsonl) is answered on a
tree of its repository: with --git DIR, DIR/<name> is a clone and each base commit is exported
(`git archive`); with --sdists DIR, DIR holds extracted release trees named <project>-<version>
and each instance takes a tree its accepted fix applies to (`git apply --check`), the fewest
trees covering all (for where the repositories' git history cannot be had). Every tree is
indexed with `smart-context index`, then one `smart-context serve` per tree builds its graphs
(one `understand` call, as in a running session) and answers `explore {query: <issue text>}`
over stdio MCP, as an agent's client would.

With --upkeep, no tree gets an index of its own: each project's trees are taken in release
order (by version for --sdists, by commit time for --git) through ONE working directory, made
equal to each tree in turn (changed files rewritten, removed ones deleted, its .smart-context
kept), indexed incrementally (`smart-context index`, not --full), then served and asked as
above: the answers of an index kept up through a project's history, against those of fresh
indexes in a default run. It also prints each working directory's index size on disk beside a
fresh `index --full` of its last tree (deleted documents must not pile up). In both modes, a
call answered with isError (or INTERNAL), or a server that died, counts as an error.

The function hit is reported twice: by the set's spans, and by those plus the definitions the
fix changes read from the tree (`changed_definitions`), since the set names no span for a
method added to a class; by the spans also among the first five code items only.

Usage:
  scripts/eval-explore.py --sdists /tmp/evalsrc/trees [--bin target/release/smart-context]
                          [--only django] [--limit N] [--json report.json] [--show-misses]
                          [--max-results N] [--upkeep [--upkeep-work DIR]]
"""

import argparse
import ast
import collections
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "eval", "swebench-lite-dev.jsonl")
# The baselines rank source files only (what a fix changes), which makes them stronger than
# over every text file.
CODE_EXT = {".py", ".pyx", ".pxd", ".pyi", ".js", ".ts", ".c", ".cpp", ".h"}
SKIP_DIRS = {".git", ".smart-context", "node_modules", "__pycache__", "build", "dist"}


# ---------------------------------------------------------------- trees


def project_of(repo):
    return repo.split("/")[1]


def sdist_trees(sdists, project):
    out = []
    for name in sorted(os.listdir(sdists)):
        if name.lower().startswith(project.lower() + "-"):
            out.append(os.path.join(sdists, name))
    return out


def applies(tree, patch):
    r = subprocess.run(
        ["git", "apply", "--check", "-"], input=patch.encode(), cwd=tree,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return r.returncode == 0


def context_found(tree, patch):
    """How many of the fix's removed and context lines the tree's files hold: the closest
    tree to the base commit when the fix applies to none."""
    found, current, text = 0, None, ""
    for line in patch.splitlines():
        if line.startswith("--- "):
            continue
        if line.startswith("+++ "):
            current = line[4:].strip()
            current = current[2:] if current.startswith("b/") else current
            try:
                text = open(os.path.join(tree, current), encoding="utf-8", errors="replace").read()
            except OSError:
                text = ""
            continue
        if line[:1] in (" ", "-") and len(line.strip()) > 3 and line[1:].strip() in text:
            found += 1
    return found


def assign_sdists(rows, sdists):
    """instance -> tree: a tree the fix applies to (else the one holding most of its context
    lines), choosing greedily the trees that cover most instances."""
    fits = {}
    for row in rows:
        trees = sdist_trees(sdists, project_of(row["repo"]))
        ok = [t for t in trees if applies(t, row["patch"])]
        if not ok:
            scored = [(context_found(t, row["patch"]), t) for t in trees]
            best = max((s for s, _ in scored), default=0)
            ok = [t for s, t in scored if s == best and best > 0][:1]
            row["approx"] = True
        fits[row["instance_id"]] = set(ok)
    chosen = {}
    left = {i for i, ok in fits.items() if ok}
    while left:
        counts = collections.Counter(t for i in left for t in fits[i])
        # Ties by name: the same trees every run (set order varies with the hash seed).
        tree = max(counts, key=lambda t: (counts[t], t))
        for i in [i for i in left if tree in fits[i]]:
            chosen[i] = tree
            left.discard(i)
    return chosen


def export_commits(rows, git_dir, work):
    chosen = {}
    for row in rows:
        clone = os.path.join(git_dir, project_of(row["repo"]))
        tree = os.path.join(work, row["instance_id"])
        if not os.path.isdir(tree):
            os.makedirs(tree)
            archive = subprocess.run(
                ["git", "-C", clone, "archive", row["base_commit"]], check=True,
                stdout=subprocess.PIPE,
            ).stdout
            subprocess.run(["tar", "x", "-C", tree], input=archive, check=True)
        chosen[row["instance_id"]] = tree
    return chosen


def version_key(version):
    """Release order of a version string: 2.2a1 < 2.2 < 2.2.5 < 3.0a1, 3.5.0rc1 < 3.5.0,
    0.22 == 0.22.0 (PEP 440's pre-releases, enough for these projects' names)."""
    m = re.match(r"(\d+(?:\.\d+)*)(?:[.-]?(a|b|c|rc|alpha|beta|dev|post)\.?(\d*))?", version)
    if not m:
        return ((), 0, 0, version)
    release = tuple(int(p) for p in m.group(1).split("."))
    while release and release[-1] == 0:
        release = release[:-1]
    phase = {"dev": 0, "a": 1, "alpha": 1, "b": 2, "beta": 2, "c": 3, "rc": 3, "post": 5}
    return (release, phase.get(m.group(2), 4), int(m.group(3) or 0), version)


def upkeep_order(by_tree, git_dir):
    """project -> its trees in release order: by the version in the tree's name for --sdists,
    by the base commit's committer time for --git."""
    out = collections.defaultdict(list)
    for tree, group in by_tree.items():
        project = project_of(group[0]["repo"])
        if git_dir:
            clone = os.path.join(git_dir, project)
            key = int(subprocess.run(
                ["git", "-C", clone, "log", "-1", "--format=%ct", group[0]["base_commit"]],
                check=True, stdout=subprocess.PIPE, text=True,
            ).stdout.strip())
        else:
            key = version_key(os.path.basename(tree)[len(project) + 1:])
        out[project].append((key, tree))
    return {p: [t for _, t in sorted(trees)] for p, trees in sorted(out.items())}


def sync_tree(source, work):
    """Makes `work` hold what `source` holds, as a checkout would: a file whose content
    differs is rewritten (its mtime now), one that is gone deleted, unchanged ones left
    alone; .smart-context on either side is left out (the working one is the kept index).
    Returns (written, deleted)."""
    written = deleted = 0
    wanted = set()
    for base, dirs, files in os.walk(source):
        rel = os.path.relpath(base, source)
        dirs[:] = [d for d in dirs if not (rel == "." and d == ".smart-context")]
        # A link to a directory is not walked: it is copied as the link it is.
        links = [d for d in dirs if os.path.islink(os.path.join(base, d))]
        dirs[:] = [d for d in dirs if d not in links]
        for d in dirs:
            reld = os.path.normpath(os.path.join(rel, d))
            wanted.add(reld)
            dst = os.path.join(work, reld)
            if os.path.lexists(dst) and (os.path.islink(dst) or not os.path.isdir(dst)):
                deleted += remove_path(dst)
            os.makedirs(dst, exist_ok=True)
        for f in files + links:
            relf = os.path.normpath(os.path.join(rel, f))
            wanted.add(relf)
            src, dst = os.path.join(base, f), os.path.join(work, relf)
            if os.path.islink(src):
                if not (os.path.islink(dst) and os.readlink(dst) == os.readlink(src)):
                    deleted += make_way(dst)
                    os.symlink(os.readlink(src), dst)
                    written += 1
                continue
            if os.path.lexists(dst) and (
                os.path.islink(dst) or os.path.isdir(dst)
                or os.path.getsize(dst) != os.path.getsize(src) or not same_content(src, dst)
            ):
                deleted += make_way(dst)
            if not os.path.lexists(dst):
                shutil.copyfile(src, dst)
                written += 1
    for base, dirs, files in os.walk(work, topdown=False):
        rel = os.path.relpath(base, work)
        if rel.split(os.sep)[0] == ".smart-context":
            continue
        links = [d for d in dirs if os.path.islink(os.path.join(base, d))]
        for f in files + links:
            relf = os.path.normpath(os.path.join(rel, f))
            if relf not in wanted:
                os.unlink(os.path.join(base, f))
                deleted += 1
        if rel != "." and rel not in wanted:
            os.rmdir(base)
    return written, deleted


def same_content(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 16), fb.read(1 << 16)
            if x != y:
                return False
            if not x:
                return True


def make_way(path):
    """Clears `path` for a file or link: a file or link there is rewritten (not counted), a
    directory there is deleted (its files counted)."""
    if os.path.isdir(path) and not os.path.islink(path):
        return remove_path(path)
    remove_path(path)
    return 0


def remove_path(path):
    """Removes a file, link or directory; how many files (and links) that was."""
    if os.path.isdir(path) and not os.path.islink(path):
        n = sum(len(files) for _, _, files in os.walk(path))
        shutil.rmtree(path)
        return n
    if os.path.lexists(path):
        os.unlink(path)
        return 1
    return 0


def disk_size(path):
    """Bytes under a directory (or of a file)."""
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for base, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(base, f)).st_size
            except OSError:
                pass
    return total


def index_sizes(root):
    state = os.path.join(root, ".smart-context")
    return disk_size(os.path.join(state, "index")), disk_size(os.path.join(state, "state.db"))


def segments(root):
    """The full-text index's segments, documents and deleted documents (tantivy's
    meta.json), as words; empty when it cannot be read."""
    try:
        meta = json.load(open(os.path.join(root, ".smart-context", "index", "meta.json")))
    except (OSError, ValueError):
        return ""
    docs = sum(s.get("max_doc", 0) for s in meta.get("segments", []))
    deleted = sum((s.get("deletes") or {}).get("num_deleted_docs", 0)
                  for s in meta.get("segments", []))
    return f"{len(meta.get('segments', []))} segments, {deleted} of {docs} documents deleted"


def run_index(binary, root, full=False):
    """`smart-context index` (incremental unless full) and its JSON report."""
    r = subprocess.run([binary, "index", "--root", root, "--json"] + (["--full"] if full else []),
                       check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


# ---------------------------------------------------------------- baselines

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def terms(text):
    """Lower-case words and identifier parts."""
    out = []
    for w in WORD.findall(text):
        lw = w.lower()
        out.append(lw)
        parts = [p.lower() for s in w.split("_") for p in CAMEL.findall(s)]
        if len(parts) > 1:
            out.extend(parts)
    return out


class Corpus:
    """Whole source files of a tree, for the baselines."""

    def __init__(self, tree):
        self.paths, self.tf, self.df, self.lengths = [], [], collections.Counter(), []
        self.idents = []
        for base, dirs, files in os.walk(tree):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
            for f in files:
                if os.path.splitext(f)[1].lower() not in CODE_EXT:
                    continue
                full = os.path.join(base, f)
                try:
                    if os.path.getsize(full) > 1 << 20:
                        continue
                    text = open(full, encoding="utf-8", errors="replace").read()
                except OSError:
                    continue
                ts = terms(text)
                tf = collections.Counter(ts)
                self.paths.append(os.path.relpath(full, tree))
                self.tf.append(tf)
                self.lengths.append(len(ts))
                self.df.update(tf.keys())
                self.idents.append(set(WORD.findall(text)))
        self.n = len(self.paths)
        self.avg = sum(self.lengths) / max(1, self.n)
        self.postings = collections.defaultdict(list)
        for i, tf in enumerate(self.tf):
            for t, c in tf.items():
                self.postings[t].append((i, c))

    def idf(self, t):
        df = self.df.get(t, 0)
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def bm25(self, query, k1=1.2, b=0.75):
        scores = collections.Counter()
        for t, qtf in collections.Counter(terms(query)).items():
            if t not in self.postings:
                continue
            idf = self.idf(t)
            for i, c in self.postings[t]:
                norm = c * (k1 + 1) / (c + k1 * (1 - b + b * self.lengths[i] / self.avg))
                scores[i] += idf * norm
        return [self.paths[i] for i, _ in scores.most_common(10)]

    def grep(self, query):
        """Identifiers of the issue (snake, camel, dotted parts, backticked), files by the
        IDF-weighted count of the identifiers they contain."""
        idents = {
            w for w in WORD.findall(query)
            if "_" in w or re.search(r"[a-z][A-Z]", w) or re.search(r"`" + re.escape(w), query)
        }
        scores = collections.Counter()
        for w in idents:
            hits = [i for i, ids in enumerate(self.idents) if w in ids]
            if not hits:
                continue
            weight = math.log(1 + self.n / len(hits))
            for i in hits:
                scores[i] += weight
        return [self.paths[i] for i, _ in scores.most_common(10)]


# ---------------------------------------------------------------- MCP


class Server:
    """`smart-context serve` over stdio, spoken to as an MCP client does."""

    def __init__(self, binary, tree):
        self.proc = subprocess.Popen(
            [binary, "serve", "--root", tree], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=open(os.path.join(tempfile.gettempdir(), "eval-explore-serve.log"), "ab"),
        )
        self.next_id = 0
        self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "eval-explore", "version": "1"},
        })
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the server exited")
            message = json.loads(line)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]

    def call(self, tool, arguments):
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def ask(server, tool, arguments):
    """A call and what failed of it: (result, None), or (result, error) when the server
    answered isError (BUSY retried for a while first) or INTERNAL, sent a JSON-RPC error or
    is gone (then the result is empty)."""
    deadline = time.time() + 10
    while True:
        try:
            result = server.call(tool, arguments)
        except (RuntimeError, OSError, ValueError) as e:
            return {}, f"{type(e).__name__}: {str(e)[:200]}"
        text = "".join(c.get("text", "") for c in result.get("content", []))
        code = (result.get("structuredContent") or {}).get("code")
        if result.get("isError") and (code == "BUSY" or text.startswith("BUSY")) \
                and time.time() < deadline:
            time.sleep(0.2)
            continue
        if result.get("isError") or text.startswith("INTERNAL"):
            first = text.strip().split("\n")[0][:200]
            code = code or "isError"
            return result, first if first.startswith(code) else f"{code}: {first}"
        return result, None


# ---------------------------------------------------------------- scoring


def first_files(paths, k):
    out = []
    for p in paths:
        if p not in out:
            out.append(p)
    return out[:k]


def hit(files, gold, k):
    return any(f in gold for f in files[:k])


def span_names(spans):
    """The names a fix's spans give (each span's function and class: an item showing the
    changed class counts), and the spans that are a bare class (the evaluation set names a
    change in `X.__init__` by `X`)."""
    names, bare = set(), set()
    for items in spans.values():
        for s in items:
            if s != "imports":
                names.add(s.split(".")[-1])
                names.add(s.split(".")[0])
                if "." not in s:
                    bare.add(s)
    return names, bare


def changed_definitions(tree, patch):
    """The functions and classes a fix changes, read from the tree itself: each hunk found in
    its file by its old text (so an offset does not matter), each changed line's innermost
    definition (Python's `ast`), and an insertion given to the definition holding the last
    code line before it at a lower indent (a method added to a class changes the class).
    Each with its outermost container, as the evaluation set names a method's class. None
    when a hunk cannot be placed (an approximate tree), so the caller keeps the set's spans;
    a file the fix creates holds nothing to find."""
    names = set()
    for diff in re.split(r"(?m)^diff --git ", patch)[1:]:
        m = re.search(r"(?m)^\+\+\+ b/(\S+)", diff)
        if not m or not m.group(1).endswith(".py") or re.search(r"(?m)^--- /dev/null", diff):
            continue
        try:
            text = open(os.path.join(tree, m.group(1)), encoding="utf-8").read()
            nodes = [n for n in ast.walk(ast.parse(text))
                     if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        except (OSError, SyntaxError, ValueError):
            return None
        lines = text.split("\n")

        def start(n):
            return min([n.lineno] + [d.lineno for d in n.decorator_list])

        def holding(line, deeper_than=None):
            """The innermost definition holding a 1-based line (and, for an insertion,
            indented less than the inserted code), with its outermost container."""
            inner = [n for n in nodes if start(n) <= line <= n.end_lineno
                     and (deeper_than is None or n.col_offset < deeper_than)]
            if not inner:
                return None
            inner.sort(key=lambda n: n.end_lineno - start(n))
            return inner[0], inner[-1]

        for hunk in re.split(r"(?m)^@@[^\n]*@@[^\n]*\n", diff)[1:]:
            body = [l for l in hunk.split("\n") if l[:1] in (" ", "-", "+")]
            old = [l[1:] for l in body if l[:1] in (" ", "-")]
            at = next((i for i in range(len(lines) - len(old) + 1)
                       if lines[i:i + len(old)] == old), None) if old else None
            if at is None:
                return None
            line = at  # old lines passed so far: the next one is line + 1 (1-based)
            head = True  # the next "+" line with text opens an insertion
            for l in body:
                found = None
                if l[:1] == "-":
                    found = holding(line + 1)
                    line += 1
                    head = True
                elif l[:1] == " ":
                    line += 1
                    head = True
                elif l[1:].strip() and head:
                    # An insertion belongs to the definition holding the last code line
                    # before it that is indented less than its first line.
                    head = False
                    indent = len(l[1:]) - len(l[1:].lstrip())
                    before = line
                    while before > 0 and not lines[before - 1].strip():
                        before -= 1
                    found = holding(before, indent) if before > 0 else None
                if found:
                    names.add(found[0].name)
                    names.add(found[1].name)
    return names


def is_changed_symbol(title, names, bare):
    """Whether an item (its title: `Class::method`, `mod.func`) is a changed span: its last
    part is a span's name, or it is the constructor of a class named as a bare span."""
    parts = re.split(r"::|\.", title or "")
    if parts[-1] in names:
        return True
    return parts[-1] == "__init__" and len(parts) > 1 and parts[-2] in bare


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DATA)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--git", help="directory of clones named like the repository (django, ...)")
    src.add_argument("--sdists", help="directory of extracted release trees <project>-<version>")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "eval-explore-trees"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "smart-context"))
    ap.add_argument("--only", help="only instances whose repository contains this")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--json", help="write per-instance results here")
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--max-results", type=int, help="limits.maxResults of each call (default: explore's)")
    ap.add_argument("--upkeep", action="store_true",
                    help="one working directory per project, its trees in release order, each "
                         "indexed incrementally into the index the previous one left")
    ap.add_argument("--upkeep-work", help="the working directories' parent, kept (default: a "
                    "temporary directory, removed at the end)")
    args = ap.parse_args()

    rows = [json.loads(l) for l in open(args.data)]
    if args.only:
        rows = [r for r in rows if args.only in r["repo"]]
    if args.limit:
        rows = rows[: args.limit]
    chosen = export_commits(rows, args.git, args.work) if args.git else assign_sdists(rows, args.sdists)
    by_tree = collections.defaultdict(list)
    for row in rows:
        if row["instance_id"] in chosen:
            by_tree[chosen[row["instance_id"]]].append(row)
    print(f"{len(chosen)} of {len(rows)} instances on {len(by_tree)} trees", file=sys.stderr)

    # (tree, the directory indexed and served for it): the tree itself, or with --upkeep its
    # project's working directory, made equal to the tree first.
    if args.upkeep:
        upkeep_base = args.upkeep_work or tempfile.mkdtemp(prefix="eval-explore-upkeep-")
        order = upkeep_order(by_tree, args.git)
        plan = [(tree, os.path.join(upkeep_base, project))
                for project, trees in order.items() for tree in trees]
        print(f"upkeep: working directories under {upkeep_base}; " + "; ".join(
            f"{p}: {' -> '.join(os.path.basename(t) for t in ts)}" for p, ts in order.items()),
            file=sys.stderr)
    else:
        plan = [(tree, tree) for tree in sorted(by_tree)]

    def start_server(root):
        server = Server(args.bin, root)
        # The graphs (PageRank, which explore weighs) built before the first question, as in
        # a session that has been running: one understand call waits for them.
        _, failed = ask(server, "understand", {"goal": "architecture of the project", "scope": "project"})
        if failed:
            print(f"  understand (warm-up) failed: {failed}", file=sys.stderr)
        return server

    results = []
    for tree, root in plan:
        group = by_tree[tree]
        t0 = time.time()
        if args.upkeep:
            os.makedirs(root, exist_ok=True)
            written, deleted = sync_tree(tree, root)
            report = run_index(args.bin, root)
            note = (f" (upkeep: {written} files written, {deleted} deleted; index "
                    f"{sum((report.get('indexed') or {}).values())} indexed, "
                    f"{report.get('removed', '?')} removed, {report.get('unchanged', '?')} unchanged)")
        else:
            subprocess.run([args.bin, "index", "--root", tree], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            note = ""
        corpus = Corpus(tree)
        server = start_server(root)
        print(f"{os.path.basename(tree)}: {len(group)} issues, {corpus.n} files, "
              f"indexed in {time.time() - t0:.0f}s{note}", file=sys.stderr)
        for row in group:
            gold = set(row["gold_files"])
            start = time.perf_counter()
            call = {"query": row["problem_statement"]}
            if args.max_results:
                call["limits"] = {"maxResults": args.max_results}
            result, error = ask(server, "explore", call)
            ms = (time.perf_counter() - start) * 1000
            if error:
                print(f"  error {row['instance_id']}: {error}", file=sys.stderr)
                if server.proc.poll() is not None:
                    server = start_server(root)
            data = (result.get("structuredContent") or {}).get("data") or {}
            code = data.get("code") or []
            docs = data.get("docs") or []
            text = "".join(c.get("text", "") for c in result.get("content", []))
            files = first_files([i.get("filePath") for i in code], 10)
            names, bare = span_names(row["expected_spans"])
            symbol_at = [
                i.get("filePath") in gold and is_changed_symbol(i.get("title"), names, bare)
                for i in code
            ]
            symbol_hit = any(symbol_at)
            defs = None if row.get("approx") else changed_definitions(tree, row["patch"])
            # The set's spans leave out some changes (a method added to a class: no span);
            # the definitions read from the fix fill them in.
            definition_hit = any(
                i.get("filePath") in gold
                and is_changed_symbol(i.get("title"), names | (defs or set()), bare)
                for i in code
            )
            r = {
                "id": row["instance_id"], "definition_hit": definition_hit,
                "changed": sorted(defs) if defs is not None else None, "tree": os.path.basename(tree),
                "approx": row.get("approx", False), "gold": sorted(gold),
                "explore": files, "bm25": corpus.bm25(row["problem_statement"]),
                "grep": corpus.grep(row["problem_statement"]),
                "function_hit": symbol_hit, "function_hit5": any(symbol_at[:5]), "ms": ms, "tokens": len(text) / 4,
                "status": (result.get("structuredContent") or {}).get("status"),
                "code_items": len(code), "doc_items": len(docs),
                "titles": [f"{i.get('filePath')}::{i.get('title')}" for i in code],
                "spans": sorted(names),
                "why_empty": sum(1 for i in code + docs if not i.get("why")),
                "error": error,
            }
            results.append(r)
            if args.show_misses and not hit(files, gold, 5):
                print(f"  miss {r['id']}: gold {r['gold']} got {files[:5]}", file=sys.stderr)
        try:
            server.close()
        except (OSError, subprocess.TimeoutExpired) as e:
            print(f"  the server did not close: {e}", file=sys.stderr)
            server.proc.kill()

    def rate(key, k):
        return sum(hit(r[key], set(r["gold"]), k) for r in results) / max(1, len(results))

    mode = ("upkeep: each project's trees in release order through one index kept up "
            "incrementally" if args.upkeep else "a fresh index per tree")
    print(f"\n{len(results)} issues ({sum(r['approx'] for r in results)} on an approximate tree); {mode}")
    print("| ranker | file hit@1 | file hit@5 |")
    print("|---|---|---|")
    for name, key in [("grep of identifiers", "grep"), ("BM25 over files", "bm25"), ("explore", "explore")]:
        print(f"| {name} | {rate(key, 1):.2f} | {rate(key, 5):.2f} |")
    per_repo = collections.defaultdict(list)
    for r in results:
        per_repo[r["id"].split("__")[0]].append(r)
    for repo, rs in sorted(per_repo.items()):
        e = sum(hit(r["explore"], set(r["gold"]), 5) for r in rs) / len(rs)
        b = sum(hit(r["bm25"], set(r["gold"]), 5) for r in rs) / len(rs)
        print(f"  {repo}: explore hit@5 {e:.2f}, BM25 {b:.2f} ({len(rs)} issues)")
    ms = sorted(r["ms"] for r in results)
    toks = sorted(r["tokens"] for r in results)
    fn_hits = sum(r["function_hit"] for r in results)
    fn5 = sum(r["function_hit5"] for r in results)
    print(f"function hit, among the code items: {fn_hits / max(1, len(results)):.3f} "
          f"({fn_hits} of {len(results)}); among the first five: {fn5 / max(1, len(results)):.3f}")
    d_hits = sum(r["definition_hit"] for r in results)
    placed = sum(r["changed"] is not None for r in results)
    print(f"function hit, the set's spans and the definitions the fix changes read on the "
          f"tree ({placed} placed): {d_hits / max(1, len(results)):.3f} ({d_hits} of {len(results)})")
    print(f"latency ms: p50 {statistics.median(ms):.0f}, p90 {ms[int(len(ms) * 0.9) - 1]:.0f}, max {ms[-1]:.0f}")
    print(f"answer tokens (text/4): p50 {statistics.median(toks):.0f}, max {toks[-1]:.0f}")
    print(f"no_results: {sum(r['status'] == 'no_results' for r in results)}; "
          f"items without why: {sum(r['why_empty'] for r in results)}")
    errors = [r for r in results if r["error"]]
    print(f"errors (explore calls answered isError or INTERNAL, or no answer): {len(errors)}"
          + "".join(f"\n  {r['id']} ({r['tree']}): {r['error']}" for r in errors[:10]))
    if args.upkeep:
        print("index on disk, kept up through the trees vs a fresh `index --full` of the last:")
        for project, trees in order.items():
            kept_index, kept_db = index_sizes(os.path.join(upkeep_base, project))
            kept_segments = segments(os.path.join(upkeep_base, project))
            fresh = tempfile.mkdtemp(prefix="eval-explore-fresh-")
            try:
                sync_tree(trees[-1], fresh)
                run_index(args.bin, fresh, full=True)
                fresh_index, fresh_db = index_sizes(fresh)
                fresh_segments = segments(fresh)
            finally:
                shutil.rmtree(fresh, ignore_errors=True)
            mb = 1 << 20
            print(f"  {project} ({len(trees)} trees, last {os.path.basename(trees[-1])}): index "
                  f"{kept_index / mb:.1f} MB vs {fresh_index / mb:.1f} MB fresh "
                  f"({kept_index / max(1, fresh_index):.2f}x); state.db {kept_db / mb:.1f} MB vs "
                  f"{fresh_db / mb:.1f} MB")
            if kept_segments or fresh_segments:
                print(f"    kept: {kept_segments}; fresh: {fresh_segments}")
        if not args.upkeep_work:
            shutil.rmtree(upkeep_base, ignore_errors=True)
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
