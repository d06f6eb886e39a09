#!/usr/bin/env bash
# A/B of two builds on one machine, alternating so load drifts hit both alike:
# `index --full` wall time (3 rounds) and explore p50 over 12 Django issue texts of
# ../shared/eval through stdio (2 rounds). Each build gets its own copy of TREE.
#   scripts/ab-index-explore.sh OLD_BINARY NEW_BINARY TREE
set -euo pipefail
old=$1 new=$2 tree=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in old new; do cp -a "$tree" "$work/$v"; done
bin() { if [ "$1" = old ]; then echo "$old"; else echo "$new"; fi; }
# Warm the component caches and the page cache.
for v in old new; do "$(bin $v)" --root "$work/$v" index >/dev/null 2>&1; done
for round in 1 2 3; do
  for v in old new; do
    start=$(date +%s.%N)
    "$(bin $v)" --root "$work/$v" index --full >/dev/null 2>&1
    echo "index-full $v round $round: $(echo "$(date +%s.%N) - $start" | bc) s"
  done
done
for round in 1 2; do
  for v in old new; do
    python3 - "$(bin $v)" "$work/$v" "$here" "$v" "$round" <<'PY'
import json, sys
from pathlib import Path
binary, root, scripts, name, round_ = sys.argv[1:]
sys.path.insert(0, scripts)
from mcp_stdio import Server
rows = [json.loads(l) for l in open(Path(scripts) / "../../shared/eval/swebench-lite-dev.jsonl")]
texts = [r["problem_statement"] for r in rows if r["repo"] == "django/django"][:12]
server = Server(binary, Path(root))
server.wait_fresh()
times = sorted(server.call("explore", {"query": t})[0] for t in texts)
print(f"explore {name} round {round_}: p50 {times[len(times) // 2]:.0f} ms")
server.close()
PY
  done
done
