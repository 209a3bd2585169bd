#!/usr/bin/env bash
# Differential conformance test against the reference engine, rasa-pro 3.21.0.
# Installs it (about 3 minutes and 1.3 GB, once) into a throwaway venv, builds
# the `utter` binary, compares the bundled layer, the real agents rasa-pro
# ships (validation, deliveries, and compiling them), every witness of the
# variant analysis, then findings and deliveries on generated projects plus
# the example and the reference-rules fixture.
#   conformance/run.sh                  # 5,000 delivery cases, seed 1
#   conformance/run.sh --cases 20000 --seed 7 --keep /tmp/disagreements
# Not part of `cargo test`: it needs the network for PyPI and minutes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="${UTTER_CONFORMANCE_VENV:-${TMPDIR:-/tmp}/utter-conformance-venv}"
python="${PYTHON:-python3.11}"
command -v "$python" >/dev/null || python=python3
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import rasa.mantle.validation" 2>/dev/null; then
    "$python" -m venv "$venv"
    "$venv/bin/pip" install -q "rasa-pro==3.21.0"
fi
# The bundled layer is 3.21.0's, structurally (names, conditions, rephrase
# flags, memory entries and types; wording is ours).
"$venv/bin/python" "$here/bundled_layer.py"
# The Maestro dialect's layer is 3.20.5's (the wheel is only unpacked, not installed).
old_wheel="$(mktemp -d)"
"$venv/bin/pip" download -q --no-deps -d "$old_wheel" "rasa-pro==3.20.5"
(cd "$old_wheel" && unzip -q ./*.whl 'rasa/mantle/default_skills/*')
"$venv/bin/python" "$here/bundled_layer.py" --maestro --reference "$old_wheel/rasa/mantle/default_skills"
rm -rf "$old_wheel"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p utter-cli
target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" \
    | "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
# The real agents rasa-pro ships: validation and deliveries compared, and
# both compiled through the macro and build.rs.
"$venv/bin/python" "$here/real_agents.py" --utter "$target/release/utter"
bash "$here/compile_real_agents.sh" "$venv/bin/python"
# Every witness of the variant analysis, delivered by the reference too.
"$venv/bin/python" "$here/witnesses.py" --utter "$target/release/utter" \
    "$root/tests/fixtures/analysis-agent" "$root/examples/card-agent" "$root/tests/fixtures/typed-agent" \
    "$root/tests/fixtures/analysis-classes"
exec "$venv/bin/python" "$here/differential.py" --utter "$target/release/utter" \
    --fixture "$root/tests/fixtures/reference-rules" --fixture "$root/examples/card-agent" "$@"
