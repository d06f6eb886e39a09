#!/usr/bin/env python3
"""Precision and recall of understand's default call-graph answer against a language server's
call hierarchy (issue 41): pyright for Python, typescript-language-server (tsserver) for
TypeScript, rust-analyzer for Rust, gopls for Go, and for Java the compiler itself (javac's
attribution through its tree API, scripts/JavacCalls.java: no Java language server is
packaged here), on sampled definitions of real projects.

    cargo build --release
    python3 scripts/lsp-callgraph.py [--bin target/release/smart-context] [--sample 40]
        [--seed 41] [--show 10] [--only requests,flask,rxjs,ignore,mux,gson,jsoup,javapoet] [--scip]
        [--git-mirror DIR]

Held out (run only after the rules were written from the projects above):
--only click,httpx,mobx,query-core,similar,globset,pflag.

Go needs Debian's golang-go, gopls (0.5.0) and the projects' sources, from
golang-github-gorilla-mux-dev and golang-github-spf13-pflag-dev: apt-get install golang-go
gopls golang-github-gorilla-mux-dev golang-github-spf13-pflag-dev.

Java needs a JDK (17: Debian's openjdk-17-jdk-headless) and, for the projects' tests to
compile, Debian's junit4, junit5, libtruth-java, liberror-prone-java, libguava-java and
libgoogle-gson-java (their jars under /usr/share/java; a missing one leaves calls on its
types unbound, and report.json counts javac's errors). The projects are google/gson,
jhy/jsoup and square/javapoet at release tags, taken from clones: `--git-mirror DIR` where
DIR/<owner>+<name>/repo is one (as this machine's `fetch` lays them out), else cloned from
GitHub. JavacCalls.java compiles the whole tree (main and tests) once,
without annotation processing, and lists every call it binds into the project's sources,
by their static types: what jdtls's call hierarchy reports (the method a call names, not
every override it may reach), method references (`Foo::bar`) and anonymous subclasses'
constructor calls included; javac's own implicit `super()` calls have no source and are left
out. Both sides are keyed as for the servers: the caller is our innermost definition holding
the call's line, the callee our definition holding the declaration's name.

Everything lands under target/lsp-eval/, made once: the language servers from npm (exact
versions in NPM), the projects (requests, flask, click and httpx sdists from PyPI, their
sources and tests/; rxjs's, mobx's and query-core's src/ from their npm tarballs, with a
tsconfig.json; the `ignore`, `similar` and `globset` crates copied from
~/.cargo/registry/src, their locks dropped so offline resolution picks the cached versions),
report.json (numbers, per-definition counts, every disagreement) and lsp-stderr.log.
rust-analyzer comes from rustup (`rustup component add rust-analyzer --toolchain stable` when
no working one is found) and runs with build scripts, proc macros and checks off and
CARGO_NET_OFFLINE=true, with every feature of the crate on (`cargo.features = "all"`:
the graph reads the code behind every `cfg(feature)`): nothing is built. rust-analyzer reads a crate and the standard
library's sources (rustup's rust-src) through `cargo metadata`, which needs their
dependencies in cargo's cache: they are fetched once (`cargo fetch` on the project's
Cargo.toml and on the sysroot's library/Cargo.toml, the latter with RUSTC_BOOTSTRAP=1 as
rust-analyzer runs it). Without them rust-analyzer falls back to the package alone, types
nothing that comes from std or a dependency (`Glob::new(p).unwrap()`, a `FixedBitSet`'s
`VisitMap`), and misses every call on such a value: a warning says so.

--scip judges each project twice: without a SCIP index (none at its root), then with the
`index.scip` that the language's indexer makes, where understand resolves call targets through
it (tier `scip`); both go in report.json (`<name>` and `<name>+scip`, the latter with the
indexer, its time and the index's size under `scip`) and a last table sets them side by side.
The indexers: scip-python and scip-typescript from npm (exact versions in NPM_SCIP, installed
beside the servers, only with --scip), `rust-analyzer scip` (the same rust-analyzer, with the
server's settings, CARGO_NET_OFFLINE=true; it still runs the dependencies' build scripts, a
`cargo check` of those alone, into target/lsp-eval/scip/cargo-target). scip-python runs with
an empty environment (`--environment`: no `pip list`) and, while it runs, a pyrightconfig.json
at the root giving src/ as a search path, as the server has it (without it the definitions
under src/ and the tests' references to them get different symbols). Each index is made once
into target/lsp-eval/scip/<name>.scip (with <name>.json: tool, command, seconds; <name>.log),
again when a project file is newer or the command changes, and copied to the root for the
second pass only: understand reads a file's SCIP data only when the file is not newer than
index.scip, so the copy is written after every project file. Each pass starts on a fresh
.smart-context state dir; after the second the index and the state dir are removed. A run
without --scip starts on a fresh state dir too (and removes an index.scip it finds): a build
whose extraction changed within one index format would otherwise judge the facts an older
build stored.

What is judged, per sampled function or method (seeded, from understand's own file outlines
under the project's source directory; definitions whose `Container.name` is unique in their
file; properties left out, see below):

- ours: understand pinned to the definition (path + symbol, depth shallow, the call graph
  only, next.cursor followed while the call graph says truncated); DIRECT links only: a
  caller link whose callee is the target, a callee link whose caller is the target. The
  default answer is callGraph.callers + callees (every tier but name: import, container,
  base, file, module, and any newer one); the name tier (possibleCallers / possibleCallees) is scored apart, for
  information.
- theirs: textDocument/prepareCallHierarchy at the definition's name (its position from the
  server's documentSymbol), then callHierarchy/incomingCalls and outgoingCalls.
- Both sides become definition keys `path#Container.name` of OUR outline, so naming
  conventions do not matter: a callee item is the innermost definition of our outline
  holding the item's selectionRange start; a caller is the innermost definition holding the
  call site (fromRanges), which is how the graph attributes calls (servers name the caller
  of a call in a constructor or field initializer by its class). Dropped, and counted under
  `other`: items outside the project (stdlib, site-packages, node_modules, other crates);
  calls from top-level code (no definition of ours holds them, so no link of ours can name
  them); outgoing "calls" of properties (Python @property, TypeScript get/set: the servers
  report every read) and Rust enum-variant constructions; and outgoing calls of a function
  value declared inside the definition (a local closure `emitBatch := func() {..}`, a
  parameter of a function type `skipFunc(r)`, a receiver `m(r)` of a Go func type), which
  no outline lists, so the item's position falls inside the enclosing definition: an item
  that is a variable, field or constant, or lies past the definition's first line, whose
  name is not that definition's, is such a local (`local function value`); and an outgoing
  call made inside a definition of our outline nested in the target, for pyright only
  (it lists a decorator's wrapper's calls under the decorator too, while its incoming calls
  name the wrapper, as the graph does both ways: `in a nested definition`). A callee constructor
  (`constructor`, `__init__`) counts as its class on both sides, and a constructor's callers
  are the server's incoming calls of the constructor and of its class (where the class is
  instantiated: tsserver lists those under the constructor, pyright only under the class),
  as understand answers for a constructor; a self-recursive call
  counts among callees only.
- A link of ours the server's answer for the target lacks is asked the other way round: the
  far end's call hierarchy (its outgoing calls, for a caller of the target; its incoming
  calls, for a callee) stating the link makes it the server's too (`other-way`); for
  tsserver, so does its own definition (textDocument/definition) of the name at one of our
  call sites being the callee we name: its call hierarchy leaves out calls through a
  CommonJS module's exported object (`util.destroy(..)` of `module.exports = { destroy }`).
  rust-analyzer's outgoing calls leave out every call written inside a macro's arguments
  (`assert!(m.is_match(p))`, a test's whole body), which its incoming calls list.
- precision = |ours & theirs| / |ours|, recall = |ours & theirs| / |theirs|, micro-averaged
  over (definition, direction, far end); per-tier precision over our distinct direct links
  of each tier (the share the server also reports). Our links to a macro (Rust's
  `macro_rules!`) are not judged: no server lists macro invocations. Nor, in JavaScript and
  TypeScript, are our links to or from a definition tsserver has no item for: a function
  assigned to a member (`Runner.prototype.run = function ..`, `exports.f = function f()
  ..`: it answers with the file's item, or a named function expression's own, whose callers
  are only those naming it) or a method with a computed name (`[kClose] () {..}`); such a
  definition is no sample either (`no LSP item`). tsserver's incoming calls of a method
  gather the references of every method that implements one interface member with it
  (`subscriber.complete()` on a `Subscriber` is listed under `ConsumerObserver.complete`,
  both implementing `Observer.complete`): a caller listed only by calls whose definition
  tsserver itself gives (textDocument/definition at the call) as another class's method,
  neither the target's own class nor one it extends, is judged neither way (`not judged:
  the server's definition is a sibling's`). "missed-but-possible": server links the
  default answer lacks but the name tier lists. A definition still paging after MAX_PAGES
  has its recall left out (`truncated`). The server is a reference, not the truth: read the
  disagreements (--show) before trusting a number.
"""

import argparse
import glob
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import unquote, urlparse

from mcp_stdio import Server

CACHE = Path("target/lsp-eval")
NPM = ["pyright@1.1.414", "typescript-language-server@5.3.0", "typescript@5.6.3"]
NPM_SCIP = ["@sourcegraph/scip-python@0.6.6", "@sourcegraph/scip-typescript@0.4.0"]  # --scip
SCIP_FILE = "index.scip"  # where understand looks for a SCIP index, at the project's root
# rust-analyzer scip: the same settings as the server's (it still runs the build scripts of
# dependencies, a `cargo check` of those alone, into SCIP_DIR/cargo-target, offline).
RA_SETTINGS = {"cargo": {"buildScripts": {"enable": False}, "extraEnv": {"CARGO_NET_OFFLINE": "true"},
                         "features": "all"},
               "procMacro": {"enable": False}, "checkOnSave": False,
               "cachePriming": {"enable": False}}
PYRIGHT = {"autoSearchPaths": True, "extraPaths": ["src"]}  # pyright's, and scip-python's
TIERS = ["scip", "import", "container", "base", "file", "module", "name"]  # and any other seen
MAX_PAGES = 100
DEF_KINDS = {"function", "method"}
CONSTRUCTORS = {"constructor", "__init__"}
CLASS_KINDS = {"class", "struct", "interface", "enum"}
ENUM_MEMBER = 22  # LSP SymbolKind
VARIABLE, FIELD, CONSTANT = 13, 8, 14  # LSP SymbolKind
# Project: language, where it comes from, what of it to keep, where definitions are sampled.
PROJECTS = {
    "requests": ("python", "pypi:requests==2.32.3", ["src", "tests"], "src/"),
    "flask": ("python", "pypi:flask==3.0.3", ["src", "tests"], "src/"),
    "rxjs": ("typescript", "npm:rxjs@7.8.1", ["src"], "src/internal/"),
    "ignore": ("rust", "crate:ignore-0.4.34", None, "src/"),
    # Held out: run only after the rules were written from the projects above.
    "click": ("python", "pypi:click==8.1.7", ["src", "tests"], "src/"),
    "httpx": ("python", "pypi:httpx==0.27.2", ["httpx", "tests"], "httpx/"),
    "mobx": ("typescript", "npm:mobx@6.13.5", ["src"], "src/"),
    "query-core": ("typescript", "npm:@tanstack/query-core@5.59.0", ["src"], "src/"),
    "similar": ("rust", "crate:similar-3.2.1", None, "src/"),
    "globset": ("rust", "crate:globset-0.4.22", None, "src/"),
    "pflag": ("go", "debian:/usr/share/gocode/src/github.com/spf13/pflag", None, ""),
    "rich": ("python", "pypi:rich==13.7.1", ["rich", "tests"], "rich/"),
    "petgraph": ("rust", "crate:petgraph-0.8.3", None, "src/"),
    "regex-syntax": ("rust", "crate:regex-syntax-0.8.12", None, "src/"),
    "go-cmp": ("go", "debian:/usr/share/gocode/src/github.com/google/go-cmp", None, "cmp/"),
    # JavaScript (CommonJS, classes), judged by tsserver over a jsconfig.json.
    "undici": ("javascript", "git:nodejs/undici@v7.9.0", ["lib", "test", "index.js"], "lib/"),
    # Held out from the JSDoc work read from undici: JSDoc-typed CommonJS, prototype methods.
    "mocha": ("javascript", "npm:mocha@10.7.3", ["lib", "index.js"], "lib/"),
    "express": ("javascript", "npm:express@4.21.2", ["lib", "index.js"], "lib/"),
    "commons-cli": ("java", "git:apache/commons-cli@rel/commons-cli-1.11.0",
                    ["src/main/java", "src/test/java"], "src/main/"),
    # Go from Debian's packages (golang-go, gopls, and the project's -dev package, whose
    # sources land under /usr/share/gocode): gorilla/mux has no dependencies, so gopls types
    # all of it offline.
    "mux": ("go", "debian:/usr/share/gocode/src/github.com/gorilla/mux", None, ""),
    # Java from a release tag of a git repository (--git-mirror, else GitHub); the
    # reference is javac (JavacCalls.java), with the test libraries from Debian's packages.
    "gson": ("java", "git:google/gson@gson-parent-2.13.2",
             ["gson/src/main/java", "gson/src/test/java"], "gson/src/main/"),
    "jsoup": ("java", "git:jhy/jsoup@jsoup-1.23.1", ["src/main/java", "src/test/java"],
              "src/main/"),
    "javapoet": ("java", "git:square/javapoet@javapoet-1.13.0",
                 ["src/main/java", "src/test/java"], "src/main/"),
}
# The libraries the Java projects' sources and tests compile against, under /usr/share/java
# (a missing one leaves the calls on its types unbound: javac's error count is reported).
JAVA_CLASSPATH = ["error_prone_annotations.jar", "guava.jar", "junit4.jar", "truth.jar",
                  "hamcrest-core.jar", "junit-jupiter-api.jar", "junit-jupiter-params.jar",
                  "apiguardian-api.jar", "opentest4j.jar", "gson.jar", "commons-io.jar",
                  "commons-text.jar", "mockito-core.jar"]
GIT_MIRROR = None  # --git-mirror
# gopls offline: modules from the project alone, never the proxy.
GO_ENV = {"GOPROXY": "off", "GOFLAGS": "-mod=mod", "GO111MODULE": "on", "GOTOOLCHAIN": "local"}
SOURCE_SUFFIXES = {".py", ".ts", ".js", ".rs", ".go", ".java"}
TSCONFIG = {"compilerOptions": {
    "strict": True, "noEmit": True, "moduleResolution": "node", "target": "esnext",
    "lib": ["esnext", "dom"], "baseUrl": ".", "paths": {
        "rxjs": ["./src/index"], "rxjs/operators": ["./src/operators/index"],
        "rxjs/internal/*": ["./src/internal/*"]}},
    "include": ["src/**/*.ts"]}
NO_EXTRAS = {"callGraph": False, "hotSpots": False, "pageRank": False, "dependencies": False}


def run(*cmd, **kw):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kw)


# ---------------------------------------------------------------- setup (idempotent)

def install_servers(specs=NPM):
    want = dict(spec.rsplit("@", 1) for spec in specs)
    have = {}
    for name in want:
        manifest = CACHE / "node_modules" / name / "package.json"
        if manifest.is_file():
            have[name] = json.loads(manifest.read_text())["version"]
    if have != want:
        print(f"npm install {' '.join(specs)} into {CACHE}", file=sys.stderr)
        run("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(CACHE), *specs)


def rust_analyzer() -> str:
    """A working rust-analyzer: on PATH, or rustup's for the stable toolchain (added if absent)."""
    def works(exe):
        try:
            done = subprocess.run([exe, "--version"], capture_output=True, timeout=30)
            return done.returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False
    if shutil.which("rust-analyzer") and works("rust-analyzer"):
        return "rust-analyzer"
    which = lambda: subprocess.run(["rustup", "which", "--toolchain", "stable", "rust-analyzer"],
                                   capture_output=True, text=True, cwd="/").stdout.strip()
    if not works(which() or "rust-analyzer"):
        print("rustup component add rust-analyzer --toolchain stable", file=sys.stderr)
        run("rustup", "component", "add", "rust-analyzer", "--toolchain", "stable", cwd="/")
    return which()


def dependencies_cached(manifest: Path, env=None, what="") -> None:
    """The dependencies of `manifest` in cargo's cache, fetched once, so rust-analyzer's
    offline `cargo metadata` works: without it rust-analyzer falls back to the package
    alone (`--no-deps`) and types nothing that comes from a dependency."""
    offline = subprocess.run(["cargo", "metadata", "--format-version", "1", "--offline",
                              "--manifest-path", str(manifest)], env=env, capture_output=True)
    if offline.returncode == 0:
        return
    fetched = subprocess.run(["cargo", "fetch", "--manifest-path", str(manifest)], env=env,
                             capture_output=True, text=True)
    if fetched.returncode != 0:
        print(f"{what or manifest}: its dependencies could not be fetched, so rust-analyzer "
              f"sees it only in part\n{fetched.stderr[-400:]}", file=sys.stderr)


def std_sources_ready():
    """The standard library's sources as rust-analyzer reads them (see the module's doc)."""
    sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True)
    manifest = Path(sysroot.stdout.strip()) / "lib/rustlib/src/rust/library/Cargo.toml"
    if not manifest.is_file():
        print(f"{manifest} is missing (rustup component add rust-src): rust-analyzer will "
              "see no std", file=sys.stderr)
        return
    # rust-analyzer runs cargo on std's sources as a nightly would.
    dependencies_cached(manifest, dict(os.environ, RUSTC_BOOTSTRAP="1"), "the standard library")


def fetch(name: str) -> Path:
    """The project's tree under target/lsp-eval/projects/, fetched once."""
    lang, source, keep, _ = PROJECTS[name]
    root = (CACHE / "projects" / name).resolve()
    if root.is_dir():
        return root
    downloads = CACHE / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    kind, _, spec = source.partition(":")
    staging = CACHE / "projects" / f".{name}-staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    if kind == "pypi":
        run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
            ":all:", spec, "-d", str(downloads))
        tree = staging / spec.replace("==", "-")
        with tarfile.open(downloads / f"{tree.name}.tar.gz") as t:
            t.extractall(staging, filter="data")
    elif kind == "npm":
        tarball = subprocess.run(["npm", "pack", "--silent", spec, "--pack-destination",
                                  str(downloads)], check=True, capture_output=True,
                                 text=True).stdout.split()[-1]
        with tarfile.open(downloads / tarball) as t:
            t.extractall(staging, filter="data")
        tree = staging / "package"
    elif kind == "git":
        repo, _, tag = spec.partition("@")
        mirror = GIT_MIRROR and Path(GIT_MIRROR) / repo.replace("/", "+") / "repo"
        clone = str(mirror) if mirror and mirror.exists() else None
        if not clone:
            clone = str(downloads / repo.replace("/", "+"))
            if not Path(clone).exists():
                run("git", "clone", "--bare", "--quiet", f"https://github.com/{repo}", clone)
        tree = staging / name
        tree.mkdir()
        archive = subprocess.run(["git", "-C", clone, "archive", tag], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    elif kind == "debian":
        if not Path(spec).is_dir():
            raise SystemExit(f"{spec} is missing: apt-get install golang-go gopls "
                             "golang-github-gorilla-mux-dev golang-github-spf13-pflag-dev")
        tree = staging / name
        shutil.copytree(spec, tree)
    else:
        found = sorted(glob.glob(os.path.expanduser(f"~/.cargo/registry/src/*/{spec}")))
        if not found:
            raise SystemExit(f"{spec} is not in ~/.cargo/registry/src: no offline copy")
        tree = staging / spec
        shutil.copytree(found[-1], tree)
        (tree / "Cargo.lock").unlink(missing_ok=True)
        with open(tree / "Cargo.toml", "a") as manifest:  # not a member of our workspace
            manifest.write("\n[workspace]\n")
    if keep:
        root.mkdir(parents=True)
        for d in keep:
            if (tree / d).is_dir():
                shutil.copytree(tree / d, root / d)
            elif (tree / d).is_file():
                shutil.copy(tree / d, root / d)
    else:
        shutil.move(str(tree), root)
    if lang == "typescript":
        config = TSCONFIG if name == "rxjs" else {  # the paths are rxjs's own
            "compilerOptions": {**{k: v for k, v in TSCONFIG["compilerOptions"].items()
                                   if k not in ("baseUrl", "paths")}, "jsx": "react-jsx"},
            "include": ["src/**/*.ts", "src/**/*.tsx"]}
        (root / "tsconfig.json").write_text(json.dumps(config, indent=2))
    if lang == "javascript":
        (root / "jsconfig.json").write_text(json.dumps({
            "compilerOptions": {"allowJs": True, "checkJs": False, "module": "commonjs",
                                "moduleResolution": "node", "target": "esnext", "noEmit": True},
            "include": [f"{d}/**/*.js" if (root / d).is_dir() else d for d in keep]}, indent=2))
    shutil.rmtree(staging)
    return root


# ---------------------------------------------------------------- a minimal LSP client

class LspError(Exception):
    pass


class Lsp:
    """JSON-RPC over stdio with Content-Length framing. A reader thread hands answers to the
    waiting request and answers the server's own requests (configuration from `settings`,
    null to the rest: progress tokens, capability registrations)."""

    def __init__(self, cmd, root: Path, settings=None, init_options=None, env=None, log=None):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=log or subprocess.DEVNULL, cwd=root, env=env)
        self.settings = settings or {}
        self.lock = threading.Lock()
        self.pending = {}
        self.next_id = 0
        self.quiescent = threading.Event()  # rust-analyzer's experimental/serverStatus
        self.opened = set()
        threading.Thread(target=self.reader, daemon=True).start()
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "rootPath": str(root),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "initializationOptions": init_options or {},
            "capabilities": {
                "textDocument": {"callHierarchy": {"dynamicRegistration": False},
                                 "documentSymbol": {"hierarchicalDocumentSymbolSupport": True}},
                "workspace": {"configuration": True, "workspaceFolders": True},
                "window": {"workDoneProgress": True},
                "experimental": {"serverStatusNotification": True}}}, timeout=300)
        self.notify("initialized", {})

    def write(self, msg):
        body = json.dumps(msg).encode()
        with self.lock:
            self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.p.stdin.flush()

    def reader(self):
        while True:
            length = None
            while True:
                raw = self.p.stdout.readline()
                if not raw:  # the server is gone
                    for q in list(self.pending.values()):
                        q.put({"error": {"message": "server exited"}})
                    return
                key, _, value = raw.decode().strip().partition(":")
                if key.lower() == "content-length":
                    length = int(value)
                elif not key and length is not None:
                    break
            msg = json.loads(self.p.stdout.read(length))
            if "method" in msg and "id" in msg:
                result = None
                if msg["method"] == "workspace/configuration":
                    result = [self.section(i.get("section")) for i in msg["params"]["items"]]
                self.write({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            elif "id" in msg:
                if q := self.pending.pop(msg["id"], None):
                    q.put(msg)
            elif msg.get("method") == "experimental/serverStatus":
                if msg["params"].get("quiescent"):
                    self.quiescent.set()

    def section(self, name):
        value = self.settings
        for part in name.split(".") if name else []:
            value = value.get(part) if isinstance(value, dict) else None
        return value

    def request(self, method, params, timeout=120):
        with self.lock:
            self.next_id += 1
            rid = self.next_id
        self.pending[rid] = q = queue.Queue()
        self.write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        try:
            msg = q.get(timeout=timeout)
        except queue.Empty:
            self.pending.pop(rid, None)
            self.notify("$/cancelRequest", {"id": rid})
            raise LspError(f"{method}: no answer in {timeout}s")
        if "error" in msg:
            raise LspError(f"{method}: {msg['error'].get('message')}")
        return msg.get("result")

    def notify(self, method, params):
        self.write({"jsonrpc": "2.0", "method": method, "params": params})

    def open(self, path: Path, lang: str):
        if path not in self.opened:
            self.opened.add(path)
            self.notify("textDocument/didOpen", {"textDocument": {
                "uri": path.as_uri(), "languageId": lang, "version": 1,
                "text": path.read_text(errors="replace")}})

    def close(self):
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.p.wait(timeout=10)
        except (LspError, OSError, subprocess.TimeoutExpired):
            self.p.kill()


class Javac:
    """Java's reference: the calls javac binds (JavacCalls.java), asked as a server would be.
    An item is our definition itself; its links are the calls whose declaration or site our
    outline places in it."""

    def __init__(self, root: Path, log):
        if not shutil.which("java"):
            raise SystemExit("java is missing: apt-get install openjdk-17-jdk-headless")
        jars = [Path("/usr/share/java") / j for j in JAVA_CLASSPATH]
        if missing := [j.name for j in jars if not j.exists()]:
            print(f"javac without {', '.join(missing)}: apt-get install junit4 junit5 "
                  "libtruth-java liberror-prone-java libguava-java libgoogle-gson-java",
                  file=sys.stderr)
            jars = [j for j in jars if j.exists()]
        out = CACHE / "javac-calls.json"
        subprocess.run(["java", str(Path(__file__).with_name("JavacCalls.java")), str(root),
                        ":".join(map(str, jars)), str(out)], check=True, stderr=log)
        found = json.loads(out.read_text())
        self.calls, self.external, self.errors = found["calls"], found["external"], found["errors"]
        self.by_target, self.by_site = None, None

    def index(self, ours):
        """Each call keyed by the definitions of ours holding its declaration and its site."""
        self.by_target, self.by_site = defaultdict(list), defaultdict(list)
        for c in self.calls:
            target = ours.enclosing(*c["target"])
            site = ours.enclosing(*c["site"])
            self.by_target[target and target[3]].append((site and site[3], c))
            self.by_site[site and site[3]].append((target and target[3], c))

    def item(self, d):
        return d[3]

    def links(self, ours, key):
        if self.by_target is None:
            self.index(ours)
        out = {"callers": defaultdict(list), "callees": defaultdict(list)}
        dropped = Counter()
        for site, c in self.by_target.get(key, []):
            if site is None:
                dropped["dropped caller: toplevel"] += 1
            else:
                out["callers"][site].append("%s:%d" % tuple(c["site"]))
        for target, c in self.by_site.get(key, []):
            if target is None:
                dropped["dropped callee: toplevel"] += 1
            else:
                out["callees"][constructed(target, ours)].append("%s:%d" % tuple(c["site"]))
        return out, dropped

    def close(self):
        pass


def start_server(lang: str, root: Path, log) -> Lsp:
    mods = (CACHE / "node_modules").resolve()
    if lang == "java":
        return Javac(root, log)
    if lang == "python":
        settings = {"python": {"analysis": {"diagnosticMode": "openFilesOnly", **PYRIGHT}}}
        return Lsp(["node", str(mods / "pyright/langserver.index.js"), "--stdio"], root,
                   settings=settings, log=log)
    if lang in ("typescript", "javascript"):
        lsp = Lsp(["node", str(mods / "typescript-language-server/lib/cli.mjs"), "--stdio"], root,
                  init_options={"tsserver": {"path": str(mods / "typescript/lib/tsserver.js")}},
                  log=log)
        lsp.lang = lang
        return lsp
    if lang == "go":
        if not shutil.which("gopls"):
            raise SystemExit("gopls is missing: apt-get install golang-go gopls")
        return Lsp(["gopls"], root, env=dict(os.environ, **GO_ENV), log=log)
    ra = RA_SETTINGS
    std_sources_ready()
    dependencies_cached(root / "Cargo.toml")
    lsp = Lsp([rust_analyzer()], root, settings={"rust-analyzer": ra}, init_options=ra,
              env=dict(os.environ, CARGO_NET_OFFLINE="true"), log=log)
    if not lsp.quiescent.wait(600):
        print("rust-analyzer: not quiescent after 600s, asking anyway", file=sys.stderr)
    return lsp


# ---------------------------------------------------------------- SCIP indexes (--scip)

SCIP_DIR = CACHE / "scip"


def project_files(root: Path):
    """The project's own files: not understand's state, not an index, not build output."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in {".smart-context", "target", "node_modules"}]
        for f in filenames:
            if not (dirpath == str(root) and f == SCIP_FILE):
                yield Path(dirpath) / f


def indexer(lang: str, name: str, root: Path, out: Path):
    """(command, environment, version, {file: text} to lay at the root while it runs) of the
    language's SCIP indexer writing `out`."""
    mods = (CACHE / "node_modules").resolve()
    if lang in ("python", "typescript"):
        package = f"scip-{lang}"
        version = json.loads((mods / "@sourcegraph" / package / "package.json").read_text())["version"]
        exe = str(mods / ".bin" / package)
        if lang == "typescript":  # the project's tsconfig.json
            return ([exe, "index", "--no-progress-bar", "--output", str(out)], None,
                    f"{package} {version}", {})
        # An empty environment: no `pip list`/`pip show` of this interpreter's packages (their
        # symbols would name them; none is a definition of the project's either way). And src/
        # as a search path, as the language server has it: without a config file the files
        # under src/ define `src.requests.sessions`/Session# while the tests' `import requests`
        # references `requests.sessions`/Session#, and no reference meets its definition.
        env_file = SCIP_DIR / "python-environment.json"
        env_file.write_text("[]")
        version_of = PROJECTS[name][1].rpartition("=")[2]
        return ([exe, "index", "--cwd", str(root), "--project-name", name, "--project-version",
                 version_of, "--environment", str(env_file.resolve()), "--output", str(out)],
                None, f"{package} {version}", {"pyrightconfig.json": json.dumps(PYRIGHT)})
    if lang != "rust":  # scip-go and scip-java are not packaged for this machine
        raise ValueError(f"none is installed by this script for {lang}")
    ra = rust_analyzer()
    std_sources_ready()
    dependencies_cached(root / "Cargo.toml")
    config = SCIP_DIR / "rust-analyzer.json"
    config.write_text(json.dumps(RA_SETTINGS))
    version = subprocess.run([ra, "--version"], capture_output=True, text=True).stdout.strip()
    env = dict(os.environ, CARGO_NET_OFFLINE="true",
               CARGO_TARGET_DIR=str((SCIP_DIR / "cargo-target").resolve()))
    return ([ra, "scip", ".", "--config-path", str(config.resolve()), "--output", str(out)], env,
            version, {})


def scip_index(name: str, root: Path):
    """The project's SCIP index, made once into target/lsp-eval/scip/<name>.scip (again when a
    project file is newer or the indexer changed): {path, tool, seconds, cached, ...}, or
    {error} when the indexer cannot run."""
    lang = PROJECTS[name][0]
    SCIP_DIR.mkdir(parents=True, exist_ok=True)
    cached, meta_file = SCIP_DIR / f"{name}.scip", SCIP_DIR / f"{name}.json"
    out = (SCIP_DIR / f".{name}.scip.partial").resolve()
    try:
        cmd, env, tool, laid = indexer(lang, name, root, out)
    except (OSError, subprocess.CalledProcessError, KeyError, ValueError) as e:
        return {"error": f"no {lang} SCIP indexer: {e}"}
    newest = max((f.stat().st_mtime for f in project_files(root)), default=0)
    meta = json.loads(meta_file.read_text()) if meta_file.is_file() else {}
    same = {"tool": tool, "command": " ".join(cmd), "laid": laid}
    if cached.is_file() and cached.stat().st_mtime >= newest and \
            all(meta.get(k) == v for k, v in same.items()):
        return {**meta, "path": str(cached), "cached": True}
    print(f"{name}: {' '.join(cmd)}", file=sys.stderr)
    out.unlink(missing_ok=True)
    started = time.time()
    with open(SCIP_DIR / f"{name}.log", "wb") as log:
        for rel, text in laid.items():
            if (root / rel).exists():
                return {"error": f"{root / rel} is there already: not overwritten"}
            (root / rel).write_text(text)
        try:
            done = subprocess.run(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=1800)
            failed = done.returncode != 0 and f"exit {done.returncode}"
        except (OSError, subprocess.TimeoutExpired) as e:
            failed = str(e)
        finally:
            for rel in laid:
                (root / rel).unlink(missing_ok=True)
    seconds = round(time.time() - started, 1)
    if failed or not out.is_file():
        tail = (SCIP_DIR / f"{name}.log").read_text(errors="replace").strip().splitlines()[-5:]
        return {"error": f"{tool}: {failed or 'no index written'}: {' | '.join(tail)}",
                "command": cmd}
    out.replace(cached)
    meta = {**same, "seconds": seconds,
            "bytes": cached.stat().st_size}
    meta_file.write_text(json.dumps(meta, indent=1))
    return {**meta, "path": str(cached), "cached": False}


def place_scip(root: Path, index: str | None):
    """Put the index at the root (written now: after every project file, as understand asks)
    or take it away, and drop understand's state so the graph is built anew either way."""
    shutil.rmtree(root / ".smart-context", ignore_errors=True)
    (root / SCIP_FILE).unlink(missing_ok=True)
    if index:
        shutil.copyfile(index, root / SCIP_FILE)
        os.utime(root / SCIP_FILE)


# ---------------------------------------------------------------- our side

class Ours:
    """A smart-context server on the project, and its file outlines."""

    def __init__(self, binary, root: Path, log):
        run(binary, "--root", str(root), "index", stderr=log)
        self.s = Server(binary, root)
        self.s.wait_fresh()
        self.outlines = {}

    def ask(self, args):
        for _ in range(300):  # NOT_INDEXED while the index catches up
            r = self.s.request("tools/call", {"name": "understand", "arguments": args})["result"]
            if not r.get("isError"):
                return r["structuredContent"]
            if not r["content"][0]["text"].startswith("NOT_INDEXED"):
                raise LspError(f"understand {args}: {r['content'][0]['text'][:200]}")
            time.sleep(0.2)
        raise LspError(f"understand {args}: still not indexed")

    def outline(self, path: str):
        """[(start, end, kind, key)] of the file's definitions, key `path#Container.name`."""
        if path not in self.outlines:
            try:
                found = self.ask({"path": path, "include": NO_EXTRAS}).get("outline", [])
            except LspError:
                found = []
            qualified = lambda d: f"{d['container']}.{d['name']}" if d.get("container") else d["name"]
            self.outlines[path] = [(d["startLine"], d["endLine"], d["kind"], f"{path}#{qualified(d)}")
                                   for d in found]
        return self.outlines[path]

    def enclosing(self, path: str, line: int):
        """The innermost definition holding 1-based `line` (the graph's rule), or None."""
        holding = [d for d in self.outline(path) if d[0] <= line <= d[1]]
        return min(holding, key=lambda d: d[1] - d[0], default=None)

    def links(self, path: str, symbol: str):
        """The target's keys, its call-graph lists (every page), and whether paging ran out."""
        args = {"goal": "callers and callees", "path": path, "symbol": symbol, "depth": "shallow",
                "include": {**NO_EXTRAS, "callGraph": True}, "limits": {"maxChars": 1_000_000}}
        lists, targets = defaultdict(list), None
        for _ in range(MAX_PAGES):
            r = self.ask(args)
            g = r.get("callGraph") or {}
            targets = targets or set(g.get("targets", []))
            for k in ("callers", "callees", "possibleCallers", "possibleCallees"):
                lists[k] += g.get(k, [])
            cursor = (r.get("next") or {}).get("cursor")
            if not (g.get("truncated") and cursor):  # other lists may page on: not ours
                return targets, lists, False
            args = {"cursor": cursor, "limits": {"maxChars": 1_000_000}}
        return targets, lists, True

    def close(self):
        self.s.close()


def direct(lists, targets, direction, ours):
    """Our direct links on one side: {far end: tiers}, {far end: call sites}."""
    tiers, sites = defaultdict(set), defaultdict(set)
    for name in (direction, "possibleC" + direction[1:]):
        for link in lists[name]:
            if direction == "callers" and link["callee"] in targets:
                if link["caller"] in targets:
                    continue
                far = link["caller"]
            elif direction == "callees" and link["caller"] in targets:
                far = constructed(link["callee"], ours)
            else:
                continue
            tiers[far].add(link["confidence"])
            sites[far].add(link["at"])
    return tiers, sites


# ---------------------------------------------------------------- their side

SOURCES = {}
PY_ACCESSOR = re.compile(r"@.*(property\b|\.setter\b|\.getter\b|\.deleter\b)")
TS_ACCESSOR = re.compile(r"^\s*(\w+\s+)*(get|set)\s+[\w$#]+\s*\(")


def source(root: Path, rel: str):
    key = (root, rel)  # projects share relative paths (src/lib.rs)
    if key not in SOURCES:
        SOURCES[key] = (root / rel).read_text(errors="replace").splitlines()
    return SOURCES[key]


def is_accessor(root: Path, rel: str, start: int) -> bool:
    """A property: Python @property (and kin) above the def line, a TypeScript get/set."""
    lines = source(root, rel)
    if rel.endswith((".ts", ".js")) and start <= len(lines) and TS_ACCESSOR.match(lines[start - 1]):
        return True
    i = start - 2
    while i >= 0 and lines[i].lstrip().startswith("@"):
        if PY_ACCESSOR.match(lines[i].lstrip()):
            return True
        i -= 1
    return False


def constructed(key: str, ours) -> str:
    """A callee constructor as its class: `C()` / `new C()` reaches the class or its
    constructor, by the server's or the graph's habit; either way it makes a C. The class is
    the one of our outline holding the constructor (a nested class's key names its outer
    class, its constructor's only the class itself)."""
    path, _, qualified = key.partition("#")
    container, _, name = qualified.rpartition(".")
    named_as_class = path.endswith(".java") and name == container.rpartition(".")[2]
    if not container or not (name in CONSTRUCTORS or named_as_class):
        return key
    outline = ours.outline(path)
    at = next((d for d in outline if d[3] == key), None)
    holding = [d for d in outline if at and d is not at and d[0] <= at[0] <= d[1]
               and d[3].partition("#")[2].rpartition(".")[2] == container.rpartition(".")[2]
               and d[2] in CLASS_KINDS]
    inner = min(holding, key=lambda d: d[1] - d[0], default=None)
    return inner[3] if inner else f"{path}#{container}"


def relative(root: Path, uri: str):
    """The project path of a file URI, or None outside the project (or in node_modules)."""
    p = Path(unquote(urlparse(uri).path)).resolve()
    if not p.is_relative_to(root) or "node_modules" in p.parts:
        return None
    return str(p.relative_to(root))


def flatten(symbols):
    for s in symbols or []:
        if "selectionRange" in s:
            yield s["name"], s["selectionRange"]["start"]
            yield from flatten(s.get("children"))
        elif "location" in s:  # SymbolInformation: the range start only
            yield s["name"], s["location"]["range"]["start"]


def name_position(lsp, root: Path, rel: str, d):
    """The LSP position of our definition's name: documentSymbol first, then the text."""
    start, end, _, key = d
    # After the path's `#`: a JavaScript private name keeps its own (`WebSocket.#onFail`).
    name = key.partition("#")[2].rpartition(".")[2]
    uri = (root / rel).as_uri()
    try:
        symbols = lsp.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    except LspError:
        symbols = []
    for sym_name, pos in flatten(symbols):
        # Go names methods by receiver: `(*Router).Match`.
        bare = re.sub(r"^\(\*?[\w.]+\)\.", "", sym_name)
        bare = re.sub(r"^(get |set |async |static )|\(.*$", "", bare).strip()
        if bare == name and start <= pos["line"] + 1 <= end:
            return pos
    alone = rf"(?<![\w$#]){re.escape(name)}(?![\w$])"
    word = re.compile(rf"\b(def|fn|function)\s+{re.escape(name)}\b|{alone}")
    comments = ("@", "#", "//", "*") if rel.endswith(".py") else ("@", "//", "*")
    lines = source(root, rel)
    for i in range(start - 1, min(end, len(lines))):
        m = word.search(lines[i])
        if m and not lines[i].lstrip().startswith(comments):
            return {"line": i, "character": m.end() - len(name)}
    return None


def their_item(lsp, lang, root: Path, rel: str, d, tries: int):
    """The server's call-hierarchy item for our definition `d`, or None."""
    if isinstance(lsp, Javac):
        return lsp.item(d)
    file = root / rel
    lsp.open(file, lang)
    pos = name_position(lsp, root, rel, d)
    for _ in range(tries if pos else 0):  # rust-analyzer may still be loading at first
        try:
            items = lsp.request("textDocument/prepareCallHierarchy", {
                "textDocument": {"uri": file.as_uri()}, "position": pos})
        except LspError as e:
            if "no answer" in str(e):
                return None
            items = None
        # tsserver names no method for one assigned to a prototype (`Runner.prototype.run =
        # function ..`): it answers with the whole file's item, or the function expression's
        # own when it is named (`= function run() ..`), whose callers are only those naming
        # it so, never `this.run()`.
        if items and items[0].get("name") == file.name and d[0] > 1:
            return None
        if items and lang == "javascript" and defined_by_assignment(root, rel, d):
            return None
        if items:
            return items[0]
        time.sleep(1)
    return None


def is_local_value(to, d) -> bool:
    """A call of a function value declared inside a definition (a closure in a local,
    `emitBatch := func() {..}`; a parameter of a function type, `skipFunc(r)`): the server
    names the local, which no outline lists, so the line falls inside the enclosing
    definition, whose own name the server's item does not carry."""
    line = to["selectionRange"]["start"]["line"] + 1
    ours = d[3].split("#", 1)[-1].rsplit(".", 1)[-1]
    # A parameter or receiver is declared on the definition's own first line.
    a_value = to.get("kind") in (VARIABLE, FIELD, CONSTANT)
    return (line != d[0] or a_value) and ours not in to.get("name", "")


def in_nested(ours, path, target, line) -> bool:
    """Whether `line` lies in a definition of our outline nested inside `target`."""
    if target is None or not path:
        return False
    d = ours.enclosing(path, line)
    return d is not None and d != target and target[0] <= d[0] and d[1] <= target[1]


def their_links(lsp, ours, root: Path, item):
    """The server's direct links as {direction: {our key: [call sites]}}, and what was dropped."""
    if isinstance(lsp, Javac):
        return lsp.links(ours, item)
    out = {"callers": defaultdict(list), "callees": defaultdict(list),
           "unjudged callers": defaultdict(list)}
    dropped = Counter()
    for call in lsp.request("callHierarchy/incomingCalls", {"item": item}) or []:
        rel = relative(root, call["from"]["uri"])
        for r in call["fromRanges"]:
            line = r["start"]["line"] + 1
            d = ours.enclosing(rel, line) if rel else None
            if d is None:
                dropped["dropped caller: toplevel" if rel else "dropped caller: external"] += 1
            elif binds_to_a_sibling(lsp, root, ours, call["from"]["uri"], r["start"], item):
                out["unjudged callers"][d[3]].append(f"{rel}:{line}")
            else:
                out["callers"][d[3]].append(f"{rel}:{line}")
    here = relative(root, item["uri"])
    # pyright's quirk only: the other servers list a nested function's calls as the graph
    # does (a TypeScript function expression's, say, under the function holding it).
    python = bool(here) and here.endswith(".py")
    target = ours.enclosing(here, item["selectionRange"]["start"]["line"] + 1) if python else None
    for call in lsp.request("callHierarchy/outgoingCalls", {"item": item}) or []:
        rel = relative(root, call["to"]["uri"])
        d = ours.enclosing(rel, call["to"]["selectionRange"]["start"]["line"] + 1) if rel else None
        # pyright lists the calls made in a definition nested in the target (a decorator's
        # wrapper) among the target's own; incoming, it names the nested one, as the graph
        # does both ways: such a site is the nested definition's call.
        sites = [r for r in call["fromRanges"]
                 if not in_nested(ours, here, target, r["start"]["line"] + 1)]
        if not sites:
            dropped["dropped callee: in a nested definition"] += 1
        elif d is None:
            dropped["dropped callee: toplevel" if rel else "dropped callee: external"] += 1
        elif is_local_value(call["to"], d):
            dropped["dropped callee: local function value"] += 1
        elif is_accessor(root, rel, d[0]):
            dropped["dropped callee: property"] += 1
        elif call["to"].get("kind") == ENUM_MEMBER:
            dropped["dropped callee: enum variant"] += 1
        else:
            out["callees"][constructed(d[3], ours)] += [f"{here}:{r['start']['line'] + 1}"
                                                  for r in sites]
    return out, dropped


def binds_to_a_sibling(lsp, root: Path, ours, uri: str, at, item) -> bool:
    """Whether tsserver's own definition of a call it lists among the target's incoming calls
    is another class's method: its call hierarchy gathers the references of every method that
    implements one interface member (`subscriber.complete()` on a `Subscriber` is listed under
    `ConsumerObserver.complete`, both implementing `Observer.complete`), while the call binds
    to the one its receiver's class has. A definition in an interface, outside the project,
    in the target's own class or in a class it extends is the call's reach, and kept."""
    if getattr(lsp, "lang", None) not in ("typescript", "javascript"):
        return False
    path = Path(unquote(urlparse(uri).path))
    lsp.open(path, "javascript" if path.suffix in (".js", ".cjs", ".mjs") else "typescript")
    try:
        found = lsp.request("textDocument/definition",
                            {"textDocument": {"uri": uri}, "position": at}) or []
    except LspError:
        return False
    found = [found] if isinstance(found, dict) else found
    target = ours.enclosing(relative(root, item["uri"]) or "",
                            item["selectionRange"]["start"]["line"] + 1)
    if not found or target is None:
        return False
    for loc in found:
        rel = relative(root, loc.get("targetUri") or loc.get("uri"))
        start = (loc.get("targetSelectionRange") or loc.get("range"))["start"]["line"] + 1
        d = rel and ours.enclosing(rel, start)
        if not d or d == target:
            return False
        cls = d[3].partition("#")[2].rpartition(".")[0]
        if not cls or kind_of(ours, f"{rel}#{cls}") != "class":
            return False
        own = target[3].partition("#")[2].rpartition(".")[0]
        if cls == own or cls in ancestors(root, own):
            return False
    return True


def ancestors(root: Path, cls: str) -> set:
    """The classes a TypeScript or JavaScript class extends, by name, through the project's
    sources (`class A<T> extends B<T>`), transitively."""
    if getattr(ancestors, "table", (None,))[0] != root:
        table = defaultdict(set)
        pattern = re.compile(r"\bclass\s+([\w$]+)(?:<[^{]*?>)?\s+extends\s+([\w$.]+)")
        for p in root.rglob("*"):
            if p.suffix in (".ts", ".js") and "node_modules" not in p.parts and p.is_file():
                for m in pattern.finditer(p.read_text(errors="replace")):
                    table[m.group(1)].add(m.group(2).rpartition(".")[2])
        ancestors.table = (root, table)
    seen, todo = set(), [cls]
    while todo:
        for base in ancestors.table[1].get(todo.pop(), ()):
            if base not in seen:
                seen.add(base)
                todo.append(base)
    return seen


def kind_of(ours, key):
    """The kind our outline gives the definition `key`, or None."""
    return next((d[2] for d in ours.outline(key.partition("#")[0]) if d[3] == key), None)


def defined_by_assignment(root: Path, rel: str, d) -> bool:
    """Whether our definition `d` is a function assigned to a member (`Runner.prototype.run =
    function ..`, `exports.isBrowser = function isBrowser() ..`), which tsserver's call
    hierarchy names no item for: it answers with the file's item, or the function
    expression's own, whose callers are only those naming it so."""
    lines = source(root, rel)
    return d[0] <= len(lines) and bool(
        re.match(r"\s*[\w$.]+\.[\w$]+\s*=(?![=>])", lines[d[0] - 1]))


def unnamed_by_tsserver(root: Path, ours, key) -> bool:
    """Whether our definition `key` is one tsserver's call hierarchy names no item for: a
    function assigned to a member (see `defined_by_assignment`) or a method with a computed
    name (`[kClose] () {..}`)."""
    rel = key.partition("#")[0]
    d = next((d for d in ours.outline(rel) if d[3] == key), None)
    lines = source(root, rel)
    if not d or d[0] > len(lines):
        return False
    return defined_by_assignment(root, rel, d) or bool(
        re.match(r"\s*(static\s+)?(async\s+)?\*?\s*\[", lines[d[0] - 1]))


def far_item(lsp, lang, root: Path, ours, far, cache):
    """The server's call-hierarchy item for the definition `far` of our outline, or None."""
    if far not in cache:
        rel = far.partition("#")[0]
        d = next((d for d in ours.outline(rel) if d[3] == far), None)
        try:
            cache[far] = d and their_item(lsp, lang, root, rel, d, 1)
        except LspError:
            cache[far] = None
    return cache[far]


def other_way(lsp, lang, root: Path, ours, key, far, direction, cache) -> bool:
    """Whether the server, asked about the far end `far`, states its link with `key`: the
    far end's outgoing calls name the target (for a caller), or its incoming calls come
    from the target (for a callee). rust-analyzer's outgoing calls leave out the calls
    written inside a macro's arguments (`assert!(m.is_match(p))`) that its incoming calls
    list, so one direction alone would count such a link of ours as wrong."""
    if far not in cache:
        rel = far.partition("#")[0]
        d = next((d for d in ours.outline(rel) if d[3] == far), None)
        item = d and their_item(lsp, lang, root, rel, d, 1)
        try:
            cache[far] = their_links(lsp, ours, root, item)[0] if item else None
        except LspError:
            cache[far] = None
    links = cache[far]
    if links is None:
        return False
    if direction == "callers":
        return key in links["callees"] or constructed(key, ours) in links["callees"]
    return key in links["callers"]


def defined_at_site(lsp, root: Path, ours, callee: str, sites) -> bool:
    """Whether tsserver's own definition of the name called at one of our call sites of a
    link (textDocument/definition there) is the callee we name. Its call hierarchy leaves
    out calls through a CommonJS module's exported object (`util.destroy(..)` of a
    `module.exports = { destroy, .. }`: neither the caller's outgoing nor the callee's
    incoming calls list it), which its go-to-definition follows to the function."""
    rel_callee, _, qualified = callee.partition("#")
    name = qualified.rsplit(".", 1)[-1]
    target = next((d for d in ours.outline(rel_callee) if d[3] == callee), None)
    if target is None or not re.fullmatch(r"[\w$]+", name):
        return False
    for site in sorted(sites):
        rel, _, line = site.rpartition(":")
        lines = source(root, rel) if rel and line.isdigit() else []
        if not 0 < int(line or 0) <= len(lines):
            continue
        path = root / rel
        lsp.open(path, "javascript" if path.suffix in (".js", ".cjs", ".mjs") else "typescript")
        for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", lines[int(line) - 1]):
            try:
                found = lsp.request("textDocument/definition", {
                    "textDocument": {"uri": path.as_uri()},
                    "position": {"line": int(line) - 1, "character": m.start()}}) or []
            except LspError:
                continue
            for loc in [found] if isinstance(found, dict) else found:
                there = relative(root, loc.get("targetUri") or loc.get("uri"))
                start = (loc.get("targetSelectionRange") or loc.get("range"))["start"]["line"] + 1
                if there and ours.enclosing(there, start) == target:
                    return True
    return False


# ---------------------------------------------------------------- judging

def judge(name, binary, sample_n, seed, log):
    lang, source_name, _, under = PROJECTS[name]
    root = fetch(name)
    started = time.time()
    ours = Ours(binary, root, log)
    candidates, properties = [], 0
    for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES):
        rel = str(path.relative_to(root))
        # Declarations, and Go's tests (callers, not what is sampled: as the Python
        # projects' tests/).
        if not rel.startswith(under) or rel.endswith((".d.ts", "_test.go")):
            continue
        defs = ours.outline(rel)
        once = Counter(d[3] for d in defs)
        for d in defs:
            if d[2] in DEF_KINDS and once[d[3]] == 1:
                if is_accessor(root, rel, d[0]):
                    properties += 1
                else:
                    candidates.append((rel, d))
    sample = random.Random(seed).sample(candidates, min(sample_n, len(candidates)))
    lsp = start_server(lang, root, log)
    ready = time.time()
    t, tier_total, tier_right = Counter(), Counter(), Counter()
    disagreements, definitions = [], []
    reverse = {}  # the server's links of far ends asked the other way, by key
    items = {}  # the server's items of far ends, by key
    for i, (rel, d) in enumerate(sample):
        key = d[3]
        item = their_item(lsp, lang, root, rel, d, (30 if i == 0 else 3) if lang == "rust" else 1)
        if not item:
            t["no LSP item"] += 1
            definitions.append({"definition": key, "skipped": "no LSP item"})
            continue
        try:
            theirs, dropped = their_links(lsp, ours, root, item)
            targets, lists, truncated = ours.links(rel, key.partition("#")[2])
        except LspError as e:
            t["error"] += 1
            definitions.append({"definition": key, "skipped": str(e)})
            continue
        if key not in targets:
            t["target mismatch"] += 1
            definitions.append({"definition": key, "skipped": f"understand's targets: {targets}"})
            continue
        # A constructor's callers are where its class is instantiated: servers differ (tsserver
        # lists `new C()` under the constructor, pyright only under the class), so both are
        # asked and merged, as understand answers for a constructor.
        if constructed(key, ours) != key:
            class_key = constructed(key, ours)
            class_def = next((c for c in ours.outline(rel) if c[3] == class_key), None)
            class_item = class_def and their_item(lsp, lang, root, rel, class_def, 1)
            if class_item:
                made, _ = their_links(lsp, ours, root, class_item)
                for far, at in made["callers"].items():
                    theirs["callers"][far] += at
        t.update(dropped)
        t["definitions"] += 1
        t["truncated"] += truncated
        theirs["callers"].pop(key, None)  # recursion counts among callees only
        per_def = {"definition": key, "truncated": truncated}
        definitions.append(per_def)
        for direction in ("callers", "callees"):
            mine, sites = direct(lists, targets, direction, ours)
            # No server lists a macro's invocations (`assert_eq!`, a `macro_rules!` of the
            # project's): such a link is neither right nor wrong by them.
            for far in [far for far in mine if kind_of(ours, far) == "macro"]:
                del mine[far]
                t["not judged: macro"] += 1
            # A caller tsserver lists only by a call its own definition binds to another
            # class's method (see `binds_to_a_sibling`): neither right nor wrong by it.
            if direction == "callers":
                for far in set(theirs.get("unjudged callers", ())) - set(theirs["callers"]):
                    mine.pop(far, None)
                    t["not judged: the server's definition is a sibling's"] += 1
            lsp_keys = set(theirs[direction])
            # tsserver has no item for a method assigned to a prototype (`Runner.prototype.run
            # = function ..`), so it can state no link to or from one: such a link of ours is
            # neither right nor wrong by it.
            if lang in ("javascript", "typescript"):
                for far in [far for far in mine if far not in lsp_keys]:
                    if unnamed_by_tsserver(root, ours, far) and not far_item(
                            lsp, lang, root, ours, far, items):
                        del mine[far]
                        t["not judged: far end without an LSP item"] += 1
            known = {k for k, tiers in mine.items() if tiers - {"name"}}
            # A link of ours the server's answer for the target lacks, but its answer for the
            # far end states (a rust-analyzer callee inside a macro's arguments): right by
            # the server too. It counts for precision; recall stays the target's own answer.
            # tsserver's definition at our call site naming the callee (see
            # `defined_at_site`) confirms it too.
            confirmed = {far for far in sorted(known - lsp_keys)
                         if other_way(lsp, lang, root, ours, key, far, direction, reverse)
                         or lang in ("javascript", "typescript") and defined_at_site(
                             lsp, root, ours, far if direction == "callees" else key,
                             sites[far])}
            agreed = lsp_keys | confirmed
            for far, tiers in mine.items():
                for tier in tiers:
                    tier_total[tier] += 1
                    tier_right[tier] += far in agreed
            per_def[direction] = {"ours": len(known), "theirs": len(lsp_keys),
                                  "both": len(known & agreed), "confirmed": len(confirmed)}
            t[f"{direction} ours"] += len(known)
            t[f"{direction} both"] += len(known & agreed)
            t[f"{direction} confirmed"] += len(confirmed)
            if not truncated:
                t[f"{direction} theirs"] += len(lsp_keys)
                t[f"{direction} found"] += len(known & lsp_keys)
                t[f"{direction} possible"] += len((lsp_keys - known) & set(mine))
            link = lambda far: f"{far} -> {key}" if direction == "callers" else f"{key} -> {far}"
            note = lambda side, far, at: disagreements.append({
                "side": side, "direction": direction, "target": key, "link": link(far),
                "tiers": sorted(mine.get(far, ())), "at": sorted(at)})
            for far in sorted(known - agreed):
                note("ours only", far, sites[far])
            for far in sorted(confirmed):
                note("other way", far, sites[far])
            for far in sorted(set(mine) - known - lsp_keys):
                note("name only", far, sites[far])
            for far in sorted(lsp_keys - known):
                note("LSP only", far, set(theirs[direction][far]))
    if isinstance(lsp, Javac):  # how much of the tree javac could bind
        t["javac errors"], t["javac external calls"] = lsp.errors, lsp.external
    lsp.close()
    ours.close()
    for a in ("ours", "both", "theirs", "found", "possible", "confirmed"):
        t[f"all {a}"] = t[f"callers {a}"] + t[f"callees {a}"]
    ratio = lambda a, b: round(t[a] / t[b], 3) if t[b] else None
    result = {"language": lang, "project": source_name, "sampled": len(sample),
              "candidates": len(candidates), "properties_not_sampled": properties,
              "seconds": {"total": round(time.time() - started, 1),
                          "lsp_start": round(ready - started, 1)}, "counts": dict(t)}
    for d in ("callers", "callees", "all"):
        result[d] = {"precision": ratio(f"{d} both", f"{d} ours"),
                     "recall": ratio(f"{d} found", f"{d} theirs")}
    result["tiers"] = {tier: {"links": tier_total[tier], "agree": tier_right[tier],
                              "precision": round(tier_right[tier] / tier_total[tier], 3)
                              if tier_total[tier] else None}
                       for tier in TIERS + sorted(set(tier_total) - set(TIERS))}
    result["definitions"] = definitions
    result["disagreements"] = disagreements
    return result


def spread(items, n, per_target=2):
    """The first `n` items, at most `per_target` per definition before any more."""
    first, rest, seen = [], [], Counter()
    for d in items:
        seen[d["target"]] += 1
        (first if seen[d["target"]] <= per_target else rest).append(d)
    return (first + rest)[:n]


def table(name, r, show):
    c = r["counts"]
    f = lambda x: "  -  " if x is None else f"{x:.3f}"
    print(f"\n== {name} ({r['language']}, {r['project']}): {c.get('definitions', 0)} of "
          f"{r['sampled']} sampled definitions judged, {r['seconds']['total']}s "
          f"(language server up after {r['seconds']['lsp_start']}s)")
    print(f"   {'':8s} precision  recall   ours   LSP  both  other-way  missed-but-possible")
    for d in ("callers", "callees", "all"):
        n = lambda k: c.get(f"{d} {k}", 0)
        print(f"   {d:8s} {f(r[d]['precision'])}     {f(r[d]['recall'])}  {n('ours'):5d} "
              f"{n('theirs'):5d} {n('both'):5d}  {n('confirmed'):9d}  {n('possible'):5d}")
    print("   per-tier precision: " + ", ".join(
        f"{tier} {f(v['precision'])} ({v['agree']}/{v['links']})"
        for tier, v in r["tiers"].items() if v["links"]))
    other = {k: v for k, v in c.items() if not k.startswith(("callers", "callees", "all"))}
    print(f"   other: {other}")
    for side in ("ours only", "LSP only", "name only", "other way"):
        for d in spread([d for d in r["disagreements"] if d["side"] == side], show):
            print(f"   {side:9s} {d['direction']}: {d['link']}  at {', '.join(d['at'][:3])}"
                  + (f"  [{'/'.join(d['tiers'])}]" if d["tiers"] else ""))


def compare(report):
    """Each project without and with its SCIP index, side by side."""
    f = lambda x: "  -  " if x is None else f"{x:.3f}"
    print("\n== without -> with SCIP (precision/recall of the default answer)")
    print(f"   {'project':9s} {'callers':>25s} {'callees':>25s}   scip tier precision   indexer")
    for name, r in report.items():
        if name.endswith("+scip"):
            continue
        w = report.get(f"{name}+scip")
        if not w:
            print(f"   {name:9s} no index: {r.get('scip', {}).get('error')}")
            continue
        pr = lambda x, d: f"{f(x[d]['precision'])}/{f(x[d]['recall'])}"
        tier = w["tiers"].get("scip") or {"links": 0, "agree": 0, "precision": None}
        idx = w["scip"]
        print(f"   {name:9s} {pr(r, 'callers')} -> {pr(w, 'callers')}"
              f" {pr(r, 'callees')} -> {pr(w, 'callees')}"
              f"   {f(tier['precision'])} ({tier['agree']}/{tier['links']})"
              f"   {idx['tool']}, {idx['seconds']}s{' (cached)' if idx['cached'] else ''}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/smart-context")
    ap.add_argument("--sample", type=int, default=40, help="definitions per project")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--show", type=int, default=10, help="disagreements of each kind to print")
    ap.add_argument("--only", default=",".join(PROJECTS), help="projects, comma-separated")
    ap.add_argument("--scip", action="store_true",
                    help="judge each project without, then with, its SCIP index (index.scip)")
    ap.add_argument("--git-mirror", help="where DIR/<owner>+<name>/repo holds a clone of a "
                    "git-sourced project (else it is cloned from GitHub)")
    a = ap.parse_args()
    global GIT_MIRROR
    GIT_MIRROR = a.git_mirror
    binary = str(Path(a.bin).resolve())
    CACHE.mkdir(parents=True, exist_ok=True)
    install_servers(NPM + NPM_SCIP if a.scip else NPM)
    report = {}
    with open(CACHE / "lsp-stderr.log", "ab") as log:
        for name in a.only.split(","):
            # A project this machine cannot fetch (no network, no mirror) is reported and
            # passed over: the others' numbers still come.
            try:
                root = fetch(name)
            except (subprocess.CalledProcessError, OSError, SystemExit) as e:
                print(f"   {name}: not fetched, skipped: {e}", file=sys.stderr)
                report[name] = {"skipped": f"not fetched: {e}"}
                continue
            # Always a fresh state dir (and no SCIP index): a build whose extraction changed
            # within one index format would otherwise read the facts an older build stored.
            place_scip(root, None)
            report[name] = judge(name, binary, a.sample, a.seed, log)
            table(name, report[name], a.show)
            if not a.scip:
                continue
            index = scip_index(name, root)
            if "error" in index:
                print(f"   {name}: no SCIP index: {index['error']}", file=sys.stderr)
                report[name]["scip"] = index
                continue
            place_scip(root, index["path"])
            try:
                report[f"{name}+scip"] = judge(name, binary, a.sample, a.seed, log)
            finally:
                place_scip(root, None)  # the project as a run without --scip expects it
            report[f"{name}+scip"]["scip"] = index
            table(f"{name}+scip", report[f"{name}+scip"], a.show)
    if a.scip:
        compare(report)
    (CACHE / "report.json").write_text(json.dumps(report, indent=1))
    print(f"\nreport: {CACHE / 'report.json'}")


if __name__ == "__main__":
    main()
