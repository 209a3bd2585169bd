//! What the variant analysis costs on the inputs written to break it: one
//! response of 20,000 variants (int and text equalities), a 128-comparison
//! condition reused 4,500 times through a YAML anchor, and 100 conditions
//! of 242 operands over seven entries (the work budget's case). Each is
//! checked, explained (one response's view), snapshotted and diffed
//! against a copy with one text edited.
//!   cargo bench --bench analysis

use std::fmt::Write as _;

use utter_compiler::snapshot::{self, Options};
use utter_compiler::{Agent, OpenOptions, ProjectFiles, Registry};

fn main() {
    divan::main();
}

const MEMORY: &str = "x: {type: int}\nt: {type: text}\ny: {type: int}\ne0: {type: int}\ne1: {type: int}\ne2: {type: int}\ne3: {type: int}\ne4: {type: int}\ne5: {type: int}\ne6: {type: int}\n";

fn files(responses: String) -> ProjectFiles {
    ProjectFiles::from_files([
        ("memory.yml".to_owned(), MEMORY.as_bytes().to_vec()),
        ("responses.yml".to_owned(), responses.into_bytes()),
    ])
}

/// One response of `variants` variants, `x == i` or `t == 'k<i>'`; the
/// text of variant 5 reads `edited` when asked.
fn big(variants: usize, text: bool, edited: bool) -> ProjectFiles {
    let mut yml = String::from("responses:\n  utter_big:\n");
    for i in 0..variants {
        let word = if edited && i == 5 { "w" } else { "v" };
        let condition = if text {
            format!("session.project.t == 'k{i}'")
        } else {
            format!("session.project.x == {i}")
        };
        let _ = write!(
            yml,
            "    - text: \"{word}{i} {{session.project.x}}\"\n      condition: \"{condition}\"\n"
        );
    }
    yml.push_str("    - text: none\n");
    files(yml)
}

/// A 128-comparison condition written once and reused through an anchor.
fn anchor() -> ProjectFiles {
    let condition: Vec<String> = (0..128)
        .map(|i| {
            let entry = if i % 2 == 1 { "x" } else { "y" };
            format!("session.project.{entry} != {i}")
        })
        .collect();
    let mut yml = format!(
        "responses:\n  utter_a0:\n    - text: a\n      condition: &c \"{}\"\n    - text: d\n",
        condition.join(" and ")
    );
    for i in 1..4_500 {
        let _ = write!(
            yml,
            "  utter_a{i}:\n    - text: a{i}\n      condition: *c\n    - text: d\n"
        );
    }
    files(yml)
}

/// 100 conditions of 121 comparisons over seven entries: more states times
/// operands than the response budget allows.
fn heavy() -> ProjectFiles {
    let mut yml = String::from("responses:\n  utter_heavy:\n");
    for v in 0..100 {
        let terms: Vec<String> = (0..120)
            .map(|i| format!("session.project.e{} == {}", (i + v) % 7, v % 3))
            .collect();
        let _ = write!(
            yml,
            "    - text: v{v}\n      condition: \"{} and {v} == {v}\"\n",
            terms.join(" or ")
        );
    }
    yml.push_str("    - text: none\n");
    files(yml)
}

fn registry(files: &ProjectFiles) -> Registry {
    Agent::from_files(files.clone(), OpenOptions::default())
        .into_registry()
        .1
        .expect("a valid agent")
}

#[divan::bench(args = ["int", "text"], sample_count = 5)]
fn big_check(bencher: divan::Bencher, kind: &str) {
    let files = big(20_000, kind == "text", false);
    bencher.bench(|| Agent::from_files(files.clone(), OpenOptions::default()).into_checked());
}

#[divan::bench(args = ["int", "text"], sample_count = 5)]
fn big_explain(bencher: divan::Bencher, kind: &str) {
    let registry = registry(&big(20_000, kind == "text", false));
    let index = registry
        .responses
        .iter()
        .position(|r| r.name == "utter_big")
        .expect("utter_big");
    bencher.bench(|| snapshot::response_view(&registry, index, None));
}

#[divan::bench(args = ["int", "text"], sample_count = 5)]
fn big_snapshot(bencher: divan::Bencher, kind: &str) {
    let registry = registry(&big(20_000, kind == "text", false));
    bencher.bench(|| snapshot::render(&registry, Options::default()));
}

#[divan::bench(args = ["int", "text"], sample_count = 5)]
fn big_diff_one_text(bencher: divan::Bencher, kind: &str) {
    let old = registry(&big(20_000, kind == "text", false));
    let new = registry(&big(20_000, kind == "text", true));
    bencher.bench(|| snapshot::diff::diff(&old, &new, Options::default()));
}

#[divan::bench(sample_count = 5)]
fn anchor_check(bencher: divan::Bencher) {
    let files = anchor();
    bencher.bench(|| Agent::from_files(files.clone(), OpenOptions::default()).into_checked());
}

#[divan::bench(sample_count = 5)]
fn anchor_snapshot(bencher: divan::Bencher) {
    let registry = registry(&anchor());
    bencher.bench(|| snapshot::render(&registry, Options::default()));
}

#[divan::bench(sample_count = 5)]
fn heavy_check(bencher: divan::Bencher) {
    let files = heavy();
    bencher.bench(|| Agent::from_files(files.clone(), OpenOptions::default()).into_checked());
}
