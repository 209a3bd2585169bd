//! `utter check`: the findings of a project, for people, CI and tools.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use crate::fatal::Fatal;
use crate::{CheckFormat, load, output, plural};

/// `utter check`: every finding of the project; with `unset_placeholders`,
/// also the opt-in notes `utter.analysis.placeholder_may_be_unset`.
pub(crate) fn cmd_check(
    dir: &Path,
    format: CheckFormat,
    deny_warnings: bool,
    unset_placeholders: bool,
    color: bool,
) -> Result<ExitCode, Fatal> {
    let mut checked = load(dir)?;
    if unset_placeholders {
        let found = utter_compiler::analysis::placeholder_findings(&checked);
        checked.findings.extend(found);
        utter_compiler::diagnostics::sort_findings(&mut checked.findings);
    }
    let summary = output::Summary::of(&checked);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let failed = summary.errors > 0 || (deny_warnings && summary.warnings > 0);
    let verdict = format!(
        "{}: {} checked in {}: {}, {}{}",
        if failed { "error" } else { "ok" },
        dir.display(),
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
        CheckFormat::Human => {
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
