//! `utter deliver-batch` (hidden): many deliveries in one process, one JSON
//! request and answer per line, for conformance scripts.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use utter::{Context, SlotMemory};
use utter_compiler::Interpreter;

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
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let limit = utter_compiler::load::project::MAX_FILE_BYTES;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| Fatal(format!("reading the requests: {e}")))?;
        if line.len() as u64 > limit {
            return Err(Fatal(format!("a request of more than {limit} bytes")));
        }
        let answer = deliver_request(&interpreter, &line);
        writeln!(out, "{}", crate::output::json_text(&answer))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One `deliver-batch` request answered.
fn deliver_request(interpreter: &Interpreter<'_>, line: &str) -> serde_json::Value {
    let registry = interpreter.registry();
    let request: serde_json::Value = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return serde_json::json!({"error": format!("not a JSON request: {e}")}),
    };
    let response = request["response"].as_str().unwrap_or_default();
    let skill = request["skill"].as_str();
    let assignments = match utter::json::memory_assignments_from(request["memory"].clone()) {
        Ok(a) => a,
        Err(e) => return serde_json::json!({"error": format!("memory: {e}")}),
    };
    let mut memory = SlotMemory::new(&registry.entries);
    let mut refused = Vec::new();
    for a in assignments {
        if let Err(e) = memory.set(&a.namespace, &a.entry, a.value) {
            refused.push(e.to_string());
        }
    }
    let ctx = match skill {
        Some(s) => match Context::for_skill_id(&memory, s, &registry.skills) {
            Ok(ctx) => ctx,
            Err(e) => return serde_json::json!({"error": e.to_string()}),
        },
        None => Context::new(&memory),
    };
    let d = interpreter.deliver(response, &ctx);
    serde_json::json!({
        "text": d.text,
        "variant": d.variant,
        "rephrase": d.rephrase,
        "fallback": d.fallback,
        "refused": refused,
    })
}
