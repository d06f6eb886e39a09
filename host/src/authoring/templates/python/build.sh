#!/usr/bin/env sh
# Builds {{name}}.wasm with componentize-py (pip install componentize-py).
set -eu
cd "$(dirname "$0")"
componentize-py -d wit -w {{world}} componentize app -o {{name}}.wasm
echo "built {{name}}.wasm"
