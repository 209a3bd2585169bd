#!/usr/bin/env bash
# The real agents rasa-pro ships (the `rasa init` Mantle template and the
# inspector's end-to-end agent), taken from the installed reference package,
# compile into a crate outside the workspace through include_responses! and
# through utter-build (build.rs), under #![deny(warnings)], and deliver.
#   conformance/compile_real_agents.sh PYTHON_OF_THE_REFERENCE_VENV
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${1:?the python of a venv with rasa-pro 3.21.0}"
base="$("$python" -c 'import rasa, pathlib; print(pathlib.Path(rasa.__file__).parent)')"
template="$base/cli/project_templates/mantle"
inspector="$base/core/channels/inspector-nextgen/e2e/agents/mantle"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "real-agents"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
utter-rs = { path = "$root/crates/utter" }

[build-dependencies]
utter-build = { path = "$root/build-support/utter-build" }
TOML
cat > "$scratch/build.rs" <<RS
fn main() {
    utter_build::Builder::new("$template").out_file("template.rs").compile();
    utter_build::Builder::new("$inspector").out_file("inspector.rs").compile();
}
RS
cat > "$scratch/src/main.rs" <<RS
#![deny(warnings)]
mod template_macro { utter::include_responses!("$template"); }
mod inspector_macro { utter::include_responses!("$inspector"); }
mod template_build { include!(concat!(env!("OUT_DIR"), "/template.rs")); }
mod inspector_build { include!(concat!(env!("OUT_DIR"), "/inspector.rs")); }

fn main() {
    let mut delivered = 0;
    macro_rules! every_response {
        (\$agent:ident) => {{
            let memory = \$agent::Memory::new();
            for &skill in \$agent::Skill::ALL {
                let view = memory.view(skill);
                for &response in \$agent::Response::ALL {
                    let text = view.deliver(response).text;
                    assert!(!text.is_empty(), "{response}");
                    delivered += 1;
                }
            }
        }};
    }
    every_response!(template_macro);
    every_response!(inspector_macro);
    every_response!(template_build);
    every_response!(inspector_build);
    println!("real agents: {delivered} deliveries through the macro and build.rs");
}
RS
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" cargo run -q --manifest-path "$scratch/Cargo.toml"
