//! Generates Rust code for random synthetic registries, so the differential
//! test can compare the generated selectors with the interpreter.

use std::fmt::Write as _;
use std::path::PathBuf;

use utter_compiler::{Agent, OpenOptions, ProjectFiles, codegen};

/// How many random registries are compiled into the differential test, at
/// test scale 1 (`utter_synth::test_scale`).
const REGISTRIES: u64 = 6;
/// How many random typed registries (memory.yml types, typed API), at test
/// scale 1.
const TYPED_REGISTRIES: u64 = 4;

/// Per typed registry, a function that sets a memory through the typed
/// `Memory` and delivers every name through the typed view (as a
/// `Delivery` and rendered into a buffer) and through `Context`; the three
/// must agree, and the result is compared with the interpreter.
const TYPED_GLUE: &str = r#"
pub mod typed_SEED_glue {
    use super::typed_SEED as agent;

    pub fn run(assign: &[(String, String, ::utter::Value)], skill: Option<&str>, names: &[String]) -> crate::TypedRun {
        let mut memory = agent::Memory::new();
        let accepted = assign
            .iter()
            .map(|(ns, entry, value)| memory.set(ns, entry, value.clone()).is_ok())
            .collect();
        let skill = skill.map(|s| s.parse::<agent::Skill>().expect("a skill of the agent"));
        let view = memory.view(skill);
        let ctx = view.context();
        let mut buffer = String::new();
        let outcomes = names
            .iter()
            .map(|name| {
                let d = match agent::Response::from_name(name) {
                    Some(response) => {
                        let typed = view.deliver(response);
                        assert_eq!(typed, agent::deliver(response, &ctx), "typed vs Context: {name}");
                        buffer.clear();
                        view.render(response).write_to(&mut buffer).expect("a String takes any text");
                        assert_eq!(buffer, typed.text, "rendered vs delivered: {name}");
                        buffer.clear();
                        view.render(response).push_to(&mut buffer);
                        assert_eq!(buffer, typed.text, "pushed vs delivered: {name}");
                        assert_eq!(view.render(response).to_string(), typed.text, "displayed vs delivered: {name}");
                        assert_eq!(view.render(response).wording, typed.wording, "rendered vs delivered: {name}");
                        typed
                    }
                    None => agent::deliver_name(name, &ctx),
                };
                (d.text.into_owned(), d.variant, d.rephrase, d.fallback, d.wording)
            })
            .collect();
        (accepted, outcomes)
    }
}
"#;

/// Checks and generates `files`, writes the code to `$OUT_DIR/{module}.rs`
/// and declares `pub mod {module}` (compiled under `deny(warnings)`) in
/// `modules`; an invalid project is a generator bug.
fn compile_module(
    out: &std::path::Path,
    modules: &mut String,
    module: &str,
    files: &[(String, String)],
    strategy: codegen::Strategy,
) {
    let files = ProjectFiles::from_files(
        files
            .iter()
            .map(|(p, t)| (p.clone(), t.clone().into_bytes())),
    );
    let registry = Agent::from_files(files.clone(), OpenOptions::default())
        .into_registry()
        .1
        .unwrap_or_else(|errors| {
            let lines: Vec<String> = errors.iter().map(|f| f.one_line()).collect();
            panic!(
                "synthetic project {module} is invalid (a generator bug):\n{}",
                lines.join("\n")
            )
        });
    let code = codegen::generate_with(&registry, strategy).to_string();
    std::fs::write(out.join(format!("{module}.rs")), code).expect("OUT_DIR is writable");
    let _ = writeln!(
        modules,
        "#[deny(warnings)] #[allow(dead_code)] pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}"
    );
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=UTTER_TEST_SCALE");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut table = String::new();
    let mut modules = String::new();
    // Every registry twice: straight-line code and the compact form.
    let forms = [
        ("", codegen::Strategy::StraightLine),
        ("_compact", codegen::Strategy::Compact),
    ];
    for seed in 0..utter_synth::scaled(REGISTRIES) {
        let project = utter_synth::random_project(seed);
        for (suffix, strategy) in forms {
            let module = format!("synth_{seed}{suffix}");
            compile_module(&out, &mut modules, &module, &project.files, strategy);
            let _ = writeln!(
                table,
                "    Synth {{ seed: {seed}, form: Strategy::{strategy:?}, deliver_name: {module}::deliver_name, entries: &{module}::ENTRIES }},"
            );
        }
    }
    let mut typed_table = String::new();
    for seed in 0..utter_synth::scaled(TYPED_REGISTRIES) {
        let project = utter_synth::random_typed_project(seed);
        for (suffix, strategy) in forms {
            let id = format!("{seed}{suffix}");
            compile_module(
                &out,
                &mut modules,
                &format!("typed_{id}"),
                &project.files,
                strategy,
            );
            modules.push_str(&TYPED_GLUE.replace("SEED", &id));
            let _ = writeln!(
                typed_table,
                "    TypedSynth {{ seed: {seed}, form: Strategy::{strategy:?}, run: typed_{id}_glue::run }},"
            );
        }
    }
    // The largest condition utter accepts compiles (rustc's stack once
    // overflowed on wide conditions): 256 operands, `or` of 128 comparisons.
    let terms: Vec<String> = (0..128).map(|i| format!("session.s.n == {i}")).collect();
    let wide = format!(
        "responses:\n  utter_wide:\n    - text: wide\n      condition: \"{}\"\n    - text: narrow\n",
        terms.join(" or ")
    );
    let wide_files = [
        (
            "skills/s/memory.yml".to_owned(),
            "schema:\n  public:\n    n: {type: int}\n".to_owned(),
        ),
        (
            "skills/s/skill.md".to_owned(),
            utter_synth::SKILL_MD.to_owned(),
        ),
        ("skills/s/responses.yml".to_owned(), wide),
    ];
    compile_module(
        &out,
        &mut modules,
        "wide",
        &wide_files,
        codegen::Strategy::StraightLine,
    );
    compile_module(
        &out,
        &mut modules,
        "wide_compact",
        &wide_files,
        codegen::Strategy::Compact,
    );
    // More responses than `from_name` matches inline: the hashed name table.
    let files = utter_synth::scaled_project(codegen::MATCH_LOOKUP_MAX + 44, 2);
    compile_module(
        &out,
        &mut modules,
        "scaled",
        &files,
        codegen::Strategy::Auto,
    );
    let source = format!(
        "{modules}\n/// The compiled synthetic registries.\npub static SYNTH: &[Synth] = &[\n{table}];\n/// The compiled typed synthetic registries.\npub static TYPED: &[TypedSynth] = &[\n{typed_table}];\n"
    );
    std::fs::write(out.join("synth_registries.rs"), source).expect("OUT_DIR is writable");
}
