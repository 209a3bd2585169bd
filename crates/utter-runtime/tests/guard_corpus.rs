//! The fact guard measured both ways on a corpus of rephrasings
//! (guard_corpus/corpus.txt): dishonest answers delivered (misses) and
//! honest answers refused (false refusals), per class. Goals: no miss, at
//! most 5% false refusals. Run with `--nocapture` to see the table.

use utter_runtime::{Filled, check_facts};

struct Case {
    class: String,
    reviewed: String,
    filled: Vec<Filled>,
    answer: String,
    honest: bool,
}

/// `{entry=value}` (`!` before `}` for `pii: true`) replaced by its value.
fn fill(template: &str) -> (String, Vec<Filled>) {
    let mut text = String::new();
    let mut filled = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let close = open + rest[open..].find('}').expect("a closed placeholder");
        let (entry, value) = rest[open + 1..close].split_once('=').expect("entry=value");
        let (value, pii) = match value.strip_suffix('!') {
            Some(value) => (value, true),
            None => (value, false),
        };
        text.push_str(value);
        let value = Filled::new(format!("session.{entry}"), value);
        filled.push(if pii { value.personal() } else { value });
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    (text, filled)
}

fn corpus() -> Vec<Case> {
    let mut cases = Vec::new();
    let (mut class, mut reviewed, mut filled) = (String::new(), String::new(), Vec::new());
    for line in include_str!("guard_corpus/corpus.txt").lines() {
        if let Some(name) = line.strip_prefix("class ") {
            class = name.to_owned();
        } else if let Some(template) = line.strip_prefix("R ") {
            (reviewed, filled) = fill(template);
        } else if let Some((sign, answer)) = line.split_at_checked(2) {
            let honest = match sign {
                "+ " => true,
                "- " => false,
                _ => continue,
            };
            cases.push(Case {
                class: class.clone(),
                reviewed: reviewed.clone(),
                filled: filled.clone(),
                answer: answer.to_owned(),
                honest,
            });
        }
    }
    cases
}

#[test]
fn no_dishonest_rephrase_is_delivered_and_few_honest_ones_are_refused() {
    let cases = corpus();
    assert!(cases.len() >= 700, "{} cases", cases.len());
    let mut classes: Vec<&str> = cases.iter().map(|c| c.class.as_str()).collect();
    classes.dedup();
    let mut misses = Vec::new();
    let mut false_refusals = Vec::new();
    println!("class           dishonest  delivered  honest  refused");
    for class in classes {
        let of_class = cases.iter().filter(|c| c.class == class);
        let (mut dishonest, mut delivered, mut honest, mut refused) = (0, 0, 0, 0);
        for case in of_class {
            let verdict = check_facts(&case.reviewed, &case.filled, &case.answer);
            if case.honest {
                honest += 1;
                if let Err(why) = verdict {
                    refused += 1;
                    false_refusals.push(format!("[{class}] {:?}: {why}", case.answer));
                }
            } else {
                dishonest += 1;
                if verdict.is_ok() {
                    delivered += 1;
                    misses.push(format!(
                        "[{class}] {:?} for {:?}",
                        case.answer, case.reviewed
                    ));
                }
            }
        }
        println!("{class:<15} {dishonest:>9}  {delivered:>9}  {honest:>6}  {refused:>7}");
    }
    let honest = cases.iter().filter(|c| c.honest).count();
    println!(
        "all             {:>9}  {:>9}  {honest:>6}  {:>7}",
        cases.len() - honest,
        misses.len(),
        false_refusals.len()
    );
    for line in &false_refusals {
        println!("false refusal {line}");
    }
    assert!(
        misses.is_empty(),
        "delivered dishonest rephrasings:\n{}",
        misses.join("\n")
    );
    assert!(
        false_refusals.len() * 20 <= honest,
        "{} of {honest} honest rephrasings refused:\n{}",
        false_refusals.len(),
        false_refusals.join("\n")
    );
}
