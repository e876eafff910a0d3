#!/usr/bin/env bash
# The Rust client as a user meets it: `cargo package` builds the crate as it would be published (target/package/
# plinth-<version>.crate, verified by compiling it on its own), then a fresh Cargo project in a temporary directory
# outside this repository depends on the unpacked crate, builds the README's quickstart (the block after
# `<!-- quickstart: src/main.rs -->`) and runs it against PLINTH_URL: it must print a new account's id.
# Exit 77 when cargo is missing.
#
# Lean on purpose: the same CARGO_TARGET_DIR as conformance.sh (~/.cache/plinth/rust-target), the crate's own
# Cargo.lock as the project's starting lock, and the dev profile conformance.sh builds with (debug = 0), so the
# dependencies compiled for the conformance run are reused and only the crate and the program are compiled here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if ! command -v cargo >/dev/null 2>&1; then
  [[ -x "$HOME/.cargo/bin/cargo" ]] && export PATH="$HOME/.cargo/bin:$PATH"
fi
command -v cargo >/dev/null 2>&1 || { echo "rust: cargo not installed"; exit 77; }
: "${PLINTH_URL:?PLINTH_URL must point at a running Plinth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/plinth/rust-target}"
export CARGO_PROFILE_DEV_DEBUG=0
start=$(date +%s)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
# --allow-dirty: package the working tree being tested, committed or not (as conformance.sh builds it). Offline
# first: conformance.sh has fetched every crate the lock names; online only if it has not run here yet.
cargo package --locked --allow-dirty --quiet -j 2 --offline 2>/dev/null || cargo package --locked --allow-dirty --quiet -j 2
crate="$CARGO_TARGET_DIR/package/plinth-$version.crate"
[[ -f $crate ]] || { echo "cargo package made no $crate"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/plinth-rust-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$crate" -C "$work"
mkdir -p "$work/app/src"
cp "$work/plinth-$version/Cargo.lock" "$work/app/Cargo.lock"
cat >"$work/app/Cargo.toml" <<TOML
[package]
name = "quickstart"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
plinth = { path = "$work/plinth-$version" }
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }

[workspace]
TOML
awk '/<!-- quickstart: src\/main.rs -->/ {found = 1; next} found && /^```rust/ {inside = 1; next}
  inside && /^```/ {exit} inside {print}' README.md >"$work/app/src/main.rs"
[[ -s $work/app/src/main.rs ]] || { echo "README.md has no quickstart block"; exit 1; }

cd "$work/app"
cargo build --quiet -j 2 --offline 2>/dev/null || cargo build --quiet -j 2
out=$("$CARGO_TARGET_DIR/debug/quickstart")
echo "quickstart printed: $out"
[[ $out =~ ^acct_[0-9A-Za-z]+$ ]] || { echo "expected an account id"; exit 1; }
echo "rust package: plinth-$version.crate built and used outside the repository in $(( $(date +%s) - start )) s"
