//! Every random whole agent `utter check` accepts compiled (the build would
//! have failed otherwise) through `include_responses!` and `utter_build`, in
//! straight-line and compact form; here each module delivers like the
//! interpreter for random memories and skill views, and lists the same
//! skill.md references with the same `when:` outcomes. Failures name the
//! agent's seed (`utter_synth::random_agent(seed)`).

use std::collections::BTreeMap;

use utter::{Context, SlotMemory, Value};
use utter_agent_tests::{AGENTS, COMPILED, REJECTED, Run};
use utter_compiler::{ProjectFiles, Registry, check, lower};
use utter_synth::{Rng, SynthValue, random_agent, random_typed_value};

/// Memories tried per compiled module.
const MEMORIES: usize = 40;

fn to_value(v: &SynthValue) -> Option<Value> {
    Some(match v {
        SynthValue::Unset => return None,
        SynthValue::None => Value::None,
        SynthValue::Bool(b) => Value::Bool(*b),
        SynthValue::Int(i) => Value::Int(*i),
        SynthValue::Float(f) => Value::Float(*f),
        SynthValue::Str(s) => Value::from(*s),
        SynthValue::List(items) => Value::List(items.iter().filter_map(to_value).collect()),
    })
}

fn registry(seed: u64) -> Registry {
    let agent = random_agent(seed);
    let files = ProjectFiles::from_files(
        agent
            .files
            .iter()
            .map(|(p, t)| (p.clone(), t.clone().into_bytes())),
    );
    lower(&check(&files))
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
    let deliveries = names
        .iter()
        .map(|name| {
            let d = registry.deliver(name, &ctx);
            (d.text.into_owned(), d.variant, d.rephrase, d.fallback)
        })
        .collect();
    let references = skill
        .and_then(|s| registry.skill_refs(s))
        .map(|refs| {
            let name = |i: usize| registry.responses[i].name.clone();
            let option = |r: Option<usize>| r.map_or("-".to_owned(), name);
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
    for compiled in COMPILED {
        let seed = compiled.seed;
        let registry = registries.entry(seed).or_insert_with(|| registry(seed));
        let agent = random_agent(seed);
        let mut names = agent.response_names.clone();
        names.extend(registry.responses.iter().map(|r| r.name.clone()));
        names.push("utter_missing".to_owned());
        let mut rng = Rng::new(seed.wrapping_mul(7_919).wrapping_add(11));
        for memory in 0..MEMORIES {
            let assign: Vec<(String, String, Value)> = agent
                .entries
                .iter()
                .filter_map(|(ns, name, _, ty)| {
                    to_value(&random_typed_value(&mut rng, *ty))
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
            conditioned += want
                .deliveries
                .iter()
                .zip(&names)
                .filter(|((_, variant, _, _), name)| {
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
