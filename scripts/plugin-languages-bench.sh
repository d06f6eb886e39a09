#!/usr/bin/env bash
# From `plugin new` to a working plugin, per language: the build time, the component's size,
# the first compile (`plugin check`, empty component cache), a load from the cache, and the
# cost of one call (median of 5 `plugin check` runs, instantiation included) against the
# built-in markdown parser run the same way on the same text.
#
#   bash scripts/plugin-languages-bench.sh [BIN]      (BIN: target/release/smart-context)
#
# Needs the toolchains of scripts/plugin-toolchains.sh, Rust's wasm32-wasip2 target, and
# Debian's clang lld wasi-libc libclang-rt-dev-wasm32 for C.
# Prints a Markdown table for docs/plugins.md.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(realpath "${1:-$repo/target/release/smart-context}")"
tools="$repo/target/tmp/toolchains"
bash "$repo/scripts/plugin-toolchains.sh" "$tools"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
export PATH="$tools/py/bin:$tools/js/node_modules/.bin:$PATH"
export CARGO_TARGET_DIR="$work/cargo-target"
root="$work/root"
mkdir -p "$root"
text="$(printf '# Intro\nthe okapi lives in the forest\n\n')"
for i in $(seq 1 200); do text+=$'\n'"# Part $i"$'\n'"line $i of the notes, with words to find"$'\n'; done

now_ms() { date +%s%3N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
call_ms() { # component input -> median call ms of 5 runs
  for _ in 1 2 3 4 5; do
    "$bin" --root "$root" plugin check "$1" --input "$2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["call"]["ms"])'
  done | median
}

echo "| language | toolchain | build (s) | size | first compile (ms) | load from cache (ms) | one call (ms) | built-in markdown, same text (ms) |"
echo "|---|---|---|---|---|---|---|---|"
builtin="$work/md-builtin.wasm"
cp "$repo/target/plugins/wasm32-wasip2/release/markdown.wasm" "$builtin"
printf '%s\n' "$text" > "$work/notes.md"
builtin_ms="$(call_ms "$builtin" "$work/notes.md")"
for language in rust python js c; do
  name="bench-$language"
  (cd "$work" && "$bin" plugin new "$language" format-parser "$name" > /dev/null)
  case $language in js|c) ln -s "$tools/js/node_modules" "$work/$name/node_modules" ;; esac
  start=$(now_ms)
  "$work/$name/build.sh" > /dev/null 2>&1
  build_s=$(awk -v ms=$(( $(now_ms) - start )) 'BEGIN { printf "%.1f", ms / 1000 }')
  wasm="$work/$name/$name.wasm"
  size=$(du -h "$wasm" | cut -f1)
  input="$work/notes.$name"
  printf '%s\n' "$text" > "$input"
  first=$("$bin" --root "$root" plugin check "$wasm" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["load"]["ms"]))')
  cached=$("$bin" --root "$root" plugin check "$wasm" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["load"]["ms"]))')
  toolchain=$(case $language in rust) echo "cargo, wasm32-wasip2" ;; python) echo "componentize-py $(componentize-py --version | cut -d' ' -f2)" ;; js) echo "componentize-js 0.23.0 (StarlingMonkey)" ;; c) echo "clang $(clang -dumpversion), wasi-libc, jco 1.35" ;; esac)
  echo "| $language | $toolchain | $build_s | $size | $first | $cached | $(call_ms "$wasm" "$input") | $builtin_ms |"
done
