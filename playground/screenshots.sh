#!/usr/bin/env bash
# The screenshots in docs/playground.md and docs/review-report.md, taken by
# headless Chromium, and the playground's keystroke-to-findings time.
# Needs what the browser tests need (crates/utter-playground/tests/browser.rs).
#   bash playground/screenshots.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$here/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/build.sh" "$work/site"
[ -d "$here/tests/node_modules/playwright-core" ] || npm ci --prefix "$here/tests" --no-audit --no-fund
cd "$repo"
cargo run --locked -q -p utter-cli -- snapshot --format html --out "$work/report.html" examples/card-agent
mkdir -p docs/images
SITE="$work/site" REPORT="$work/report.html" AGENT="$repo/examples/card-agent" OUT="$repo/docs/images" \
    node "$here/tests/screenshots.mjs"
ls -l docs/images/playground-*.png docs/images/review-report.png
