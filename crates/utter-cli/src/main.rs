//! `utter`: validate a Mantle agent project in CI, render its responses for a
//! given memory, and show the Rust code it compiles to.
//!
//! Exit codes: 0 success, 1 the project has error findings, 2 cannot run.
#![forbid(unsafe_code)]

mod json;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use utter::{Context, SlotMemory};
use utter_compiler::diagnostics::{did_you_mean, render_finding};
use utter_compiler::{
    Checked, Finding, ProjectFiles, Registry, check, codegen, lower, memory_json,
};

const USAGE: &str = "\
utter: compile-time checked responses for Rasa Mantle agents

Usage:
  utter check [AGENT_DIR] [--format human|json] [--deny-warnings]
  utter render AGENT_DIR RESPONSE [--skill ID] [--memory FILE.json] [--format text|json]
  utter expand [AGENT_DIR]

Commands:
  check    Validate every responses.yml and memory.yml of the project (default folder: .)
  render   Deliver one response for a memory given as JSON: {\"<namespace>\": {\"<entry>\": value}}
  expand   Print the Rust code the project compiles to

Options:
  --deny-warnings  (check) exit 1 when the project has warnings, too

Exit codes: 0 ok, 1 the project has errors (or warnings with --deny-warnings),
2 utter could not run (including a folder with no responses.yml).";

/// A failure to run: bad arguments, unreadable input. Exit code 2.
struct Fatal(String);

impl<E: std::fmt::Display> From<E> for Fatal {
    fn from(e: E) -> Self {
        Fatal(e.to_string())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Human,
    Json,
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(Fatal(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, Fatal> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let command = match parser.next()? {
        Some(Value(v)) => v.string()?,
        Some(Long("help") | Short('h')) => {
            println!("{USAGE}");
            return Ok(ExitCode::SUCCESS);
        }
        Some(Long("version") | Short('V')) => {
            println!("utter {}", env!("CARGO_PKG_VERSION"));
            return Ok(ExitCode::SUCCESS);
        }
        Some(other) => return Err(Fatal(format!("{}\n\n{USAGE}", other.unexpected()))),
        None => return Err(Fatal(format!("a command is required\n\n{USAGE}"))),
    };
    let mut positional: Vec<String> = Vec::new();
    let mut format: Option<String> = None;
    let mut skill: Option<String> = None;
    let mut memory: Option<PathBuf> = None;
    let mut deny_warnings = false;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("deny-warnings") if command == "check" => deny_warnings = true,
            Long("format") if command != "expand" => format = Some(parser.value()?.string()?),
            Long("skill") if command == "render" => skill = Some(parser.value()?.string()?),
            Long("memory") if command == "render" => memory = Some(parser.value()?.into()),
            Long("help") | Short('h') => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            Value(v) => positional.push(v.string()?),
            other => {
                return Err(Fatal(format!(
                    "{} for `utter {command}`",
                    other.unexpected()
                )));
            }
        }
    }
    match command.as_str() {
        "check" => {
            let format = parse_format(format.as_deref(), &["human", "json"])?;
            let [dir] = take::<1>(positional, &["AGENT_DIR"], Some("."))?;
            cmd_check(Path::new(&dir), format, deny_warnings)
        }
        "render" => {
            let format = parse_format(format.as_deref(), &["text", "json"])?;
            let [dir, response] = take::<2>(positional, &["AGENT_DIR", "RESPONSE"], None)?;
            cmd_render(
                Path::new(&dir),
                &response,
                skill.as_deref(),
                memory.as_deref(),
                format,
            )
        }
        "expand" => {
            let [dir] = take::<1>(positional, &["AGENT_DIR"], Some("."))?;
            cmd_expand(Path::new(&dir))
        }
        other => Err(Fatal(format!("unknown command `{other}`\n\n{USAGE}"))),
    }
}

fn parse_format(value: Option<&str>, allowed: &[&str]) -> Result<Format, Fatal> {
    match value {
        None => Ok(Format::Human),
        Some(v) if allowed.contains(&v) => Ok(if v == "json" {
            Format::Json
        } else {
            Format::Human
        }),
        Some(v) => Err(Fatal(format!(
            "invalid --format `{v}`: expected {}",
            allowed.join(" or ")
        ))),
    }
}

/// Exactly `N` positional arguments (the last may default).
fn take<const N: usize>(
    args: Vec<String>,
    names: &[&str; N],
    default_last: Option<&str>,
) -> Result<[String; N], Fatal> {
    let mut args = args;
    if args.len() == N - 1
        && let Some(d) = default_last
    {
        args.push(d.to_owned());
    }
    match <[String; N]>::try_from(args) {
        Ok(a) => Ok(a),
        Err(args) if args.len() < N => Err(Fatal(format!(
            "missing argument {}\n\n{USAGE}",
            names[args.len()]
        ))),
        Err(args) => Err(Fatal(format!(
            "unexpected argument `{}`\n\n{USAGE}",
            args[N]
        ))),
    }
}

fn load(dir: &Path) -> Result<Checked, Fatal> {
    let files = ProjectFiles::read(dir)?;
    // A folder without any responses.yml is not an agent: checking it would
    // say `ok` in CI forever (a wrong path, a moved project).
    if !files
        .files
        .keys()
        .any(|label| label.ends_with("responses.yml"))
    {
        return Err(Fatal(format!(
            "`{}` holds no `responses.yml` (nor `skills/<id>/responses.yml`); is it the agent folder?",
            dir.display()
        )));
    }
    Ok(check(&files))
}

fn print_findings_human(
    out: &mut impl std::io::Write,
    checked: &Checked,
    findings: &[Finding],
) -> std::io::Result<()> {
    for finding in findings {
        writeln!(
            out,
            "{}\n",
            render_finding(finding, checked.source(&finding.file))
        )?;
    }
    Ok(())
}

fn summary(checked: &Checked) -> (usize, usize) {
    let errors = checked.findings.iter().filter(|f| f.is_error()).count();
    (errors, checked.findings.len() - errors)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn cmd_check(dir: &Path, format: Format, deny_warnings: bool) -> Result<ExitCode, Fatal> {
    let checked = load(dir)?;
    let (errors, warnings) = summary(&checked);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match format {
        Format::Json => writeln!(out, "{}", json::findings(&checked.findings))?,
        Format::Human => {
            print_findings_human(&mut out, &checked, &checked.findings)?;
            let project_files = checked
                .sources
                .iter()
                .filter(|s| !s.label.starts_with("<bundled>"))
                .count();
            writeln!(
                out,
                "{}: {} checked in {}: {}, {}",
                if errors > 0 { "error" } else { "ok" },
                dir.display(),
                plural(project_files, "file"),
                plural(errors, "error"),
                plural(warnings, "warning"),
            )?;
        }
    }
    Ok(if errors > 0 || (deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The project's registry; `None` when it has errors, which are then
/// printed to stderr ("nothing <done>").
fn registry_or_errors(dir: &Path, done: &str) -> Result<Option<Registry>, Fatal> {
    let checked = load(dir)?;
    match lower(&checked) {
        Ok(registry) => Ok(Some(registry)),
        Err(errors) => {
            let stderr = std::io::stderr();
            let mut err = stderr.lock();
            print_findings_human(&mut err, &checked, &errors)?;
            let count = plural(errors.len(), "error");
            writeln!(err, "error: {} has {count}; nothing {done}", dir.display())?;
            Ok(None)
        }
    }
}

fn cmd_render(
    dir: &Path,
    response: &str,
    skill: Option<&str>,
    memory_file: Option<&Path>,
    format: Format,
) -> Result<ExitCode, Fatal> {
    let Some(registry) = registry_or_errors(dir, "rendered")? else {
        return Ok(ExitCode::from(1));
    };
    if let Some(skill) = skill
        && !registry.skills.iter().any(|s| s == skill)
    {
        {
            let hint = did_you_mean(skill, registry.skills.iter().map(String::as_str))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            return Err(Fatal(format!(
                "unknown skill `{skill}`{hint}; the project's skills are: {}",
                registry.skills.join(", ")
            )));
        }
    }
    let mut memory = SlotMemory::new(&registry.entries);
    if let Some(path) = memory_file {
        let label = path.display().to_string();
        let limit = utter_compiler::load::project::MAX_FILE_BYTES;
        let bytes = utter_compiler::load::project::read_bounded(path, limit)
            .map_err(|e| Fatal(format!("cannot read memory file `{label}`: {e}")))?
            .map_err(|_| {
                Fatal(format!(
                    "memory file `{label}` is larger than {limit} bytes; utter reads memory files of at most that size"
                ))
            })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            Fatal(format!(
                "memory file `{label}` is not UTF-8 (at byte {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        let assignments = memory_json::parse(&text).map_err(|e| Fatal(format!("{label}:{e}")))?;
        for a in assignments {
            let (line, column) = (a.line, a.column);
            if let Err(error @ utter::SetError::WrongType { .. }) =
                memory.set(&a.namespace, &a.entry, a.value)
            {
                return Err(Fatal(format!("{label}:{line}:{column}: {error}")));
            } else if memory.entry(&a.namespace, &a.entry).is_none() {
                let undeclared = utter::SetError::Undeclared {
                    namespace: a.namespace.clone(),
                    name: a.entry.clone(),
                };
                let key = format!("{}.{}", a.namespace, a.entry);
                let keys: Vec<String> = registry
                    .entries
                    .iter()
                    .map(|e| format!("{}.{}", e.namespace, e.name))
                    .collect();
                let hint = did_you_mean(&key, keys.iter().map(String::as_str))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                eprintln!(
                    "warning: {label}:{line}:{column}: {undeclared}{hint}; it is not readable and is ignored"
                );
            }
        }
    }
    let ctx = match skill {
        Some(skill) => Context::for_skill_id(&memory, skill, &registry.skills)
            .map_err(|e| Fatal(e.to_string()))?,
        None => Context::new(&memory),
    };
    let delivery = registry.deliver(response, &ctx);
    if registry.response(response).is_none() {
        // Delivered as the engine does (the name itself), but said.
        let hint = did_you_mean(response, registry.responses.iter().map(|r| r.name.as_str()))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        eprintln!(
            "warning: the project defines no response `{response}`{hint}; it is delivered as its name"
        );
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match format {
        Format::Human => writeln!(out, "{}", delivery.text)?,
        Format::Json => writeln!(out, "{}", json::delivery(&delivery))?,
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_expand(dir: &Path) -> Result<ExitCode, Fatal> {
    let Some(registry) = registry_or_errors(dir, "generated")? else {
        return Ok(ExitCode::from(1));
    };
    let source = codegen::pretty(codegen::generate(&registry), codegen::HEADER)?;
    std::io::stdout().lock().write_all(source.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
