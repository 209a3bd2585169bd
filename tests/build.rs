//! Generates Rust code for random synthetic registries, so the differential
//! test can compare the generated selectors with the interpreter.

use std::fmt::Write as _;
use std::path::PathBuf;

use utter_compiler::{ProjectFiles, check, codegen, lower};

/// How many random registries are compiled into the differential test.
const REGISTRIES: u64 = 24;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut table = String::new();
    let mut modules = String::new();
    for seed in 0..REGISTRIES {
        let project = utter_synth::random_project(seed);
        let files = ProjectFiles::from_files(
            project
                .files
                .iter()
                .map(|(p, t)| (p.clone(), t.clone().into_bytes())),
        );
        let checked = check(&files);
        let registry = match lower(&checked) {
            Ok(registry) => registry,
            Err(errors) => {
                let lines: Vec<String> = errors.iter().map(|f| f.one_line()).collect();
                panic!(
                    "synthetic project {seed} is invalid (a generator bug):\n{}",
                    lines.join("\n")
                );
            }
        };
        let code = codegen::generate(&registry).to_string();
        std::fs::write(out.join(format!("synth_{seed}.rs")), code).expect("OUT_DIR is writable");
        let _ = writeln!(
            modules,
            "#[deny(warnings)] #[allow(dead_code)] pub mod synth_{seed} {{ include!(concat!(env!(\"OUT_DIR\"), \"/synth_{seed}.rs\")); }}"
        );
        let _ = writeln!(
            table,
            "    Synth {{ seed: {seed}, deliver_name: synth_{seed}::deliver_name, entries: &synth_{seed}::ENTRIES }},"
        );
    }
    // More responses than `from_name` matches inline: the hashed name table.
    let files = utter_synth::scaled_project(codegen::MATCH_LOOKUP_MAX + 44, 2);
    let project = ProjectFiles::from_files(
        files
            .iter()
            .map(|(p, t)| (p.clone(), t.clone().into_bytes())),
    );
    let registry = lower(&check(&project)).expect("the scaled project is valid");
    std::fs::write(
        out.join("scaled.rs"),
        codegen::generate(&registry).to_string(),
    )
    .expect("OUT_DIR is writable");
    let _ = writeln!(
        modules,
        "#[deny(warnings)] #[allow(dead_code)] pub mod scaled {{ include!(concat!(env!(\"OUT_DIR\"), \"/scaled.rs\")); }}"
    );
    let source = format!(
        "{modules}\n/// The compiled synthetic registries.\npub static SYNTH: &[Synth] = &[\n{table}];\n"
    );
    std::fs::write(out.join("synth_registries.rs"), source).expect("OUT_DIR is writable");
}
