#!/usr/bin/env bash
# The fair harness's instructions per delivery (src/bin/fair.rs), and each
# typed path against its hand-written anchor: callgrind counts each path at
# 1,000 and 11,000 iterations; the difference / 10,000 is one delivery.
#   benches/fair.sh            # a Markdown table
# Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")"
cargo build -q --profile bench --bin fair ${FEATURES:+--features "$FEATURES"}
bin=${CARGO_TARGET_DIR:-target}/release/fair
count() {
    local low high
    low=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 1000 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    high=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 11000 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo $(( (high - low) / 10000 ))
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}x')"; }
echo "| case | hand deliver | typed deliver | ratio | hand render | typed render | ratio | hand into fmt::Write | typed write_to | ratio | compact deliver | interpreter |"
echo "| - | -: | -: | -: | -: | -: | -: | -: | -: | -: | -: | -: |"
for case in literal first_true last_true default_after_10 error_skipped three_placeholders missing_name; do
    hd=$(count hand_deliver "$case"); td=$(count typed_deliver "$case")
    hr=$(count hand_render "$case"); tr=$(count typed_render "$case")
    hw=$(count hand_write "$case"); tw=$(count typed_write_to "$case")
    cd_=$(count compact_deliver "$case"); it=$(count interpreter "$case")
    echo "| $case | $hd | $td | $(ratio "$td" "$hd") | $hr | $tr | $(ratio "$tr" "$hr") | $hw | $tw | $(ratio "$tw" "$hw") | $cd_ | $it |"
done
