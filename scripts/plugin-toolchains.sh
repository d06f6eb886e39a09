#!/usr/bin/env bash
# Installs the component toolchains plugin authors use, from the registries, pinned by
# tests/toolchains/ (requirements.txt for componentize-py from PyPI, package-lock.json for
# componentize-js from npm), into DIR (default target/tmp/toolchains): DIR/py (a venv) and
# DIR/js (node_modules). Idempotent: a pin that did not change is not installed again.
# tests/toolchains.rs builds the scaffolded plugins with them; .ci/run calls it up front.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
pins="$repo/tests/toolchains"
dir="${1:-$repo/target/tmp/toolchains}"
mkdir -p "$dir"

if ! cmp -s "$pins/requirements.txt" "$dir/py/.installed" || [ ! -x "$dir/py/bin/componentize-py" ]; then
  python3 -m venv "$dir/py"
  "$dir/py/bin/python" -m pip install --quiet --disable-pip-version-check -r "$pins/requirements.txt"
  cp "$pins/requirements.txt" "$dir/py/.installed"
fi

if ! cmp -s "$pins/package-lock.json" "$dir/js/.installed" || [ ! -d "$dir/js/node_modules" ]; then
  mkdir -p "$dir/js"
  cp "$pins/package.json" "$pins/package-lock.json" "$dir/js/"
  (cd "$dir/js" && npm ci --no-audit --no-fund --silent)
  cp "$pins/package-lock.json" "$dir/js/.installed"
fi
