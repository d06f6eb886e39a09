#!/usr/bin/env python3
"""Index time, peak memory, index size and explore latency on a large source tree (issue 43).

Assembles a tree of about SIZE megabytes of source (crate directories copied whole from the
cargo registry's sources, in name order, so two runs assemble the same tree), builds a fresh
index of it with the release binary, and reports:

  - the full pass: wall time, MB/s over the bytes the scan saw, peak RSS (getrusage of the child);
  - the index on disk: the tantivy directory by file kind (postings, positions, terms, stored
    documents, fast fields, norms) and state.db by table and index (SQLite's dbstat), against
    the bytes read;
  - the call and dependency graphs' cold build (a new process's first `understand`);
  - explore: p50/p99 over QUERIES identifier and word queries sampled from the tree, one
    server over stdio (mcp_stdio.Server), after the first pass, its first round and a warm
    second one, against ripgrep (`rg`, when on
    PATH; `cargo install ripgrep`) running the same queries as fixed strings over the same tree.

`--source DIR` takes the directories to copy from DIR instead (as for the 1 GB tree of
docs/benchmarks.md: the registry's crates and public repositories exported with `git archive`,
symlinked side by side into one directory).

Usage: python3 scripts/scale-bench.py [--size MB ...] [--queries N] [--keep DIR] [--source DIR]
(cargo build --release first). Numbers and the command go to docs/benchmarks.md.
"""

import argparse
import json
import os
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcp_stdio import Server  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
BINARY = REPO / "target" / "release" / "smart-context"


def registry_sources() -> Path:
    base = Path.home() / ".cargo" / "registry" / "src"
    dirs = sorted(base.glob("*"))
    if not dirs:
        raise SystemExit(f"no crate sources under {base}")
    return dirs[0]


def tree_size(path: Path) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def assemble(source: Path, megabytes: int, dest: Path) -> int:
    """Copies whole crate directories from `source` into `dest` until about `megabytes`."""
    want = megabytes << 20
    total = 0
    for crate in sorted(p for p in source.iterdir() if p.is_dir()):
        size = tree_size(crate)
        shutil.copytree(crate, dest / crate.name, symlinks=True)
        total += size
        if total >= want:
            break
    return total


def run_index(root: Path, env: dict) -> tuple[dict, float, float]:
    """`index --full --json` on `root`: the report, wall seconds, peak RSS in MB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    out = subprocess.run(
        [str(BINARY), "--root", str(root), "index", "--full", "--json"],
        capture_output=True, text=True, env=env, check=True,
    )
    wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest any child reached (KiB on Linux).
    rss_mb = max(peak, before) / 1024
    return json.loads(out.stdout), wall, rss_mb


TANTIVY_KINDS = {
    ".idx": "postings",
    ".pos": "positions",
    ".term": "terms",
    ".store": "stored documents",
    ".fast": "fast fields",
    ".fieldnorm": "norms",
}


def index_sizes(state: Path) -> dict:
    sizes = {"tantivy": {}, "state.db": {}, "other": 0}
    for path in state.rglob("*"):
        if not path.is_file():
            continue
        size = path.stat().st_size
        if path.parent.name == "index" or "index" in path.parts[len(state.parts):-1]:
            kind = TANTIVY_KINDS.get(path.suffix, "other")
            sizes["tantivy"][kind] = sizes["tantivy"].get(kind, 0) + size
        elif path.name == "state.db":
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            for name, pages in db.execute(
                "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
            ):
                sizes["state.db"][name] = pages
            db.close()
        else:
            sizes["other"] += size
    return sizes


def sample_queries(root: Path, n: int, seed: int) -> list[str]:
    """Identifiers and ordinary words drawn from the tree's Rust sources."""
    rng = random.Random(seed)
    files = sorted(root.rglob("*.rs"))
    rng.shuffle(files)
    words = re.compile(r"\b(?:fn|struct|enum|trait)\s+([A-Za-z_][A-Za-z0-9_]{3,})")
    comment = re.compile(r"//+\s*([a-z]{4,})\s+([a-z]{4,})")
    queries: list[str] = []
    for path in files:
        try:
            text = path.read_text(errors="ignore")
        except OSError:
            continue
        names = words.findall(text)
        phrases = comment.findall(text)
        if names:
            queries.append(rng.choice(names))
        if phrases and len(queries) % 3 == 0:
            queries.append(" ".join(rng.choice(phrases)))
        if len(queries) >= n:
            break
    return queries[:n]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def explore_latency(root: Path, queries: list[str], env: dict) -> list[list[float]]:
    """The queries twice through one new server: its first round (cold caches, the startup
    pass beside it) and a second, warm one."""
    server = Server(str(BINARY), root, env=env)
    try:
        server.wait_fresh()
        rounds = []
        for _ in range(2):
            times = []
            for query in queries:
                elapsed, _ = server.call("explore", {"query": query})
                times.append(elapsed)
            rounds.append(times)
        return rounds
    finally:
        server.p.kill()


def graph_build(root: Path, env: dict) -> float | None:
    """The call and dependency graphs' cold build, ms: what a new process's first `understand`
    waits for (the analysis layer logs it at debug), on the first Rust file of the tree."""
    first = next(iter(sorted(root.rglob("*.rs"))), None)
    if first is None:
        return None
    out = subprocess.run(
        [str(BINARY), "--root", str(root), "call", "understand",
         json.dumps({"path": str(first.relative_to(root))})],
        capture_output=True, text=True,
        env=dict(env, SMART_CONTEXT_LOG="smart_context::analysis=debug"),
    )
    found = re.search(r"analysis graphs rebuilt .*total_ms=(\d+)", out.stderr)
    return float(found.group(1)) if found else None


def ripgrep_latency(root: Path, queries: list[str]) -> list[float] | None:
    rg = shutil.which("rg")
    if not rg:
        return None
    times = []
    for query in queries:
        started = time.perf_counter()
        subprocess.run(
            [rg, "-F", "-i", "-c", "--", query.split()[0], str(root)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        times.append((time.perf_counter() - started) * 1000)
    return times


def mb(n: int) -> str:
    return f"{n / (1 << 20):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, nargs="+", default=[100], help="tree sizes, MB")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--source", type=Path, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="assemble trees here, keep them")
    args = parser.parse_args()
    if not BINARY.exists():
        raise SystemExit(f"{BINARY} is missing: cargo build --release first")
    source = args.source or registry_sources()
    env = dict(os.environ, SMART_CONTEXT_LOG="warn")
    env.setdefault("XDG_CACHE_HOME", str(REPO / "target" / "tmp" / "xdg-cache"))
    for size in args.size:
        base = args.keep or Path(tempfile.mkdtemp(prefix="scale-"))
        root = base / f"tree-{size}mb"
        if not root.exists():
            root.mkdir(parents=True)
            assemble(source, size, root)
        shutil.rmtree(root / ".smart-context", ignore_errors=True)
        on_disk = tree_size(root)
        report, wall, rss = run_index(root, env)
        read = report.get("bytes") or on_disk
        sizes = index_sizes(root / ".smart-context")
        tantivy = sum(sizes["tantivy"].values())
        db = sum(sizes["state.db"].values())
        print(f"\n== {size} MB tree: {mb(on_disk)} MB on disk, {report.get('scanned')} files scanned")
        print(f"index --full: {wall:.1f} s, {read / (1 << 20) / wall:.2f} MB/s of {mb(read)} MB read "
              f"({on_disk / (1 << 20) / wall:.2f} MB/s of the tree), peak RSS {rss:.0f} MB")
        print(f"phases (ms): {report.get('phase_ms') or report.get('phaseMs')}; "
              f"{report.get('chunks')} chunks, {report.get('symbols')} symbols, indexed {report.get('indexed')}")
        print(f"index on disk: tantivy {mb(tantivy)} MB + state.db {mb(db)} MB + other "
              f"{mb(sizes['other'])} MB = {(tantivy + db + sizes['other']) / read:.2f}x the bytes read")
        for kind, n in sorted(sizes["tantivy"].items(), key=lambda kv: -kv[1]):
            print(f"  tantivy {kind}: {mb(n)} MB")
        by_field = report.get("searchIndexBytes") or {}
        for part, n in sorted(by_field.items(), key=lambda kv: -kv[1])[:10]:
            print(f"  tantivy {part}: {mb(n)} MB")
        for name, n in list(sizes["state.db"].items())[:12]:
            print(f"  state.db {name}: {mb(n)} MB")
        built = graph_build(root, env)
        if built is not None:
            print(f"call and dependency graphs, cold build: {built / 1000:.1f} s")
        queries = sample_queries(root, args.queries, args.seed)
        for name, ours in zip(("first round", "warm round"), explore_latency(root, queries, env)):
            print(f"explore, {name} ({len(ours)} queries): p50 {statistics.median(ours):.1f} ms, "
                  f"p99 {percentile(ours, 0.99):.1f} ms, max {max(ours):.1f} ms")
        theirs = ripgrep_latency(root, queries)
        if theirs:
            print(f"ripgrep -F -i -c, same queries: p50 {statistics.median(theirs):.1f} ms, "
                  f"p99 {percentile(theirs, 0.99):.1f} ms")
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
