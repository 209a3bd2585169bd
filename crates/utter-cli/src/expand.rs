//! `utter expand`: print the Rust code the project compiles to.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use utter_compiler::codegen;

use crate::args::{Globals, StrategyArg};
use crate::fatal::Fatal;
use crate::open::registry_or_errors;

/// `utter expand`.
pub(crate) fn cmd_expand(
    dir: &Path,
    strategy: StrategyArg,
    globals: Globals,
) -> Result<ExitCode, Fatal> {
    let Globals { color, dialect } = globals;
    let Some(registry) = registry_or_errors(dir, dialect, "generated", None, color)? else {
        return Ok(ExitCode::from(1));
    };
    let strategy = match strategy {
        StrategyArg::Auto => codegen::Strategy::Auto,
        StrategyArg::StraightLine => codegen::Strategy::StraightLine,
        StrategyArg::Compact => codegen::Strategy::Compact,
    };
    let source = codegen::pretty(codegen::generate_with(&registry, strategy), codegen::HEADER)?;
    std::io::stdout().lock().write_all(source.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
