#!/usr/bin/env bash
# Builds a user's agent crate outside the workspace, as a new user would,
# with the dependency, build-dependency and feature lines the README and
# docs/typed-api.md give: the facade (`utter-rs`, serde feature) by path,
# `utter-build` in build.rs, and `hot-reload = ["utter-rs/hot-reload"]`.
# It uses serde_json memory, the typed API both ways (macro and build.rs),
# the generated items the docs list, and an async rephraser on tokio's
# multi-thread runtime (tests/scratch/main.rs); runs it, checks it with the
# hot-reload feature, and documents it with warnings denied.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src"
cp -r "$root/examples/card-agent" "$scratch/agent"
cp "$root/tests/scratch/main.rs" "$scratch/src/main.rs"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "scratch-agent"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
utter-rs = { path = "$root/crates/utter", features = ["serde"] }
serde_json = "1"
tokio = { version = "1", features = ["rt-multi-thread", "macros", "time"] }

[build-dependencies]
utter-build = { path = "$root/build-support/utter-build" }

[features]
# As docs/typed-api.md writes it for the README's dependency line.
hot-reload = ["utter-rs/hot-reload"]
TOML
cat > "$scratch/build.rs" <<'RUST'
fn main() {
    utter_build::compile("agent");
}
RUST
cd "$scratch"
cargo run -q
cargo check -q --features hot-reload
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps

# Every dependency and build-dependency line the README and docs give
# resolves, verbatim, from a crate beside a checkout named `utter` (as the
# lines' paths assume): one crate per line, resolved by `cargo metadata`.
lines="$scratch/lines"
mkdir -p "$lines/my-agent/src"
ln -s "$root" "$lines/utter"
echo 'fn main() {}' > "$lines/my-agent/src/main.rs"
python3 - "$root" > "$scratch/doc-lines.tsv" <<'PY'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
    text = doc.read_text()
    # Lines of ```toml blocks, each with the section it stands in.
    for block in re.findall(r"```toml\n(.*?)```", text, re.S):
        section = "dependencies"
        for line in block.splitlines():
            line = line.strip()
            if m := re.match(r"\[([a-z-]+)\]", line):
                section = m.group(1)
            elif re.match(r"(utter-rs|utter-build|utter) =", line):
                print(f"{doc.name}\t{section}\t{line.split('#')[0].strip()}")
    # Lines written in prose, as code.
    for line in re.findall(r"`((?:utter-rs|utter-build) = [^`]*)`", text):
        section = "build-dependencies" if line.startswith("utter-build") else "dependencies"
        print(f"{doc.name}\t{section}\t{line}")
PY
count=0
while IFS=$'\t' read -r doc section line; do
    printf '[package]\nname = "my-agent"\nversion = "0.1.0"\nedition = "2024"\n\n[workspace]\n\n[%s]\n%s\n' \
        "$section" "$line" > "$lines/my-agent/Cargo.toml"
    if ! (cd "$lines/my-agent" && cargo metadata -q --format-version 1 > /dev/null); then
        echo "$doc: the line \`$line\` does not resolve" >&2
        exit 1
    fi
    count=$((count + 1))
done < "$scratch/doc-lines.tsv"
[ "$count" -ge 5 ] || { echo "only $count dependency lines found in the docs" >&2; exit 1; }
echo "scratch crate: ok ($count dependency lines of the docs resolve)"
