//! Differential test: for random registries and random memories, the
//! generated selectors and the interpreter deliver the same text, variant,
//! rephrase flag and fallback flag. A failure prints its seeds.

use utter::{Context, Delivery, Entry, MapMemory, SlotMemory, Value};
use utter_compiler::codegen::Strategy;
use utter_synth::{Rng, random_project, random_typed_project, random_typed_value, random_value};
use utter_tests::registry;

/// One compiled synthetic registry.
pub struct Synth {
    pub seed: u64,
    /// Straight-line code or the compact form.
    pub form: Strategy,
    pub deliver_name: for<'n, 'c, 'm> fn(&'n str, &'c Context<'m>) -> Delivery<'n>,
    pub entries: &'static [Entry],
}

/// What a typed registry's glue returns: which writes the typed memory
/// accepted, and per name text, variant, rephrase and fallback.
pub type TypedRun = (
    Vec<bool>,
    Vec<(String, Option<usize>, bool, bool, Option<utter::WordingId>)>,
);

/// Writes to make: `(namespace, entry, value)`.
pub type Assignments = [(String, String, Value)];

/// One compiled typed synthetic registry.
pub struct TypedSynth {
    pub seed: u64,
    pub form: Strategy,
    pub run: fn(&Assignments, Option<&str>, &[String]) -> TypedRun,
}

include!(concat!(env!("OUT_DIR"), "/synth_registries.rs"));

/// Memories tried per registry.
const MEMORIES: usize = 60;

#[test]
fn generated_selectors_agree_with_the_interpreter() {
    let mut cases = 0usize;
    // How often a conditioned variant won, and how often text was filled in:
    // the comparison must exercise selection and interpolation, not just defaults.
    let mut conditioned_wins = 0usize;
    let mut interpolated = 0usize;
    for synth in SYNTH {
        let project = random_project(synth.seed);
        let files: Vec<(&str, &str)> = project
            .files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let interpreted = registry(&files);
        let interpreter = interpreted.interpreter();
        let table: Vec<(&str, &str)> = interpreted
            .entries
            .iter()
            .map(|e| (e.namespace.as_str(), e.name.as_str()))
            .collect();
        let generated: Vec<(&str, &str)> = synth
            .entries
            .iter()
            .map(|e| (e.namespace, e.name))
            .collect();
        assert_eq!(
            table, generated,
            "registry {}: entry tables differ",
            synth.seed
        );

        let mut rng = Rng::new(synth.seed.wrapping_mul(7919).wrapping_add(1));
        for memory_seed in 0..MEMORIES {
            let mut map = MapMemory::new();
            let mut slots = SlotMemory::new(synth.entries);
            for entry in &project.entries {
                if let Some(value) = random_value(&mut rng).to_value() {
                    map.set(&entry.namespace, &entry.name, value.clone());
                    slots
                        .set(&entry.namespace, &entry.name, value)
                        .expect("declared entry");
                }
            }
            let skill = match rng.below(project.skills.len() + 2) {
                0 => None,
                1 => Some("not_a_skill".to_owned()),
                i => Some(project.skills[i - 2].clone()),
            };
            // Views of a skill the agent does not have are refused; the
            // test of that view reads through a known skill list that has it.
            let known: Vec<String> = project
                .skills
                .iter()
                .cloned()
                .chain(["not_a_skill".to_owned()])
                .collect();
            let ctx_map = match &skill {
                Some(s) => Context::for_skill_id(&map, s, &known).unwrap(),
                None => Context::new(&map),
            };
            let ctx_slots = match &skill {
                Some(s) => Context::for_skill_id(&slots, s, &known).unwrap(),
                None => Context::new(&slots),
            };
            let names = project
                .response_names
                .iter()
                .map(String::as_str)
                .chain(["utter_missing"]);
            for name in names {
                let want = interpreter.deliver(name, &ctx_map);
                let got = (synth.deliver_name)(name, &ctx_slots);
                let got_map = (synth.deliver_name)(name, &ctx_map);
                let shape = |d: &Delivery<'_>| {
                    (
                        d.text.to_string(),
                        d.variant,
                        d.rephrase,
                        d.fallback,
                        d.wording,
                    )
                };
                assert_eq!(
                    shape(&got),
                    shape(&want),
                    "registry seed {} ({:?}), memory {memory_seed}, skill {skill:?}, response {name:?}",
                    synth.seed,
                    synth.form
                );
                assert_eq!(
                    shape(&got_map),
                    shape(&want),
                    "map memory, registry seed {} ({:?}), memory {memory_seed}",
                    synth.seed,
                    synth.form
                );
                cases += 1;
                let response = interpreted.response(name);
                if let (Some(r), Some(v)) = (response, want.variant) {
                    if r.variants[v].condition.is_some() {
                        conditioned_wins += 1;
                    }
                    if want.text != r.variants[v].text {
                        interpolated += 1;
                    }
                }
            }
        }
    }
    // 6 registries at test scale 1, 24 in CI (`utter_synth::test_scale`).
    assert!(
        cases >= 2_500 * utter_synth::test_scale() as usize,
        "only {cases} cases ran"
    );
    assert!(
        conditioned_wins * 10 > cases,
        "{conditioned_wins} of {cases} chose a conditioned variant"
    );
    assert!(
        interpolated * 10 > cases,
        "{interpolated} of {cases} interpolated"
    );
    println!(
        "{cases} deliveries compared; {conditioned_wins} conditioned wins, {interpolated} interpolated"
    );
}

/// Typed registries and random typed memories: the typed view, `Context`
/// over the typed memory, and the interpreter over a `SlotMemory` agree on
/// every delivery, and the typed memory and `SlotMemory` accept and refuse
/// the same writes.
#[test]
fn typed_deliveries_agree_with_the_interpreter() {
    let mut cases = 0usize;
    let mut refused = 0usize;
    let mut conditioned_wins = 0usize;
    for synth in TYPED {
        let project = random_typed_project(synth.seed);
        let files: Vec<(&str, &str)> = project
            .files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let interpreted = registry(&files);
        let interpreter = interpreted.interpreter();
        let mut rng = Rng::new(synth.seed.wrapping_mul(104_729).wrapping_add(3));
        let mut names = project.response_names.clone();
        names.push("utter_missing".to_owned());
        for memory_seed in 0..MEMORIES {
            let mut assign = Vec::new();
            for (ns, name, _, ty) in &project.entries {
                match random_typed_value(&mut rng, *ty).to_value() {
                    Some(value) => assign.push((ns.clone(), name.clone(), value)),
                    None => continue,
                }
            }
            let mut slots = SlotMemory::new(&interpreted.entries);
            let accepted: Vec<bool> = assign
                .iter()
                .map(|(ns, name, value)| slots.set(ns, name, value.clone()).is_ok())
                .collect();
            refused += accepted.iter().filter(|ok| !**ok).count();
            let skill = match rng.below(project.skills.len() + 1) {
                0 => None,
                i => Some(project.skills[i - 1].as_str()),
            };
            let (typed_accepted, outcomes) = (synth.run)(&assign, skill, &names);
            assert_eq!(
                typed_accepted, accepted,
                "typed registry {} ({:?}), memory {memory_seed}: writes accepted differently",
                synth.seed, synth.form
            );
            let ctx = match skill {
                Some(s) => Context::for_skill_id(&slots, s, &interpreted.skills).unwrap(),
                None => Context::new(&slots),
            };
            for (name, got) in names.iter().zip(&outcomes) {
                let want = interpreter.deliver(name, &ctx);
                let want = (
                    want.text.to_string(),
                    want.variant,
                    want.rephrase,
                    want.fallback,
                    want.wording,
                );
                assert_eq!(
                    got, &want,
                    "typed registry {}, memory {memory_seed}, skill {skill:?}, response {name:?}",
                    synth.seed
                );
                if let (Some(r), Some(v)) = (interpreted.response(name), want.1)
                    && r.variants[v].condition.is_some()
                {
                    conditioned_wins += 1;
                }
                cases += 1;
            }
        }
    }
    let scale = utter_synth::test_scale() as usize;
    assert!(cases >= 1_250 * scale, "only {cases} cases ran");
    assert!(refused > 25 * scale, "only {refused} writes were refused");
    assert!(
        conditioned_wins * 10 > cases,
        "{conditioned_wins} of {cases} chose a conditioned variant"
    );
    println!("{cases} typed deliveries compared; {refused} writes refused alike");
}

#[test]
fn hashed_name_lookup_finds_every_response_and_nothing_else() {
    let n = utter_compiler::codegen::MATCH_LOOKUP_MAX + 44;
    assert!(scaled::Response::COUNT >= n && n > utter_compiler::codegen::MATCH_LOOKUP_MAX);
    for (index, &response) in scaled::Response::ALL.iter().enumerate() {
        assert_eq!(
            scaled::Response::from_name(response.name()),
            Some(response),
            "#{index}"
        );
    }
    for missing in [
        "",
        "utter_scaled_",
        "utter_scaled_99999",
        "utter_scaled_1x",
        "UTTER_SCALED_1",
    ] {
        assert_eq!(scaled::Response::from_name(missing), None, "{missing:?}");
    }
    let memory = scaled::memory();
    let ctx = Context::new(&memory);
    let d = scaled::deliver_name("utter_scaled_7", &ctx);
    assert!(!d.fallback && d.text.starts_with("Response 7"), "{d:?}");
}

/// The widest condition of `$agent` holds for 127 and not for 128.
macro_rules! widest_condition_holds {
    ($agent:ident) => {{
        let mut memory = $agent::Memory::new();
        let deliver = |memory: &$agent::Memory| {
            memory
                .view($agent::Skill::S)
                .deliver($agent::Response::UtterWide)
                .text
                .into_owned()
        };
        memory.s.n = Some(127);
        assert_eq!(deliver(&memory), "wide");
        memory.s.n = Some(128);
        assert_eq!(deliver(&memory), "narrow");
    }};
}

#[test]
fn the_widest_condition_compiles_and_holds() {
    widest_condition_holds!(wide);
}

#[test]
fn the_widest_condition_compiles_and_holds_in_compact_form() {
    widest_condition_holds!(wide_compact);
}
