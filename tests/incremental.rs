//! The language server's incremental check (`CheckCache`) gives exactly
//! what a check from scratch gives: random whole agents, each edited many
//! times (a key typed or deleted in a random file, a line doubled or
//! dropped, a file added or removed, an earlier version restored), every
//! version checked both ways and compared in full: every source, finding,
//! merged response and memory entry, and the lowered registry.

use utter_compiler::{Agent, CheckCache, OpenOptions, ProjectFiles};
use utter_synth::Rng;

/// The whole result of a check, as text: two checks are the same when
/// these are.
fn outcome(agent: &Agent) -> (String, String) {
    (
        format!("{:#?}", agent.checked()),
        format!("{:#?}", agent.usable_registry()),
    )
}

/// The first line where two outcomes differ, with the lines before it.
fn first_difference(a: &(String, String), b: &(String, String)) -> String {
    let (x, y) = if a.0 != b.0 {
        (&a.0, &b.0)
    } else {
        (&a.1, &b.1)
    };
    let lines: Vec<&str> = x.lines().collect();
    x.lines()
        .zip(y.lines())
        .position(|(l, r)| l != r)
        .map_or("one is longer".to_owned(), |i| {
            format!(
                "incremental {:?}, from scratch {:?}, after {:#?}",
                lines[i],
                y.lines().nth(i).unwrap_or_default(),
                &lines[i.saturating_sub(12)..i]
            )
        })
}

/// One random edit of `files`.
fn edit(rng: &mut Rng, files: &mut Vec<(String, String)>, history: &[Vec<(String, String)>]) {
    const KEYS: &[&str] = &[
        "a", "e", "_", " ", ":", "\"", "'", "{", "}", "\n", "-", "1", ".", "=", "<",
    ];
    match rng.below(20) {
        0 if !history.is_empty() => *files = rng.pick(history).clone(),
        1 => {
            // A file added (or emptied): a skill's responses.
            let label = format!("skills/extra{}/responses.yml", rng.below(2));
            files.retain(|(l, _)| *l != label);
            files.push((
                label,
                "responses:\n  utter_extra:\n    - text: Extra {customer_name}\n".to_owned(),
            ));
        }
        2 if files.len() > 1 => {
            let at = rng.below(files.len());
            files.remove(at);
        }
        _ => {
            if files.is_empty() {
                return;
            }
            // Mostly the responses files, as someone editing them.
            let responses: Vec<usize> = (0..files.len())
                .filter(|&i| files[i].0.ends_with("responses.yml"))
                .collect();
            let at = if !responses.is_empty() && rng.chance(75) {
                *rng.pick(&responses)
            } else {
                rng.below(files.len())
            };
            let text = &mut files[at].1;
            let chars: Vec<char> = text.chars().collect();
            let pos = rng.below(chars.len() + 1);
            let mut chars = chars;
            match rng.below(4) {
                0 if pos < chars.len() => {
                    chars.remove(pos);
                }
                1 => {
                    // A line doubled or dropped.
                    let lines: Vec<&str> = text.lines().collect();
                    if !lines.is_empty() {
                        let l = rng.below(lines.len());
                        let mut out: Vec<&str> = lines.clone();
                        if rng.chance(50) {
                            out.insert(l, lines[l]);
                        } else {
                            out.remove(l);
                        }
                        *text = out.join("\n") + "\n";
                    }
                    return;
                }
                _ => {
                    for c in rng.pick(KEYS).chars().rev() {
                        chars.insert(pos, c);
                    }
                }
            }
            *text = chars.into_iter().collect();
        }
    }
}

#[test]
fn an_incremental_check_is_a_check_from_scratch() {
    let mut compared = 0;
    let mut reused_a_file = 0;
    // 6 projects at test scale 1 (`utter_synth::test_scale`).
    let projects = utter_synth::scaled(6);
    for seed in 0..projects {
        let project = if seed % 2 == 0 {
            utter_synth::random_project(seed).files
        } else {
            utter_synth::random_agent(seed).files
        };
        let mut rng = Rng::new(seed);
        let mut files = project;
        let mut history = Vec::new();
        let mut cache = CheckCache::new();
        for step in 0..30 {
            let options = OpenOptions::default();
            let incremental = Agent::from_files_with(
                ProjectFiles::from_files(files.clone()),
                options,
                &mut cache,
            );
            let scratch = Agent::from_files(ProjectFiles::from_files(files.clone()), options);
            let (a, b) = (outcome(&incremental), outcome(&scratch));
            assert!(
                a == b,
                "seed {seed}, step {step}: the incremental check differs from a check from scratch: {}\nfiles: {files:#?}",
                first_difference(&a, &b)
            );
            compared += 1;
            reused_a_file += usize::from(cache.reused_files() > 0);
            history.push(files.clone());
            edit(&mut rng, &mut files, &history);
        }
    }
    assert_eq!(compared, projects as usize * 30);
    // The cache did work: most checks reused some file's outcome.
    assert!(
        reused_a_file > compared / 2,
        "{reused_a_file} of {compared}"
    );
}
