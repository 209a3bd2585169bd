//! `utter check`: the findings of a project, for people, CI and tools.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use utter_compiler::diagnostics::escape::escape;
use utter_compiler::{Agent, OpenOptions, ReadError};

use crate::args::{CheckArgs, CheckFormat, Globals};
use crate::fatal::Fatal;
use crate::open::{open, plural};
use crate::output;

/// `utter check` of `dir`; without one, of the current folder, or when it
/// is not an agent but has agent folders one or two levels below (a
/// repository root, where a pre-commit hook runs), of each of them in turn.
pub(crate) fn cmd_check(args: &CheckArgs, globals: Globals) -> Result<ExitCode, Fatal> {
    let dir = args.agent_dir.as_deref();
    // Annotations where a GitHub Actions run shows them.
    let format = args.format.unwrap_or_else(|| {
        if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
            CheckFormat::Github
        } else {
            CheckFormat::Text
        }
    });
    let wanted = Wanted {
        format,
        deny_warnings: args.deny_warnings,
        unset_placeholders: args.unset_placeholders,
    };
    if let Some(dir) = dir {
        return check_one(open(dir, globals.dialect)?, dir, wanted, globals);
    }
    // The current folder, read once: an agent, or the agents below it.
    let here = Path::new(".");
    let options = OpenOptions {
        dialect: globals.dialect,
        ..OpenOptions::default()
    };
    let below = match Agent::open(here, options) {
        Ok(agent) => return check_one(agent, here, wanted, globals),
        Err(ReadError::NotAnAgent(_, below)) if !below.is_empty() => below,
        Err(error) => return Err(error.into()),
    };
    let mut failed = false;
    for agent in &below {
        let dir = Path::new(agent);
        let code = check_one(open(dir, globals.dialect)?, dir, wanted, globals)?;
        failed |= code != ExitCode::SUCCESS;
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// What `check` is asked for, the same for every agent it checks.
#[derive(Clone, Copy)]
struct Wanted {
    format: CheckFormat,
    deny_warnings: bool,
    unset_placeholders: bool,
}

/// `utter check` of one agent: every finding of the project; with
/// `unset_placeholders`, also the opt-in notes
/// `utter.analysis.placeholder_may_be_unset`.
fn check_one(
    agent: Agent,
    dir: &Path,
    Wanted {
        format,
        deny_warnings,
        unset_placeholders,
    }: Wanted,
    Globals { color, .. }: Globals,
) -> Result<ExitCode, Fatal> {
    let (mut checked, usable) = agent.into_checked_and_usable();
    // Opt-in: asked for by the flag, or raised to `warn` or `deny` in
    // utter.yml; either way at the level utter.yml sets.
    let code = utter_compiler::diagnostics::codes::PLACEHOLDER_MAY_BE_UNSET;
    let raised = matches!(
        checked.lints.level(code),
        Some(
            utter_compiler::load::settings::Level::Warn
                | utter_compiler::load::settings::Level::Deny
        )
    );
    if unset_placeholders || raised {
        let mut found = utter_compiler::analysis::placeholder_findings(&checked, &usable);
        checked.lints.apply(&mut found);
        checked.findings.extend(found);
        utter_compiler::diagnostics::sort_findings(&mut checked.findings);
    }
    let summary = output::Summary::of(&checked);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let failed = summary.errors > 0 || (deny_warnings && summary.warnings > 0);
    // The folder's name is data: escaped before the line is assembled.
    let verdict = format!(
        "{}: {} checked in {}: {}, {}{}",
        if failed { "error" } else { "ok" },
        escape(&dir.display().to_string()),
        plural(summary.files, "file"),
        plural(summary.errors, "error"),
        plural(summary.warnings, "warning"),
        if failed && summary.errors == 0 {
            " (warnings denied)"
        } else {
            ""
        },
    );
    match format {
        CheckFormat::Json => writeln!(out, "{}", output::json(&checked, dir))?,
        CheckFormat::Sarif => writeln!(out, "{}", output::sarif(&checked, dir))?,
        CheckFormat::Github => {
            write!(out, "{}", output::github(&checked, dir))?;
            writeln!(out, "{verdict}")?;
        }
        CheckFormat::Text => {
            write!(
                out,
                "{}",
                output::human(&checked, &checked.findings, dir, color)
            )?;
            writeln!(out, "{verdict}")?;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
