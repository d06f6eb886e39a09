#!/usr/bin/env bash
# Fetches the index benchmark corpus (scripts/bench-corpus.sh) and runs the index benchmark.
# Usage: scripts/bench-index.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-corpus.sh
SMART_CONTEXT_BENCH_CORPUS="$PWD/$tree" SMART_CONTEXT_BENCH_SUBTREES=django-5.2.19 \
  cargo bench -p smart-context --bench index
