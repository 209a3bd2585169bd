//! Validation scales with its input: 10 times the input takes at most 30
//! times as long (linear is 10, n log n about 11.5, quadratic 100; the
//! rest is room for cache effects of the larger input and a busy machine). A ratio
//! within one process, the best of three runs each, so machine speed and
//! noise cancel out; sizes are chosen so the larger run takes a good
//! fraction of a second. A ratio over the bound is measured again, up to
//! three times: a CI run once saw 21.8x for linear JSON parsing while two
//! builds shared its two cores, and a load spike does not last three
//! measurements where a quadratic step is over the bound every time.

use std::fmt::Write;
use std::time::{Duration, Instant};

use utter_compiler::{Agent, OpenOptions, ProjectFiles};

/// The best of three runs of `f`.
fn best_of_three(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .expect("three runs")
}

/// One scaling measurement at a time: tests of this file run in parallel
/// threads otherwise, and would time each other.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn assert_scales(what: &str, make: impl Fn(usize) -> Box<dyn Fn()>, n: usize) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let small = make(n);
    let large = make(n * 10);
    let mut ratios = Vec::new();
    for _ in 0..3 {
        let t_small = best_of_three(&small);
        let t_large = best_of_three(&large);
        let ratio = t_large.as_secs_f64() / t_small.as_secs_f64().max(1e-6);
        println!(
            "{what}: {n} in {t_small:?}, {} in {t_large:?}: {ratio:.1}x",
            n * 10
        );
        if ratio <= MAX_RATIO {
            return;
        }
        ratios.push(format!("{ratio:.1}x"));
    }
    panic!(
        "{what}: 10x the input took {} the time in three measurements",
        ratios.join(", ")
    );
}

/// The most 10x the input may take, as a multiple of the time.
const MAX_RATIO: f64 = 30.0;

fn files(list: Vec<(String, String)>) -> ProjectFiles {
    ProjectFiles::from_files(list.into_iter().map(|(p, t)| (p, t.into_bytes())))
}

#[test]
fn responses_in_one_file() {
    assert_scales(
        "responses",
        |n| {
            let mut yaml = String::from("responses:\n");
            for i in 0..n {
                let _ = writeln!(yaml, "  utter_r{i}:\n    - text: Text {i}\n");
            }
            let project = files(vec![("responses.yml".into(), yaml)]);
            Box::new(move || {
                assert!(
                    !Agent::from_files(project.clone(), OpenOptions::default())
                        .into_checked()
                        .has_errors()
                )
            })
        },
        2_000,
    );
}

#[test]
fn memory_entries() {
    assert_scales(
        "memory entries",
        |n| {
            let mut yaml = String::from("schema:\n  public:\n");
            for i in 0..n {
                let _ = writeln!(yaml, "    e{i}: {{type: int}}");
            }
            let project = files(vec![
                ("skills/s/memory.yml".into(), yaml),
                ("skills/s/skill.md".into(), utter_synth::SKILL_MD.into()),
            ]);
            Box::new(move || {
                assert!(
                    !Agent::from_files(project.clone(), OpenOptions::default())
                        .into_checked()
                        .has_errors()
                )
            })
        },
        2_000,
    );
}

#[test]
fn findings_with_did_you_mean_against_many_names() {
    assert_scales(
        "findings",
        |n| {
            let mut memory = String::from("schema:\n  public:\n");
            let mut responses = String::from("responses:\n");
            for i in 0..n {
                let _ = writeln!(memory, "    entry_{i}: {{}}");
                let _ = writeln!(
                    responses,
                    "  utter_r{i}:\n    - text: x\n      condition: session.s.entri_{i}\n    - text: y"
                );
            }
            let project = files(vec![
                ("skills/s/memory.yml".into(), memory),
                ("skills/s/skill.md".into(), utter_synth::SKILL_MD.into()),
                ("skills/s/responses.yml".into(), responses),
            ]);
            Box::new(move || {
                assert_eq!(
                    Agent::from_files(project.clone(), OpenOptions::default())
                        .into_checked()
                        .findings
                        .len(),
                    n
                )
            })
        },
        500,
    );
}

#[test]
fn findings_on_one_long_line_render_quickly() {
    assert_scales(
        "rendering findings on one line",
        |n| {
            let mut line = String::from("responses: {");
            for i in 0..n {
                let _ = write!(line, "utter_r{i}: [''], ");
            }
            line.push_str("}\n");
            let project = files(vec![("responses.yml".into(), line)]);
            let checked = Agent::from_files(project.clone(), OpenOptions::default()).into_checked();
            assert_eq!(checked.findings.len(), n);
            Box::new(move || {
                let source = checked.source("responses.yml");
                for f in &checked.findings {
                    assert!(!utter_compiler::diagnostics::render_finding(f, source).is_empty());
                }
            })
        },
        5_000,
    );
}

#[test]
fn memory_json_documents() {
    assert_scales(
        "memory JSON",
        |n| {
            let mut json = String::from("{\"s\": {");
            for i in 0..n {
                let _ = write!(json, "{}\"e{i}\": {i}", if i > 0 { ", " } else { "" });
            }
            json.push_str("}}");
            Box::new(move || assert_eq!(utter::json::parse_located(&json).unwrap().len(), n))
        },
        10_000,
    );
}
