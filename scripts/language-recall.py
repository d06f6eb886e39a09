#!/usr/bin/env python3
"""Definition recall and precision of the index against universal-ctags, per language.

For each language a real project (a git mirror brought by the `fetch` tool, or any directory)
is exported to target/lang-eval/<name>, indexed by the smart-context binary (`index --full`,
fresh state), and the definitions of the index's catalogue (.smart-context/state.db) are
compared with those universal-ctags (Debian's `universal-ctags`) writes for the same files:

- recall: ctags definitions (of the kinds listed per language: definitions, not `require`
  lines or heredoc labels; nameless ones and a function's local values left out) the index
  has too: same file, same name, and the ctags line inside the index definition's range or
  within two lines of its start;
- precision: index definitions ctags has (a lower bound: ctags leaves out local functions,
  lambdas assigned to fields and other things the index keeps);
- speed: the files and bytes of that language, and the wall time of the whole `index --full`
  (every file of the project, the search index and catalogue included), median of --runs;
  Python (parsed by the host itself, natively) is the reference for the components' speed.

Usage: python3 scripts/language-recall.py [--bin target/release/smart-context]
           [--only ruby,php] [--runs 3] [--show 10]
"""

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MIRRORS = Path("/work/.mirror")

# language (as the index names it), ctags language, the file extensions, the ctags kinds
# that are definitions (PHP's `a` and Ruby's `L` are `use` and `require` lines, Sh's `s` and
# `h` sourced scripts and heredoc labels), the project, and the part of it exported (the
# whole tree when empty).
LANGUAGES = [
    ("ruby", "Ruby", ["rb"], "cfmSCAa", "sinatra+sinatra", ""),
    ("php", "PHP", ["php"], "cdfintv", "slimphp+Slim", ""),
    ("csharp", "C#", ["cs"], "cEefgimnpst", "JamesNK+Newtonsoft.Json", "Src/Newtonsoft.Json"),
    ("bash", "Sh", ["sh", "bash"], "af", "nvm-sh+nvm", ""),
    ("lua", "Lua", ["lua"], "f", "luarocks+luarocks", ""),
    ("kotlin", "Kotlin", ["kt", "kts"], "pcimoTCv", "square+moshi", ""),
    ("elixir", "Elixir", ["ex", "exs"], "pmfdgia", "elixir-plug+plug", ""),
    ("erlang", "Erlang", ["erl", "hrl"], "dfmrt", "ninenines+cowboy", ""),
    ("haskell", "Haskell", ["hs"], "tcfm", "jaspervdj+hakyll", ""),
    ("r", "R", ["R", "r"], "f", "tidyverse+glue", ""),
    ("ocaml", "OCaml", ["ml", "mli"], "CMcefmprtv", "ocaml-community+yojson", "lib"),
    ("objc", "ObjectiveC", ["m"], "CIPMcefimpst", "AFNetworking+AFNetworking", "AFNetworking"),
    ("clojure", "Clojure", ["clj", "cljc", "cljs"], "fn", "ring-clojure+ring", ""),
    ("elm", "Elm", ["elm"], "acfmpt", "rtfeldman+elm-spa-example", ""),
    ("sql", "SQL", ["sql"], "tEvifTpV", "jOOQ+sakila", "postgres-sakila-db"),
    ("css", "CSS", ["css"], "cis", "animate-css+animate.css", "source"),
    # Build and interface files: whole file names count as extensions here.
    ("cmake", "CMake", ["cmake", "CMakeLists.txt"], "Dfmptv", "fmtlib+fmt", ""),
    ("make", "Make", ["mk", "Makefile", "makefile", "GNUmakefile"], "mt", "micropython+micropython", ""),
    ("protobuf", "Protobuf", ["proto"], "Gefgmoprs", "grpc+grpc-proto", ""),
    # A language the host parses itself, for the speed of the native path beside the
    # components' (and the native extraction's own recall).
    ("python", "Python", ["py"], "cfm", "pallets+flask", ""),
]


OBJC_ATTRIBUTES = {"readwrite", "readonly", "nonatomic", "atomic", "strong", "weak", "copy",
                   "assign", "retain", "nullable", "nonnull", "class"}


def export(mirror: str, subtree: str, dest: Path) -> Path:
    """The mirror's newest commit (or its subtree) as a plain tree (no .git) at dest."""
    if dest.exists():
        return dest
    git_dir = MIRRORS / mirror / "repo"
    if (git_dir / ".git").is_dir():
        git_dir = git_dir / ".git"
    if not git_dir.exists():
        sys.exit(f"{git_dir} is missing: bring it with the fetch tool (github:{mirror.replace('+', '/')})")
    archive = subprocess.run(
        ["git", "--git-dir", str(git_dir), "archive", "HEAD", *([subtree] if subtree else [])],
        capture_output=True,
    )
    dest.mkdir(parents=True)
    if archive.returncode == 0:
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
        return dest
    # A snapshot may lack its largest files: export the rest one by one.
    listing = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", "HEAD", *([subtree] if subtree else [])],
        check=True, capture_output=True,
    ).stdout.decode()
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        blob = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "blob", meta.split()[2]],
                              capture_output=True)
        if blob.returncode == 0:
            (dest / path).parent.mkdir(parents=True, exist_ok=True)
            (dest / path).write_bytes(blob.stdout)
    return dest


def ctags_defs(root: Path, ctags_lang: str, extensions, kinds: str):
    files = [
        str(p.relative_to(root))
        for p in sorted(root.rglob("*"))
        if p.is_file() and (p.suffix.lstrip(".") in extensions or p.name in extensions)
    ]
    out = subprocess.run(
        [
            "ctags", "--output-format=json", "--fields=+nKzZ", "-f", "-",
            f"--languages={ctags_lang}", f"--kinds-{ctags_lang}={kinds}",
            f"--language-force={ctags_lang}", "-L", "-",
        ],
        cwd=root, input="\n".join(files), capture_output=True, text=True, check=True,
    ).stdout
    defs = []
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag":
            continue
        name = tag["name"].strip()
        # Not definitions an outline shows: what has no name (ctags names `new class {}`
        # AnonymousClass..., a Kotlin lambda `<lambda>`), and a function's own values (the
        # locals ctags's Kotlin parser lists as constants and variables).
        if name.startswith(("AnonymousClass", "anonFunc")) or name in ("<lambda>", "_"):
            continue
        # ctags adds a module for each OCaml file (`Ast` for ast.ml, at line 1): the file
        # itself, not a definition written in it.
        if ctags_lang == "OCaml" and tag.get("kind") == "module" and int(tag["line"]) == 1 \
                and name == Path(tag["path"]).name.split(".")[0].capitalize():
            continue
        # ctags 5.9 misreads Objective-C in two ways this comparison leaves out: a block
        # typedef's parameter names as typedefs (`typedef void (^B)(NSError *error)` gives
        # `error`), and a property's attributes or a preprocessor test as categories
        # (`@property (readwrite, ...)` gives `readwrite`).
        if ctags_lang == "ObjectiveC" and (
            (tag.get("kind") == "typedef" and name[:1].islower())
            or (tag.get("kind") == "category" and (
                name in OBJC_ATTRIBUTES or name.startswith("__") or name == "defined"))):
            continue
        scope_kind = tag.get("scopeKind", "")
        if scope_kind in ("method", "function") and tag.get("kind") in ("constant", "variable"):
            continue
        defs.append((tag["path"], name, int(tag["line"]), tag.get("kind", "?")))
    return files, defs


def index(binary: Path, root: Path, runs: int):
    """Median wall seconds of `index --full` on a fresh state, and the report of the last."""
    times, report = [], None
    for _ in range(runs):
        shutil.rmtree(root / ".smart-context", ignore_errors=True)
        started = time.perf_counter()
        out = subprocess.run(
            [str(binary), "--root", str(root), "index", "--full", "--json"],
            capture_output=True, text=True, env={**os.environ, "RUST_LOG": "warn"},
        )
        times.append(time.perf_counter() - started)
        if out.returncode != 0:
            sys.exit(f"indexing {root} failed: {out.stderr[-2000:]}")
        report = json.loads(out.stdout)
    return statistics.median(times), report


def our_defs(root: Path, language: str):
    db = sqlite3.connect(root / ".smart-context" / "state.db")
    rows = db.execute(
        "SELECT f.path, s.name, s.start_line, s.end_line, s.kind, s.container FROM symbols s "
        "JOIN files f ON f.id = s.id >> 24 WHERE f.language = ?",
        (language,),
    ).fetchall()
    # A dotted Haskell module the index splits (`Data.List.Extended`: `Extended` in
    # `Data.List`) is compared whole, as ctags writes it.
    whole = language == "haskell"
    return [
        (path, f"{container}.{name}" if whole and kind == "module" and container else name,
         start, end, kind)
        for path, name, start, end, kind, container in rows
    ]


def plain(language: str, name: str) -> str:
    """A name as both sides spell it: ctags writes Ruby's `attr_accessor :a` as `a` and `a=`
    and drops the `?` of `alias has_key? key?` (the index keeps one `a` and the `?`), and
    names Lua's `function M.f` and `function M:f` as the whole path (the index: `f` in `M`)."""
    if language == "ruby":
        return name.rstrip("?!=")
    if language == "lua":
        return name.replace(":", ".").rsplit(".", 1)[-1]
    if language == "ocaml":
        # A polymorphic variant's tag (`` `Assoc ``) and an operator (`( % )`) as ctags
        # names them.
        return name.strip("`() ")
    if language == "elm":
        # ctags names a constructor or type with its arguments (`Article Article.Model`).
        return name.split(" ", 1)[0]
    if language == "objc":
        # ctags names a method by its whole selector (`addItem:withCount:`), the index by its
        # first part.
        return name.split(":", 1)[0]
    if language == "haskell":
        # ctags names `module Data.List.Extended` by its first segment, the index by its
        # last (with the rest as container): compare modules by their first segment.
        return name.split(".", 1)[0] if "." in name else name
    return name


def matched(tag_line, start, end):
    return start <= tag_line <= end or abs(tag_line - start) <= 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=str(REPO / "target/release/smart-context"))
    ap.add_argument("--only", help="comma-separated index language names")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--show", type=int, default=0, help="print this many misses per language")
    args = ap.parse_args()
    binary = Path(args.bin)
    only = set(args.only.split(",")) if args.only else None
    rows = []
    for language, ctags_lang, exts, kinds, mirror, subtree in LANGUAGES:
        if only and language not in only:
            continue
        root = export(mirror, subtree, REPO / "target/lang-eval" / mirror)
        files, theirs = ctags_defs(root, ctags_lang, exts, kinds)
        seconds, report = index(binary, root, args.runs)
        ours = our_defs(root, language)
        by_file_name = defaultdict(list)
        ours = [(p, plain(language, n), s, e, k) for p, n, s, e, k in ours]
        theirs = [(p, plain(language, n), l, k) for p, n, l, k in theirs]
        for path, name, start, end, _ in ours:
            by_file_name[(path, name)].append((start, end))
        hits, misses = 0, []
        for path, name, line, kind in theirs:
            if any(matched(line, s, e) for s, e in by_file_name.get((path, name), [])):
                hits += 1
            else:
                misses.append((kind, path, line, name))
        theirs_by = defaultdict(list)
        for path, name, line, _ in theirs:
            theirs_by[(path, name)].append(line)
        extra = [
            (kind, path, start, name)
            for path, name, start, end, kind in ours
            if not any(matched(l, start, end) for l in theirs_by.get((path, name), []))
        ]
        size = sum((root / f).stat().st_size for f in files)
        recall = hits / len(theirs) if theirs else float("nan")
        precision = (len(ours) - len(extra)) / len(ours) if ours else float("nan")
        rows.append((language, mirror.replace("+", "/"), len(files), size, len(theirs), len(ours),
                     recall, precision, seconds, report.get("files", {}) if report else {}))
        if args.show:
            print(f"\n{language}: {len(misses)} ctags definitions missed, by kind:",
                  dict(sorted(defaultdict(int, {k: sum(1 for m in misses if m[0] == k) for k in {m[0] for m in misses}}).items())))
            for m in misses[: args.show]:
                print("  missed", *m)
            print(f"{language}: {len(extra)} index definitions ctags lacks, by kind:",
                  dict(sorted({k: sum(1 for x in extra if x[0] == k) for k in {x[0] for x in extra}}.items())))
            for x in extra[: args.show]:
                print("  extra", *x)
    print("\n| language | project | files | KB | ctags defs | index defs | recall | precision | index --full (s) | files/s | MB/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for language, project, nfiles, size, nt, no, recall, precision, seconds, _ in rows:
        print(f"| {language} | {project} | {nfiles} | {size // 1024} | {nt} | {no} | {recall:.3f} | "
              f"{precision:.3f} | {seconds:.2f} | {nfiles / seconds:.0f} | {size / seconds / 1e6:.2f} |")


if __name__ == "__main__":
    main()
