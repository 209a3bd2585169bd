//! `utter render`: deliver one response for a memory given as JSON.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use utter::json::RefusedValues;
use utter_compiler::diagnostics::did_you_mean_hint;
use utter_compiler::diagnostics::escape::escape;

use utter::{Channel, RephraseContext};
use utter_compiler::load::agent_yml::declared_language;

use crate::args::{ChannelArg, Globals, RenderArgs, RenderFormat};
use crate::context::delivery_context;
use crate::fatal::Fatal;
use crate::open::{known_skill, read_memory_text, registry_or_errors};
use crate::output;
use utter_compiler::{Request, RequestError};

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
    let (label, text) = match memory_file {
        Some(path) if path == Path::new("-") => ("<stdin>".to_owned(), read_memory_text(path)?),
        Some(path) => (path.display().to_string(), read_memory_text(path)?),
        None => (String::new(), String::new()),
    };
    let interpreter = registry.interpreter();
    let request = Request {
        response,
        skill,
        memory: &text,
        refused_values: RefusedValues::Stop,
        explain,
    };
    let answer = interpreter.answer(&request).map_err(|e| match e {
        RequestError::Memory(e) => Fatal(format!("{label}:{e}")),
        RequestError::Skill(e) => Fatal(e.to_string()),
    })?;
    for a in &answer.not_stored.undeclared {
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
    // Text: the explanation on stderr (stdout is the delivered text);
    // JSON: the `explanation` key of the one object on stdout. It
    // escapes the agent's strings itself.
    if let (Some(explanation), RenderFormat::Text) = (&answer.explanation, format) {
        eprint!("{explanation}");
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
    let mut delivery = answer.delivery;
    crate::context::in_context(&mut delivery, context(args)?.as_ref());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match format {
        RenderFormat::Text => writeln!(out, "{}", delivery.text)?,
        RenderFormat::Json => writeln!(
            out,
            "{}",
            output::delivery(&delivery, answer.explanation.as_ref())
        )?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The delivery context `--channel` and `--lang` ask for.
fn context(args: &RenderArgs) -> Result<Option<RephraseContext>, Fatal> {
    let declared = declared_language(&args.agent_dir).map_err(|e| Fatal(e.to_string()))?;
    let channel = match args.channel {
        ChannelArg::Text => Channel::Text,
        ChannelArg::Voice => Channel::Voice,
    };
    delivery_context(declared, channel, args.lang.as_deref())
        .map_err(|e| Fatal(format!("--lang {e}")))
}
