#!/usr/bin/env bash
# The `utter` command as Python users get it: builds the binary wheel with
# maturin (pyproject.toml), installs it into a fresh venv with no Rust
# toolchain on PATH and runs `utter check` on the example agent from there;
# then the pre-commit hook, end to end, with `pre-commit try-repo` against a
# scratch git repository holding an agent without a mistake (the hook
# passes) and with one (it fails and shows the finding).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python="${PYTHON:-python3}"
# One target folder for the wheel and for pre-commit's build of the hook.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

"$python" -m venv "$work/build"
export PIP_DISABLE_PIP_VERSION_CHECK=1
"$work/build/bin/pip" install -q "maturin>=1.7,<2"
(cd "$root" && "$work/build/bin/maturin" build --quiet --release -o "$work/dist")
wheel="$(ls "$work"/dist/utter_cli-*.whl)"

# Installed and run with nothing of Rust on PATH: the wheel carries the binary.
"$python" -m venv "$work/user"
env -i PATH=/usr/bin:/bin HOME="$work" PIP_DISABLE_PIP_VERSION_CHECK=1 "$work/user/bin/pip" install -q "$wheel"
env -i PATH="$work/user/bin:/usr/bin:/bin" HOME="$work" sh -c '
    if command -v cargo >/dev/null || command -v rustc >/dev/null; then echo "a Rust toolchain is on PATH" >&2; exit 1; fi
    utter check "$0"' "$root/examples/card-agent"
echo "wheel: ok ($(basename "$wheel"))"

"$work/build/bin/pip" install -q pre-commit
repo="$work/agent-repo"
# The agent in `agent/`, not at the root: the hook's default finds it.
mkdir -p "$repo/agent"
cp -r "$root/examples/card-agent/." "$repo/agent/"
cd "$repo"
git init -q && git config user.email ci@example.invalid && git config user.name ci
git add -A && git commit -q -m agent
"$work/build/bin/pre-commit" try-repo "$root" utter-check --all-files > "$work/pass.log" 2>&1 \
    || { cat "$work/pass.log"; echo "the hook failed on a valid agent" >&2; exit 1; }
sed -i "s/replacement_reason == \"stolen\"'/replacement_reason == \"stolne\"'/" agent/skills/card_replace/responses.yml
git add -A
if "$work/build/bin/pre-commit" try-repo "$root" utter-check --all-files > "$work/fail.log" 2>&1; then
    cat "$work/fail.log"; echo "the hook passed an agent with a mistake" >&2; exit 1
fi
grep -q "did you mean \`stolen\`?" "$work/fail.log" || { cat "$work/fail.log"; echo "the hook did not show the finding" >&2; exit 1; }
echo "pre-commit hook: ok (finds the agent below the root, passes it valid, fails on a mistake with its finding)"
