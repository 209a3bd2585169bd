//! What the benchmarks compare, on the same registry and memory:
//! (a) the generated selector, (b) utter's interpreter, (c) a plausible
//! hand-written alternative (a `HashMap` of variants loaded from YAML at
//! start-up, with minijinja rendering texts and evaluating conditions), and
//! (d) a bare `match name { .. => "literal" }` as the floor.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use saphyr::{LoadableYamlNode, Yaml};

pub mod hand;

/// Generated code for the benchmark agents.
#[allow(clippy::all, dead_code, unused)]
pub mod generated {
    pub mod bench {
        include!(concat!(env!("OUT_DIR"), "/gen_bench.rs"));
    }
    pub mod typed {
        include!(concat!(env!("OUT_DIR"), "/gen_typed.rs"));
    }
    /// The typed agent in compact form (data walked by the evaluator).
    pub mod typed_compact {
        include!(concat!(env!("OUT_DIR"), "/gen_typed_compact.rs"));
    }
    pub mod n10 {
        include!(concat!(env!("OUT_DIR"), "/gen_n10.rs"));
    }
    pub mod n100 {
        include!(concat!(env!("OUT_DIR"), "/gen_n100.rs"));
    }
    pub mod n1000 {
        include!(concat!(env!("OUT_DIR"), "/gen_n1000.rs"));
    }
    /// Straight-line by the build budget, `select` in two parts.
    pub mod n1500 {
        include!(concat!(env!("OUT_DIR"), "/gen_n1500.rs"));
    }
    pub mod n10000 {
        include!(concat!(env!("OUT_DIR"), "/gen_n10000.rs"));
    }
}

/// The folder of a benchmark agent (`bench`, `n10`, ..., `n10000`).
pub fn agent_dir(name: &str) -> PathBuf {
    Path::new(env!("OUT_DIR")).join("agents").join(name)
}

/// The delivery cases: a response name each (the last is not defined).
pub const CASES: &[(&str, &str)] = &[
    ("literal", "utter_literal"),
    ("first_true", "utter_first_true"),
    ("last_true", "utter_last_true"),
    ("default_after_10", "utter_default_after_10"),
    ("error_skipped", "utter_error_skipped"),
    ("three_placeholders", "utter_three_placeholders"),
    ("missing_name", "utter_missing"),
];

/// The memory every case runs with: `(namespace, entry, value)`.
pub fn bench_values() -> Vec<(&'static str, &'static str, utter::Value)> {
    vec![
        ("bench", "reason", "lost".into()),
        ("bench", "card", "Visa ending 4242".into()),
        ("bench", "count", 3.into()),
        ("bench", "fee", 2.5.into()),
    ]
}

/// The typed memory of the bench cases, for either form of the agent.
macro_rules! typed_memory_of {
    ($agent:ident) => {{
        use generated::$agent::{Memory, Reason};
        let mut memory = Memory::new();
        memory.bench.reason = Some(Reason::Lost);
        memory.bench.card = Some("Visa ending 4242".into());
        memory.bench.count = Some(3);
        memory.bench.fee = Some(2.5);
        memory.bench.note = Some("x".into());
        memory
    }};
}

/// The typed memory of the `typed` agent, holding what [`bench_values`]
/// holds (and a string in the `any` entry the error case orders).
pub fn typed_memory() -> generated::typed::Memory {
    typed_memory_of!(typed)
}

/// [`typed_memory`] for the compact form of the same agent.
pub fn typed_compact_memory() -> generated::typed_compact::Memory {
    typed_memory_of!(typed_compact)
}

/// The typed agent's response for a case (`None`: the missing name).
pub fn typed_response(case: &str) -> Option<generated::typed::Response> {
    let name = CASES.iter().find(|(c, _)| *c == case)?.1;
    generated::typed::Response::from_name(name)
}

/// [`typed_response`] in the compact form of the agent.
pub fn typed_compact_response(case: &str) -> Option<generated::typed_compact::Response> {
    let name = CASES.iter().find(|(c, _)| *c == case)?.1;
    generated::typed_compact::Response::from_name(name)
}

/// The floor: what a response costs when it is a string constant.
pub fn floor(name: &str) -> &str {
    match name {
        "utter_literal" => "Thanks for calling. Goodbye!",
        "utter_first_true" => "First condition holds.",
        "utter_last_true" => "Last condition holds.",
        "utter_default_after_10" => "Default after ten false conditions.",
        "utter_error_skipped" => "The next condition holds.",
        "utter_three_placeholders" => "Card Visa ending 4242, reason lost, fee 2.5.",
        other => other,
    }
}

/// A generated `deliver_name`.
pub type Deliver = for<'n, 'c, 'm> fn(&'n str, &'c utter::Context<'m>) -> utter::Delivery<'n>;

/// The generated code of the N-response agent (N = 10, 100, 1,000, 10,000).
pub fn generated_for(n: usize) -> Option<(Deliver, &'static [utter::Entry])> {
    match n {
        10 => Some((generated::n10::deliver_name, &generated::n10::ENTRIES)),
        100 => Some((generated::n100::deliver_name, &generated::n100::ENTRIES)),
        1_000 => Some((generated::n1000::deliver_name, &generated::n1000::ENTRIES)),
        1_500 => Some((generated::n1500::deliver_name, &generated::n1500::ENTRIES)),
        10_000 => Some((generated::n10000::deliver_name, &generated::n10000::ENTRIES)),
        _ => None,
    }
}

/// A response in the middle of an N-response agent; with [`scaled_values`]
/// its second variant holds and its text has two placeholders.
pub fn scaled_name(n: usize) -> String {
    format!("utter_scaled_{}", n / 2)
}

/// The memory the scaled agents are delivered with.
pub fn scaled_values() -> Vec<(&'static str, &'static str, utter::Value)> {
    vec![
        ("bench", "reason", "lost".into()),
        ("bench", "count", 1.into()),
        ("bench", "name", "Ada".into()),
    ]
}

/// A variant as read from YAML: text and condition.
type RawVariant = (String, Option<String>);

/// One variant as the hand-written alternative holds it.
struct JinjaVariant {
    template: String,
    condition: Option<minijinja::Expression<'static, 'static>>,
}

/// The alternative a Rust user might write instead of utter: variants loaded
/// from YAML into a `HashMap` at start-up; conditions compiled as minijinja
/// expressions, texts rendered as minijinja templates.
pub struct JinjaRegistry {
    env: &'static minijinja::Environment<'static>,
    responses: HashMap<String, Vec<JinjaVariant>>,
}

/// `{session.a.b}` / `{b}` placeholders as Jinja `{{ ... }}`.
fn to_jinja(text: &str) -> String {
    use utter_compiler::template::{RawPiece, scan};
    scan(text)
        .into_iter()
        .map(|piece| match piece {
            RawPiece::Text(t) => t,
            RawPiece::Session { reference, .. } => format!("{{{{ session.{reference} }}}}"),
            RawPiece::Bare { name, .. } => format!("{{{{ {name} }}}}"),
        })
        .collect()
}

impl JinjaRegistry {
    /// Loads every `responses.yml` of the agent folder (skills, then root).
    pub fn load(dir: &Path) -> Self {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("skills"))
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.path().join("responses.yml"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files.push(dir.join("responses.yml"));
        // Leaked once at start-up: expressions borrow the environment.
        let env: &'static mut minijinja::Environment<'static> =
            Box::leak(Box::new(minijinja::Environment::new()));
        let mut sources: Vec<(String, Vec<RawVariant>)> = Vec::new();
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let docs = Yaml::load_from_str(&text).expect("valid YAML");
            let Some(responses) = docs
                .first()
                .and_then(|d| d.as_mapping_get("responses"))
                .and_then(|r| r.as_mapping())
            else {
                continue;
            };
            for (name, variants) in responses {
                let name = name.as_str().expect("string name").to_owned();
                let variants = variants
                    .as_sequence()
                    .expect("a list of variants")
                    .iter()
                    .map(|v| match v.as_str() {
                        Some(text) => (text.to_owned(), None),
                        None => (
                            v.as_mapping_get("text")
                                .and_then(|t| t.as_str())
                                .unwrap_or("")
                                .to_owned(),
                            v.as_mapping_get("condition")
                                .and_then(|c| c.as_str())
                                .map(str::to_owned),
                        ),
                    })
                    .collect();
                sources.push((name, variants));
            }
        }
        for (name, variants) in &sources {
            for (i, (text, _)) in variants.iter().enumerate() {
                env.add_template_owned(format!("{name}#{i}"), to_jinja(text))
                    .expect("valid template");
            }
        }
        let env: &'static minijinja::Environment<'static> = env;
        let responses = sources
            .into_iter()
            .map(|(name, variants)| {
                let variants = variants
                    .into_iter()
                    .enumerate()
                    .map(|(i, (_, condition))| JinjaVariant {
                        template: format!("{name}#{i}"),
                        condition: condition
                            .map(|c| env.compile_expression_owned(c).expect("valid expression")),
                    })
                    .collect();
                (name, variants)
            })
            .collect();
        JinjaRegistry { env, responses }
    }

    /// The context for `values`, seen from skill `skill`: `session.<ns>.<entry>`
    /// plus the skill's own entries at the top level for `{entry}`.
    pub fn context(values: &[(&str, &str, utter::Value)], skill: &str) -> minijinja::Value {
        fn convert(v: &utter::Value) -> minijinja::Value {
            match v {
                utter::Value::None => minijinja::Value::from(()),
                utter::Value::Bool(b) => (*b).into(),
                utter::Value::Int(i) => (*i).into(),
                utter::Value::Float(f) => (*f).into(),
                utter::Value::Str(s) => s.as_str().into(),
                utter::Value::List(items) => items.iter().map(convert).collect::<Vec<_>>().into(),
                utter::Value::Map(pairs) => pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), convert(v)))
                    .collect::<BTreeMap<_, _>>()
                    .into(),
            }
        }
        let mut session: BTreeMap<String, BTreeMap<String, minijinja::Value>> = BTreeMap::new();
        let mut top: BTreeMap<String, minijinja::Value> = BTreeMap::new();
        for (ns, entry, value) in values {
            session
                .entry((*ns).to_owned())
                .or_default()
                .insert((*entry).to_owned(), convert(value));
            if *ns == skill {
                top.insert((*entry).to_owned(), convert(value));
            }
        }
        top.insert(
            "session".to_owned(),
            minijinja::Value::from_serialize(&session),
        );
        minijinja::Value::from(top)
    }

    /// Delivers `name`: the first conditioned variant that holds, else the
    /// first unconditioned one, else the name.
    pub fn deliver(&self, name: &str, ctx: &minijinja::Value) -> String {
        let Some(variants) = self.responses.get(name) else {
            return name.to_owned();
        };
        let chosen = variants
            .iter()
            .find(|v| {
                v.condition
                    .as_ref()
                    .is_some_and(|c| c.eval(ctx).is_ok_and(|r| r.is_true()))
            })
            .or_else(|| variants.iter().find(|v| v.condition.is_none()));
        match chosen {
            Some(v) => self
                .env
                .get_template(&v.template)
                .and_then(|t| t.render(ctx))
                .unwrap_or_else(|_| name.to_owned()),
            None => name.to_owned(),
        }
    }
}
