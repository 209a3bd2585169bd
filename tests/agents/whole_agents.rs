//! Every random whole agent `utter check` accepts compiled (the build would
//! have failed otherwise) through `include_responses!` and `utter_build`, in
//! straight-line and compact form; here each module delivers like the
//! interpreter for random memories and skill views, and lists the same
//! skill.md references with the same `when:` outcomes. Failures name the
//! agent's seed (`utter_synth::random_agent(seed)`).

use std::collections::BTreeMap;

use utter::{Context, SlotMemory, Value};
use utter_agent_tests::{AGENTS, COMPILED, REJECTED, Run};
use utter_compiler::{Agent, OpenOptions, ProjectFiles, Registry, ResponseIndex};
use utter_synth::{Rng, random_agent, random_typed_value};

/// Memories tried per compiled module, at test scale 1
/// (`utter_synth::test_scale`).
const MEMORIES: u64 = 10;

fn registry(seed: u64) -> Registry {
    let agent = random_agent(seed);
    let files = ProjectFiles::from_files(
        agent
            .files
            .iter()
            .map(|(p, t)| (p.clone(), t.clone().into_bytes())),
    );
    Agent::from_files(files.clone(), OpenOptions::default())
        .into_registry()
        .1
        .unwrap_or_else(|e| panic!("agent {seed} compiled but does not lower: {e:?}"))
}

/// The interpreter's side of [`Run`].
fn interpret(
    registry: &Registry,
    assign: &[(String, String, Value)],
    skill: Option<&str>,
    names: &[String],
) -> Run {
    let mut slots = SlotMemory::new(&registry.entries);
    let accepted = assign
        .iter()
        .map(|(ns, name, value)| slots.set(ns, name, value.clone()).is_ok())
        .collect();
    let ctx = match skill {
        Some(s) => {
            Context::for_skill_id(&slots, s, &registry.skills).expect("a skill of the agent")
        }
        None => Context::new(&slots),
    };
    let interpreter = registry.interpreter();
    let deliveries = names
        .iter()
        .map(|name| {
            let d = interpreter.deliver(name, &ctx);
            (
                d.text.into_owned(),
                d.variant,
                d.rephrase,
                d.fallback,
                d.wording,
                d.guard,
            )
        })
        .collect();
    let references = skill
        .and_then(|s| registry.skill_refs(s))
        .map(|refs| {
            let name = |ResponseIndex(i): ResponseIndex| registry.responses[i].name.clone();
            let option = |r: Option<ResponseIndex>| r.map_or("-".to_owned(), name);
            let mut lines = Vec::new();
            for &r in &refs.on_activate {
                lines.push(format!("activate {}", name(r)));
            }
            for (r, expr) in &refs.when {
                lines.push(format!(
                    "when {} {:?}",
                    name(*r),
                    registry.holds(expr, &ctx)
                ));
            }
            for t in &refs.tools {
                lines.push(format!(
                    "tool {} {} {} {} {}",
                    t.tool,
                    option(t.on_success),
                    option(t.on_failure),
                    option(t.utter_for_confirmation),
                    option(t.utter_on_user_denial)
                ));
            }
            for s in &refs.steps {
                lines.push(format!(
                    "step {} {} {:?} {}",
                    s.block,
                    s.step,
                    s.kind,
                    name(s.response)
                ));
            }
            lines
        })
        .unwrap_or_default();
    Run {
        accepted,
        deliveries,
        references,
        responses: registry.responses.iter().map(|r| r.name.clone()).collect(),
        skills: registry.skills.clone(),
    }
}

#[test]
fn every_accepted_agent_compiles_and_delivers_as_the_interpreter() {
    let accepted = AGENTS - REJECTED.len() as u64;
    // The generator must mostly make agents the checker accepts, or this
    // test proves little.
    assert!(
        accepted * 10 >= AGENTS * 8,
        "only {accepted} of {AGENTS} agents accepted; rejected: {REJECTED:?}"
    );
    assert_eq!(
        COMPILED.len() as u64,
        accepted * 4,
        "four modules per accepted agent"
    );
    let mut registries = BTreeMap::new();
    let (mut deliveries, mut conditioned, mut triggers, mut references) =
        (0usize, 0usize, 0usize, 0usize);
    let mut guarded = 0;
    for compiled in COMPILED {
        let seed = compiled.seed;
        let registry = registries.entry(seed).or_insert_with(|| registry(seed));
        let agent = random_agent(seed);
        let mut names = agent.response_names.clone();
        names.extend(registry.responses.iter().map(|r| r.name.clone()));
        names.push("utter_missing".to_owned());
        let mut rng = Rng::new(seed.wrapping_mul(7_919).wrapping_add(11));
        for memory in 0..utter_synth::scaled(MEMORIES) {
            let assign: Vec<(String, String, Value)> = agent
                .entries
                .iter()
                .filter_map(|(ns, name, _, ty)| {
                    random_typed_value(&mut rng, *ty)
                        .to_value()
                        .map(|v| (ns.clone(), name.clone(), v))
                })
                .collect();
            let skill = match rng.below(agent.skills.len() + 1) {
                0 => None,
                i => Some(agent.skills[i - 1].as_str()),
            };
            let got = (compiled.run)(&assign, skill, &names);
            let want = interpret(registry, &assign, skill, &names);
            assert_eq!(
                got, want,
                "agent {seed} ({}), memory {memory}, skill {skill:?}",
                compiled.module
            );
            deliveries += names.len();
            guarded += adversaries_are_refused(&want.deliveries);
            conditioned += want
                .deliveries
                .iter()
                .zip(&names)
                .filter(|((_, variant, _, _, _, _), name)| {
                    variant.is_some_and(|v| {
                        registry
                            .response(name)
                            .is_some_and(|r| r.variants[v].condition.is_some())
                    })
                })
                .count();
            triggers += want
                .references
                .iter()
                .filter(|l| l.ends_with(" true"))
                .count();
            references += want.references.len();
        }
    }
    assert!(
        guarded > 100,
        "{guarded} rephrased deliveries met the adversaries"
    );
    // The comparison must exercise selection and skill.md, not just defaults.
    assert!(
        conditioned * 20 > deliveries,
        "{conditioned} of {deliveries} chose a conditioned variant"
    );
    assert!(
        triggers > 0 && references > 100,
        "{triggers} when-triggers held of {references} references"
    );
    println!(
        "{accepted} of {AGENTS} agents accepted, {} modules, {deliveries} deliveries and {references} skill.md references compared ({triggers} when-triggers held)",
        COMPILED.len()
    );
}

/// A random value for an entry of type `ty`, from pools wider than the
/// conditions' literals (independent of the analysis' own domains).
fn wide_value(rng: &mut Rng, ty: utter_synth::SynthType) -> Option<Value> {
    use utter_synth::SynthType;
    if rng.chance(20) {
        return None;
    }
    Some(match ty {
        SynthType::Int => Value::Int(rng.below(12) as i64 - 3),
        SynthType::Float => match rng.below(4) {
            0 => Value::Float(f64::NAN),
            1 => Value::Float(1e16),
            _ => Value::Float(rng.below(16) as f64 / 2.0 - 2.0),
        },
        SynthType::Bool => Value::Bool(rng.chance(50)),
        SynthType::Text => {
            Value::from(*rng.pick(&["", "a", "b", "c", "lost", "a\u{0}", "B", "zz", "c-d"]))
        }
        SynthType::Categorical => {
            Value::from(*rng.pick(&["a", "b", "c-d", "Self", "None", "Some", "0", "w0_0", "type"]))
        }
        SynthType::List | SynthType::Any => return random_typed_value(rng, ty).to_value(),
    })
}

/// The variant analysis on every response of every accepted agent: each
/// witness delivers its variant through the interpreter and through every
/// compiled form; no unreachable variant is delivered by 2,500 random
/// memory states (times `UTTER_TEST_SCALE`); every other verdict is a witness or says why not.
#[test]
fn analysis_verdicts_hold_on_whole_agents() {
    use utter_compiler::analysis::{Budget, Verdict, analyse, home_view};
    let (mut witnesses, mut unreachable, mut undecided, mut sampled) =
        (0usize, 0usize, 0usize, 0usize);
    let mut registries = BTreeMap::new();
    for compiled in COMPILED {
        registries
            .entry(compiled.seed)
            .or_insert_with(|| registry(compiled.seed));
    }
    for (&seed, registry) in &registries {
        let agent = random_agent(seed);
        let forms: Vec<_> = COMPILED.iter().filter(|c| c.seed == seed).collect();
        let mut rng = Rng::new(seed ^ 0xA11A);
        for (index, response) in registry.responses.iter().enumerate() {
            if response.file.starts_with('<') {
                continue;
            }
            let view = home_view(registry, index);
            let analysis = analyse(registry, index, view, &mut Budget::response());
            let names = [response.name.clone()];
            for (v, verdict) in analysis.variants.iter().enumerate() {
                match verdict {
                    Verdict::Reachable(witness) => {
                        let assign: Vec<(String, String, Value)> = witness
                            .0
                            .iter()
                            .map(|(id, value)| {
                                let e = &registry.entries[*id];
                                (e.namespace.clone(), e.name.clone(), value.clone())
                            })
                            .collect();
                        let want = interpret(registry, &assign, view, &names);
                        assert_eq!(
                            want.deliveries[0].1,
                            Some(v),
                            "agent {seed}, {}: the witness of variant {v} ({witness:?}) through the interpreter",
                            response.name
                        );
                        for form in &forms {
                            let got = (form.run)(&assign, view, &names);
                            assert_eq!(
                                got.deliveries[0].1,
                                Some(v),
                                "agent {seed} ({}), {}: the witness of variant {v}",
                                form.module,
                                response.name
                            );
                        }
                        witnesses += 1;
                    }
                    Verdict::Unreachable(why) => {
                        // 2,500 memory states per unreachable verdict at scale 1.
                        for _ in 0..utter_synth::scaled(2_500) {
                            let assign: Vec<(String, String, Value)> = agent
                                .entries
                                .iter()
                                .filter_map(|(ns, name, _, ty)| {
                                    wide_value(&mut rng, *ty)
                                        .map(|value| (ns.clone(), name.clone(), value))
                                })
                                .collect();
                            let got = interpret(registry, &assign, view, &names);
                            assert_ne!(
                                got.deliveries[0].1,
                                Some(v),
                                "agent {seed}, {}: variant {v} called unreachable ({why:?}) is delivered by {assign:?}",
                                response.name
                            );
                            sampled += 1;
                        }
                        unreachable += 1;
                    }
                    Verdict::Undecided(why) => {
                        assert!(!why.is_empty(), "an undecided verdict says why");
                        undecided += 1;
                    }
                }
            }
        }
    }
    assert!(
        witnesses > 50 * utter_synth::test_scale() as usize && unreachable > 0,
        "{witnesses} witnesses, {unreachable} unreachable"
    );
    println!(
        "variant analysis: {witnesses} witnesses delivered (interpreter and 4 compiled forms), {unreachable} unreachable variants never delivered by {sampled} random states, {undecided} undecided"
    );
}

/// A straight-line agent of more responses than one part of `select`
/// holds, all of one shape: every response, in every part, selects with
/// its own literals, through the typed view and `Context`.
#[test]
fn every_response_of_a_large_agent_keeps_its_literals() {
    use utter_agent_tests::{LARGE, large_agent};
    for n in [0, 1, 1_023, 1_024, 1_025, 1_099, 2_000] {
        let mut memory = large_agent::Memory::new();
        memory.set("project", "n", n).expect("an int entry");
        let view = memory.view(None);
        let ctx = view.context();
        for i in 0..LARGE {
            let response = large_agent::Response::from_name(&format!("utter_r{i}"))
                .expect("a response of the agent");
            let want = match i64::try_from(i).expect("a small index") {
                i if i == n => format!("hit {i}"),
                i if n > i => format!("above {i}"),
                i => format!("default {i}"),
            };
            assert_eq!(view.deliver(response).text, want, "n = {n}");
            assert_eq!(large_agent::deliver(response, &ctx).text, want, "n = {n}");
        }
    }
    // The agent's own responses and the bundled layer's: more than one part.
    assert!(large_agent::Response::ALL.len() > 1_024);
}

/// Adversarial rephrasers against each rephrased delivery (the guard every
/// code form computed the same, compared above): dropping a filled value or
/// changing a digit is refused and the reviewed text delivered; changing
/// only case and punctuation is used. How many deliveries met them.
fn adversaries_are_refused(deliveries: &[utter_agent_tests::Delivered]) -> usize {
    let mut met = 0;
    for (text, variant, rephrase, fallback, wording, guard) in deliveries {
        let delivery = || utter::Delivery {
            text: text.as_str().into(),
            response: "utter_x",
            variant: *variant,
            rephrase: *rephrase,
            fallback: *fallback,
            wording: *wording,
            guard: guard.clone(),
        };
        if !delivery().wants_rephrase() {
            continue;
        }
        let utter::FactGuard::On { filled } = guard else {
            panic!("a delivery is guarded unless relaxed");
        };
        met += 1;
        // Refused (or blank, which is never used): the reviewed text is delivered.
        let refused = |answer: String| !delivery().speak_with(|_| answer.clone()).rephrased;
        if let Some(value) = filled.iter().find(|v| {
            // Found once, as words: dropping it drops the fact.
            let (v, t) = (words(&v.value), words(text));
            let found = t
                .char_indices()
                .filter(|(i, _)| t[*i..].starts_with(v.as_str()))
                .count();
            v.trim() != "" && found == 1
        }) {
            // Where it stands as words (not inside a longer word).
            let value = value.value.as_str();
            let alone = text.match_indices(value).find(|(at, _)| {
                let before = text[..*at].chars().next_back();
                let after = text[at + value.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            });
            if let Some((at, _)) = alone {
                let dropped = format!("{} {}", &text[..at], &text[at + value.len()..]);
                assert!(refused(dropped), "dropped {value:?} of {text:?}");
            }
        }
        if let Some(at) = text.find(|c: char| c.is_ascii_digit()) {
            let mut changed = text.clone().into_bytes();
            changed[at] = b'0' + (changed[at] - b'0' + 1) % 10;
            let changed = String::from_utf8(changed).expect("a digit changed");
            assert!(refused(changed.clone()), "{text:?} as {changed:?}");
        }
        // Add a number; swap the first two numbers whose figures differ as
        // read (what they measure moves with them): the figures change.
        assert!(
            refused(format!("{text} 987654321")),
            "{text:?} plus a number"
        );
        let spans = number_spans(text);
        if let Some((a, b)) = spans.iter().zip(spans.iter().skip(1)).find(|(a, b)| {
            utter::figures(&text[(*a).clone()]) != utter::figures(&text[(*b).clone()])
        }) && {
            let swapped = swap(text, a, b);
            let mut before = utter::figures(text);
            let mut after = utter::figures(&swapped);
            before.sort();
            after.sort();
            before != after
        } {
            let swapped = swap(text, a, b);
            assert!(refused(swapped.clone()), "{text:?} as {swapped:?}");
        }
        let shouted = format!("{}!", text.to_ascii_uppercase());
        assert!(!refused(shouted), "{text:?} in capitals");
    }
    met
}

/// `text` with spans `a` and `b` (a before b) traded.
fn swap(text: &str, a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> String {
    format!(
        "{}{}{}{}{}",
        &text[..a.start],
        &text[b.clone()],
        &text[a.end..b.start],
        &text[a.clone()],
        &text[b.end..]
    )
}

/// Case-folded words, one space between, padded: as the guard compares.
fn words(text: &str) -> String {
    let mut out = String::from(" ");
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Where each number of `text` stands (digits, with `,` or `.` between).
fn number_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || (matches!(bytes[i], b',' | b'.')
                    && i > start
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        spans.push(start..i);
    }
    spans
}
