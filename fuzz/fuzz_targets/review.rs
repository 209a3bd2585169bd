//! Any bytes as two versions of a project (split at 0xFE, each split into
//! its files at 0xFF, as `check` does): the review surfaces never panic and
//! keep their promises. The snapshot is deterministic, holds every
//! variant's text quoted one-to-one (each `text` line unquotes to the
//! variant's text, in order), and matches itself; `explain`'s view of each
//! response has a witness delivering each reachable variant's text; `diff`
//! of a version with itself is empty, and of the two versions runs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utter_compiler::diagnostics::escape::unquote;
use utter_compiler::snapshot::{self, Options};
use utter_compiler::{Agent, OpenOptions, ProjectFiles, Registry};

const PATHS: [&str; 5] = [
    "responses.yml",
    "memory.yml",
    "skills/s/responses.yml",
    "skills/s/memory.yml",
    "skills/s/skill.md",
];

fn registry(data: &[u8]) -> Option<Registry> {
    let files = ProjectFiles::from_files(
        PATHS
            .iter()
            .zip(data.split(|&b| b == 0xFF))
            .map(|(p, b)| (p.to_string(), b.to_vec())),
    );
    Agent::from_files(files.clone(), OpenOptions::default())
        .into_registry()
        .1
        .ok()
}

fn review(registry: &Registry) {
    let options = Options::default();
    let snap = snapshot::render(registry, options);
    assert_eq!(snap, snapshot::render(registry, options));
    assert!(snapshot::compare(&snap, &snap).is_ok());
    // Every `text` line unquotes to the next variant's text, in order.
    let texts: Vec<String> = snap
        .lines()
        .filter_map(|l| l.strip_prefix("    text "))
        .map(|q| unquote(q).expect("a text line is one quoted string"))
        .collect();
    let mut names: Vec<&utter_compiler::lower::Response> = registry
        .responses
        .iter()
        .filter(|r| !r.file.starts_with('<'))
        .collect();
    names.sort_by(|a, b| a.name.cmp(&b.name));
    let expected: Vec<String> = names
        .iter()
        .flat_map(|r| r.variants.iter().map(|v| v.text.clone()))
        .collect();
    assert_eq!(texts, expected);
    // No line of the snapshot is data alone: each starts with a keyword.
    for line in snap.lines() {
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
    for (index, response) in registry.responses.iter().enumerate() {
        let view = utter_compiler::analysis::home_view(registry, index);
        let shown = snapshot::response_view(registry, index, view);
        for v in &shown.variants {
            if let (Some(w), Some(text)) = (&v.witness, &v.text) {
                let delivered = snapshot::deliver_witness(registry, &response.name, view, w);
                assert_eq!(&delivered, text, "{} variant {}", response.name, v.index);
            }
        }
    }
    assert!(snapshot::diff::diff(registry, registry, options).is_empty());
}

fuzz_target!(|data: &[u8]| {
    let mut versions = data.splitn(2, |&b| b == 0xFE);
    let old = versions.next().and_then(registry);
    let new = versions.next().and_then(registry);
    for registry in old.iter().chain(&new) {
        review(registry);
    }
    if let (Some(old), Some(new)) = (&old, &new) {
        let diff = snapshot::diff::diff(old, new, Options::default());
        // Every state reported moved delivers another text now.
        for change in &diff.changed {
            for moved in &change.moved {
                assert_ne!(moved.old, moved.new);
            }
        }
    }
});
