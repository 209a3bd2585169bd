//! `utter snapshot`: write the reviewed wording, or check it (`--check`):
//! a summary by response, GitHub workflow commands, or JSON with the
//! summary and a bounded line diff.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use utter_compiler::Registry;
use utter_compiler::diagnostics::codes;
use utter_compiler::diagnostics::escape::escape;
use utter_compiler::snapshot::changes::{Changes, Invisible, changes};
use utter_compiler::snapshot::html::Provenance;
use utter_compiler::snapshot::{self, Options};

use super::today;
use crate::args::{Globals, SnapshotArgs, SnapshotFormat};
use crate::fatal::Fatal;
use crate::open::registry_or_errors;
use crate::output::{At, workflow_command};

/// The default snapshot file of an agent.
pub fn default_path(agent: &Path) -> std::path::PathBuf {
    agent.join("responses.snap")
}

/// The line diff of two snapshots, its work bounded: past the deadline the
/// diff is coarser (whole changed runs), so a hostile snapshot file cannot
/// make a check quadratic.
fn line_diff<'a>(expected: &'a str, found: &'a str) -> similar::TextDiff<'a, 'a, 'a, str> {
    similar::TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(expected, found)
}

/// The most lines of unified diff printed: past them, a line says how many
/// hunks were left out (a hostile snapshot cannot make the output huge).
const MAX_DIFF_LINES: usize = 2_000;

/// The most lines of the snapshot file that may be missing from what the
/// agent writes now for a line diff to be computed: past them, the file is
/// too unlike any snapshot of this agent to diff line by line, and a
/// count is printed instead (so the work stays linear in the file).
const MAX_FOREIGN_LINES: usize = 20_000;

/// How many lines of `expected` the agent's snapshot `found` does not
/// have, when more than [`MAX_FOREIGN_LINES`]: a set of `found`'s lines
/// (the agent's, bounded by it) and one pass over the file.
fn too_foreign(expected: &str, found: &str) -> Option<usize> {
    let ours: std::collections::HashSet<&str> = found.lines().collect();
    let foreign = expected.lines().filter(|l| !ours.contains(l)).count();
    (foreign > MAX_FOREIGN_LINES).then_some(foreign)
}

/// What is said instead of a line diff of a file too unlike the agent's.
fn foreign_summary(foreign: usize, expected: &str) -> String {
    format!(
        "{foreign} of the {} lines of the snapshot file are not in the agent's snapshot: too many to show line by line (the file is not this agent's snapshot, or the wording changed almost everywhere); run `utter snapshot` to see what the agent writes now\n",
        expected.lines().count()
    )
}

/// A unified diff of two snapshots, data escaped, at most
/// [`MAX_DIFF_LINES`] lines of it.
pub fn unified(expected: &str, found: &str, path: &str) -> String {
    if let Some(foreign) = too_foreign(expected, found) {
        return foreign_summary(foreign, expected);
    }
    let diff = line_diff(expected, found);
    let mut unified = diff.unified_diff();
    unified.context_radius(3);
    let mut out = format!(
        "--- {}\n+++ {}\n",
        escape(&format!("{path} (reviewed)")),
        escape(&format!("{path} (the agent now)"))
    );
    let mut lines = 0;
    let mut cut = false;
    for hunk in unified.iter_hunks() {
        if lines >= MAX_DIFF_LINES {
            cut = true;
            break;
        }
        out.push_str(&format!("{}\n", hunk.header()));
        for change in hunk.iter_changes() {
            if lines >= MAX_DIFF_LINES {
                cut = true;
                break;
            }
            let sign = match change.tag() {
                similar::ChangeTag::Equal => ' ',
                similar::ChangeTag::Delete => '-',
                similar::ChangeTag::Insert => '+',
            };
            out.push(sign);
            out.push_str(&escape(change.value().trim_end_matches('\n')));
            out.push('\n');
            lines += 1;
        }
    }
    if cut {
        out.push_str(&format!(
            "... the rest of the diff is not shown (cut at {MAX_DIFF_LINES} lines)\n"
        ));
    }
    out
}

/// The most responses the summary of `--check` lists, and the most lines
/// it shows of each side of one: past them, a line says how many more.
const MAX_SUMMARY_RESPONSES: usize = 50;
const MAX_SUMMARY_LINES: usize = 12;

/// What an invisible difference is, in words.
fn invisible_words(invisible: &Invisible) -> String {
    match invisible {
        Invisible::CarriageReturns(n) => {
            format!("{n} lines end in CR LF (\\r\\n) where utter writes LF")
        }
        Invisible::ByteOrderMark => "the file starts with a byte-order mark (U+FEFF)".to_owned(),
        Invisible::TrailingSpace(n) => format!("{n} lines end in spaces or tabs"),
        Invisible::NoFinalNewline => "the last line has no line end".to_owned(),
    }
}

/// `--check` in a few lines, as `utter diff` says what changed: the
/// responses changed (each with the lines only one side has), added and
/// removed, and differences no line diff shows, named. Every line from
/// the file is escaped.
pub fn summary(changes: &Changes, path: &str, update: &str) -> String {
    let mut out = String::new();
    let invisible: Vec<String> = changes.invisible.iter().map(invisible_words).collect();
    if changes.only_invisible() {
        out.push_str(&format!(
            "the snapshot file `{}` holds the reviewed wording, written with characters a line diff does not show: {}; run `{update}` to write it as utter does (and, if Git converts it, add `*.snap -text` to .gitattributes)\n",
            escape(path),
            invisible.join("; ")
        ));
        return out;
    }
    let mut counts = vec![
        format!("{} changed", changes.changed.len()),
        format!("{} added", changes.added.len()),
        format!("{} removed", changes.removed.len()),
    ];
    let responses_same =
        changes.changed.is_empty() && changes.added.is_empty() && changes.removed.is_empty();
    if changes.header && responses_same {
        // (A changed response changes the fingerprint too: said only alone.)
        counts.push("but the header or fingerprint lines differ".to_owned());
    }
    out.push_str(&format!(
        "the wording in `{}` changed: responses {}\n",
        escape(path),
        counts.join(", ")
    ));
    let mut listed = 0;
    let mut more = 0;
    let mut list = |out: &mut String, line: String| {
        if listed < MAX_SUMMARY_RESPONSES {
            out.push_str(&line);
            listed += 1;
            true
        } else {
            more += 1;
            false
        }
    };
    for c in &changes.changed {
        if !list(&mut out, format!("  changed {}\n", escape(&c.name))) {
            continue;
        }
        for (sign, lines) in [('-', &c.reviewed), ('+', &c.now)] {
            for line in lines.iter().take(MAX_SUMMARY_LINES) {
                out.push_str(&format!("    {sign} {}\n", escape(line.trim_start())));
            }
            if lines.len() > MAX_SUMMARY_LINES {
                out.push_str(&format!(
                    "    {sign} ... {} more lines\n",
                    lines.len() - MAX_SUMMARY_LINES
                ));
            }
        }
    }
    for (what, names) in [("added", &changes.added), ("removed", &changes.removed)] {
        for name in names {
            list(&mut out, format!("  {what} {}\n", escape(name)));
        }
    }
    if more > 0 {
        out.push_str(&format!(
            "  ... and {more} more responses (`utter diff` or the JSON diff shows them)\n"
        ));
    }
    if !invisible.is_empty() {
        out.push_str(&format!("  also: {}\n", invisible.join("; ")));
    }
    out
}

/// `--check` as GitHub workflow commands: an error at each changed hunk.
pub fn github(expected: &str, found: &str, path: &str) -> String {
    let error = |line, message: &str| {
        workflow_command(
            "error",
            path,
            At::Line(line),
            codes::SNAPSHOT_CHANGED,
            message,
        )
    };
    if let Some(foreign) = too_foreign(expected, found) {
        return error(1, &foreign_summary(foreign, expected));
    }
    let diff = line_diff(expected, found);
    let mut out = String::new();
    for group in diff.grouped_ops(0) {
        let Some(first) = group.first() else { continue };
        out.push_str(&error(
            first.old_range().start + 1,
            "the wording changed without review: run `utter snapshot` once the change is reviewed",
        ));
    }
    out
}

/// The summary of `--check` as JSON.
fn changes_json(changes: &Changes) -> serde_json::Value {
    json!({
        "invisible": changes.invisible.iter().map(invisible_words).collect::<Vec<_>>(),
        "header": changes.header,
        "added": changes.added,
        "removed": changes.removed,
        "changed": changes.changed.iter().map(|c| json!({
            "response": c.name,
            "reviewed": c.reviewed,
            "now": c.now,
        })).collect::<Vec<_>>(),
    })
}

/// The snapshot of a registry.
pub fn render(registry: &Registry, bundled: bool) -> String {
    snapshot::render(registry, Options { bundled })
}

pub fn cmd_snapshot(args: &SnapshotArgs, globals: Globals) -> Result<ExitCode, Fatal> {
    let Globals { color, dialect } = globals;
    let (dir, out, bundled) = (&args.agent_dir, args.out.as_deref(), args.bundled);
    let (check, format) = (args.check, args.format);
    let Some(registry) = registry_or_errors(dir, dialect, "written to the snapshot", None, color)?
    else {
        return Ok(ExitCode::from(1));
    };
    if format == SnapshotFormat::Html {
        if check {
            return Err(Fatal(
                "`--format html` writes the review report; `--check` compares the snapshot: use one of them".to_owned(),
            ));
        }
        let about = Provenance {
            agents: vec![dir.display().to_string()],
            date: Some(today()),
        };
        let page = snapshot::html::report(&registry, snapshot::Options { bundled }, &about);
        return match out {
            Some(path) => {
                snapshot::file::write(path, &page).map_err(|e| Fatal(e.to_string()))?;
                writeln!(
                    std::io::stdout(),
                    "wrote {}",
                    escape(&path.display().to_string())
                )?;
                Ok(ExitCode::SUCCESS)
            }
            None => {
                std::io::stdout().lock().write_all(page.as_bytes())?;
                Ok(ExitCode::SUCCESS)
            }
        };
    }
    let path = out.map_or_else(|| default_path(dir), Path::to_path_buf);
    let shown = path.display().to_string();
    let found = render(&registry, bundled);
    if !check {
        snapshot::file::write(&path, &found).map_err(|e| Fatal(e.to_string()))?;
        writeln!(std::io::stdout(), "wrote {}", escape(&shown))?;
        return Ok(ExitCode::SUCCESS);
    }
    let update = format!("utter snapshot {}", dir.display());
    let expected = match snapshot::file::read(&path) {
        Ok(text) => text,
        Err(snapshot::file::FileError::Missing(_)) => {
            eprintln!(
                "{}",
                escape(&format!(
                    "error: no snapshot at `{shown}`: run `{update}` to write it, review it, and commit it"
                ))
            );
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(Fatal(e.to_string())),
    };
    let what_changed = changes(&expected, &found);
    let changed = what_changed.is_some();
    let stdout = std::io::stdout();
    let mut o = stdout.lock();
    match (format, &what_changed) {
        (SnapshotFormat::Json, _) => writeln!(
            o,
            "{}",
            crate::output::json_text(&serde_json::json!({
                "snapshot": shown,
                "changed": changed,
                "summary": what_changed.as_ref().map(changes_json),
                "diff": changed.then(|| unified(&expected, &found, &shown)),
                "update": update,
            }))
        )?,
        (SnapshotFormat::Github, Some(_)) => write!(o, "{}", github(&expected, &found, &shown))?,
        (SnapshotFormat::Text, Some(what_changed)) => {
            write!(o, "{}", summary(what_changed, &shown, &update))?;
            let error = if what_changed.only_invisible() {
                format!(
                    "error: the snapshot file is not written as utter writes it; run `{update}`"
                )
            } else {
                format!(
                    "error: the wording changed without review; once it is reviewed, run `{update}`"
                )
            };
            writeln!(o, "{}", escape(&error))?;
        }
        _ => writeln!(o, "{}", escape(&format!("ok: the wording matches {shown}")))?,
    }
    Ok(if changed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
