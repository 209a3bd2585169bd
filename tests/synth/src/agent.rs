//! Whole agents: everything a real agent can hold at once. Typed memory of
//! every type (project, public and private), both placeholder forms,
//! conditions consistent with the declared types, rephrase flags, skill.md
//! `utter:` triggers (`on: activate` and `when:`), tool constraints with
//! `on_success`/`on_failure`/`requires_confirmation`, ordered blocks with
//! `action`/`utterance`/`collect` steps, overrides of bundled responses; and
//! skill ids, response names, entry names and categorical values chosen to
//! meet generated identifiers and Rust keywords.

use std::fmt::Write as _;

use crate::typed::typed_condition;
use crate::{Rng, SynthType, yaml_string};

/// Skill ids: plain ones, and ones spelled like generated items or keywords.
const SKILL_IDS: &[&str] = &[
    "a", "b", "w0_0", "s0", "when0_0", "type", "e0", "t0_0", "crate", "super", "fn", "r", "dyn",
    "chain0", "x-y", "impl",
];

/// Entry names: plain ones, and ones spelled like generated items or keywords.
const ENTRY_NAMES: &[&str] = &[
    "x", "n", "E0", "T0_0", "s0", "w0_0", "when0_0", "type", "self", "match", "Self", "deliver",
    "ENTRIES", "chain0", "fn", "r", "holds", "value", "kind-of",
];

/// Response names: plain ones, bundled ones (overrides), and ones spelled
/// like generated items or keywords.
const RESPONSE_NAMES: &[&str] = &[
    "utter_a",
    "utter_b",
    "utter_w0_0",
    "utter_s0",
    "utter_Self",
    "utter_type",
    "utter_when0_0",
    "utter_E0",
    "utter_T0_0",
    "utter_deliver",
    "utter_ask_wants_to_continue",
    "utter_free_chitchat_response",
    "s0",
    "w0_0",
    "T0_0",
    "Self",
    "deliver",
    "Response",
    "when0_0",
];

/// Values of categorical entries: conditions compare with `a`, `b`, `c-d`
/// (see [`crate::SYNTH_CATEGORIES`]); the rest meet generated names.
const CATEGORY_DECLARATION: &str = "[a, b, c-d, Self, None, Some, \"0\", w0_0, type]";

/// A whole synthetic agent.
#[derive(Clone, Debug)]
pub struct Agent {
    pub files: Vec<(String, String)>,
    pub skills: Vec<String>,
    /// `(namespace, name, public, type)`; `json` entries as [`SynthType::List`].
    pub entries: Vec<(String, String, bool, SynthType)>,
    pub response_names: Vec<String>,
}

/// Picks `n` distinct items of `from`.
fn distinct<'a>(rng: &mut Rng, from: &[&'a str], n: usize) -> Vec<&'a str> {
    let mut pool: Vec<&str> = from.to_vec();
    let mut out = Vec::new();
    while out.len() < n && !pool.is_empty() {
        out.push(pool.swap_remove(rng.below(pool.len())));
    }
    out
}

/// A declaration of an entry of type `ty` (a `list` entry is declared `json`
/// now and then: both are compared by truthiness only).
fn declaration(rng: &mut Rng, ty: SynthType) -> String {
    let pii = if rng.chance(15) { ", pii: true" } else { "" };
    let ty = match ty {
        SynthType::Categorical => {
            return format!("{{type: categorical, enum_values: {CATEGORY_DECLARATION}{pii}}}");
        }
        SynthType::List if rng.chance(50) => "json",
        SynthType::List => "list",
        SynthType::Int => "int",
        SynthType::Float => "float",
        SynthType::Bool => "bool",
        SynthType::Text => "text",
        SynthType::Any => "any",
    };
    format!("{{type: {ty}{pii}}}")
}

/// A text with up to four pieces, placeholders of both forms among them.
fn text(rng: &mut Rng, entries: &[(String, String, bool, SynthType)]) -> String {
    let mut text = String::new();
    for _ in 0..1 + rng.below(4) {
        if !entries.is_empty() && rng.chance(45) {
            let (ns, name, _, _) = rng.pick(entries);
            if rng.chance(65) {
                let _ = write!(text, "{{session.{ns}.{name}}} ");
            } else {
                let _ = write!(text, "{{{name}}} ");
            }
        } else {
            text.push_str(rng.pick::<&str>(&["Hello ", "fee ", "é ", "{ ", "} ", "\"q\" ", "\\ "]));
        }
    }
    text.trim_end().to_owned()
}

/// The random whole agent of `seed`.
pub fn random_agent(seed: u64) -> Agent {
    let mut rng = Rng::new(seed ^ 0xA6E7_0000_0000_0001);
    let skills: Vec<String> = {
        let n = 1 + rng.below(3);
        distinct(&mut rng, SKILL_IDS, n)
    }
    .into_iter()
    .map(str::to_owned)
    .collect();
    let mut entries = Vec::new();
    let mut files = Vec::new();
    let mut project_memory = String::new();
    for name in {
        let n = 1 + rng.below(3);
        distinct(&mut rng, ENTRY_NAMES, n)
    } {
        let ty = *rng.pick(&SynthType::ALL);
        let _ = writeln!(project_memory, "{name}: {}", declaration(&mut rng, ty));
        entries.push(("project".to_owned(), name.to_owned(), true, ty));
    }
    files.push(("memory.yml".to_owned(), project_memory));
    files.push(crate::placeholders_as_written());
    for skill in &skills {
        let (mut public, mut private) = (String::new(), String::new());
        for name in {
            let n = 1 + rng.below(5);
            distinct(&mut rng, ENTRY_NAMES, n)
        } {
            let ty = *rng.pick(&SynthType::ALL);
            let is_public = rng.chance(60);
            let _ = writeln!(
                if is_public { &mut public } else { &mut private },
                "    {name}: {}",
                declaration(&mut rng, ty)
            );
            entries.push((skill.clone(), name.to_owned(), is_public, ty));
        }
        files.push((
            format!("skills/{skill}/memory.yml"),
            crate::typed::skill_memory(&public, &private),
        ));
    }
    // Responses: each name defined once, at the root or in one skill.
    let mut response_names = Vec::new();
    let mut defined_in: Vec<(String, Option<usize>)> = Vec::new();
    for name in {
        let n = 4 + rng.below(8);
        distinct(&mut rng, RESPONSE_NAMES, n)
    } {
        let scope = rng.below(skills.len() + 1);
        defined_in.push((name.to_owned(), scope.checked_sub(1)));
    }
    let scopes: Vec<Option<usize>> = (0..skills.len()).map(Some).chain([None]).collect();
    for scope in scopes {
        let readable: Vec<&(String, String, bool, SynthType)> = entries
            .iter()
            .filter(|e| e.2 || scope.is_some_and(|s| e.0 == skills[s]))
            .collect();
        let in_text: Vec<(String, String, bool, SynthType)> =
            readable.iter().map(|e| (*e).clone()).collect();
        // Conditions cannot name `-` (the grammar has no such names).
        let readable: Vec<&(String, String, bool, SynthType)> = readable
            .into_iter()
            .filter(|e| !e.0.contains('-') && !e.1.contains('-'))
            .collect();
        let mut yaml = String::from("responses:\n");
        for (name, _) in defined_in.iter().filter(|(_, s)| *s == scope) {
            response_names.push(name.clone());
            let _ = writeln!(yaml, "  {}:", yaml_string(name));
            let conditioned = rng.below(4);
            for v in 0..=conditioned {
                let _ = writeln!(
                    yaml,
                    "    - text: {}",
                    yaml_string(&text(&mut rng, &in_text))
                );
                if v < conditioned {
                    let condition = {
                        let depth = rng.below(3);
                        typed_condition(&mut rng, &readable, depth)
                    };
                    let _ = writeln!(yaml, "      condition: {}", yaml_string(&condition));
                }
                if rng.chance(25) {
                    let _ = writeln!(
                        yaml,
                        "      metadata:\n        rephrase: {}",
                        rng.chance(70)
                    );
                }
            }
        }
        let path = match scope {
            Some(s) => format!("skills/{}/responses.yml", skills[s]),
            None => "responses.yml".to_owned(),
        };
        files.push((path, yaml));
    }
    let utterable: Vec<&String> = response_names
        .iter()
        .filter(|n| n.starts_with("utter_"))
        .collect();
    for (index, skill) in skills.iter().enumerate() {
        let own: Vec<&(String, String, bool, SynthType)> = entries
            .iter()
            .filter(|e| (e.2 || e.0 == *skill) && !e.0.contains('-') && !e.1.contains('-'))
            .collect();
        let skill_md = skill_md(&mut rng, index, &utterable, &own, skill);
        files.push((format!("skills/{skill}/skill.md"), skill_md));
    }
    response_names.sort();
    Agent {
        files,
        skills,
        entries,
        response_names,
    }
}

/// A skill.md naming responses of `utterable` in every way it can.
fn skill_md(
    rng: &mut Rng,
    index: usize,
    utterable: &[&String],
    readable: &[&(String, String, bool, SynthType)],
    skill: &str,
) -> String {
    let mut front = format!("---\ndescription: skill {index}\n");
    if utterable.is_empty() {
        return front + "---\nBody.\n";
    }
    let mut triggers = String::new();
    let mut seen = Vec::new();
    for _ in 0..rng.below(4) {
        let name = *rng.pick(utterable);
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let _ = writeln!(triggers, "  - {name}:");
        let activate = rng.chance(40);
        if activate {
            triggers.push_str("      on: activate\n");
        }
        if !activate || rng.chance(30) {
            let condition = {
                let depth = rng.below(3);
                typed_condition(rng, readable, depth)
            };
            let _ = writeln!(triggers, "      when: {}", yaml_string(&condition));
        }
    }
    if !triggers.is_empty() {
        let _ = write!(front, "utter:\n{triggers}");
    }
    if rng.chance(70) {
        front.push_str("tool_constraints:\n");
        for tool in 0..1 + rng.below(2) {
            let _ = writeln!(front, "  - tool_{tool}:");
            if rng.chance(60) {
                let _ = writeln!(front, "      on_success: {}", rng.pick(utterable));
            }
            if rng.chance(50) {
                let _ = writeln!(front, "      on_failure: {}", rng.pick(utterable));
            }
            if rng.chance(50) {
                let _ = writeln!(
                    front,
                    "      requires_confirmation:\n        enabled: true\n        utter_for_confirmation: {}\n        utter_on_user_denial: {}",
                    rng.pick(utterable),
                    rng.pick(utterable)
                );
            }
            if rng.chance(30) {
                front.push_str("      requires: \"True\"\n");
            }
        }
    }
    front.push_str("---\n\nBody.\n");
    if rng.chance(70) {
        let own: Vec<&&(String, String, bool, SynthType)> =
            readable.iter().filter(|e| e.0 == skill).collect();
        let mut block = String::from("\n:::ordered_block id=flow\nsteps:\n");
        let _ = writeln!(block, "  - id: say\n    action: {}", rng.pick(utterable));
        if let Some((_, entry, _, _)) = own.first().map(|e| **e) {
            let _ = writeln!(
                block,
                "  - id: ask\n    collect: {entry}\n    description: what to ask\n    utterance: {}",
                rng.pick(utterable)
            );
        }
        let _ = writeln!(
            block,
            "  - id: again\n    utter: {}\n    next: END",
            rng.pick(utterable)
        );
        block.push_str(":::\n");
        front.push_str(&block);
    }
    front
}
