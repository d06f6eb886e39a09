#!/usr/bin/env python3
"""understand on the Django tree, through a real stdio server: the graph build (in the
background after the first index pass, timed from the server's debug log; and after one file
changes), the history read for churn, symbol / file / project scope warm, beside explore's
default answer in the same run, and the server's memory once the graphs exist.

    cargo build --release
    python3 scripts/bench-understand.py [--bin target/release/smart-context] [--runs 20]

The Django 5.2 sdist comes from PyPI into target/bench-understand/ once (scripts/mcp_stdio.py);
`--git` runs git init and one commit per file batch in a copy so there is a history to read.
Medians, in ms.
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from mcp_stdio import CORPUS, Server, tree


def with_history(root: Path, commits: int = 1000) -> Path:
    """A copy of `root` with a git history: one import commit, then `commits` commits of 1-4
    files each (seeded; half of them among 30 "hot" files), each appending a comment line."""
    work = CORPUS / "django-git"
    if (work / ".git").is_dir():
        return work
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(root, work)
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.com",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.com")
    git = lambda *args: subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=work,
                                       env=env, check=True, stdout=subprocess.DEVNULL)
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "import")
    rng = random.Random(7)
    files = sorted(str(p.relative_to(work)) for p in work.rglob("*.py"))
    hot = rng.sample(files, 30)
    for i in range(commits):
        for f in {rng.choice(hot if rng.random() < 0.5 else files) for _ in range(rng.randint(1, 4))}:
            with open(work / f, "a") as out:
                out.write(f"# bench change {i}\n")
        git("commit", "-q", "-a", "-m", f"change {i}")
    return work

def median(f, runs):
    return statistics.median(f() for _ in range(runs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/smart-context")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--git", action="store_true", help="a copy with 1,000 commits of history")
    a = ap.parse_args()
    root = with_history(tree()) if a.git else tree()
    subprocess.run([a.bin, "--root", str(root), "index"], check=True, stdout=subprocess.DEVNULL)
    log = tempfile.NamedTemporaryFile(prefix="bench-understand-", suffix=".log", delete=False)
    env = dict(os.environ, SMART_CONTEXT_LOG="smart_context=debug")
    s = Server(a.bin, root, stderr=log, env=env)
    s.wait_fresh()
    # The graphs are built on a thread of their own once the first pass is done.
    text = ""
    for _ in range(600):
        text = Path(log.name).read_text(errors="replace")
        if "analysis graphs warmed" in text or "not warmed" in text:
            break
        time.sleep(0.2)
    built = re.search(r"total_ms=(\d+).*analysis graphs rebuilt|analysis graphs rebuilt.*total_ms=(\d+)", text)
    history = re.search(r"git history read.*", text)
    no_history = re.search(r"hot spots without churn.*", text)
    symbol = {"goal": "how does filter work", "path": "django/db/models/query.py",
              "symbol": "QuerySet.filter"}
    file = {"goal": "role", "path": "django/db/models/query.py"}
    project = {"goal": "architecture of the project"}
    explore = {"query": "QuerySet filter"}
    rows = []
    explore_ms = median(lambda: s.call("explore", explore)[0], a.runs)
    rows.append(("explore default answer (baseline)", explore_ms))
    if built:
        rows.append(("graph build, cold (background, from the log)", float(built.group(1) or built.group(2))))
    first, _ = s.call("understand", project)
    rss_after = s.rss_mb()
    rows.append(("understand project, first call", first))
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
    print(f"{'server RSS with the graphs':60s} {rss_after:9.0f} MB")
    if history:
        print("history:", history.group(0).strip())
    elif no_history:
        print("history:", no_history.group(0).strip())
    o = r.get("overview", {})
    print(f"graph: {o.get('files')} files, {o.get('definitions')} definitions, "
          f"{o.get('callLinks')} call links, {o.get('importLinks')} import links, "
          f"{o.get('unresolvedCalls')} unresolved call sites")


if __name__ == "__main__":
    main()
