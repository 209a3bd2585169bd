//! Helpers shared by the workspace's tests: in-memory projects, deliveries
//! and finding lookups.
#![forbid(unsafe_code)]

use utter::{Context, MapMemory, Value};
use utter_compiler::{Agent, Checked, Finding, OpenOptions, ProjectFiles, Registry};

/// A skill.md that names no response: what a skill needs to load.
pub const MINIMAL_SKILL_MD: &str = "---\ndescription: test skill\n---\nBody.\n";

/// An in-memory project from `(path, text)` pairs. A skill folder the test
/// gives no `skill.md` gets [`MINIMAL_SKILL_MD`], since a skill without one
/// does not load (`mantle.validation.skill.failed_to_load`); tests of that
/// rule use [`ProjectFiles::from_files`] directly.
pub fn project(files: &[(&str, &str)]) -> ProjectFiles {
    let mut all: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
        .collect();
    let mut skills: Vec<String> = files
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("skills/")?.split_once('/'))
        .map(|(id, _)| id.to_owned())
        .collect();
    skills.sort();
    skills.dedup();
    for id in skills {
        let path = format!("skills/{id}/skill.md");
        if !all.iter().any(|(p, _)| *p == path) {
            all.push((path, MINIMAL_SKILL_MD.as_bytes().to_vec()));
        }
    }
    ProjectFiles::from_files(all)
}

/// Checks an in-memory project.
pub fn checked(files: &[(&str, &str)]) -> Checked {
    Agent::from_files(project(files), OpenOptions::default()).into_checked()
}

/// The registry of an error-free project; panics with the findings otherwise.
pub fn registry(files: &[(&str, &str)]) -> Registry {
    let (_, registry) = Agent::from_files(project(files), OpenOptions::default()).into_registry();
    registry.unwrap_or_else(|errors| {
        let lines: Vec<String> = errors.iter().map(Finding::one_line).collect();
        panic!("the project has errors:\n{}", lines.join("\n"))
    })
}

/// Memory from `(namespace, entry, value)` triples.
pub fn memory(values: &[(&str, &str, Value)]) -> MapMemory {
    let mut memory = MapMemory::new();
    for (ns, entry, value) in values {
        memory.set(ns, entry, value.clone());
    }
    memory
}

/// What a delivery gave: text, variant, rephrase, fallback.
pub type Outcome = (String, Option<usize>, bool, bool);

/// Delivers `name` with `skill` active (or none) through the interpreter.
pub fn deliver(
    registry: &Registry,
    name: &str,
    skill: Option<&str>,
    memory: &MapMemory,
) -> Outcome {
    let ctx = match skill {
        Some(s) => {
            Context::for_skill_id(memory, s, &registry.skills).unwrap_or_else(|e| panic!("{e}"))
        }
        None => Context::new(memory),
    };
    let interpreter = registry.interpreter();
    let d = interpreter.deliver(name, &ctx);
    (d.text.into_owned(), d.variant, d.rephrase, d.fallback)
}

/// The findings with `code`.
pub fn with_code<'c>(checked: &'c Checked, code: &str) -> Vec<&'c Finding> {
    checked.findings.iter().filter(|f| f.code == code).collect()
}
