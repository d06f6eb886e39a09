#!/usr/bin/env sh
# Builds {{name}}.wasm with Rust's wasm32-wasip2 target (rustup target add wasm32-wasip2).
set -eu
cd "$(dirname "$0")"
cargo build --release --target wasm32-wasip2
cp "${CARGO_TARGET_DIR:-target}/wasm32-wasip2/release/{{crate}}.wasm" {{name}}.wasm
echo "built {{name}}.wasm"
