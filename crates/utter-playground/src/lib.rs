//! utter in the browser: the checks, the explanation, rendering and the
//! review report of an agent whose files are given as text, behind one
//! JSON-in, JSON-out function, [`respond`]. Built for
//! `wasm32-unknown-unknown` it is the module `playground/` loads (the
//! transport is [`abi`]); natively it is tested like any library.
//!
//! A request is an object with `op` and the agent's `files`
//! (`{"<path in the agent folder>": "<text>"}`), and optionally `dialect`
//! (`"mantle"`, `"maestro"`; absent: the agent's `utter.yml`, else Mantle):
//!
//! - `check`: the findings (file, line, column, severity, code, message,
//!   help and the rustc-style text), the responses and the skills;
//! - `render`: `response`, optional `skill` and `memory` (a memory
//!   document as JSON text): the delivery, why that variant (each
//!   condition's outcome) and the variant analysis of the response;
//! - `report`: the review report page (`utter snapshot --format html`).
//!
//! Every answer is an object; a request that cannot be answered is
//! `{"error": "..."}`. Nothing is ever markup: the page writes every
//! string as text, and the report is escaped by the compiler.

use serde_json::{Value as Json, json};
use utter::json::RefusedValues;
use utter_compiler::load::project::is_agent_file;
use utter_compiler::{
    Agent, CheckCache, Checked, Finding, OpenOptions, ProjectFiles, Registry, Request,
    RequestError, snapshot,
};

pub mod abi;

thread_local! {
    /// What the last request's check can give the next.
    static CACHE: std::cell::RefCell<CheckCache> = std::cell::RefCell::new(CheckCache::new());
}

/// The answer to one request (see the crate's documentation).
pub fn respond(request: &str) -> String {
    match answer(request) {
        Ok(answer) => answer,
        Err(message) => json!({ "error": message }),
    }
    .to_string()
}

fn answer(request: &str) -> Result<Json, String> {
    let request: Json =
        serde_json::from_str(request).map_err(|e| format!("the request is not JSON: {e}"))?;
    let op = request["op"].as_str().ok_or("the request has no `op`")?;
    let (agent, ignored) = open(&request)?;
    let mut answer = match op {
        "check" => check(&agent),
        "render" => render(&agent, &request)?,
        "report" => {
            json!({ "html": snapshot::html::report(agent.usable_registry(), snapshot::Options::default(), &snapshot::html::Provenance::default()) })
        }
        other => return Err(format!("unknown op `{other}`: check, render or report")),
    };
    answer["dialect"] = json!(agent.dialect().name());
    answer["ignored_files"] = json!(ignored);
    answer["usable_only"] = json!(agent.checked().has_errors());
    Ok(answer)
}

/// The agent of the request's files and dialect, and the paths that are
/// not agent files (an agent folder read from disk would not read them).
fn open(request: &Json) -> Result<(Agent, Vec<String>), String> {
    let files = request["files"]
        .as_object()
        .ok_or("the request has no `files` object")?;
    let mut ignored = Vec::new();
    let mut read = Vec::new();
    for (path, text) in files {
        let text = text
            .as_str()
            .ok_or_else(|| format!("the text of `{path}` is not a string"))?;
        if is_agent_file(path) {
            read.push((path.clone(), text.to_owned()));
        } else {
            ignored.push(path.clone());
        }
    }
    let dialect = match &request["dialect"] {
        Json::Null => None,
        Json::String(name) => Some(
            utter_compiler::bundled::Dialect::from_name(name)
                .ok_or_else(|| format!("unknown dialect `{name}`: mantle or maestro"))?,
        ),
        _ => return Err("`dialect` is not a string".into()),
    };
    let options = OpenOptions {
        dialect,
        ..OpenOptions::default()
    };
    Ok((
        // The page asks `check`, then `render` or `report`, of the same files
        // on every keystroke: each request reuses what the one before found
        // (exactly a check from scratch, `CheckCache`).
        CACHE.with_borrow_mut(|cache| {
            Agent::from_files_with(ProjectFiles::from_files(read), options, cache)
        }),
        ignored,
    ))
}

fn check(agent: &Agent) -> Json {
    let checked = agent.checked();
    let registry = agent.usable_registry();
    json!({
        "findings": checked.findings.iter().map(|f| finding(checked, f)).collect::<Vec<_>>(),
        "responses": registry.responses.iter().map(|r| json!({
            "name": r.name,
            "file": r.file,
            "line": r.line,
            "skill": r.skill,
            "bundled": utter_compiler::bundled::is_bundled(&r.file),
        })).collect::<Vec<_>>(),
        "skills": registry.skills,
    })
}

fn finding(checked: &Checked, f: &Finding) -> Json {
    let mut json = serde_json::to_value(f).expect("a finding serializes");
    json["rendered"] = Json::String(utter_compiler::diagnostics::render_finding_in(
        f,
        checked.source(&f.file),
        false,
    ));
    json
}

fn render(agent: &Agent, request: &Json) -> Result<Json, String> {
    let registry = agent.usable_registry();
    let name = request["response"]
        .as_str()
        .ok_or("the request has no `response`")?;
    let skill = request["skill"].as_str().filter(|s| !s.is_empty());
    let interpreter = registry.interpreter();
    let answer = interpreter.answer(&Request {
        response: name,
        skill,
        memory: request["memory"].as_str().unwrap_or_default(),
        refused_values: RefusedValues::Stop,
        explain: true,
    });
    let answer = match answer {
        Ok(answer) => answer,
        Err(RequestError::Memory(e)) => {
            return Ok(json!({
                "memory_error": { "line": e.line, "column": e.column, "message": e.message },
            }));
        }
        Err(e) => return Err(e.to_string()),
    };
    let mut delivery = answer.delivery;
    if let Some(context) = context(request)? {
        // The facts in the channel's form and language, as utter writes
        // them back into a rephrase (`utter render --channel --lang`).
        if !delivery.fallback {
            delivery.text = delivery.rephrase_request(&context).written_text().into();
        }
    }
    let mut json = json!({
        "delivery": serde_json::to_value(&delivery).map_err(|e| e.to_string())?,
        "why": answer.explanation.map(|why| why.to_string()),
    });
    json["memory_warnings"] = (answer.not_stored.undeclared.iter())
        .map(|a| {
            json!({
                "line": a.line,
                "column": a.column,
                "message": registry.undeclared_entry(&a.namespace, &a.entry),
            })
        })
        .collect();
    if let Some(index) = registry.responses.iter().position(|r| r.name == name) {
        json["analysis"] = analysis(registry, index, skill);
    }
    Ok(json)
}

/// The delivery context a render request asks for: `channel` (`text` or
/// `voice`) and `language` (a BCP 47 tag; the reviewed text is taken as
/// English, the default of an agent that declares no language); `None` for
/// English text, delivered as reviewed.
fn context(request: &Json) -> Result<Option<utter::RephraseContext>, String> {
    let channel = match request["channel"].as_str().unwrap_or("text") {
        "text" => utter::Channel::Text,
        "voice" => utter::Channel::Voice,
        other => return Err(format!("channel `{other}`: `text` or `voice`")),
    };
    let language = match request["language"].as_str().map(str::trim) {
        None | Some("") => "en",
        Some(tag) if utter_compiler::load::agent_yml::is_language_tag(tag) => tag,
        Some(tag) => {
            return Err(format!(
                "`{tag}` is not a BCP 47 language tag such as `en` or `de-CH`"
            ));
        }
    };
    let language = utter::Language::new(language.to_owned());
    if channel == utter::Channel::Text && language.primary() == "en" {
        return Ok(None);
    }
    let mut context = utter::RephraseContext::text(language).reviewed_in(utter::Language::ENGLISH);
    context.channel = channel;
    Ok(Some(context))
}

/// The variant analysis of one response (what `utter explain` says), in
/// the view of `skill` (else the response's own).
fn analysis(registry: &Registry, index: usize, skill: Option<&str>) -> Json {
    let view = skill.or_else(|| utter_compiler::analysis::home_view(registry, index));
    let shown = snapshot::response_view(registry, index, view);
    json!({
        "view": view,
        "states": shown.states,
        "stopped": shown.stopped,
        // The one shape of a variant, as `utter explain` gives it.
        "variants": shown.variants,
    })
}
