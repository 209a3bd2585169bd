//! `utter explain` (what each variant of a response needs to be delivered,
//! from the variant analysis) and `utter render --explain` (why the given
//! memory delivers what it delivers).

use serde_json::{Value as Json, json};
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use utter_compiler::Registry;
use utter_compiler::analysis::Witness;
use utter_compiler::diagnostics::did_you_mean_hint;
use utter_compiler::diagnostics::escape::escape;
use utter_compiler::snapshot;

use crate::args::{Globals, RenderFormat};
use crate::fatal::Fatal;
use crate::open::{known_skill, open, registry_or_report};

/// A witness as a memory document `{"<ns>": {"<entry>": value}}`, ready
/// for `render --memory`; `None` when it holds a float JSON cannot write
/// (NaN, an infinity): such a state is described in words instead.
pub fn witness_json(registry: &Registry, witness: &Witness) -> Option<Json> {
    memory_document(witness.0.iter().map(|(id, value)| {
        let e = &registry.entries[*id];
        (e.namespace.as_str(), e.name.as_str(), value)
    }))
}

/// Entries set, `(namespace, entry, value)`, as a memory document (see
/// [`witness_json`]).
pub fn memory_document<'a>(
    state: impl IntoIterator<Item = (&'a str, &'a str, &'a utter::Value)>,
) -> Option<Json> {
    let mut doc = serde_json::Map::new();
    for (namespace, entry, value) in state {
        if matches!(value, utter::Value::Float(f) if !f.is_finite()) {
            return None;
        }
        if let Json::Object(entries) = doc
            .entry(namespace.to_owned())
            .or_insert_with(|| Json::Object(serde_json::Map::new()))
        {
            entries.insert(
                entry.to_owned(),
                serde_json::to_value(value).unwrap_or(Json::Null),
            );
        }
    }
    Some(Json::Object(doc))
}

/// A witness as JSON: `witness` (the memory document) when JSON can hold
/// it, and `witness_in_words` always.
fn witness_fields(registry: &Registry, witness: &Witness) -> serde_json::Map<String, Json> {
    let mut fields = serde_json::Map::new();
    if let Some(doc) = witness_json(registry, witness) {
        fields.insert("witness".into(), doc);
    }
    fields.insert(
        "witness_in_words".into(),
        Json::String(utter_compiler::analysis::describe_witness(
            &registry.entries,
            witness,
        )),
    );
    fields
}

/// `explain` as people read it. Every string from the agent is escaped
/// where it is put in, so none starts a line of its own.
pub fn human(registry: &Registry, index: usize, view: Option<&str>) -> String {
    let data = |text: &str| escape(text).into_owned();
    let response = &registry.responses[index];
    let shown = snapshot::response_view(registry, index, view);
    let states = shown.states;
    let shown_view = view.map_or("no skill active".to_owned(), |s| {
        format!("skill `{}` active", data(s))
    });
    let mut out = format!(
        "{} ({}:{}), {shown_view}: {states} memory states examined\n",
        data(&response.name),
        data(&response.file),
        response.line
    );
    if let Some(why) = &shown.stopped {
        out.push_str(&format!("  {}\n", data(why)));
    }
    for v in &shown.variants {
        let when = v.selection().label(|c| match v.condition_words() {
            Some(words) => format!("`{}`\n    in words: {}", data(c), data(&words)),
            None => format!("`{}`", data(c)),
        });
        // Its own line: appended to the condition it read as part of it.
        let rephrase = if v.rephrase {
            "    rephrased (metadata.rephrase)\n"
        } else {
            ""
        };
        out.push_str(&format!(
            "\n  variant {} {when}\n{rephrase}    wording id {}\n    {}\n",
            v.index,
            v.wording,
            data(&v.verdict())
        ));
        if let (Some(w), Some(text)) = (&v.witness, &v.text) {
            let memory = witness_json(registry, w).map_or_else(
                || "none JSON can hold (NaN or an infinity): set it from Rust".to_owned(),
                |doc| doc.to_string(),
            );
            out.push_str(&format!(
                "    memory: {}\n    text: {}\n",
                data(&memory),
                data(text)
            ));
        }
        if !v.guarded.is_empty() {
            out.push_str(&format!(
                "    a rephrase must keep: {}\n",
                data(&v.guarded.join(", "))
            ));
        }
        for (placeholder, state) in &v.may_be_unset {
            out.push_str(&format!(
                "    may be unset: {} is delivered as written, e.g., when {}\n",
                data(placeholder),
                data(&utter_compiler::analysis::describe_witness(
                    &registry.entries,
                    state
                ))
            ));
        }
    }
    out
}

/// `explain` as JSON (docs/schemas/explain.v1.json): the variants in the
/// one shape of a variant (the compiler's `VariantView`), each with its
/// witness as a memory document and the placeholders it may leave unset.
pub fn json(registry: &Registry, index: usize, view: Option<&str>) -> Json {
    let response = &registry.responses[index];
    let shown = snapshot::response_view(registry, index, view);
    json!({
        "schema": "utter/explain/v1",
        "response": response.name,
        "file": response.file,
        "line": response.line,
        "skill": view,
        "states": shown.states,
        "stopped": shown.stopped,
        "variants": shown.variants.iter().map(|v| {
            let mut fields = match serde_json::to_value(v) {
                Ok(Json::Object(fields)) => fields,
                _ => serde_json::Map::new(),
            };
            fields.insert("skill".into(), json!(view));
            if let Some(w) = &v.witness {
                fields.extend(witness_fields(registry, w));
            }
            let unset = v.may_be_unset.iter().map(|(placeholder, state)| {
                let mut entry = witness_fields(registry, state);
                entry.insert("placeholder".into(), Json::String(placeholder.clone()));
                Json::Object(entry)
            });
            fields.insert("may_be_unset".into(), Json::Array(unset.collect()));
            Json::Object(fields)
        }).collect::<Vec<_>>(),
    })
}

pub fn cmd_explain(
    dir: &Path,
    response: &str,
    skill: Option<&str>,
    format: RenderFormat,
    Globals { color, dialect }: Globals,
) -> Result<ExitCode, Fatal> {
    let (registry, exit) = match registry_or_report(
        open(dir, dialect)?,
        dir,
        "explained but the responses free of errors themselves",
        Some(response),
        color,
    )? {
        Ok(registry) => (registry, ExitCode::SUCCESS),
        Err(registry) => {
            // A response whose own definition and entries are error-free is
            // explained all the same: the errors elsewhere cannot change it.
            if !registry.responses.iter().any(|r| r.name == response) {
                return Ok(ExitCode::from(1));
            }
            eprintln!(
                "{}",
                escape(&format!(
                    "note: `{response}` is explained all the same: its own definition and the entries it reads are error-free"
                ))
            );
            (registry, ExitCode::from(1))
        }
    };
    known_skill(&registry, skill)?;
    let Some(index) = registry.responses.iter().position(|r| r.name == response) else {
        let hint = did_you_mean_hint(response, registry.responses.iter().map(|r| r.name.as_str()));
        return Err(Fatal(format!(
            "the project defines no response `{response}`{hint}"
        )));
    };
    let view = skill.or_else(|| utter_compiler::analysis::home_view(&registry, index));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match format {
        RenderFormat::Text => write!(out, "{}", human(&registry, index, view))?,
        RenderFormat::Json => writeln!(
            out,
            "{}",
            crate::output::json_text(&json(&registry, index, view))
        )?,
    }
    Ok(exit)
}
