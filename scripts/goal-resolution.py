#!/usr/bin/env python3
"""How often understand reads a plain-English goal as the definition it describes, and whether
its `confidence` says when it is unsure (issue 41).

    cargo build --release
    python3 scripts/goal-resolution.py [--bin target/release/smart-context] [--sample 100]
        [--seed 41] [--root DIR ...] [--hide-names]

The goals are written by the code's own authors: for sampled Python functions and methods
with a docstring (seeded; private `_names`, tests and dunders left out), the docstring's first
sentence as written, identifiers left out (a code-shaped token would pin the definition by
itself); with --hide-names the words of the definition's own name go too, so the goal says
only what the code does ("Return the list of blueprints registered" for
`Flask.iter_blueprints`), a harder test. Each goal goes to `understand` alone (no
path, no symbol) through a stdio server; the answer is right when its target is the
definition, close when the definition is among its alternatives or in the same file. A goal
whose words document several definitions alike ("Sends a POST request": `api.post` and
`Session.post`) cannot tell them apart: an answer naming another of them is counted apart,
as "same words", and the line "right or same words" adds them to the right ones. Reported
per confidence level, so "high" can be checked to mean right.

A root without Python docstrings is read by its doc comments instead: Rust's `///`, Go's
`//`, Java's and TypeScript's `/** */` above a function or method (`commented_goals`), judged
by path and the definition's own name. Each project's line also gives the answers' median and
p90 latency.

With --explore the same goals go to `explore {query}` instead, and the script reports how
often the definition's file is the first code item, among the first five, and the
definition itself among the first five.

With --questions scripts/goal-questions.json the goals are instead questions as an agent asks
them, written by hand for flask and requests without reading the docstrings (each with the
definition meant): fewer, and closer to real use.

Default roots: the Django tree (scripts/mcp_stdio.py) and, when scripts/lsp-callgraph.py has
fetched them, flask and requests under target/lsp-eval/projects/.
"""

import argparse
import ast
import json
import random
import re
import statistics
from collections import Counter
from pathlib import Path

from mcp_stdio import Server, tree

WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|\d+")


def words_of(name: str) -> set:
    return {w.lower() for w in WORD.findall(name)}


def goals(root: Path, hide_names: bool):
    """(path, Container.name, goal) for documented public functions and methods."""
    for path in sorted(root.rglob("*.py")):
        rel = str(path.relative_to(root))
        if "test" in rel or "/migrations/" in rel or "/locale/" in rel:
            continue
        try:
            module = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        todo = [(node, None) for node in module.body]
        while todo:
            node, container = todo.pop()
            if isinstance(node, ast.ClassDef):
                todo.extend((child, node.name) for child in node.body)
                continue
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if node.name.startswith("_"):
                continue
            doc = ast.get_docstring(node)
            if not doc:
                continue
            sentence = re.split(r"(?<=[.!?])\s|\n\s*\n", doc.strip(), maxsplit=1)[0]
            own = words_of(node.name) | words_of(container or "") if hide_names else set()
            kept = [w for w in re.findall(r"[\w'-]+", sentence)
                    if w.lower() not in own and not re.search(r"[_()]|[a-z][A-Z]", w)]
            if len(kept) < 4:
                continue
            qualified = f"{container}.{node.name}" if container else node.name
            yield rel, qualified, " ".join(kept)


# Doc comments of the other languages: the comment's lines, then the declaration it documents.
COMMENTED = {".rs", ".go", ".java", ".ts"}
DECLARATION = {
    ".rs": re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)"),
    ".go": re.compile(r"^func\s+(?:\([^)]*\)\s*)?(\w+)"),
    ".java": re.compile(r"^\s*(?:(?:public|protected|static|final|synchronized|abstract|default)\s+)*"
                        r"(?:<[^>]*>\s*)?[\w.<>\[\], ?]+\s+(\w+)\s*\("),
    ".ts": re.compile(r"^\s*(?:export\s+)?(?:(?:public|protected|static|async|readonly|override|"
                      r"abstract)\s+)*(?:function\s*\*?\s*)?(\w+)\s*(?:<[^>]*>)?\("),
}
SKIPPED_BEFORE_DECLARATION = re.compile(r"^\s*(#\[|@\w)")


def comment_lines(lines, end, suffix):
    """The doc comment ending on the line before `end` (attributes and annotations between
    skipped), as text, and whether one was found."""
    i = end - 1
    while i >= 0 and SKIPPED_BEFORE_DECLARATION.match(lines[i]):
        i -= 1
    if suffix == ".rs" or suffix == ".go":
        marker = "///" if suffix == ".rs" else "//"
        found = []
        while i >= 0 and lines[i].strip().startswith(marker):
            found.append(lines[i].strip()[len(marker):].strip())
            i -= 1
        return " ".join(reversed(found))
    if i < 0 or not lines[i].strip().endswith("*/"):
        return ""
    found = []
    while i >= 0:
        found.append(lines[i].strip())
        if lines[i].strip().startswith("/**"):
            break
        i -= 1
    else:
        return ""
    text = " ".join(l.strip("/* ").strip() for l in reversed(found))
    text = re.sub(r"\{@\w+\s+([^}]*)\}", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.split(r"\s@\w", " " + text)[0].strip()


def commented_goals(root: Path, hide_names: bool):
    """(path, name, goal) for documented functions and methods of Rust, Go, Java and
    TypeScript: the doc comment's first sentence, identifiers left out, and the name where it
    opens the sentence (as Go's comments do; another language's seldom does); elsewhere a
    name that is a plain word stays, as in
    a docstring's goal ("Get the text of this node" for `text()`), so the goal is a sentence
    with no hole in it. Private names (`_x`, Java's `private`) and tests are left
    out. The answer is judged by path and the definition's own name (a container's name is
    spelled differently per language)."""
    for path in sorted(root.rglob("*")):
        if path.suffix not in COMMENTED or not path.is_file():
            continue
        rel = str(path.relative_to(root))
        if "test" in rel.lower() or "node_modules" in rel or rel.endswith(".d.ts"):
            continue
        lines = path.read_text(errors="replace").splitlines()
        for n, line in enumerate(lines):
            m = DECLARATION[path.suffix].match(line)
            if not m or "private" in line.split("(")[0] or m.group(1).startswith("_"):
                continue
            name = m.group(1)
            if name in ("if", "for", "while", "switch", "return", "new", "catch", "constructor"):
                continue
            doc = comment_lines(lines, n, path.suffix)
            if not doc:
                continue
            sentence = re.split(r"(?<=[.!?])\s", doc, maxsplit=1)[0]
            own = words_of(name) if hide_names else set()
            said = re.findall(r"[\w'-]+", sentence)
            if said and said[0].lower() == name.lower():
                said = said[1:]  # Go's comments open with the name: a pin, not a phrasing
            kept = [w for w in said
                    if w.lower() not in own and not re.search(r"[_()]|[a-z][A-Z]", w)]
            if len(kept) < 4:
                continue
            yield rel, name, " ".join(kept)


def sampled(root: Path, sample: int, seed: int, hide_names: bool):
    """Every goal of the root (its docstrings', else its doc comments'), the seeded sample of
    them, and whether they are judged by the definition's own name: a doc comment's are
    (containers are spelled per language), a docstring's by its qualified name."""
    candidates = list(goals(root, hide_names))
    by_own_name = not candidates
    candidates = candidates or list(commented_goals(root, hide_names))
    chosen = random.Random(seed).sample(candidates, min(sample, len(candidates)))
    return candidates, chosen, by_own_name


def names(symbol: str, qualified: str, by_own_name: bool) -> bool:
    """Whether an answer's `symbol` is the goal's definition."""
    return symbol == qualified or (by_own_name and symbol.rsplit(".", 1)[-1] == qualified)


def judge(binary: str, root: Path, sample: int, seed: int, hide_names: bool, questions=None):
    if questions is not None:
        candidates = chosen = [(path, symbol, goal) for goal, path, symbol in questions]
        by_own_name = False
    else:
        candidates, chosen, by_own_name = sampled(root, sample, seed, hide_names)
    server = Server(binary, root)
    server.wait_fresh()
    by_confidence = Counter()
    outcomes = Counter()
    misses = []
    # The definitions each goal's words document (a docstring copied between overloads).
    documented = {}
    for rel, qualified, goal in candidates:
        documented.setdefault(goal, []).append((rel, qualified))
    took = []
    for rel, qualified, goal in chosen:
        ms, r = server.call("understand", {"goal": goal, "include": {
            "callGraph": False, "hotSpots": False, "pageRank": False, "dependencies": False}})
        took.append(ms)
        target = r.get("target", {})
        confidence = target.get("confidence", "?")
        own = lambda symbol: names(symbol, qualified, by_own_name)
        offered = [a.rsplit(" in ", 1) for a in target.get("alternatives", [])]
        if target.get("path") == rel and own(target.get("symbol") or ""):
            outcome = "right"
        elif any(target.get("path") == other and names(target.get("symbol") or "", q, by_own_name)
                 for other, q in documented.get(goal, []) if (other, q) != (rel, qualified)):
            outcome = "same words"
        elif any(len(a) == 2 and a[1] == rel and own(a[0]) for a in offered):
            outcome = "alternative"
        elif target.get("path") == rel:
            outcome = "same file"
        else:
            outcome = "wrong"
        if outcome != "right":
            misses.append((goal, f"{rel}#{qualified}",
                           f"{target.get('path')}#{target.get('symbol')}", confidence, outcome))
        outcomes[outcome] += 1
        by_confidence[(confidence, outcome)] += 1
    server.close()
    return len(candidates), len(chosen), outcomes, by_confidence, misses, took


def explore_hits(binary: str, root: Path, sample: int, seed: int):
    """The same goals sent as `explore {query}`: the share whose file is the first code item,
    among the first five, and whose definition is among the first five."""
    _, chosen, by_own_name = sampled(root, sample, seed, False)
    server = Server(binary, root)
    server.wait_fresh()
    first = five = defined = 0
    took = []
    for rel, qualified, goal in chosen:
        ms, r = server.call("explore", {"query": goal})
        took.append(ms)
        code = r.get("data", {}).get("code", [])[:5]
        files = [c.get("filePath") for c in code]
        first += files[:1] == [rel]
        five += rel in files
        defined += any(
            c.get("filePath") == rel
            and names((c.get("title") or "").replace("::", "."), qualified, by_own_name)
            for c in code)
    server.close()
    n = len(chosen)
    print(f"\n== {root.name}: {n} goals as explore queries")
    print(f"   file first {first / n:.2f}  file in the first five {five / n:.2f}  "
          f"definition in the first five {defined / n:.2f}  "
          f"({statistics.median(took):.1f} ms median)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/smart-context")
    ap.add_argument("--sample", type=int, default=100)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--show", type=int, default=8)
    ap.add_argument("--root", action="append", type=Path)
    ap.add_argument("--hide-names", action="store_true",
                    help="also drop the words of the definition's own name from its goal")
    ap.add_argument("--explore", action="store_true",
                    help="send the goals as explore queries and report where their files rank")
    ap.add_argument("--questions", type=Path,
                    help="hand-written questions per project (JSON), instead of docstrings")
    a = ap.parse_args()
    asked = json.loads(a.questions.read_text()) if a.questions else None
    roots = a.root or [tree()] + [p for p in (Path("target/lsp-eval/projects/flask"),
                                              Path("target/lsp-eval/projects/requests"))
                                  if p.is_dir()]
    for root in roots:
        if a.explore:
            explore_hits(a.bin, root, a.sample, a.seed)
            continue
        if asked is not None and root.name not in asked:
            continue
        total, n, outcomes, by_confidence, misses, took = judge(
            a.bin, root, a.sample, a.seed, a.hide_names,
            asked[root.name] if asked is not None else None)
        share = lambda k: f"{outcomes[k] / n:.2f}" if n else "-"
        print(f"\n== {root.name}: {n} goals of {total} documented definitions")
        print(f"   right {share('right')}  same words {share('same words')}  "
              f"among alternatives {share('alternative')}  same file {share('same file')}  "
              f"wrong {share('wrong')}")
        if n:
            print(f"   right or same words {(outcomes['right'] + outcomes['same words']) / n:.2f}")
        if took:
            p90 = sorted(took)[int(0.9 * (len(took) - 1))]
            print(f"   answered in {statistics.median(took):.1f} ms median, p90 {p90:.1f} ms "
                  f"(graphs off, warm after the first)")
        for level in ("high", "medium", "low"):
            row = {o: by_confidence[(level, o)]
                   for o in ("right", "same words", "alternative", "same file", "wrong")}
            count = sum(row.values())
            if count:
                print(f"   {level:6} {count:4} goals: right {row['right'] / count:.2f}, "
                      f"same words {row['same words'] / count:.2f}, "
                      f"alternative {row['alternative'] / count:.2f}, wrong {row['wrong'] / count:.2f}")
        for goal, want, got, confidence, outcome in misses[: a.show]:
            print(f"   {outcome} ({confidence}): \"{goal}\" -> {got}, meant {want}")


if __name__ == "__main__":
    main()
