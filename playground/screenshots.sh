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
mkdir -p docs/images
SITE="$work/site" AGENT="$repo/examples/card-agent" OUT="$repo/docs/images" \
    node "$here/tests/screenshots.mjs"
# The review report's and the diff's, at 1280 and 800 px: written by their
# layout test, which checks the layout they show.
UTTER_BROWSER_TESTS=require cargo test --locked -q -p utter-playground --test browser
shots="${CARGO_TARGET_DIR:-target}/tmp/browser/shots"
cp "$shots"/review-*.png docs/images/
ls -l docs/images/playground-*.png docs/images/review-*.png
