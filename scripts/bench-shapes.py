#!/usr/bin/env python3
"""understand on trees shaped to be costly: thousands of definitions sharing one name (a
repository is untrusted input, and a generated file or a hostile one can look like this).

    cargo build --release
    python3 scripts/bench-shapes.py [--bin target/release/smart-context] [--baseline BIN]
        [--count 3000] [--runs 3] [--timeout 120]

Each shape is two files of `--count` definitions, written into target/bench-shapes/: Rust
traits declaring one method and types implementing them; Go interfaces and the types that
meet them without saying so, and interfaces each wanting a method no type has; Java,
TypeScript and Python classes and subclasses or implementations, their methods calling one
another by the shared names; a Python class hierarchy `--count` deep; one class and one
function name in every one of `--count` JavaScript files. Per shape and binary:
the graph build (the server's debug log, `total_ms`) and a file answer (`understand` with the
file's path: every definition of it a target), first and warm median, in ms. A call that
does not answer within `--timeout` seconds is reported as such. With --baseline both
binaries run the same shapes in turns, and the ratio is printed.
"""

import argparse
import os
import re
import statistics
import subprocess
import threading
import time
from pathlib import Path

from mcp_stdio import Server

ROOT = Path("target/bench-shapes")


def shapes(n: int) -> dict:
    """Shape name -> ({path: text}, the files asked about)."""
    rust = {
        "Cargo.toml": '[package]\nname = "shape"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub mod impls;\npub mod traits;\n",
        "src/traits.rs": "".join(f"pub trait T{i} {{\n    fn f(&self);\n}}\n\n" for i in range(n)),
        "src/impls.rs": "".join(
            f"pub struct S{i};\n\nimpl crate::traits::T{i} for S{i} {{\n    fn f(&self) {{}}\n}}\n\n"
            for i in range(n)),
    }
    go = {
        "go.mod": "module example.com/shape\n\ngo 1.19\n",
        "ifaces.go": "package shape\n\n" + "".join(
            f"type I{i} interface {{\n\tF()\n}}\n\n" for i in range(n)),
        "impls.go": "package shape\n\n" + "".join(
            f"type C{i} struct{{}}\n\nfunc (c *C{i}) F() {{ c.G() }}\n\nfunc (c *C{i}) G() {{}}\n\n"
            for i in range(n)),
    }
    # The same, but each interface wants a method of its own no type has: none is met.
    go_unmet = {
        "go.mod": "module example.com/shape\n\ngo 1.19\n",
        "ifaces.go": "package shape\n\n" + "".join(
            f"type I{i} interface {{\n\tF()\n\tG{i}()\n}}\n\n" for i in range(n)),
        "impls.go": "package shape\n\n" + "".join(
            f"type C{i} struct{{}}\n\nfunc (c *C{i}) F() {{}}\n\n" for i in range(n)),
    }
    java = {
        "src/p/Ifaces.java": "package p;\n\npublic class Ifaces {\n" + "".join(
            f"  public interface I{i} {{\n    void f();\n  }}\n" for i in range(n)) + "}\n",
        "src/p/Impls.java": "package p;\n\npublic class Impls {\n" + "".join(
            f"  public static class C{i} implements Ifaces.I{i} {{\n    public void f() {{ g(); }}\n"
            f"    void g() {{}}\n  }}\n" for i in range(n)) + "}\n",
    }
    typescript = {
        "src/ifaces.ts": "".join(f"export interface I{i} {{\n  f(): void;\n}}\n" for i in range(n)),
        "src/impls.ts": "import * as i from './ifaces';\n" + "".join(
            f"export class C{i} implements i.I{i} {{\n  f(): void {{ this.g(); }}\n  g(): void {{}}\n}}\n"
            for i in range(n)),
    }
    python = {
        "pkg/__init__.py": "",
        "pkg/base.py": "".join(
            f"class B{i}:\n    def f(self):\n        return self.g()\n\n    def g(self):\n        return 1\n\n\n"
            for i in range(n)),
        "pkg/sub.py": "from pkg.base import *\n\n" + "".join(
            f"class S{i}(B{i}):\n    def f(self):\n        return super().f()\n\n\n" for i in range(n)),
    }
    # Each class extends the one before it, and each method calls its base's.
    chain = {
        "chain/__init__.py": "",
        "chain/levels.py": "class C0:\n    def f(self):\n        return 0\n\n\n" + "".join(
            f"class C{i}(C{i - 1}):\n    def f(self):\n        return super().f() + self.g{i}()\n\n"
            f"    def g{i}(self):\n        return {i}\n\n\n" for i in range(1, n)),
    }
    # One class name and one function name in every file, each file calling both.
    files = n
    spread = {
        f"src/m{i}.js": f"// Module {i}.\nclass Config {{\n  load() {{\n    return load();\n  }}\n}}\n\n"
        "function load() {\n  return new Config().load();\n}\n\nmodule.exports = { Config, load };\n"
        for i in range(files)
    }
    return {
        "rust traits": (rust, ["src/traits.rs", "src/impls.rs"]),
        "python inheritance chain": (chain, ["chain/levels.py"]),
        f"javascript names in {files} files": (spread, ["src/m0.js"]),
        "go interfaces": (go, ["ifaces.go", "impls.go"]),
        "go interfaces no type meets": (go_unmet, ["ifaces.go", "impls.go"]),
        "java interfaces": (java, ["src/p/Ifaces.java", "src/p/Impls.java"]),
        "typescript classes": (typescript, ["src/ifaces.ts", "src/impls.ts"]),
        "python classes": (python, ["pkg/base.py", "pkg/sub.py"]),
    }


def write(root: Path, files: dict):
    if root.exists():
        subprocess.run(["rm", "-rf", str(root)], check=True)
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def measure(binary: str, root: Path, asked: list, runs: int, timeout: float) -> dict:
    """The graph build and each asked file's first and warm answers, in ms."""
    subprocess.run(["rm", "-rf", str(root / ".smart-context")], check=True)
    log_path = root.parent / f"{root.name}.log"
    out = {}
    with open(log_path, "w") as log:
        env = dict(os.environ, SMART_CONTEXT_LOG="smart_context::analysis=debug")
        server = Server(binary, root, stderr=log, env=env)
        server.wait_fresh()
        for path in asked:
            took = []
            for _ in range(runs):
                started = time.perf_counter()
                done = run_with_timeout(server, path, timeout)
                if not done:
                    server.p.kill()
                    out[path] = None
                    return out | {"build": build_ms(log_path)}
                took.append((time.perf_counter() - started) * 1000)
            out[path] = (took[0], statistics.median(took[1:] or took))
        server.close()
    return out | {"build": build_ms(log_path)}


def run_with_timeout(server: Server, path: str, timeout: float) -> bool:
    """One file answer; False when it did not come within `timeout` seconds."""
    result = []

    def ask():
        try:
            result.append(server.call("understand", {"goal": "x", "path": path}))
        except (ValueError, OSError):  # the server was stopped past the timeout
            pass
        except SystemExit as error:  # the call answered an error
            print(f"   {path}: {error}")

    worker = threading.Thread(target=ask, daemon=True)
    worker.start()
    worker.join(timeout)
    return bool(result)


def build_ms(log_path: Path):
    found = re.findall(r"graphs rebuilt .*?total_ms=(\d+)", log_path.read_text())
    return int(found[0]) if found else None


def shown(ms) -> str:
    return "timed out" if ms is None else f"{ms:,.0f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/smart-context")
    ap.add_argument("--baseline")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--only", help="shapes whose name contains this")
    args = ap.parse_args()
    binaries = [b for b in (args.baseline, args.bin) if b]
    for name, (files, asked) in shapes(args.count).items():
        if args.only and args.only not in name:
            continue
        root = (ROOT / name.replace(" ", "-")).resolve()
        write(root, files)
        print(f"== {name} ({args.count} each)")
        for binary in binaries:
            got = measure(binary, root, asked, args.runs, args.timeout)
            answers = ", ".join(
                f"{p}: {'timed out' if got.get(p) is None else f'{shown(got[p][0])} first, {shown(got[p][1])} warm'}"
                for p in asked if p in got)
            print(f"   {binary}: graph build {shown(got['build'])} ms; {answers}")


if __name__ == "__main__":
    main()
