#!/usr/bin/env bash
# The review pages of an agent of 10,000 responses (20,000 variants) whose
# every response changed, opened in headless Chromium (issue 57's goal:
# under 5 s), and the size of the same diff as Markdown (at most 65,536
# characters, a pull-request comment). Needs Chromium and
# `npm ci --prefix playground/tests`.
#   bash benches/report_open.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$here/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
for version, greeting in (("old", "Hello"), ("new", "Hi there")):
    os.makedirs(f"{work}/{version}")
    with open(f"{work}/{version}/memory.yml", "w") as f:
        f.write("fee: {type: float}\n")
    with open(f"{work}/{version}/responses.yml", "w") as f:
        f.write("responses:\n")
        for i in range(10_000):
            f.write(
                f"  utter_r{i}:\n"
                f"    - text: \"{greeting} number {i}, your fee is {{session.project.fee}} today.\"\n"
                f"      condition: \"session.project.fee > {i % 50}\"\n"
                f"    - text: \"Default wording {i} for the customer.\"\n"
            )
PY
cd "$repo"
cargo build --locked --release -q -p utter-cli
utter="${CARGO_TARGET_DIR:-target}/release/utter"
"$utter" diff "$work/old" "$work/new" --format html > "$work/diff.html"
"$utter" snapshot "$work/new" --format html --out "$work/report.html" > /dev/null
"$utter" diff "$work/old" "$work/new" --format markdown > "$work/diff.md"
echo "diff as Markdown: $(wc -m < "$work/diff.md") characters; last line: $(tail -n 1 "$work/diff.md")"
ls -l "$work"/*.html
PAGES="$work/diff.html $work/report.html" node "$here/report_open.mjs"
