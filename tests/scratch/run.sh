#!/usr/bin/env bash
# Builds a user's agent crate outside the workspace, as a new user would:
# it depends on the facade (`utter-rs`, serde feature) by path, uses
# serde_json memory, the typed API and an async rephraser on tokio's
# multi-thread runtime (tests/scratch/main.rs), runs it, and documents it
# with warnings denied.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src"
cp -r "$root/examples/card-agent" "$scratch/agent"
cp "$root/tests/scratch/main.rs" "$scratch/src/main.rs"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "scratch-agent"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
utter-rs = { path = "$root/crates/utter", features = ["serde"] }
serde_json = "1"
tokio = { version = "1", features = ["rt-multi-thread", "macros", "time"] }
TOML
cd "$scratch"
cargo run -q
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps
echo "scratch crate: ok"
