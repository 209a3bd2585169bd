//! `utter deliver-batch` (hidden): many deliveries in one process, one JSON
//! request and answer per line, for conformance scripts.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use utter::json::RefusedValues;
use utter_compiler::{Interpreter, Request, RequestError};

use crate::args::Globals;
use crate::fatal::Fatal;
use crate::open::registry_or_errors;

pub fn cmd_deliver_batch(dir: &Path, globals: Globals) -> Result<ExitCode, Fatal> {
    let Globals { color, dialect } = globals;
    use std::io::BufRead as _;
    let Some(registry) = registry_or_errors(dir, dialect, "delivered", None, color)? else {
        return Ok(ExitCode::from(1));
    };
    let interpreter = registry.interpreter();
    let declared = utter_compiler::load::agent_yml::declared_language(dir)
        .map_err(|e| Fatal(e.to_string()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let limit = utter_compiler::load::project::MAX_FILE_BYTES;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| Fatal(format!("reading the requests: {e}")))?;
        if line.len() as u64 > limit {
            return Err(Fatal(format!("a request of more than {limit} bytes")));
        }
        let answer = deliver_request(&interpreter, &line, declared.as_deref());
        writeln!(out, "{}", crate::output::json_text(&answer))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One `deliver-batch` request answered. A value its entry does not take
/// is left out and listed under `refused` with the entries the agent does
/// not declare, as the reference engine leaves out a value a slot refuses.
fn deliver_request(
    interpreter: &Interpreter<'_>,
    line: &str,
    declared: Option<&str>,
) -> serde_json::Value {
    let request: serde_json::Value = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return serde_json::json!({"error": format!("not a JSON request: {e}")}),
    };
    let memory = match &request["memory"] {
        serde_json::Value::Null => String::new(),
        memory => memory.to_string(),
    };
    let answer = interpreter.answer(&Request {
        response: request["response"].as_str().unwrap_or_default(),
        skill: request["skill"].as_str(),
        memory: &memory,
        refused_values: RefusedValues::Collect,
        explain: false,
    });
    let answer = match answer {
        Ok(answer) => answer,
        Err(RequestError::Memory(e)) => return serde_json::json!({"error": format!("memory: {e}")}),
        Err(e) => return serde_json::json!({"error": e.to_string()}),
    };
    let registry = interpreter.registry();
    let undeclared = answer.not_stored.undeclared.iter();
    let mut refused: Vec<(usize, String)> = undeclared
        .map(|a| (a.offset, registry.undeclared_entry(&a.namespace, &a.entry)))
        .chain(
            answer
                .not_stored
                .refused
                .iter()
                .map(|e| (e.offset, e.message.clone())),
        )
        .collect();
    refused.sort();
    // `"channel": "voice"` and `"language": "<tag>"` ask for the facts in
    // that form (as `render --channel --lang`).
    let channel = match request["channel"].as_str() {
        None | Some("text") => utter::Channel::Text,
        Some("voice") => utter::Channel::Voice,
        Some(other) => {
            return serde_json::json!({"error": format!("channel `{other}`: `text` or `voice`")});
        }
    };
    let context = match crate::context::delivery_context(
        declared.map(str::to_owned),
        channel,
        request["language"].as_str(),
    ) {
        Ok(context) => context,
        Err(e) => return serde_json::json!({"error": format!("language {e}")}),
    };
    let mut d = answer.delivery;
    crate::context::in_context(&mut d, context.as_ref());
    serde_json::json!({
        "text": d.text,
        "variant": d.variant,
        "rephrase": d.rephrase,
        "fallback": d.fallback,
        "refused": refused.into_iter().map(|(_, message)| message).collect::<Vec<_>>(),
    })
}
