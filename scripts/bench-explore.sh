#!/usr/bin/env bash
# Fetches the benchmark corpus (scripts/bench-corpus.sh) and runs the explore benchmark on it
# (indexing it first when the index bench has not). Usage: scripts/bench-explore.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-corpus.sh
SMART_CONTEXT_BENCH_CORPUS="$PWD/$tree" cargo bench -p smart-context --bench explore
