#!/usr/bin/env bash
# Packs what a plugin author builds against, for a release: the contract (wit/plugin.wit, the
# package smart-context:plugin@VERSION that toolchains read with --wit), the guest helpers
# for Python, JavaScript and C (sdk/), and the page that explains them. Writes
# DIR/smart-context-plugin-VERSION.tar.gz (default DIR: target/dist) and prints its path and
# SHA-256. The Rust SDK is a crate of its own (plugins/sdk, `cargo publish`).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$repo/target/dist}"
version="$(sed -n 's/^package smart-context:plugin@\(.*\);$/\1/p' "$repo/wit/plugin.wit")"
[ -n "$version" ] || { echo "no package version in wit/plugin.wit" >&2; exit 1; }
name="smart-context-plugin-$version"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/wit" "$stage/$name/sdk" "$dir"
cp "$repo/wit/plugin.wit" "$stage/$name/wit/"
cp -r "$repo/sdk/python" "$repo/sdk/js" "$repo/sdk/c" "$stage/$name/sdk/"
cp "$repo/docs/plugins.md" "$stage/$name/README.md"
# Reproducible: fixed owner, order and times.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2026-01-01 00:00Z' \
  -C "$stage" -czf "$dir/$name.tar.gz" "$name"
sha256sum "$dir/$name.tar.gz"
