#!/usr/bin/env bash
# Fuzzes every target for SECONDS each (default 600), two at a time, with
# the limits that find resource bugs: large inputs, a memory cap, a short
# per-input timeout. Needs cargo-fuzz; a stable toolchain takes the
# sanitizer flags with RUSTC_BOOTSTRAP=1.
#   fuzz/run-all.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-600}"
export RUSTC_BOOTSTRAP=1
cargo fuzz build
flags=(-max_total_time="$seconds" -max_len=1048576 -malloc_limit_mb=2048 -rss_limit_mb=3072 -timeout=10)
run() {
    mkdir -p "logs"
    cargo fuzz run "$1" -- "${flags[@]}" > "logs/$1.log" 2>&1
    echo "$1: exit $? $(grep -E '^Done [0-9]+ runs' "logs/$1.log" | tail -1)"
}
status=0
for pair in "condition yaml" "template memory_json" "check tree"; do
    set -- $pair
    run "$1" & a=$!
    run "$2" & b=$!
    wait $a || status=1
    wait $b || status=1
done
run lsp_frames || status=1
exit $status
