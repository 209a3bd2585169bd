//! `utter`: validate a Mantle agent project in CI, render its responses for a
//! given memory, and show the Rust code it compiles to.
//!
//! Exit codes: 0 success, 1 the project has error findings, 2 cannot run.
#![forbid(unsafe_code)]

mod args;
mod batch;
mod check;
mod context;
mod expand;
mod explain;
mod fatal;
mod lsp;
mod open;
mod output;
mod render;
mod review;

use fatal::{Fatal, STDOUT_CLOSED};

use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;

use args::{
    CheckArgs, CheckFormat, Cli, ColorChoice, Command, DialectArg, Globals, RenderArgs,
    RenderFormat,
};
use clap::{CommandFactory as _, Parser as _};
use utter_compiler::bundled::Dialect;
use utter_compiler::diagnostics::escape::escape;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let dialect = cli.dialect.map(|d| match d {
        DialectArg::Mantle => Dialect::Mantle,
        DialectArg::Maestro => Dialect::Maestro,
    });
    let color = match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let json_out = matches!(
        cli.command,
        Command::Check(CheckArgs {
            format: Some(CheckFormat::Json | CheckFormat::Sarif),
            ..
        }) | Command::Render(RenderArgs {
            format: RenderFormat::Json,
            ..
        })
    );
    match run(cli.command, Globals { color, dialect }) {
        Ok(code) => code,
        // The reader went away (`utter check | head`): end quietly, with
        // the status a shell gives a process that SIGPIPE ended.
        Err(Fatal(message)) if message == STDOUT_CLOSED => ExitCode::from(141),
        Err(Fatal(message)) => {
            // A script reading JSON gets a document on stdout, too.
            if json_out {
                let _ = writeln!(std::io::stdout(), "{}", output::json_fatal(&message));
            }
            // Paths and names in it are data: shown, never obeyed.
            eprintln!("error: {}", escape(&message));
            ExitCode::from(2)
        }
    }
}

/// Runs one command: each is its own module's.
fn run(command: Command, globals: Globals) -> Result<ExitCode, Fatal> {
    match command {
        Command::Check(args) => check::cmd_check(&args, globals),
        Command::DeliverBatch { agent_dir } => batch::cmd_deliver_batch(&agent_dir, globals),
        Command::Snapshot(args) => review::cmd_snapshot(&args, globals),
        Command::Diff(args) => review::cmd_diff(&args, globals),
        Command::Explain {
            agent_dir,
            response,
            skill,
            format,
        } => explain::cmd_explain(&agent_dir, &response, skill.as_deref(), format, globals),
        Command::Render(args) => render::cmd_render(&args, globals),
        Command::Expand {
            agent_dir,
            strategy,
        } => expand::cmd_expand(&agent_dir, strategy, globals),
        Command::Lsp => {
            lsp::run().map_err(|e| Fatal(format!("language server: {e}")))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "utter", &mut script);
            std::io::stdout().write_all(&script)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
