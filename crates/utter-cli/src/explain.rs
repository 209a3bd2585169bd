//! `utter explain` (what each variant of a response needs to be delivered,
//! from the variant analysis) and `utter render --explain` (why the given
//! memory delivers what it delivers).

use serde_json::{Value as Json, json};
use utter::{Context, SlotMemory, Value};
use utter_compiler::Registry;
use utter_compiler::analysis::{self, Verdict, Why, Witness};
use utter_compiler::diagnostics::escape::escape;

/// One variant's verdict, as `explain` shows it.
pub struct Explained {
    pub index: usize,
    pub condition: Option<String>,
    pub default: bool,
    pub verdict: &'static str,
    pub reason: Option<String>,
    /// The witness memory as a memory document, ready for `render --memory`.
    pub witness: Option<Json>,
    /// The witness as people read it (`session.ns.entry = value`, ...).
    pub witness_shown: Option<String>,
    /// The text that memory delivers.
    pub text: Option<String>,
    pub rephrase: bool,
}

/// A witness as a memory document `{"<ns>": {"<entry>": value}}`.
pub fn witness_json(registry: &Registry, witness: &Witness) -> Json {
    let mut doc = serde_json::Map::new();
    for (id, value) in &witness.0 {
        let e = &registry.entries[*id];
        let ns = doc
            .entry(e.namespace.clone())
            .or_insert_with(|| Json::Object(serde_json::Map::new()));
        if let Json::Object(entries) = ns {
            entries.insert(e.name.clone(), value_json(value));
        }
    }
    Json::Object(doc)
}

fn value_json(value: &Value) -> Json {
    serde_json::to_value(value).unwrap_or(Json::Null)
}

/// What `witness` delivers for response `name` in `view`.
fn delivered(registry: &Registry, name: &str, view: Option<&str>, witness: &Witness) -> String {
    let mut memory = SlotMemory::new(&registry.entries);
    for (id, value) in &witness.0 {
        let e = &registry.entries[*id];
        let _ = memory.set(&e.namespace, &e.name, value.clone());
    }
    let ctx = match view {
        Some(skill) => Context::for_skill_id(&memory, skill, &registry.skills)
            .unwrap_or_else(|_| Context::new(&memory)),
        None => Context::new(&memory),
    };
    registry.deliver(name, &ctx).text.into_owned()
}

/// Every variant of response number `index` under `view`, explained.
pub fn explain(registry: &Registry, index: usize, view: Option<&str>) -> (usize, Vec<Explained>) {
    let response = &registry.responses[index];
    let analysis = analysis::analyse(registry, index, view);
    let explained = analysis
        .variants
        .iter()
        .enumerate()
        .map(|(i, verdict)| {
            let variant = &response.variants[i];
            let (verdict_name, reason, witness) = match verdict {
                Verdict::Reachable(w) => ("reachable", None, Some(w)),
                Verdict::Unreachable(why) => {
                    ("unreachable", Some(reason(registry, &analysis, why)), None)
                }
                Verdict::Undecided(why) => ("undecided", Some(why.clone()), None),
            };
            Explained {
                index: i,
                condition: variant.condition_text.clone(),
                default: response.default == Some(i),
                verdict: verdict_name,
                reason,
                witness: witness.map(|w| witness_json(registry, w)),
                witness_shown: witness.map(|w| analysis::describe_witness(&registry.entries, w)),
                text: witness.map(|w| delivered(registry, &response.name, view, w)),
                rephrase: variant.rephrase,
            }
        })
        .collect();
    (analysis.states, explained)
}

fn reason(registry: &Registry, analysis: &analysis::ResponseAnalysis, why: &Why) -> String {
    match why {
        Why::NeverTrue { error: Some(e) } => {
            format!("its condition is an error for every value its entries can hold ({e})")
        }
        Why::NeverTrue { error: None } => {
            "its condition is never true for the values its entries can hold".to_owned()
        }
        Why::Shadowed(by) => {
            let parts: Vec<String> = by
                .iter()
                .map(|v| match &analysis.variants[*v] {
                    Verdict::Reachable(w) => format!(
                        "variant {v} (delivered, e.g., when {})",
                        analysis::describe_witness(&registry.entries, w)
                    ),
                    _ => format!("variant {v}"),
                })
                .collect();
            format!("shadowed by {}", parts.join(" and "))
        }
        Why::Covered => "a condition above it holds for every value memory can hold".to_owned(),
        Why::NotTheDefault => {
            "no variant has a condition, so the first is always delivered".to_owned()
        }
    }
}

/// `explain` as people read it.
pub fn human(registry: &Registry, index: usize, view: Option<&str>) -> String {
    let response = &registry.responses[index];
    let (states, variants) = explain(registry, index, view);
    let shown_view = view.map_or("no skill active".to_owned(), |s| {
        format!("skill `{s}` active")
    });
    let mut out = format!(
        "{} ({}:{}), {shown_view}: {states} memory states examined\n",
        response.name, response.file, response.line
    );
    for v in variants {
        let when = match (&v.condition, v.default) {
            (Some(c), _) => format!("if `{c}`"),
            (None, true) => "default".to_owned(),
            (None, false) => "without condition".to_owned(),
        };
        let rephrase = if v.rephrase { " (rephrased)" } else { "" };
        out.push_str(&format!("\n  variant {} {when}{rephrase}\n", v.index));
        match (v.verdict, &v.witness, &v.reason) {
            ("reachable", Some(w), _) => {
                let shown = v.witness_shown.as_deref().unwrap_or_default();
                out.push_str(&format!("    delivered when: {shown}\n    memory: {w}\n"));
                if let Some(text) = &v.text {
                    out.push_str(&format!("    text: {text}\n"));
                }
            }
            ("unreachable", _, Some(reason)) => {
                out.push_str(&format!("    never delivered: {reason}\n"));
            }
            (_, _, reason) => out.push_str(&format!(
                "    undecided: {}\n",
                reason.as_deref().unwrap_or("")
            )),
        }
    }
    escape_lines(&out)
}

/// Every line of `text` escaped (data from the agent in each).
fn escape_lines(text: &str) -> String {
    text.lines()
        .map(|l| escape(l).into_owned() + "\n")
        .collect()
}

/// `explain` as JSON: one object per variant.
pub fn json(registry: &Registry, index: usize, view: Option<&str>) -> Json {
    let response = &registry.responses[index];
    let (states, variants) = explain(registry, index, view);
    json!({
        "response": response.name,
        "file": response.file,
        "line": response.line,
        "skill": view,
        "states": states,
        "variants": variants.iter().map(|v| json!({
            "index": v.index,
            "condition": v.condition,
            "default": v.default,
            "verdict": v.verdict,
            "reason": v.reason,
            "skill": view,
            "witness": v.witness,
            "text": v.text,
            "rephrase": v.rephrase,
        })).collect::<Vec<_>>(),
    })
}

/// `render --explain`: each condition's outcome for `ctx` and why the
/// delivered variant won.
pub fn why_delivered(registry: &Registry, name: &str, ctx: &Context<'_>) -> String {
    let Some(response) = registry.response(name) else {
        return escape_lines(&format!(
            "`{name}` is not a response of the agent: its name is delivered\n"
        ));
    };
    let mut out = String::new();
    let mut winner = None;
    for (i, variant) in response.variants.iter().enumerate() {
        let Some(condition) = &variant.condition else {
            continue;
        };
        let shown = variant.condition_text.as_deref().unwrap_or("");
        let outcome = match registry.eval(condition, ctx) {
            Ok(true) => {
                winner.get_or_insert(i);
                "true".to_owned()
            }
            Ok(false) => "false".to_owned(),
            Err(e) => format!("error ({e}): the variant is skipped"),
        };
        let skipped = if winner.is_some_and(|w| w < i) {
            " (not evaluated at delivery: an earlier variant won)"
        } else {
            ""
        };
        out.push_str(&format!("variant {i} `{shown}`: {outcome}{skipped}\n"));
    }
    let verdict = match (winner, response.default) {
        (Some(w), _) => format!("delivered: variant {w}, the first whose condition is true"),
        (None, Some(d)) => format!("delivered: variant {d}, the default (no condition is true)"),
        (None, None) => {
            "delivered: the response name (no condition is true and there is no default)".to_owned()
        }
    };
    out.push_str(&verdict);
    out.push('\n');
    escape_lines(&out)
}
