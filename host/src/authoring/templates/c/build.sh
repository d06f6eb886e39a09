#!/usr/bin/env sh
# Builds {{name}}.wasm: clang with wasi-libc (Debian: apt install clang lld wasi-libc libclang-rt-dev-wasm32), then
# jco (npm) to embed the contract and make the core module a component.
set -eu
cd "$(dirname "$0")"
[ -d node_modules ] || npm install --no-audit --no-fund
clang --target=wasm32-wasi -mexec-model=reactor -O2 -Wall -o core.wasm parser.c
# wit/ holds the format-parser world only, so no world needs naming; jco's tools read paths
# given absolute.
npx jco embed core.wasm --wit "$PWD/wit" -o embedded.wasm
npx jco new embedded.wasm --wasi-reactor -o {{name}}.wasm
rm -f core.wasm embedded.wasm
echo "built {{name}}.wasm"
