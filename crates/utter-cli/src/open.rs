//! Opening an agent for a command: read, checked and lowered once, its
//! findings printed as `check` prints them; and the inputs commands share
//! (a memory file, a skill id).

use std::io::{Read as _, Write as _};
use std::path::Path;

use utter_compiler::bundled::Dialect;
use utter_compiler::diagnostics::did_you_mean_hint;
use utter_compiler::diagnostics::escape::escape;
use utter_compiler::{Agent, Registry};

use crate::fatal::Fatal;
use crate::output;

pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The project's registry; `None` when it has errors, which are then
/// printed to stderr ("nothing <done>"), as `check` prints them. Warnings
/// are printed too (stdout carries only the product): for a command about
/// one response (`about`), only that response's, and a count of the rest.
pub(crate) fn registry_or_errors(
    dir: &Path,
    dialect: Option<Dialect>,
    done: &str,
    about: Option<&str>,
    color: bool,
) -> Result<Option<Registry>, Fatal> {
    Ok(registry_or_report(open(dir, dialect)?, dir, done, about, color)?.ok())
}

/// The opened agent at `dir`: read, checked and lowered once.
pub(crate) fn open(dir: &Path, dialect: Option<Dialect>) -> Result<Agent, Fatal> {
    let options = utter_compiler::OpenOptions {
        dialect,
        ..Default::default()
    };
    Ok(Agent::open(dir, options)?)
}

/// [`registry_or_errors`] of an agent opened already (two agents compared
/// are opened at once): `Err` holds the lowering of the responses free of
/// errors themselves ([`Agent::usable_registry`]), the errors printed.
pub(crate) fn registry_or_report(
    agent: Agent,
    dir: &Path,
    done: &str,
    about: Option<&str>,
    color: bool,
) -> Result<Result<Registry, Registry>, Fatal> {
    let (checked, usable) = agent.into_checked_and_usable();
    let errors: Vec<_> = checked.errors().cloned().collect();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    match errors.is_empty() {
        true => {
            let (warnings, rest): (Vec<_>, Vec<_>) = checked
                .findings
                .iter()
                .filter(|f| f.severity == utter_compiler::Severity::Warning)
                .cloned()
                .partition(|f| about.is_none_or(|name| f.response.as_deref() == Some(name)));
            write!(err, "{}", output::human(&checked, &warnings, dir, color))?;
            if !rest.is_empty() {
                writeln!(
                    err,
                    "note: {} about other responses; `utter check` lists them",
                    plural(rest.len(), "more warning")
                )?;
            }
            Ok(Ok(usable))
        }
        false => {
            write!(err, "{}", output::human(&checked, &errors, dir, color))?;
            let count = plural(errors.len(), "error");
            let shown = escape(&dir.display().to_string()).into_owned();
            writeln!(err, "error: {shown} has {count}; nothing {done}")?;
            Ok(Err(usable))
        }
    }
}

/// The memory file's text (`-`: standard input), at most the size utter
/// reads files of.
pub(crate) fn read_memory_text(path: &Path) -> Result<String, Fatal> {
    let limit = utter_compiler::load::project::MAX_FILE_BYTES;
    let (label, bytes) = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Fatal(format!("cannot read the memory from standard input: {e}")))?;
        if bytes.len() as u64 > limit {
            return Err(Fatal(format!(
                "the memory on standard input is larger than {limit} bytes; utter reads memory files of at most that size"
            )));
        }
        ("<stdin>".to_owned(), bytes)
    } else {
        let label = path.display().to_string();
        // A FIFO would block forever, a device never end: only regular files.
        let meta = std::fs::metadata(path)
            .map_err(|e| Fatal(format!("cannot read memory file `{label}`: {e}")))?;
        if !meta.is_file() {
            return Err(Fatal(format!(
                "memory file `{label}` is not a regular file (a folder, FIFO, socket or device); give a JSON file, or `-` for standard input"
            )));
        }
        let bytes = utter_compiler::load::project::read_bounded(path, limit)
            .map_err(|e| Fatal(format!("cannot read memory file `{label}`: {e}")))?
            .map_err(|_| {
                Fatal(format!(
                    "memory file `{label}` is larger than {limit} bytes; utter reads memory files of at most that size"
                ))
            })?;
        (label, bytes)
    };
    String::from_utf8(bytes).map_err(|e| {
        Fatal(format!(
            "memory `{label}` is not UTF-8 (at byte {}); save it as UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// An error for a skill id the agent does not have.
pub(crate) fn known_skill(registry: &Registry, skill: Option<&str>) -> Result<(), Fatal> {
    if let Some(skill) = skill
        && !registry.skills.iter().any(|s| s == skill)
    {
        let hint = did_you_mean_hint(skill, registry.skills.iter().map(String::as_str));
        return Err(Fatal(format!(
            "unknown skill `{skill}`{hint}; the project's skills are: {}",
            registry.skills.join(", ")
        )));
    }
    Ok(())
}
