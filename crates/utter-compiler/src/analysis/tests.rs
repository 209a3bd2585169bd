//! Tricky cases of the variant analysis, each with its expected verdicts;
//! every witness is delivered by the interpreter to prove it.

use utter::{Context, SlotMemory};

use super::{Verdict, Why, analyse};
use crate::{ProjectFiles, check, lower};

/// The registry of a skill `s` with `memory` (its `schema.public` entries)
/// and one response `utter_r` of `variants`.
fn registry(memory: &str, variants: &str) -> crate::Registry {
    let files = ProjectFiles::from_files([
        (
            "skills/s/memory.yml".to_owned(),
            format!("schema:\n  public:\n{memory}").into_bytes(),
        ),
        (
            "skills/s/skill.md".to_owned(),
            b"---\ndescription: d\n---\nBody.\n".to_vec(),
        ),
        (
            "skills/s/responses.yml".to_owned(),
            format!("responses:\n  utter_r:\n{variants}").into_bytes(),
        ),
    ]);
    let checked = check(&files);
    lower(&checked).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The verdicts in short: `R` reachable, `S0` shadowed by variant 0, `N`
/// never true, `E` an error in every state, `C` covered default, `P` not
/// the default, `U` undecided. Every witness is checked by delivery.
fn verdicts(memory: &str, variants: &str) -> String {
    let registry = registry(memory, variants);
    let index = registry
        .responses
        .iter()
        .position(|r| r.name == "utter_r")
        .expect("utter_r");
    let analysis = analyse(&registry, index, Some("s"), &mut super::Budget::response());
    let mut out = Vec::new();
    for (v, verdict) in analysis.variants.iter().enumerate() {
        out.push(match verdict {
            Verdict::Reachable(witness) => {
                let mut memory = SlotMemory::new(&registry.entries);
                for (id, value) in &witness.0 {
                    let e = &registry.entries[*id];
                    memory
                        .set(&e.namespace, &e.name, value.clone())
                        .expect("a witness holds declared types");
                }
                let ctx = Context::for_skill_id(&memory, "s", &registry.skills).unwrap();
                let interpreter = registry.interpreter();
                let delivered = interpreter.deliver("utter_r", &ctx);
                assert_eq!(
                    delivered.variant,
                    Some(v),
                    "the witness of variant {v}: {witness:?}"
                );
                "R".to_owned()
            }
            Verdict::Unreachable(Why::Shadowed(by)) => {
                format!(
                    "S{}",
                    by.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                )
            }
            Verdict::Unreachable(Why::NeverTrue { error: None }) => "N".to_owned(),
            Verdict::Unreachable(Why::NeverTrue { error: Some(_) }) => "E".to_owned(),
            Verdict::Unreachable(Why::Covered) => "C".to_owned(),
            Verdict::Unreachable(Why::NotTheDefault) => "P".to_owned(),
            Verdict::Undecided(_) => "U".to_owned(),
        });
    }
    out.join(" ")
}

fn case(condition: &str) -> String {
    format!("    - text: a\n      condition: {condition:?}\n    - text: b\n")
}

#[test]
fn tricky_cases_get_exact_verdicts() {
    let int = "    n: {type: int}\n";
    let float = "    f: {type: float}\n";
    let flag = "    b: {type: bool}\n";
    let text = "    t: {type: text}\n";
    let cat = "    c: {type: categorical, enum_values: [x, y]}\n";
    let table: &[(&str, &str, &str)] = &[
        // Chained comparisons: each operand once, stopping at the first false.
        (int, &case("1 < session.s.n < 3"), "R R"),
        (int, &case("3 < session.s.n < 1"), "N R"),
        (int, &case("1 < session.s.n < 2"), "N R"),
        // An ordering with unset (None) is an error, so the variant is skipped...
        (int, &case("session.s.n < 5 or session.s.n >= 5"), "R R"),
        // ...and `not` over an error is an error too: never true when unset,
        // but true for set values.
        (int, &case("not (session.s.n > 1)"), "R R"),
        // None compares only by equality.
        (int, &case("session.s.n == None"), "R R"),
        (
            int,
            &case("session.s.n != None and session.s.n == None"),
            "N R",
        ),
        // True == 1 and 1 == 1.0.
        (flag, &case("session.s.b == 1"), "R R"),
        (float, &case("session.s.f == 1"), "R R"),
        // Float/int boundaries: 2.5 lies between the ints, an int entry never equals it.
        (int, &case("session.s.n == 2.5"), "N R"),
        (int, &case("2 < session.s.n < 3"), "N R"),
        (float, &case("2 < session.s.f < 3"), "R R"),
        // Empty strings and truthiness.
        (text, &case("session.s.t"), "R R"),
        (text, &case("not session.s.t"), "R R"),
        (text, &case("session.s.t < ''"), "N R"),
        (text, &case("'' < session.s.t < 'a'"), "R R"),
        // A categorical's values are all there is.
        (
            cat,
            &case("session.s.c == 'x' or session.s.c == 'y' or session.s.c == None"),
            "R C",
        ),
        (cat, &case("session.s.c > 'y'"), "N R"),
        // Entry against entry: every relative order.
        (
            "    n: {type: int}\n    m: {type: int}\n",
            &case("session.s.n > session.s.m"),
            "R R",
        ),
        // An error when unset, false when set: never true.
        (int, &case("session.s.n > 1 and session.s.n == None"), "N R"),
    ];
    for (memory, variants, want) in table {
        assert_eq!(verdicts(memory, variants), *want, "{variants}");
    }
}

#[test]
fn shadowing_names_the_variants_that_win() {
    let memory = "    r: {type: categorical, enum_values: [lost, stolen, damaged]}\n";
    let variants = "    - text: a fee\n      condition: session.s.r == 'lost' or session.s.r == 'stolen'\n    - text: free\n      condition: session.s.r == 'lost'\n    - text: standard\n";
    assert_eq!(verdicts(memory, variants), "R S0 R");
    let variants = "    - text: one\n      condition: session.s.r == 'lost'\n    - text: two\n      condition: session.s.r == 'stolen'\n    - text: both\n      condition: session.s.r == 'lost' or session.s.r == 'stolen'\n    - text: rest\n";
    assert_eq!(verdicts(memory, variants), "R R S0,1 R");
}

#[test]
fn what_cannot_be_enumerated_is_undecided() {
    assert_eq!(
        verdicts("    a: {type: any}\n", &case("session.s.a == 1")),
        "U U"
    );
    assert_eq!(
        verdicts("    l: {type: list}\n", &case("session.s.l")),
        "U U"
    );
    // Many entries: over the budget, no claim but what a witness proves
    // (nothing set delivers the default).
    let mut memory = String::new();
    let mut terms = Vec::new();
    for i in 0..12 {
        memory.push_str(&format!("    e{i}: {{type: int}}\n"));
        terms.push(format!("session.s.e{i} == {i}"));
    }
    assert_eq!(verdicts(&memory, &case(&terms.join(" and "))), "U R");
    // Never true, but that needs every state seen: undecided, not unreachable.
    terms.push("session.s.e0 == 1".to_owned());
    assert_eq!(verdicts(&memory, &case(&terms.join(" and "))), "U R");
}

#[test]
fn the_budget_is_shared_and_a_stop_is_said() {
    let mut memory = String::new();
    let mut terms = Vec::new();
    for i in 0..12 {
        memory.push_str(&format!("    e{i}: {{type: int}}\n"));
        terms.push(format!("session.s.e{i} == {i}"));
    }
    let big = registry(&memory, &case(&terms.join(" and ")));
    let index = big
        .responses
        .iter()
        .position(|r| r.name == "utter_r")
        .unwrap();
    let mut budget = super::Budget::project();
    let before = budget.left();
    let analysis = analyse(&big, index, Some("s"), &mut budget);
    let spent = before - budget.left();
    assert!(
        (super::RESPONSE_WORK_BUDGET - 64..=super::RESPONSE_WORK_BUDGET).contains(&spent),
        "{spent}"
    );
    let stopped = analysis.stopped.expect("the analysis says it stopped");
    assert!(stopped.contains("work budget"), "{stopped}");
    match &analysis.variants[0] {
        Verdict::Undecided(why) => assert!(why.contains("work budget"), "{why}"),
        other => panic!("{other:?}"),
    }
    // A spent budget decides nothing more, and claims nothing false.
    let mut spent_budget = super::Budget::response();
    while spent_budget.left() > 0 {
        analyse(&big, index, Some("s"), &mut spent_budget);
    }
    let after = analyse(&big, index, Some("s"), &mut spent_budget);
    assert!(
        after
            .variants
            .iter()
            .all(|v| matches!(v, Verdict::Undecided(_))),
        "{:?}",
        after.variants
    );
    // A small response spends little and is complete.
    let small = registry("    n: {type: int}\n", &case("session.s.n > 2"));
    let index = small
        .responses
        .iter()
        .position(|r| r.name == "utter_r")
        .unwrap();
    let mut budget = super::Budget::project();
    let analysis = analyse(&small, index, Some("s"), &mut budget);
    assert!(analysis.stopped.is_none());
    assert!(super::PROJECT_WORK_BUDGET - budget.left() < 1_000);
}

#[test]
fn legacy_responses_deliver_their_first_variant() {
    assert_eq!(
        verdicts("    n: {type: int}\n", "    - one\n    - two\n"),
        "R P"
    );
}

#[test]
fn witnesses_set_as_few_entries_as_possible() {
    let registry = registry(
        "    a: {type: bool}\n    b: {type: bool}\n    c: {type: bool}\n",
        "    - text: x\n      condition: session.s.a or session.s.b and session.s.c\n    - text: y\n",
    );
    let index = registry
        .responses
        .iter()
        .position(|r| r.name == "utter_r")
        .unwrap();
    let analysis = analyse(&registry, index, Some("s"), &mut super::Budget::response());
    match &analysis.variants[0] {
        Verdict::Reachable(w) => assert_eq!(w.0.len(), 1, "{w:?}"),
        other => panic!("{other:?}"),
    }
    match &analysis.variants[1] {
        Verdict::Reachable(w) => assert!(w.0.is_empty(), "{w:?}"),
        other => panic!("{other:?}"),
    }
}
