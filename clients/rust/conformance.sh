#!/usr/bin/env bash
# The conformance scenario for the Rust client (see clients/README.md, README.md): build the crate and its conformance example
# with the committed Cargo.lock, then run it against PLINTH_URL, PLINTH_PROXY_URL and PLINTH_LIMITED_URL.
# Exit 77 when cargo is not installed. Crates come from crates.io into ~/.cargo; build output goes to CARGO_TARGET_DIR,
# by default a cache outside the checkout, so that a fresh clone (CI's) reuses the last build instead of compiling
# reqwest and its tree again (cargo's fingerprints decide what to rebuild).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if ! command -v cargo >/dev/null 2>&1; then
  [[ -x "$HOME/.cargo/bin/cargo" ]] && export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "rust: cargo not installed"
  exit 77
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/plinth/rust-target}"
start=$(date +%s)
# -j 2: the machine has two cores; the build is the slow part of this script (about a minute when cold).
# methods.json against the methods named in tests/manifest.rs; the retry rules, the cursors a list sends and the
# replayed secret, which a live server cannot be made to show on demand (tests/retries.rs); the doc example; and it
# compiles every example, so examples/readme.rs (the README's examples, written by scripts/clients/readme.ts).
cargo test --locked --quiet -j 2
cargo build --locked --quiet -j 2 --example conformance
echo "built with $(rustc --version | cut -d' ' -f2) in $(( $(date +%s) - start )) s"
exec "$CARGO_TARGET_DIR/debug/examples/conformance"
