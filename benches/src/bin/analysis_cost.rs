//! What the variant analysis costs `utter check`: the check of a
//! 10,000-response agent with typed memory (every response's conditions
//! enumerable, so every one is analysed) and of the untyped scaled
//! benchmark agent, against the analysis alone. Medians of five runs.
//!   cargo run --release --bin analysis_cost

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use utter_compiler::{Agent, OpenOptions, ProjectFiles};

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

/// 10,000 responses, three variants each, over typed entries; `distinct`
/// conditions in all (each distinct set is analysed once).
fn typed_agent(responses: usize, distinct: usize) -> ProjectFiles {
    let memory = "schema:\n  public:\n    reason: {type: categorical, enum_values: [lost, stolen, damaged]}\n    count: {type: int}\n    fee: {type: float}\n    vip: {type: bool}\n";
    let mut yaml = String::from("responses:\n");
    for r in 0..responses {
        let _ = write!(
            yaml,
            "  utter_r{r}:\n    - text: \"A {{session.bench.reason}}\"\n      condition: \"session.bench.reason == 'lost' and session.bench.count > {}\"\n    - text: B\n      condition: \"session.bench.fee >= 2.5 or session.bench.vip\"\n    - text: C\n",
            r % distinct
        );
    }
    ProjectFiles::from_files([
        (
            "skills/bench/memory.yml".to_owned(),
            memory.as_bytes().to_vec(),
        ),
        (
            "skills/bench/skill.md".to_owned(),
            b"---\ndescription: d\n---\nBody.\n".to_vec(),
        ),
        ("skills/bench/responses.yml".to_owned(), yaml.into_bytes()),
    ])
}

fn measure(name: &str, files: &ProjectFiles) {
    let checks: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let checked = Agent::from_files(files.clone(), OpenOptions::default()).into_checked();
            assert!(!checked.has_errors());
            t.elapsed()
        })
        .collect();
    // What the check's analysis reads: the lowered usable responses.
    let (checked, registry) =
        Agent::from_files(files.clone(), OpenOptions::default()).into_checked_and_usable();
    let analysis: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let found = utter_compiler::analysis::findings(&checked, &registry);
            std::hint::black_box(found);
            t.elapsed()
        })
        .collect();
    let (c, a) = (median(checks), median(analysis));
    println!(
        "{name}: utter check {c:?} (analysis included), analysis {a:?}: {:.1} % of the check",
        100.0 * a.as_secs_f64() / c.as_secs_f64()
    );
}

fn main() {
    measure(
        "10,000 typed responses, 7 distinct condition sets",
        &typed_agent(10_000, 7),
    );
    measure(
        "10,000 typed responses, each with its own conditions",
        &typed_agent(10_000, 10_000),
    );
    let scaled = utter_synth_scaled();
    measure(
        "10,000 untyped responses (the scaling benchmark agent)",
        &scaled,
    );
}

/// The benchmarks' scaled agent (`utter_synth::scaled_project`), whose
/// entries are `any`: every response is undecided at once.
fn utter_synth_scaled() -> ProjectFiles {
    let mut yaml = String::from("responses:\n");
    for r in 0..10_000 {
        let _ = write!(
            yaml,
            "  utter_scaled_{r}:\n    - text: \"Response {r} variant 0: {{session.bench.reason}}\"\n      condition: \"session.bench.count == 0 and session.bench.reason != 'r{r}'\"\n    - text: \"Response {r}, default\"\n"
        );
    }
    let memory = "schema:\n  public:\n    reason: {}\n    count: {}\n";
    ProjectFiles::from_files([
        (
            "skills/bench/memory.yml".to_owned(),
            memory.as_bytes().to_vec(),
        ),
        (
            "skills/bench/skill.md".to_owned(),
            b"---\ndescription: d\n---\nBody.\n".to_vec(),
        ),
        ("skills/bench/responses.yml".to_owned(), yaml.into_bytes()),
    ])
}
