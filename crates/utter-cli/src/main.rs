//! `utter`: validate a Mantle agent project in CI, render its responses for a
//! given memory, and show the Rust code it compiles to.
//!
//! Exit codes: 0 success, 1 the project has error findings, 2 cannot run.
#![forbid(unsafe_code)]

mod batch;
mod check;
mod explain;
mod fatal;
mod lsp;
mod output;
mod review;

use fatal::{Fatal, STDOUT_CLOSED};

use std::io::{IsTerminal as _, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory as _, Parser, Subcommand, ValueEnum};
use utter::{Context, SlotMemory};
use utter_compiler::diagnostics::did_you_mean;
use utter_compiler::diagnostics::escape::escape;
use utter_compiler::{Checked, Registry, codegen, lower};

const EXIT_CODES: &str = "\
Exit codes: 0 ok; 1 the project has errors;
2 utter could not run (bad arguments, unreadable input, a folder that is not an agent).";

const SNAPSHOT_EXIT_CODES: &str = "\
Exit codes: 0 written (or, with --check, the wording matches); 1 the wording changed
(or the project has errors); 2 utter could not run.";

const CHECK_EXIT_CODES: &str = "\
Exit codes: 0 ok; 1 the project has errors (or warnings with --deny-warnings);
2 utter could not run (bad arguments, unreadable input, a folder that is not an agent).";

/// Compile-time checked responses for Rasa Mantle agents.
#[derive(Parser)]
#[command(name = "utter", version, after_help = CHECK_EXIT_CODES, propagate_version = true)]
struct Cli {
    /// When to colour the output: `auto` colours a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, global = true, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// The flavour of the format: `mantle` (conditional variants, rasa-pro
    /// 3.21.0's bundled skills) or `maestro` (the first entry is delivered;
    /// the bundled `default_session_start` greets with `utter_greet`).
    /// Default: what the agent's `utter.yml` declares (`dialect: maestro`), else `mantle`.
    #[arg(long, value_enum, global = true)]
    dialect: Option<DialectArg>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DialectArg {
    Mantle,
    Maestro,
}

/// The dialect chosen on the command line, if any: passed to every command
/// that opens an agent (`None`: the agent's own `utter.yml` decides).
type Dialect = Option<utter_compiler::bundled::Dialect>;

/// The command line's global options, as a command that takes many others
/// receives them.
#[derive(Clone, Copy)]
struct Globals {
    /// Whether output is coloured.
    color: bool,
    /// See [`Dialect`].
    dialect: Dialect,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Validate every responses.yml, memory.yml and skill.md of an agent project.
    #[command(after_help = CHECK_EXIT_CODES)]
    Check {
        /// The agent folder (holding responses.yml and/or skills/). Default: the current
        /// folder, or, when it is not an agent, each agent folder one or two levels below it
        /// (a pre-commit hook at a repository root).
        agent_dir: Option<PathBuf>,
        /// Output format. `human` is rustc-style; `json` is described in docs/cli-and-ci.md;
        /// `sarif` is SARIF 2.1.0 for code scanning; `github` prints workflow
        /// commands that annotate a GitHub Actions run. Default: `github` when
        /// GITHUB_ACTIONS=true, else `human`.
        #[arg(long, value_enum)]
        format: Option<CheckFormat>,
        /// Exit 1 when the project has warnings, too.
        #[arg(long)]
        deny_warnings: bool,
        /// Also note each placeholder memory can leave unset when its variant is
        /// delivered (`utter.analysis.placeholder_may_be_unset`, with such a memory).
        #[arg(long)]
        unset_placeholders: bool,
    },
    /// Deliver one response for a memory given as JSON.
    #[command(after_help = EXIT_CODES)]
    Render {
        /// The agent folder.
        agent_dir: PathBuf,
        /// The response name, e.g. `utter_card_replace_completed`.
        response: String,
        /// The active skill (its private entries are readable).
        #[arg(long, value_name = "ID")]
        skill: Option<String>,
        /// Memory as JSON, `{"<namespace>": {"<entry>": value}}`; `-` reads standard input.
        #[arg(long, value_name = "FILE")]
        memory: Option<PathBuf>,
        /// `text` prints the delivered text; `json` prints text, variant, rephrase and fallback.
        #[arg(long, value_enum, default_value_t = RenderFormat::Text)]
        format: RenderFormat,
        /// Also explain the choice: each condition's value for this memory
        /// and why the delivered variant won (text: on stderr; json: the
        /// `explanation` key).
        #[arg(long)]
        explain: bool,
    },
    /// Show which memory delivers each variant of a response: a witness
    /// memory and its text for every variant that can be delivered, and why
    /// the others never are.
    #[command(after_help = EXIT_CODES)]
    Explain {
        /// The agent folder.
        agent_dir: PathBuf,
        /// The response name.
        response: String,
        /// The active skill of the view (default: the skill whose
        /// responses.yml defines it; none for the project root's).
        #[arg(long, value_name = "ID")]
        skill: Option<String>,
        /// `text` for people; `json`: one object per variant (index,
        /// verdict, reason, skill, witness, text).
        #[arg(long, value_enum, default_value_t = RenderFormat::Text)]
        format: RenderFormat,
    },
    /// Deliver many responses in one process (for conformance scripts): one
    /// JSON request per line on stdin, `{"response": .., "skill": ..,
    /// "memory": {..}}`, one JSON answer per line on stdout (`text`,
    /// `variant`, `rephrase`, `fallback`, or `error`).
    #[command(hide = true)]
    DeliverBatch {
        /// The agent folder.
        agent_dir: PathBuf,
    },
    /// Write the agent's wording for review: every response and variant, a
    /// memory that delivers it and the exact text; `--check` fails when the
    /// wording no longer matches the file (for CI).
    #[command(after_help = SNAPSHOT_EXIT_CODES)]
    Snapshot {
        /// The agent folder.
        #[arg(default_value = ".")]
        agent_dir: PathBuf,
        /// The snapshot file (default: `responses.snap` in the agent folder).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Also list the bundled responses the project does not override.
        #[arg(long)]
        bundled: bool,
        /// Compare with the file instead of writing it: exit 1 with a
        /// summary when the wording changed.
        #[arg(long)]
        check: bool,
        /// How `--check` reports a change: a summary by response (`human`), GitHub
        /// workflow commands, or JSON; `html` writes the review page instead (`--out`, else stdout).
        #[arg(long, value_enum, default_value_t = SnapshotFormat::Human)]
        format: SnapshotFormat,
    },
    /// What changed in the wording between two versions of an agent.
    #[command(after_help = EXIT_CODES)]
    Diff {
        /// The agent as it was (e.g. checked out from the main branch).
        old: PathBuf,
        /// The agent as it is now.
        new: PathBuf,
        /// Also compare the bundled responses the projects do not override.
        #[arg(long)]
        bundled: bool,
        /// `text`, `markdown` (a pull-request comment), `json` or `html` (a page).
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
    },
    /// Print the Rust code the project compiles to.
    #[command(after_help = EXIT_CODES)]
    Expand {
        /// The agent folder.
        #[arg(default_value = ".")]
        agent_dir: PathBuf,
        /// How responses are compiled: by build cost (compact when the
        /// responses plus 7 per distinct shape of conditions or text exceed
        /// 2,100), straight-line code, or compact data.
        #[arg(long, value_enum, default_value_t = StrategyArg::Auto)]
        strategy: StrategyArg,
    },
    /// Run the language server over stdio (diagnostics as you type, go to
    /// definition, references, completion, hover, quick fixes).
    Lsp,
    /// Print a shell completion script, e.g. `utter completions bash > ~/.local/share/bash-completion/completions/utter`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    Human,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SnapshotFormat {
    Human,
    Github,
    Json,
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    Text,
    Markdown,
    Json,
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RenderFormat {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let dialect: Dialect = cli.dialect.map(|d| match d {
        DialectArg::Mantle => utter_compiler::bundled::Dialect::Mantle,
        DialectArg::Maestro => utter_compiler::bundled::Dialect::Maestro,
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
        Command::Check {
            format: Some(CheckFormat::Json | CheckFormat::Sarif),
            ..
        } | Command::Render {
            format: RenderFormat::Json,
            ..
        }
    );
    match run(cli.command, color, dialect) {
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

fn run(command: Command, color: bool, dialect: Dialect) -> Result<ExitCode, Fatal> {
    match command {
        Command::Check {
            agent_dir,
            format,
            deny_warnings,
            unset_placeholders,
        } => {
            let format = format.unwrap_or_else(|| {
                if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
                    CheckFormat::Github
                } else {
                    CheckFormat::Human
                }
            });
            check::cmd_check(
                agent_dir.as_deref(),
                format,
                deny_warnings,
                unset_placeholders,
                color,
                dialect,
            )
        }
        Command::DeliverBatch { agent_dir } => batch::cmd_deliver_batch(&agent_dir, color, dialect),
        Command::Snapshot {
            agent_dir,
            out,
            bundled,
            check,
            format,
        } => review::cmd_snapshot(
            &agent_dir,
            out.as_deref(),
            bundled,
            check,
            format,
            color,
            dialect,
        ),
        Command::Diff {
            old,
            new,
            bundled,
            format,
        } => review::cmd_diff(&old, &new, bundled, format, color, dialect),
        Command::Explain {
            agent_dir,
            response,
            skill,
            format,
        } => explain::cmd_explain(
            &agent_dir,
            &response,
            skill.as_deref(),
            format,
            color,
            dialect,
        ),
        Command::Render {
            agent_dir,
            response,
            skill,
            memory,
            format,
            explain,
        } => cmd_render(
            &agent_dir,
            &response,
            skill.as_deref(),
            memory.as_deref(),
            format,
            explain,
            Globals { color, dialect },
        ),
        Command::Expand {
            agent_dir,
            strategy,
        } => cmd_expand(&agent_dir, strategy, Globals { color, dialect }),
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

pub(crate) fn load(dir: &Path, dialect: Dialect) -> Result<Checked, Fatal> {
    let options = utter_compiler::OpenOptions {
        dialect,
        ..Default::default()
    };
    Ok(utter_compiler::Agent::open(dir, options)?.into_checked())
}

fn plural(n: usize, word: &str) -> String {
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
fn registry_or_errors(
    dir: &Path,
    dialect: Dialect,
    done: &str,
    about: Option<&str>,
    color: bool,
) -> Result<Option<Registry>, Fatal> {
    let checked = load(dir, dialect)?;
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    match lower(&checked) {
        Ok(registry) => {
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
            Ok(Some(registry))
        }
        Err(errors) => {
            write!(err, "{}", output::human(&checked, &errors, dir, color))?;
            let count = plural(errors.len(), "error");
            let shown = escape(&dir.display().to_string()).into_owned();
            writeln!(err, "error: {shown} has {count}; nothing {done}")?;
            Ok(None)
        }
    }
}

/// The memory file's text (`-`: standard input), at most the size utter
/// reads files of.
fn read_memory_text(path: &Path) -> Result<String, Fatal> {
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
fn known_skill(registry: &Registry, skill: Option<&str>) -> Result<(), Fatal> {
    if let Some(skill) = skill
        && !registry.skills.iter().any(|s| s == skill)
    {
        let hint = did_you_mean(skill, registry.skills.iter().map(String::as_str))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        return Err(Fatal(format!(
            "unknown skill `{skill}`{hint}; the project's skills are: {}",
            registry.skills.join(", ")
        )));
    }
    Ok(())
}

fn cmd_render(
    dir: &Path,
    response: &str,
    skill: Option<&str>,
    memory_file: Option<&Path>,
    format: RenderFormat,
    explain: bool,
    Globals { color, dialect }: Globals,
) -> Result<ExitCode, Fatal> {
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
        let hint = did_you_mean(response, registry.responses.iter().map(|r| r.name.as_str()))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
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

/// `expand --strategy`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum StrategyArg {
    Auto,
    StraightLine,
    Compact,
}

fn cmd_expand(dir: &Path, strategy: StrategyArg, globals: Globals) -> Result<ExitCode, Fatal> {
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
