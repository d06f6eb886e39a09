#!/usr/bin/env python3
"""Replays real fixes through `change` and compares the bytes with `git apply`.

Each instance of the evaluation set (../shared/eval/swebench-lite-dev.jsonl) whose accepted
fix applies to one of the release trees (`--sdists DIR`, as for eval-explore.py) becomes one
`change` call over stdio MCP: one edit per diff hunk (target = context and removed lines,
replacement = context and added lines, lineRange = where the hunk's lines are),
`dryRun: false`. Then each edit is perturbed the way agents get their quotes wrong, and the
same call is made again on a fresh copy:

  exact          the hunk as it is
  hint+1/10/60   the lineRange moved down by 1, 10 and 60 lines
  indent+4       every non-blank line of target and replacement 4 spaces deeper
  dedent         target and replacement moved left to column 0 (the hunk's common indentation)
  drift          about a third of the target's lines 1-2 spaces off, its context lines in the
                 replacement alike (added lines as they were)
  target-only    the target dedented, the replacement left in the file's frame
  tabs           each 4 leading spaces written as a tab
  trailing-ws    trailing whitespace dropped from every line
  blank-trim     blank lines both begin or end with dropped

Per perturbation: identical to `git apply`, refused (by error code), or wrongly applied, and of
those how many leave a Python file that no longer compiles (`compile()`).

Usage:
  scripts/replay-change.py --sdists /tmp/evalsrc/trees [--bin target/release/smart-context]
                           [--only drift] [--limit N] [--json report.json] [--show N]
"""

import argparse
import collections
import difflib
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "eval", "swebench-lite-dev.jsonl")

_spec = importlib.util.spec_from_file_location(
    "eval_explore", os.path.join(ROOT, "scripts", "eval-explore.py"))
eval_explore = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(eval_explore)

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def parse_patch(patch):
    """path -> [(old start line, hunk lines (each starting with ' ', '-' or '+'))]."""
    files, current, hunk = {}, None, None
    for line in patch.split("\n"):
        if line.startswith("--- "):
            continue
        if line.startswith("+++ "):
            current = line[4:].strip()
            current = current[2:] if current.startswith("b/") else current
            files[current] = []
            continue
        m = HUNK.match(line)
        if m:
            hunk = []
            files[current].append((int(m.group(1)), hunk))
            continue
        if hunk is not None and line[:1] in (" ", "-", "+"):
            hunk.append(line)
        elif line.startswith("\\"):
            continue
    return files


def sides(hunk):
    target = [l[1:] for l in hunk if l[0] in " -"]
    replacement = [l[1:] for l in hunk if l[0] in " +"]
    return target, replacement


def join(lines):
    return "".join(l + "\n" for l in lines)


def locate(text, target, near):
    """1-based first line of the exact occurrence of target (lines) nearest to line `near`
    (where `git apply` puts it)."""
    needle = join(target)
    found, at = [], text.find(needle)
    while at >= 0:
        if at == 0 or text[at - 1] == "\n":
            found.append(text.count("\n", 0, at) + 1)
        at = text.find(needle, at + 1)
    return min(found, key=lambda l: abs(l - near)) if found else None


# ---------------------------------------------------------------- perturbations

def indent_of(line):
    return len(line) - len(line.lstrip(" \t"))


def shift(lines, n):
    out = []
    for l in lines:
        if not l.strip():
            out.append(l)
        elif n >= 0:
            out.append(" " * n + l)
        else:
            out.append(l[min(-n, indent_of(l)):])
    return out


def common_indent(lines):
    widths = [indent_of(l) for l in lines if l.strip()]
    return min(widths) if widths else 0


def perturb(name, hunk, rng):
    """(target lines, replacement lines, hint offset) for one hunk."""
    t, r = sides(hunk)
    if name == "indent+4":
        return shift(t, 4), shift(r, 4), 0
    if name == "dedent":
        n = common_indent(t)
        return shift(t, -n), shift(r, -n), 0
    if name == "target-only":
        n = common_indent(t)
        return shift(t, -n), r, 0
    if name == "drift":
        t2, r2 = [], []
        for line in hunk:
            kind, text = line[0], line[1:]
            moved = text
            if kind in " -" and text.strip() and rng.random() < 0.33:
                d = rng.choice([-2, -1, 1, 2])
                moved = " " * d + text if d > 0 else text[min(-d, indent_of(text)):]
            if kind in " -":
                t2.append(moved)
            if kind == " ":
                r2.append(moved)
            if kind == "+":
                r2.append(text)
        return t2, r2, 0
    if name == "tabs":
        tab = lambda l: re.sub(r"^((?:    )+)", lambda m: "\t" * (len(m.group(1)) // 4), l)
        return [tab(l) for l in t], [tab(l) for l in r], 0
    if name == "trailing-ws":
        return [l.rstrip() for l in t], [l.rstrip() for l in r], 0
    if name == "blank-trim":
        while len(t) > 1 and r and not t[0].strip() and not r[0].strip():
            t, r = t[1:], r[1:]
        while len(t) > 1 and r and not t[-1].strip() and not r[-1].strip():
            t, r = t[:-1], r[:-1]
        return t, r, 0
    if name.startswith("hint+"):
        return t, r, int(name[5:])
    return t, r, 0


PERTURBATIONS = ["exact", "hint+1", "hint+10", "hint+60", "indent+4", "dedent", "drift",
                 "target-only", "tabs", "trailing-ws", "blank-trim"]


# ---------------------------------------------------------------- runs

def compiles(text):
    try:
        compile(text, "<replay>", "exec")
        return True
    except (SyntaxError, ValueError):
        return False


def prepare(rows, chosen, work):
    """Cases: instance -> {path: (original, expected, hunks, true lines)}."""
    cases = {}
    for row in rows:
        tree = chosen.get(row["instance_id"])
        if not tree or row.get("approx"):
            continue
        files = parse_patch(row["patch"])
        scratch = os.path.join(work, "expected", row["instance_id"])
        case = {}
        for path in files:
            src = os.path.join(tree, path)
            dst = os.path.join(scratch, path)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
        r = subprocess.run(["git", "apply", "-"], input=row["patch"].encode(), cwd=scratch,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            continue
        ok = True
        for path, hunks in files.items():
            original = open(os.path.join(tree, path), encoding="utf-8", newline="").read()
            expected = open(os.path.join(scratch, path), encoding="utf-8", newline="").read()
            lines = []
            for start, hunk in hunks:
                at = locate(original, sides(hunk)[0], start)
                if at is None:
                    ok = False
                lines.append(at)
            case[path] = (original, expected, [h for _, h in hunks], lines)
        if ok:
            cases[row["instance_id"]] = case
    return cases


def run(binary, cases, name, work):
    root = os.path.join(work, name)
    shutil.rmtree(root, ignore_errors=True)
    calls = {}
    for iid, case in cases.items():
        rng = random.Random(f"{iid}:{name}")
        edits = []
        for path, (original, _, hunks, lines) in case.items():
            rel = f"{iid}/{path}"
            dst = os.path.join(root, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "w", encoding="utf-8", newline="") as f:
                f.write(original)
            for hunk, at in zip(hunks, lines):
                t, r, off = perturb(name, hunk, rng)
                n = max(1, len(t))
                edits.append({
                    "filePath": rel,
                    "targetString": join(t),
                    "replacementString": join(r),
                    "lineRange": {"start": at + off, "end": at + off + n - 1},
                })
        calls[iid] = edits
    server = eval_explore.Server(binary, root)
    outcome = {}
    try:
        for iid, edits in calls.items():
            result = server.call("change", {
                "intent": f"replay {iid}", "edits": edits,
                "options": {"dryRun": False, "includeImpact": False},
            })
            s = result.get("structuredContent") or {}
            if result.get("isError"):
                outcome[iid] = ("refused", s.get("code") or "?", s.get("message", ""))
                continue
            wrong = []
            for path, (original, expected, _, _) in cases[iid].items():
                got = open(os.path.join(root, iid, path), encoding="utf-8", newline="").read()
                if got != expected:
                    wrong.append((path, got, expected))
            if not wrong:
                outcome[iid] = ("identical", "", "")
            else:
                broke = any(path.endswith(".py") and compiles(exp) and not compiles(got)
                            for path, got, exp in wrong)
                path, got, exp = wrong[0]
                diff = "".join(difflib.unified_diff(
                    exp.splitlines(True), got.splitlines(True), "git apply", "change", n=1))
                outcome[iid] = ("wrong-syntax" if broke else "wrong", path, diff)
    finally:
        server.close()
    return outcome


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sdists", required=True)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "smart-context"))
    ap.add_argument("--only", action="append")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--json")
    ap.add_argument("--show", type=int, default=0, help="print N non-identical cases per perturbation")
    args = ap.parse_args()
    rows = [json.loads(l) for l in open(DATA)]
    if args.limit:
        rows = rows[: args.limit]
    chosen = eval_explore.assign_sdists(rows, args.sdists)
    work = tempfile.mkdtemp(prefix="replay-change-")
    cases = prepare(rows, chosen, work)
    print(f"{len(cases)} of {len(rows)} instances replayable ({sum(len(c) for c in cases.values())} files, "
          f"{sum(len(h) for c in cases.values() for (_, _, h, _) in c.values())} hunks)")
    report = {}
    print(f"{'perturbation':<13} {'identical':>10} {'refused':>8} {'wrong':>6} {'broke syntax':>13}  refusals")
    for name in args.only or PERTURBATIONS:
        outcome = run(args.bin, cases, name, work)
        kinds = collections.Counter(k for k, _, _ in outcome.values())
        codes = collections.Counter(c for k, c, _ in outcome.values() if k == "refused")
        n = len(outcome)
        ident = kinds["identical"]
        print(f"{name:<13} {ident:>4}/{n:<4} {ident / n:>5.1%} {kinds['refused']:>4} "
              f"{kinds['wrong'] + kinds['wrong-syntax']:>6} {kinds['wrong-syntax']:>13}  "
              + ", ".join(f"{c} {k}" for k, c in codes.most_common()))
        report[name] = {"n": n, **kinds, "refusals": dict(codes),
                        "cases": {i: list(o) for i, o in outcome.items()}}
        shown = [(i, o) for i, o in outcome.items() if o[0] != "identical"][: args.show]
        for i, o in shown:
            detail = o[2] if o[0].startswith("wrong") else o[2][:200]
            print(f"    {i}: {o[0]} {o[1]} {detail}")
    if args.json:
        json.dump(report, open(args.json, "w"), indent=1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
