#!/usr/bin/env bash
# `utter diff` on one response of 20,000 variants, every variant changed
# (issue 60's goal: under 2 s), in the shapes that defeat a shortcut:
# every text changed, an entry added beside, an entry renamed in every
# condition, every range condition changed; and 10,000 responses of two
# variants. Wall time and peak memory of the release binary, one run each.
#   bash benches/diff_scale.sh   (UTTER_BIN=path/to/utter times another build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]

def agent(name, memory, responses):
    os.makedirs(f"{work}/{name}")
    with open(f"{work}/{name}/memory.yml", "w") as f:
        f.write(memory)
    with open(f"{work}/{name}/responses.yml", "w") as f:
        f.write("responses:\n" + responses)

def one(variant, default):
    return "  utter_big:\n" + "".join(variant(i) for i in range(20_000)) + f"    - text: \"{default}\"\n"

for version, greeting in (("old", "Hello"), ("new", "Hi there")):
    # Every text changed; text equality conditions.
    agent(f"texts_{version}", "t: {type: text}\n",
          one(lambda i: f"    - text: \"{greeting} {i}\"\n      condition: \"session.project.t == 'k{i}'\"\n", greeting))
    # Every text changed; int equality conditions.
    agent(f"ints_{version}", "x: {type: int}\n",
          one(lambda i: f"    - text: \"{greeting} {i}\"\n      condition: \"session.project.x == {i}\"\n", greeting))
    # Every range condition changed.
    k = 0 if version == "old" else 1
    agent(f"ranges_{version}", "x: {type: float}\nt: {type: text}\n",
          one(lambda i: f"    - text: \"Hello {i}\"\n      condition: \"session.project.x > {i + k} and session.project.t != 'k{i}'\"\n", "d"))
    # The entry every condition reads renamed.
    e = "t" if version == "old" else "u"
    agent(f"renamed_{version}", f"{e}: {{type: text}}\n",
          one(lambda i: f"    - text: \"Hello {i}\"\n      condition: \"session.project.{e} == 'k{i}'\"\n", "d"))
    # 10,000 responses of two variants, every text changed.
    agent(f"many_{version}", "fee: {type: float}\n", "".join(
        f"  utter_r{i}:\n    - text: \"{greeting} number {i}, your fee is {{session.project.fee}} today.\"\n"
        f"      condition: \"session.project.fee > {i % 50}\"\n    - text: \"Default wording {i}.\"\n"
        for i in range(10_000)))
# An entry added beside the texts' one.
os.system(f"cp -r {work}/texts_new {work}/added_new && cp -r {work}/texts_old {work}/added_old")
with open(f"{work}/added_new/memory.yml", "a") as f:
    f.write("y: {type: bool}\n")
PY
cd "$here/.."
[ -n "${UTTER_BIN:-}" ] || cargo build --locked --release -q -p utter-cli
utter="${UTTER_BIN:-${CARGO_TARGET_DIR:-target}/release/utter}"
for shape in texts added renamed ranges ints many; do
    /usr/bin/time -f "$shape: %e s, %M KB" "$utter" diff "$work/${shape}_old" "$work/${shape}_new" > /dev/null
done
