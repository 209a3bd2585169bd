//! The command line: its options, commands and their arguments, as clap
//! reads them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use utter_compiler::bundled::Dialect;

pub const EXIT_CODES: &str = "\
Exit codes: 0 ok; 1 the project has errors;
2 utter could not run (bad arguments, unreadable input, a folder that is not an agent).";

pub const SNAPSHOT_EXIT_CODES: &str = "\
Exit codes: 0 written (or, with --check, the wording matches); 1 the wording changed
(or the project has errors); 2 utter could not run.";

pub const CHECK_EXIT_CODES: &str = "\
Exit codes: 0 ok; 1 the project has errors (or warnings with --deny-warnings);
2 utter could not run (bad arguments, unreadable input, a folder that is not an agent).";

/// Compile-time checked responses for Rasa Mantle agents.
#[derive(Parser)]
#[command(name = "utter", version, after_help = CHECK_EXIT_CODES, propagate_version = true)]
pub struct Cli {
    /// When to colour the output: `auto` colours a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, global = true, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// The flavour of the format: `mantle` (conditional variants, rasa-pro
    /// 3.21.0's bundled skills) or `maestro` (the first entry is delivered;
    /// the bundled `default_session_start` greets with `utter_greet`).
    /// Default: what the agent's `utter.yml` declares (`dialect: maestro`), else `mantle`.
    #[arg(long, value_enum, global = true)]
    pub dialect: Option<DialectArg>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    Mantle,
    Maestro,
}

/// The command line's global options, as a command that takes many others
/// receives them.
#[derive(Clone, Copy)]
pub struct Globals {
    /// Whether output is coloured.
    pub color: bool,
    /// The dialect chosen on the command line, if any (`None`: the
    /// agent's own `utter.yml` decides).
    pub dialect: Option<Dialect>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
pub enum Command {
    /// Validate every responses.yml, memory.yml and skill.md of an agent project.
    #[command(after_help = CHECK_EXIT_CODES)]
    Check(CheckArgs),
    /// Deliver one response for a memory given as JSON.
    #[command(after_help = EXIT_CODES)]
    Render(RenderArgs),
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
    /// "memory": {..}}` (and optionally `"channel": "voice"`, `"language":
    /// "<tag>"`, as `render --channel --lang`), one JSON answer per line on
    /// stdout (`text`, `variant`, `rephrase`, `fallback`, or `error`).
    #[command(hide = true)]
    DeliverBatch {
        /// The agent folder.
        agent_dir: PathBuf,
    },
    /// Write the agent's wording for review: every response and variant, a
    /// memory that delivers it and the exact text; `--check` fails when the
    /// wording no longer matches the file (for CI).
    #[command(after_help = SNAPSHOT_EXIT_CODES)]
    Snapshot(SnapshotArgs),
    /// What changed in the wording between two versions of an agent.
    #[command(after_help = EXIT_CODES)]
    Diff(DiffArgs),
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

/// `utter check`'s arguments.
#[derive(Args)]
pub struct CheckArgs {
    /// The agent folder (holding responses.yml and/or skills/). Default: the current
    /// folder, or, when it is not an agent, each agent folder one or two levels below it
    /// (a pre-commit hook at a repository root).
    pub agent_dir: Option<PathBuf>,
    /// Output format. `text` is rustc-style; `json` is described in docs/cli-and-ci.md;
    /// `sarif` is SARIF 2.1.0 for code scanning; `github` prints workflow
    /// commands that annotate a GitHub Actions run. Default: `github` when
    /// GITHUB_ACTIONS=true, else `text`.
    #[arg(long, value_enum)]
    pub format: Option<CheckFormat>,
    /// Exit 1 when the project has warnings, too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Also note each placeholder memory can leave unset when its variant is
    /// delivered (`utter.analysis.placeholder_may_be_unset`, with such a memory).
    #[arg(long)]
    pub unset_placeholders: bool,
}

/// `utter render`'s arguments.
#[derive(Args)]
pub struct RenderArgs {
    /// The agent folder.
    pub agent_dir: PathBuf,
    /// The response name, e.g. `utter_card_replace_completed`.
    pub response: String,
    /// The active skill (its private entries are readable).
    #[arg(long, value_name = "ID")]
    pub skill: Option<String>,
    /// Memory as JSON, `{"<namespace>": {"<entry>": value}}`; `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub memory: Option<PathBuf>,
    /// `text` prints the delivered text; `json` prints text, variant, rephrase and fallback.
    #[arg(long, value_enum, default_value_t = RenderFormat::Text)]
    pub format: RenderFormat,
    /// Also explain the choice: each condition's value for this memory
    /// and why the delivered variant won (text: on stderr; json: the
    /// `explanation` key).
    #[arg(long)]
    pub explain: bool,
    /// The channel: `voice` writes each fact spoken (money, dates, times,
    /// codes, emails, phone numbers in words), as utter writes facts back
    /// into a voice rephrase.
    #[arg(long, value_enum, default_value_t = ChannelArg::Text)]
    pub channel: ChannelArg,
    /// The conversation's language, a BCP 47 tag (default: the agent's
    /// `agent.language` in agent.yml, else `en`).
    #[arg(long, value_name = "TAG")]
    pub lang: Option<String>,
}

/// `render --channel`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChannelArg {
    Text,
    Voice,
}

/// `utter snapshot`'s arguments.
#[derive(Args)]
pub struct SnapshotArgs {
    /// The agent folder.
    #[arg(default_value = ".")]
    pub agent_dir: PathBuf,
    /// The snapshot file (default: `responses.snap` in the agent folder).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also list the bundled responses the project does not override.
    #[arg(long)]
    pub bundled: bool,
    /// Compare with the file instead of writing it: exit 1 with a
    /// summary when the wording changed.
    #[arg(long)]
    pub check: bool,
    /// How `--check` reports a change: a summary by response (`text`), GitHub
    /// workflow commands, or JSON; `html` writes the review page instead (`--out`, else stdout).
    #[arg(long, value_enum, default_value_t = SnapshotFormat::Text)]
    pub format: SnapshotFormat,
}

/// `utter diff`'s arguments.
#[derive(Args)]
pub struct DiffArgs {
    /// The agent as it was (e.g. checked out from the main branch).
    pub old: PathBuf,
    /// The agent as it is now.
    pub new: PathBuf,
    /// Also compare the bundled responses the projects do not override.
    #[arg(long)]
    pub bundled: bool,
    /// `text`, `markdown` (a pull-request comment), `json` or `html` (a page).
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// For people (`human`, its earlier name, is read too).
    #[value(alias = "human")]
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SnapshotFormat {
    /// For people (`human`, its earlier name, is read too).
    #[value(alias = "human")]
    Text,
    Github,
    Json,
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Markdown,
    Json,
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderFormat {
    Text,
    Json,
}

/// `expand --strategy`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum StrategyArg {
    Auto,
    StraightLine,
    Compact,
}
