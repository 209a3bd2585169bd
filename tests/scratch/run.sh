#!/usr/bin/env bash
# Builds a user's agent crate outside the workspace, as a new user would,
# with the dependency, build-dependency and feature lines the README and
# docs/typed-api.md give: the facade (`utter-rs`, serde feature) by path,
# `utter-build` in build.rs, and `hot-reload = ["utter-rs/hot-reload"]`.
# It uses serde_json memory, the typed API both ways (macro and build.rs),
# the generated items the docs list, and an async rephraser on tokio's
# multi-thread runtime (tests/scratch/main.rs); runs it, checks it with the
# hot-reload feature, and documents it with warnings denied.
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

[build-dependencies]
utter-build = { path = "$root/build-support/utter-build" }

[features]
# As docs/typed-api.md writes it for the README's dependency line.
hot-reload = ["utter-rs/hot-reload"]
TOML
cat > "$scratch/build.rs" <<'RUST'
fn main() {
    utter_build::compile("agent");
}
RUST
cd "$scratch"
cargo run -q
cargo check -q --features hot-reload
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps
echo "scratch crate: ok"
