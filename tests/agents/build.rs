//! Writes random whole agents (`utter_synth::random_agent`) into `OUT_DIR`
//! and, for every agent `utter check` accepts, four modules: through
//! `include_responses!` and through `utter_build` (prettyplease), each in
//! straight-line and compact form. The crate compiles under
//! `#![deny(warnings)]`, so an accepted agent that does not compile, or
//! compiles with a warning the agent does not explain, fails the build,
//! naming the agent's seed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use utter_build::{Builder, Strategy};
use utter_compiler::{Agent, OpenOptions, ProjectFiles, Severity};

/// How many random agents are generated at test scale 1 (times
/// `UTTER_TEST_SCALE`, see `utter_synth::test_scale`; `UTTER_AGENTS`
/// overrides both).
const AGENTS: u64 = 12;

/// The glue of one compiled module: sets a memory through the typed
/// `Memory`, delivers every name through the typed view (as a `Delivery`
/// and rendered) and through `Context` (the three must agree), and lists
/// what the active skill's skill.md references, when-triggers evaluated.
const GLUE: &str = r#"
#[allow(clippy::must_use_candidate, clippy::missing_panics_doc, clippy::redundant_closure_for_method_calls)]
pub mod MODULE_glue {
    use super::MODULE as agent;

    pub fn run(assign: &[(String, String, ::utter::Value)], skill: Option<&str>, names: &[String]) -> crate::Run {
        let mut memory = agent::Memory::new();
        let accepted = assign
            .iter()
            .map(|(ns, entry, value)| memory.set(ns, entry, value.clone()).is_ok())
            .collect();
        let skill = skill.map(|s| s.parse::<agent::Skill>().expect("a skill of the agent"));
        let view = memory.view(skill);
        let ctx = view.context();
        let mut buffer = String::new();
        let deliveries = names
            .iter()
            .map(|name| {
                let d = match agent::Response::from_name(name) {
                    Some(response) => {
                        assert_eq!(response.name(), name.as_str());
                        let typed = view.deliver(response);
                        assert_eq!(typed, agent::deliver(response, &ctx), "typed vs Context: {name}");
                        buffer.clear();
                        view.render(response).write_to(&mut buffer).expect("a String takes any text");
                        assert_eq!(buffer, typed.text, "rendered vs delivered: {name}");
                        buffer.clear();
                        view.render(response).push_to(&mut buffer);
                        assert_eq!(buffer, typed.text, "pushed vs delivered: {name}");
                        assert_eq!(view.render(response).wording, typed.wording, "rendered vs delivered: {name}");
                        assert_eq!(view.render(response).to_delivery().guard, typed.guard, "rendered vs delivered: {name}");
                        typed
                    }
                    None => agent::deliver_name(name, &ctx),
                };
                (d.text.into_owned(), d.variant, d.rephrase, d.fallback, d.wording, d.guard)
            })
            .collect();
        let references = skill.map(|s| crate::references(s.responses(), |r| r.name(), &ctx)).unwrap_or_default();
        crate::Run {
            accepted,
            deliveries,
            references,
            responses: agent::Response::ALL.iter().map(|r| r.name().to_owned()).collect(),
            skills: agent::Skill::ALL.iter().map(|s| s.id().to_owned()).collect(),
        }
    }
}
"#;

/// Responses in the large agent: more than one part of `select` (1,024).
const LARGE: usize = 1_100;

/// An agent of [`LARGE`] responses of one shape, each with its own
/// literals: `utter_r{i}` is "hit {i}" when `n == i`, "above {i}" when
/// `n > i`, else "default {i}"; compiled straight-line as `large_agent`.
fn large_agent(out: &Path, modules: &mut String) {
    let dir = out.join("large_agent");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    let mut yaml = String::from("responses:\n");
    for i in 0..LARGE {
        let _ = write!(
            yaml,
            "  utter_r{i}:\n    - text: hit {i}\n      condition: session.project.n == {i}\n    \
             - text: above {i}\n      condition: session.project.n > {i}\n    - text: default {i}\n"
        );
    }
    std::fs::write(dir.join("responses.yml"), yaml).expect("OUT_DIR is writable");
    std::fs::write(dir.join("memory.yml"), "n:\n  type: int\n").expect("OUT_DIR is writable");
    let _ = writeln!(
        modules,
        "/// {LARGE} responses of one shape (see build.rs).\npub mod large_agent {{ ::utter::include_responses!({:?}, straight_line); }}\n\
         /// Responses in [`large_agent`].\npub const LARGE: usize = {LARGE};",
        dir.display().to_string()
    );
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=UTTER_AGENTS");
    println!("cargo::rerun-if-env-changed=UTTER_TEST_SCALE");
    let agents: u64 = std::env::var("UTTER_AGENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| utter_synth::scaled(AGENTS));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut modules = String::new();
    let mut table = String::new();
    let mut rejected = String::new();
    for seed in 0..agents {
        let agent = utter_synth::random_agent(seed);
        let dir = out.join(format!("agent_{seed}"));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in &agent.files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().expect("a file in a folder"))
                .expect("OUT_DIR is writable");
            std::fs::write(&path, text).expect("OUT_DIR is writable");
        }
        let files = ProjectFiles::read(&dir).expect("the agent folder reads");
        let checked = Agent::from_files(files.clone(), OpenOptions::default()).into_checked();
        if checked.has_errors() {
            let codes: Vec<&str> = checked.errors().map(|f| f.code).collect();
            let _ = writeln!(rejected, "    ({seed}, &{codes:?}),");
            continue;
        }
        // An agent with warnings compiles with them: they are the findings
        // themselves (deprecated-constant uses), allowed by name.
        let warned = checked
            .findings
            .iter()
            .any(|f| f.severity == Severity::Warning);
        let allow = if warned { "#[allow(deprecated)]" } else { "" };
        for (form, strategy, option) in [
            ("straight", Strategy::StraightLine, "straight_line"),
            ("compact", Strategy::Compact, "compact"),
        ] {
            let module = format!("agent_{seed}_macro_{form}");
            let _ = writeln!(
                modules,
                "{allow} pub mod {module} {{ ::utter::include_responses!({:?}, {option}); }}",
                dir.display().to_string()
            );
            modules.push_str(&GLUE.replace("MODULE", &module));
            let _ = writeln!(
                table,
                "    Compiled {{ seed: {seed}, module: {module:?}, run: {module}_glue::run }},"
            );
            let module = format!("agent_{seed}_build_{form}");
            let file = out.join(format!("{module}.rs"));
            let mut directives = Vec::new();
            Builder::new(&dir)
                .strategy(strategy)
                .compile_paths(&dir, &file, &mut directives)
                .unwrap_or_else(|e| panic!("agent {seed}: utter_build failed: {e}"));
            let _ = writeln!(
                modules,
                "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}"
            );
            modules.push_str(&GLUE.replace("MODULE", &module));
            let _ = writeln!(
                table,
                "    Compiled {{ seed: {seed}, module: {module:?}, run: {module}_glue::run }},"
            );
        }
    }
    large_agent(&out, &mut modules);
    let source = format!(
        "{modules}\n/// Every compiled module of an accepted agent.\npub static COMPILED: &[Compiled] = &[\n{table}];\n/// The agents `utter check` rejected, with their error codes.\npub static REJECTED: &[(u64, &[&str])] = &[\n{rejected}];\n/// How many agents were generated.\npub const AGENTS: u64 = {agents};\n"
    );
    std::fs::write(out.join("agents.rs"), source).expect("OUT_DIR is writable");
    let _ = Path::new(&out);
}
