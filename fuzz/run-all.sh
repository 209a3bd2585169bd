#!/usr/bin/env bash
# Fuzzes every target for SECONDS each (default 600), two at a time, with
# the limits that find resource bugs: large inputs, a memory cap, a short
# per-input timeout (and a smoke run of each: fuzz/run-all.sh 20). Needs cargo-fuzz; a stable toolchain takes the
# sanitizer flags with RUSTC_BOOTSTRAP=1.
#   fuzz/run-all.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-600}"
export RUSTC_BOOTSTRAP=1
cargo fuzz build || exit 1
# Seeds for `review`: real agents, as the target splits its input (root
# responses.yml, memory.yml, then one skill's three files, at 0xFF bytes;
# the second version after 0xFE is the same agent).
seed() {
    local dir="$1" skill
    skill="$(ls -d "$dir"/skills/*/ 2>/dev/null | head -1)"
    for f in "$dir/responses.yml" "$dir/memory.yml"; do
        [ -f "$f" ] && cat "$f"
        printf '\377'
    done
    if [ -n "$skill" ]; then
        for f in "$skill/responses.yml" "$skill/memory.yml" "$skill/skill.md"; do
            [ -f "$f" ] && cat "$f"
            printf '\377'
        done
    fi
}
mkdir -p corpus/review
for agent in ../examples/card-agent ../tests/fixtures/analysis-agent ../tests/fixtures/analysis-classes ../tests/fixtures/typed-agent; do
    name="$(basename "$agent")"
    seed "$agent" > "corpus/review/$name"
    { seed "$agent"; printf '\376'; seed "$agent"; } > "corpus/review/$name-twice"
done
# Seeds for `snapshot_check`: the example's snapshot against itself
# changed, and written with CR LF (the file, 0xFE, the agent's).
mkdir -p corpus/snapshot_check corpus/respond
snap=../examples/card-agent/responses.snap
{ sed 's/free/FREE/' "$snap"; printf '\376'; cat "$snap"; } > corpus/snapshot_check/changed
{ sed 's/$/\r/' "$snap"; printf '\376'; cat "$snap"; } > corpus/snapshot_check/crlf
# Seeds for `respond`: each operation on the example agent's files.
python3 - <<'PY'
import json, pathlib
root = pathlib.Path("../examples/card-agent")
files = {str(p.relative_to(root)): p.read_text() for p in root.rglob("*")
         if p.is_file() and p.suffix in (".yml", ".md")}
for op, extra in (("check", {}), ("report", {}),
                  ("render", {"response": "utter_card_replacement_fee", "skill": "card_replace",
                              "memory": '{"card_replace": {"replacement_reason": "lost", "replacement_fee": 7.5}}'})):
    request = {"op": op, "files": files, **extra}
    pathlib.Path(f"corpus/respond/{op}").write_text(json.dumps(request))
PY
flags=(-max_total_time="$seconds" -max_len=1048576 -malloc_limit_mb=2048 -rss_limit_mb=3072 -timeout=10)
run() {
    mkdir -p "logs"
    cargo fuzz run "$1" -- "${flags[@]}" > "logs/$1.log" 2>&1
    local rc=$?
    echo "$1: exit $rc $(grep -aE '^Done [0-9]+ runs' "logs/$1.log" | tail -1)"
    # A finding: its report, for the CI log.
    [ "$rc" -eq 0 ] || grep -aE -A30 '^==[0-9]+==|panicked|SUMMARY' "logs/$1.log" | head -60
    return "$rc"
}
status=0
for pair in "condition yaml" "template memory_json" "check tree" "review lsp_frames" "snapshot_check respond"; do
    set -- $pair
    run "$1" & a=$!
    run "$2" & b=$!
    wait $a || status=1
    wait $b || status=1
done

exit $status
