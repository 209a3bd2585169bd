#!/usr/bin/env bash
# Builds the playground: utter's WebAssembly module and the page's files,
# into one folder any static file server can serve (default: playground/dist).
#   bash playground/build.sh [OUT_DIR]
#   python3 -m http.server -d playground/dist 8000   # then open http://localhost:8000
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/dist}"
rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' \
    || rustup target add wasm32-unknown-unknown
cd "$here/.."
cargo build --locked -q -p utter-playground --target wasm32-unknown-unknown --profile wasm
# Wherever the build happens (CARGO_TARGET_DIR, a config): cargo says.
target_dir=$(cargo metadata --locked --format-version 1 --no-deps \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
mkdir -p "$out"
cp "$here/index.html" "$here/app.js" "$here/style.css" "$out/"
cp "$target_dir/wasm32-unknown-unknown/wasm/utter_playground.wasm" "$out/"
size=$(wc -c <"$out/utter_playground.wasm")
gz=$(gzip -9c "$out/utter_playground.wasm" | wc -c)
echo "playground in $out: utter_playground.wasm $size bytes ($gz gzipped)"
