#!/usr/bin/env bash
# Installs the reference engine (rasa-pro 3.21.0, its wheel without its ~1 GB
# of dependencies, plus the few packages the response modules import) into a
# throwaway venv, then runs bench_reference.py with the given arguments.
#   benches/reference/run.sh delivery AGENTS_DIR
#   benches/reference/run.sh first AGENTS_DIR N
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${UTTER_REFERENCE_VENV:-${TMPDIR:-/tmp}/utter-reference-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --no-deps "rasa-pro==3.21.0"
    "$venv/bin/pip" install -q pydantic structlog pyyaml packaging jsonschema ruamel.yaml \
        portalocker langcodes ply pypred jinja2 2>&1 | grep -v "dependency conflicts\|requires\|incompatible" || true
fi
exec "$venv/bin/python" "$here/bench_reference.py" "$@"
