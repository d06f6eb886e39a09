#!/usr/bin/env sh
# Builds {{name}}.wasm with componentize-js (npm install, once).
set -eu
cd "$(dirname "$0")"
[ -d node_modules ] || npm install --no-audit --no-fund
npx componentize-js app.js --wit wit -n {{world}} -o {{name}}.wasm
echo "built {{name}}.wasm"
