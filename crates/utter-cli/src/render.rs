//! `utter render`: deliver one response for a memory given as JSON.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use utter::{Context, SlotMemory};
use utter_compiler::diagnostics::did_you_mean_hint;
use utter_compiler::diagnostics::escape::escape;

use crate::args::{Globals, RenderArgs, RenderFormat};
use crate::fatal::Fatal;
use crate::open::{known_skill, read_memory_text, registry_or_errors};
use crate::{explain, output};

/// `utter render`: one response delivered for a memory given as JSON.
pub(crate) fn cmd_render(args: &RenderArgs, globals: Globals) -> Result<ExitCode, Fatal> {
    let Globals { color, dialect } = globals;
    let (dir, response, skill) = (&args.agent_dir, &args.response, args.skill.as_deref());
    let (memory_file, format, explain) = (args.memory.as_deref(), args.format, args.explain);
    let Some(registry) = registry_or_errors(dir, dialect, "rendered", Some(response), color)?
    else {
        return Ok(ExitCode::from(1));
    };
    known_skill(&registry, skill)?;
    let mut memory = SlotMemory::new(&registry.entries);
    if let Some(path) = memory_file {
        let label = if path == Path::new("-") {
            "<stdin>".to_owned()
        } else {
            path.display().to_string()
        };
        let text = read_memory_text(path)?;
        let undeclared = memory
            .load_document(&text)
            .map_err(|e| Fatal(format!("{label}:{e}")))?;
        for a in undeclared {
            eprintln!(
                "warning: {}",
                escape(&format!(
                    "{label}:{}:{}: {}",
                    a.line,
                    a.column,
                    registry.undeclared_entry(&a.namespace, &a.entry)
                ))
            );
        }
    }
    let ctx = match skill {
        Some(skill) => Context::for_skill_id(&memory, skill, &registry.skills)
            .map_err(|e| Fatal(e.to_string()))?,
        None => Context::new(&memory),
    };
    let interpreter = registry.interpreter();
    let delivery = interpreter.deliver(response, &ctx);
    // Text: the explanation on stderr (stdout is the delivered text);
    // JSON: the `explanation` key of the one object on stdout.
    if explain && matches!(format, RenderFormat::Text) {
        eprint!("{}", explain::why_delivered(&registry, response, &ctx));
    }
    if registry.response(response).is_none() {
        // Delivered as the engine does (the name itself), but said.
        let hint = did_you_mean_hint(response, registry.responses.iter().map(|r| r.name.as_str()));
        eprintln!(
            "warning: {}",
            escape(&format!(
                "the project defines no response `{response}`{hint}; it is delivered as its name"
            ))
        );
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match format {
        RenderFormat::Text => writeln!(out, "{}", delivery.text)?,
        RenderFormat::Json => {
            let explanation = explain.then(|| registry.explain(response, &ctx));
            writeln!(out, "{}", output::delivery(&delivery, explanation.as_ref()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
