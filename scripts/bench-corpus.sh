#!/usr/bin/env bash
# Sourced by the benchmark scripts: fetches the benchmark corpus (the Django 5.2 sdist from PyPI
# plus Rust crate sources from the local cargo registry) into target/bench-corpus/tree once,
# and makes sure ripgrep, the baseline, is installed. Sets $tree.
corpus=target/bench-corpus
tree=$corpus/tree
mkdir -p "$corpus"
if [ ! -d "$tree" ]; then
  pip download --quiet --no-deps --no-binary :all: "Django==5.2.19" -d "$corpus"
  mkdir -p "$tree"
  tar xzf "$corpus/django-5.2.19.tar.gz" -C "$tree"
  # Rust sources this workspace already depends on (fetched by cargo), for the Rust queries.
  cargo fetch --quiet
  registry=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ | head -1)
  mkdir -p "$tree/rust"
  for crate in tantivy-0.27.0 tokio-1 wasmtime-48 cranelift-codegen-0 rmcp-3 regex-automata-0 tree-sitter-0.27; do
    for dir in "$registry"$crate*; do
      [ -d "$dir" ] && cp -r "$dir" "$tree/rust/"
    done
  done
fi
if ! command -v rg >/dev/null; then
  apt-get install -y ripgrep >/dev/null 2>&1 || cargo install --locked ripgrep
fi
echo "corpus: $(find "$tree" -type f -not -path '*/.smart-context/*' | wc -l) files, $(du -sh --exclude=.smart-context "$tree" | cut -f1)"
