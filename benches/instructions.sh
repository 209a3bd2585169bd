#!/usr/bin/env bash
# Instructions per delivery, per case and path, from callgrind: each run is
# counted at 1,000 and 11,000 iterations; the difference / 10,000 is one
# delivery (start-up and set-up cancel out). Needs valgrind.
#   benches/instructions.sh > benches/INSTRUCTIONS.md
# FEATURES=hot-reload builds with those features of this crate; PATHS="a b"
# counts only those paths.
set -euo pipefail
cd "$(dirname "$0")"
cargo build -q --profile bench --bin instructions ${FEATURES:+--features "$FEATURES"}
bin=${CARGO_TARGET_DIR:-target}/release/instructions
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
read -r -a paths <<<"${PATHS:-typed_deliver typed_render compact_deliver generated interpreter minijinja match}"
header="| case |"
rule="| - |"
for path in "${paths[@]}"; do
    header="$header $path |"
    rule="$rule - |"
done
echo "$header"
echo "$rule"
for case in literal first_true last_true default_after_10 error_skipped three_placeholders missing_name; do
    row="| $case |"
    for path in "${paths[@]}"; do
        low=$(count "$path" "$case" 1000)
        high=$(count "$path" "$case" 11000)
        row="$row $(( (high - low) / 10000 )) |"
    done
    echo "$row"
done
