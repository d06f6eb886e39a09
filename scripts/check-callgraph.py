#!/usr/bin/env python3
"""Precision and recall of understand's callers and callees on a real Python project, against
a reference computed independently here with Python's own `ast` and its own import
resolution.

    cargo build --release
    python3 scripts/check-callgraph.py [--bin target/release/smart-context] [--sample 300]

The tree is the Django 5.2 sdist (scripts/mcp_stdio.py). A sample of functions and methods
(seeded) is asked about through a real stdio server: `understand` pinned to each definition,
depth deep, the call graph only. The reference resolves only the call sites it can be sure
of:

- `f()` where `f` is a top-level function or class of the same module, or bound by
  `from m import f [as g]` (one re-export hop through a package's `__init__`);
- `m.f()` where `m` is bound to a module by `import` or `from p import m`, and `a.b.f()`
  through `import a.b`;
- `self.f()` and `cls.f()` in a method of a class that defines `f` itself, and `C.f()` for a
  class `C` the module defines or imports.

Everything else (builtins, locals, calls on objects of unknown type, inherited methods) is
left unresolved by the reference and judged neither way. Pairs are (caller, callee)
definitions, `path#Container.name`. Recall: the share of the reference's pairs that
understand reports. Precision: of understand's links whose call site the reference resolved
(the same caller, line and called name), the share that name the reference's callee.
"""

import argparse
import ast
import random
import subprocess
from collections import defaultdict
from pathlib import Path

from mcp_stdio import Server, tree

# The pillar's list cap at depth deep: a list this long may be cut, so its recall is not judged.
LIST_CAP = 25


class Module:
    def __init__(self, root: Path, path: Path):
        self.rel = str(path.relative_to(root))
        parts = self.rel[:-3].split("/")
        self.is_package = parts[-1] == "__init__"
        if self.is_package:
            parts = parts[:-1]
        self.name = ".".join(parts)
        self.tree = ast.parse(path.read_bytes(), filename=self.rel)
        # Top-level functions and classes; methods by class.
        self.defs = {}
        self.methods = defaultdict(set)
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.defs[node.name] = "function"
            elif isinstance(node, ast.ClassDef):
                self.defs[node.name] = "class"
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.methods[node.name].add(item.name)
        self.bindings = {}  # local name -> ("module", module name) | ("def", module name, def)

    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


class Reference:
    def __init__(self, root: Path):
        self.modules = {}
        for path in sorted(root.rglob("*.py")):
            try:
                m = Module(root, path)
            except (SyntaxError, ValueError, UnicodeDecodeError):
                continue
            self.modules[m.name] = m
        for m in self.modules.values():
            self.bind(m)
        # (caller label, callee label) pairs, and the call sites resolved:
        # (caller label, line, called name) -> callee labels.
        self.pairs = set()
        self.sites = defaultdict(set)
        for m in self.modules.values():
            self.calls_of(m)

    def absolute(self, m: Module, level: int, module: str | None) -> str:
        if level == 0:
            return module or ""
        base = m.package().split(".")
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join([*base, module] if module else base)

    def bind(self, m: Module):
        for node in m.tree.body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        m.bindings[a.asname] = ("module", a.name)
                    else:
                        top = a.name.split(".")[0]
                        m.bindings[top] = ("module", top)
            elif isinstance(node, ast.ImportFrom):
                base = self.absolute(m, node.level, node.module)
                for a in node.names:
                    local = a.asname or a.name
                    if f"{base}.{a.name}" in self.modules:
                        m.bindings[local] = ("module", f"{base}.{a.name}")
                    elif base in self.modules:
                        m.bindings[local] = ("def", base, a.name)

    def definition(self, module: str, name: str, hops: int = 1):
        """The label of top-level `name` of `module`, following one re-export."""
        m = self.modules.get(module)
        if m is None:
            return None
        if name in m.defs:
            return f"{m.rel}#{name}"
        b = m.bindings.get(name)
        if hops and b and b[0] == "def":
            return self.definition(b[1], b[2], hops - 1)
        return None

    def module_of(self, m: Module, expr) -> str | None:
        """The module an expression (`m`, `a.b`) names in `m`'s scope."""
        if isinstance(expr, ast.Name):
            b = m.bindings.get(expr.id)
            return b[1] if b and b[0] == "module" else None
        if isinstance(expr, ast.Attribute):
            base = self.module_of(m, expr.value)
            if base and f"{base}.{expr.attr}" in self.modules:
                return f"{base}.{expr.attr}"
        return None

    def class_of(self, m: Module, name: str):
        """(module, class) for a class name local to or imported into `m`."""
        if m.defs.get(name) == "class":
            return m, name
        b = m.bindings.get(name)
        if b and b[0] == "def":
            target = self.modules.get(b[1])
            if target and target.defs.get(b[2]) == "class":
                return target, b[2]
        return None

    def callee(self, m: Module, cls: str | None, func):
        if isinstance(func, ast.Name):
            if func.id in m.defs:
                return f"{m.rel}#{func.id}"
            b = m.bindings.get(func.id)
            if b and b[0] == "def":
                return self.definition(b[1], b[2])
            return None
        if not isinstance(func, ast.Attribute):
            return None
        value = func.value
        if isinstance(value, ast.Name) and value.id in ("self", "cls") and cls:
            if func.attr in m.methods.get(cls, ()):
                return f"{m.rel}#{cls}.{func.attr}"
            return None
        if isinstance(value, ast.Name):
            found = self.class_of(m, value.id)
            if found and func.attr in found[0].methods.get(found[1], ()):
                return f"{found[0].rel}#{found[1]}.{func.attr}"
        module = self.module_of(m, value)
        if module:
            return self.definition(module, func.attr)
        return None

    def calls_of(self, m: Module):
        def walk(body, caller: str, cls: str | None):
            stack = list(body)
            while stack:
                node = stack.pop()
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue  # a nested definition is a caller of its own
                if isinstance(node, ast.Call):
                    target = self.callee(m, cls, node.func)
                    if target:
                        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                        self.sites[(caller, node.lineno, name)].add(target)
                        self.pairs.add((caller, target))
                stack.extend(ast.iter_child_nodes(node))

        for node in m.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(node.body, f"{m.rel}#{node.name}", None)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        walk(item.body, f"{m.rel}#{node.name}.{item.name}", node.name)


def is_test(rel: str) -> bool:
    return "/tests/" in f"/{rel}" or rel.rsplit("/", 1)[-1].startswith("test")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/smart-context")
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--show", type=int, default=10, help="disagreements to print")
    a = ap.parse_args()
    root = tree()
    ref = Reference(root)
    callers_of = defaultdict(set)
    callees_of = defaultdict(set)
    for caller, callee in ref.pairs:
        callees_of[caller].add(callee)
        callers_of[callee].add(caller)
    candidates = sorted(
        f"{m.rel}#{c}.{f}" if c else f"{m.rel}#{f}"
        for m in ref.modules.values() if not is_test(m.rel)
        for c, f in [(None, n) for n, k in m.defs.items() if k == "function"]
        + [(c, f) for c, fs in m.methods.items() for f in fs]
    )
    sample = random.Random(a.seed).sample(candidates, min(a.sample, len(candidates)))

    subprocess.run([a.bin, "--root", str(root), "index"], check=True, stdout=subprocess.DEVNULL)
    s = Server(a.bin, root)
    s.wait_fresh()
    totals = {d: defaultdict(int) for d in ("callees", "callers")}
    asked = missing = 0
    disagreements = []
    for label in sample:
        path, _, symbol = label.partition("#")
        args = {"goal": "call graph", "path": path, "symbol": symbol, "depth": "deep",
                "include": {"callGraph": True, "hotSpots": False, "pageRank": False,
                            "dependencies": False},
                "limits": {"maxChars": 400000}}
        msg = s.request("tools/call", {"name": "understand", "arguments": args})["result"]
        if msg.get("isError"):
            missing += 1
            continue
        asked += 1
        g = msg["structuredContent"].get("callGraph") or {}
        targets = set(g.get("targets", []))
        links = {
            "callees": [l for l in g.get("callees", []) if l["caller"] in targets],
            "callers": [l for l in g.get("callers", []) if l["callee"] in targets],
        }
        ours = {
            "callees": {l["callee"] for l in links["callees"]},
            "callers": {l["caller"] for l in links["callers"]},
        }
        name = symbol.rpartition(".")[2]
        reference = {"callees": callees_of[label], "callers": callers_of[label]}
        for direction in ("callees", "callers"):
            t = totals[direction]
            mine, theirs = ours[direction], reference[direction]
            capped = len(g.get(direction, [])) >= LIST_CAP
            if capped:
                t["capped"] += 1
            else:
                t["ref"] += len(theirs)
                t["found"] += len(mine & theirs)
            for link in links[direction]:
                # Judgeable: the reference resolved this call site (caller, line, name).
                caller, callee = link["caller"], link["callee"]
                line = int(link["at"].rpartition(":")[2])
                callee_name = callee.rpartition("#")[2].rpartition(".")[2]
                expected = ref.sites.get((caller, line, callee_name))
                if expected is None:
                    t["unjudged"] += 1
                    continue
                t["judged"] += 1
                if callee in expected:
                    t["agree"] += 1
                elif len(disagreements) < a.show:
                    disagreements.append(f"{caller} line {line}: understand {callee}, "
                                         f"reference {sorted(expected)}")
    s.close()
    print(f"{len(ref.modules)} modules, {len(ref.pairs)} reference pairs; "
          f"{asked} definitions asked, {missing} unknown to understand")
    for d in disagreements:
        print("  disagree:", d)
    for direction, t in totals.items():
        recall = t["found"] / t["ref"] if t["ref"] else float("nan")
        precision = t["agree"] / t["judged"] if t["judged"] else float("nan")
        print(f"{direction:8s} recall {recall:.3f} ({t['found']}/{t['ref']}), "
              f"precision {precision:.3f} ({t['agree']}/{t['judged']}), "
              f"{t['unjudged']} links the reference cannot judge, {t['capped']} lists at the cap")


if __name__ == "__main__":
    main()
