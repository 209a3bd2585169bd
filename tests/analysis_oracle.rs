//! The variant analysis against a brute-force oracle: random conditions
//! over one to four entries of every type (chains, entries compared with
//! each other, mixed int and float, literals at the ends of i64 and around
//! 2^53), every memory state of boundary-rich values delivered by the
//! interpreter. No variant the analysis calls unreachable is ever
//! delivered, and every witness delivers its variant.

use std::fmt::Write as _;

use utter::{Context, SlotMemory, Value};
use utter_compiler::analysis::{Budget, Verdict, Witness, analyse};
use utter_compiler::{Agent, OpenOptions, ProjectFiles, Registry};
use utter_synth::Rng;

/// The entries: name and type.
const ENTRIES: &[(&str, &str)] = &[
    ("a", "int"),
    ("b", "int"),
    ("f", "float"),
    ("g", "float"),
    ("t", "text"),
    ("u", "text"),
    ("c", "categorical"),
    ("p", "bool"),
];

const INT_LITERALS: &[&str] = &[
    "0",
    "1",
    "-1",
    "5",
    "9007199254740993",
    "9000000000000000001",
    "9223372036854775807",
    "-9223372036854775807",
];
const FLOAT_LITERALS: &[&str] = &["1.5", "3.0", "0.5", "-2.25", "1e300", "9007199254740992.0"];
const TEXT_LITERALS: &[&str] = &["''", "'A'", "'a'", "'b'", "'a\\x00'"];

fn registry(variants: &str) -> Option<Registry> {
    let mut memory = String::new();
    for (name, ty) in ENTRIES {
        if *ty == "categorical" {
            let _ = writeln!(
                memory,
                "{name}: {{type: categorical, enum_values: [a, b, Z]}}"
            );
        } else {
            let _ = writeln!(memory, "{name}: {{type: {ty}}}");
        }
    }
    let files = ProjectFiles::from_files([
        ("memory.yml".to_owned(), memory.into_bytes()),
        (
            "responses.yml".to_owned(),
            format!("responses:\n  utter_r:\n{variants}").into_bytes(),
        ),
    ]);
    Agent::from_files(files.clone(), OpenOptions::default())
        .into_registry()
        .1
        .ok()
}

/// An operand of the entries `chosen`: an entry or a literal of its kind.
fn operand(rng: &mut Rng, chosen: &[usize]) -> String {
    let (name, ty) = ENTRIES[*rng.pick(chosen)];
    if rng.chance(55) {
        return format!("session.project.{name}");
    }
    match ty {
        "int" | "bool" if rng.chance(70) => rng.pick(INT_LITERALS).to_string(),
        "int" | "float" | "bool" => rng.pick(FLOAT_LITERALS).to_string(),
        _ => rng.pick(TEXT_LITERALS).to_string(),
    }
}

fn condition(rng: &mut Rng, chosen: &[usize], depth: usize) -> String {
    match rng.below(if depth == 0 { 3 } else { 6 }) {
        0 => format!("session.project.{}", ENTRIES[*rng.pick(chosen)].0),
        1 | 2 => {
            let mut out = operand(rng, chosen);
            for _ in 0..1 + rng.below(3) {
                let op = *rng.pick(&utter_synth::operator_symbols());
                let _ = write!(out, " {op} {}", operand(rng, chosen));
            }
            out
        }
        3 => format!("not ({})", condition(rng, chosen, depth - 1)),
        4 => format!(
            "({}) and ({})",
            condition(rng, chosen, depth - 1),
            condition(rng, chosen, depth - 1)
        ),
        _ => format!(
            "({}) or ({})",
            condition(rng, chosen, depth - 1),
            condition(rng, chosen, depth - 1)
        ),
    }
}

/// Boundary-rich values of an entry of type `ty`, unset first.
fn values(ty: &str) -> Vec<Option<Value>> {
    let mut out: Vec<Option<Value>> = vec![None];
    match ty {
        "int" => {
            let mut ints = vec![i64::MIN, i64::MAX, i64::MAX - 1, 0, 1, -1, 2, 3, 4, 6];
            ints.extend([
                9_007_199_254_740_992,
                9_007_199_254_740_993,
                9_007_199_254_740_994,
            ]);
            ints.extend([9_000_000_000_000_000_002, -9_223_372_036_854_775_807]);
            out.extend(ints.into_iter().map(|i| Some(Value::Int(i))));
        }
        "float" => {
            let floats = [
                0.0,
                1.0,
                1.25,
                1.5,
                2.0,
                2.5,
                3.0,
                0.5,
                -2.25,
                -3.0,
                1e300,
                1e301,
                9_007_199_254_740_992.0,
                9_007_199_254_740_994.0,
                f64::NAN,
            ];
            out.extend(floats.into_iter().map(|f| Some(Value::Float(f))));
        }
        "text" => {
            for t in ["", "A", "a", "b", "a\0", "\0", "B", "c", "ab"] {
                out.push(Some(Value::from(t)));
            }
        }
        "categorical" => out.extend(["a", "b", "Z"].map(|t| Some(Value::from(t)))),
        _ => out.extend([false, true].map(|b| Some(Value::Bool(b)))),
    }
    out
}

/// A witness as the oracle's states: entry (index in [`ENTRIES`]) and value.
fn state_of(registry: &Registry, witness: &Witness) -> Vec<(usize, Option<Value>)> {
    witness
        .0
        .iter()
        .map(|(id, value)| {
            let name = &registry.entries[*id].name;
            let e = ENTRIES.iter().position(|(n, _)| n == name).unwrap();
            (e, Some(value.clone()))
        })
        .collect()
}

/// The index of `utter_r` among the registry's responses (bundled ones too).
fn index_of_r(registry: &Registry) -> usize {
    registry
        .responses
        .iter()
        .position(|r| r.name == "utter_r")
        .expect("utter_r")
}

/// Delivers `utter_r` for the state `state` (entry index, value).
fn delivered(
    registry: &Registry,
    interpreter: &utter_compiler::Interpreter<'_>,
    state: &[(usize, &Option<Value>)],
) -> (Option<usize>, String) {
    let mut memory = SlotMemory::new(&registry.entries);
    for (entry, value) in state {
        if let Some(v) = value {
            memory
                .set("project", ENTRIES[*entry].0, v.clone())
                .expect("a value of the declared type");
        }
    }
    let ctx = Context::new(&memory);
    let d = interpreter.deliver("utter_r", &ctx);
    (d.variant, d.text.into_owned())
}

#[test]
fn no_variant_called_unreachable_is_ever_delivered() {
    let mut rng = Rng::new(42);
    let (mut cases, mut states, mut unreachable, mut witnesses) = (0, 0usize, 0, 0);
    let (mut unset_seen, mut unset_claims) = (0usize, 0usize);
    let wanted: usize = std::env::var("ORACLE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(600);
    while cases < wanted {
        let n = 1 + rng.below(4);
        let mut chosen: Vec<usize> = Vec::new();
        while chosen.len() < n {
            let e = rng.below(ENTRIES.len());
            if !chosen.contains(&e) {
                chosen.push(e);
            }
        }
        let mut variants = String::new();
        let placeholder =
            |rng: &mut Rng| format!("{{session.project.{}}}", ENTRIES[*rng.pick(&chosen)].0);
        for _ in 0..1 + rng.below(3) {
            let depth = rng.below(3);
            let c = condition(&mut rng, &chosen, depth);
            let text = format!("v {}", placeholder(&mut rng));
            let _ = writeln!(variants, "    - text: {text:?}\n      condition: {c:?}");
        }
        let text = format!("default {}", placeholder(&mut rng));
        let _ = writeln!(variants, "    - text: {text:?}");
        let Some(registry) = registry(&variants) else {
            continue;
        };
        cases += 1;
        let started = std::time::Instant::now();
        let analysis = analyse(
            &registry,
            index_of_r(&registry),
            None,
            &mut Budget::response(),
        );
        if std::env::var_os("ORACLE_TRACE").is_some() {
            eprintln!(
                "case {cases}: analysis {:?} ({} states)",
                started.elapsed(),
                analysis.states
            );
        }
        let interpreter = registry.interpreter();
        for (v, verdict) in analysis.variants.iter().enumerate() {
            match verdict {
                Verdict::Reachable(w) => {
                    witnesses += 1;
                    let state = state_of(&registry, w);
                    let borrowed: Vec<(usize, &Option<Value>)> =
                        state.iter().map(|(e, v)| (*e, v)).collect();
                    assert_eq!(
                        delivered(&registry, &interpreter, &borrowed).0,
                        Some(v),
                        "the witness {w:?} of variant {v}\n{variants}"
                    );
                }
                Verdict::Unreachable(_) => unreachable += 1,
                Verdict::Undecided(_) => {}
            }
        }
        // Every may-be-unset claim has a state that delivers the variant
        // with the placeholder as written.
        for (v, claims) in analysis.may_be_unset.iter().enumerate() {
            for (raw, w) in claims {
                let state = state_of(&registry, w);
                let borrowed: Vec<(usize, &Option<Value>)> =
                    state.iter().map(|(e, v)| (*e, v)).collect();
                let (got, text) = delivered(&registry, &interpreter, &borrowed);
                assert_eq!(got, Some(v), "{w:?}\n{variants}");
                assert!(
                    text.contains(raw.as_str()),
                    "{raw} not in {text:?} for {w:?}\n{variants}"
                );
                unset_claims += 1;
            }
        }
        // Every state of the boundary values.
        let domains: Vec<Vec<Option<Value>>> =
            chosen.iter().map(|&e| values(ENTRIES[e].1)).collect();
        let mut index = vec![0usize; chosen.len()];
        loop {
            let state: Vec<(usize, &Option<Value>)> = chosen
                .iter()
                .zip(&index)
                .enumerate()
                .map(|(d, (&e, &i))| (e, &domains[d][i]))
                .collect();
            states += 1;
            if let (Some(v), text) = delivered(&registry, &interpreter, &state) {
                assert!(
                    !matches!(analysis.variants[v], Verdict::Unreachable(_)),
                    "variant {v} called unreachable ({:?}) is delivered for {state:?}\n{variants}",
                    analysis.variants[v]
                );
                // A placeholder delivered as written is one the analysis
                // says may be unset.
                if let Some(raw) = text.split(' ').nth(1).filter(|p| p.starts_with('{'))
                    && matches!(analysis.variants[v], Verdict::Reachable(_))
                {
                    assert!(
                        analysis.may_be_unset[v].iter().any(|(p, _)| p == raw),
                        "{raw} delivered as written for {state:?}, not called may be unset\n{variants}"
                    );
                    unset_seen += 1;
                }
            }
            let mut d = 0;
            loop {
                if d == index.len() {
                    break;
                }
                index[d] += 1;
                if index[d] < domains[d].len() {
                    break;
                }
                index[d] = 0;
                d += 1;
            }
            if d == index.len() {
                break;
            }
        }
    }
    eprintln!(
        "{cases} random responses, {states} memories delivered, {unreachable} unreachable verdicts, {witnesses} witnesses, {unset_claims} may-be-unset claims, {unset_seen} deliveries of an unset placeholder, none contradicted"
    );
    assert!(
        unset_claims >= 100 && unset_seen >= 1000,
        "{unset_claims} / {unset_seen}"
    );
    assert!(
        unreachable >= 20 && witnesses >= 200,
        "{unreachable} / {witnesses}"
    );
}

/// The classes the analysis once got wrong (`tests/fixtures/analysis-classes`,
/// each with the memory the reference engine, rasa-pro 3.21.0, delivers
/// it for): every variant 0 there is reachable, and its witness delivers it.
/// `conformance/run.sh` delivers the same witnesses through the reference.
#[test]
fn classes_the_reference_delivers_are_reachable() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/analysis-classes");
    let registry = Agent::open(&dir, OpenOptions::default())
        .expect("the fixture reads")
        .into_registry()
        .1
        .unwrap_or_else(|e| panic!("{e:?}"));
    let interpreter = registry.interpreter();
    let classes: Vec<usize> = (0..registry.responses.len())
        .filter(|&i| !registry.responses[i].file.starts_with('<'))
        .collect();
    assert_eq!(classes.len(), 7);
    for index in classes {
        let response = &registry.responses[index];
        let analysis = analyse(&registry, index, None, &mut Budget::response());
        let Verdict::Reachable(witness) = &analysis.variants[0] else {
            panic!("{}: {:?}", response.name, analysis.variants[0]);
        };
        let mut memory = SlotMemory::new(&registry.entries);
        for (id, value) in &witness.0 {
            let e = &registry.entries[*id];
            memory.set(&e.namespace, &e.name, value.clone()).unwrap();
        }
        let delivered = interpreter.deliver(&response.name, &Context::new(&memory));
        assert_eq!(delivered.variant, Some(0), "{}: {witness:?}", response.name);
    }
}
