//! `utter snapshot` (write or check the reviewed wording) and `utter diff`
//! (what changed in the wording between two versions of an agent).

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use utter_compiler::Registry;
use utter_compiler::diagnostics::codes;
use utter_compiler::diagnostics::escape::{escape, markdown_code, quote};
use utter_compiler::snapshot::diff::{Diff, diff};
use utter_compiler::snapshot::{self, Options, ResponseView};

use crate::{Dialect, DiffFormat, Fatal, SnapshotFormat, registry_or_errors};

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

/// `--check` as GitHub workflow commands: an error at each changed hunk.
pub fn github(expected: &str, found: &str, path: &str) -> String {
    let file = crate::output::escape_property(path);
    if let Some(foreign) = too_foreign(expected, found) {
        return format!(
            "::error file={file},line=1,title={}::{}\n",
            codes::SNAPSHOT_CHANGED,
            crate::output::escape_data(&foreign_summary(foreign, expected))
        );
    }
    let diff = line_diff(expected, found);
    let mut out = String::new();
    for group in diff.grouped_ops(0) {
        let Some(first) = group.first() else { continue };
        let line = first.old_range().start + 1;
        out.push_str(&format!(
            "::error file={file},line={line},title={}::{}\n",
            codes::SNAPSHOT_CHANGED,
            crate::output::escape_data("the wording changed without review: run `utter snapshot` once the change is reviewed")
        ));
    }
    out
}

/// How `utter diff` writes data: as text (quoted, escaped) or as Markdown
/// (every name and wording in a code span, so nothing from the agent is
/// read as markup).
struct Style {
    markdown: bool,
}

impl Style {
    /// A heading.
    fn heading(&self, title: &str) -> String {
        if self.markdown {
            format!("### {title}\n")
        } else {
            format!("{title}\n")
        }
    }

    /// A list item at `depth` (0: top level).
    fn item(&self, depth: usize, line: &str) -> String {
        if self.markdown {
            format!("{}- {line}\n", "  ".repeat(depth))
        } else {
            format!("{}{line}\n", "  ".repeat(depth + 1))
        }
    }

    /// A name: a response, a file.
    fn name(&self, name: &str) -> String {
        if self.markdown {
            markdown_code(name)
        } else {
            escape(name).into_owned()
        }
    }

    /// Wording or a condition: quoted, so every character shows.
    fn text(&self, text: &str) -> String {
        if self.markdown {
            markdown_code(&quote(text))
        } else {
            quote(text)
        }
    }
}

/// The wording of an added or removed response, one item per variant.
fn wording(style: &Style, out: &mut String, response: &ResponseView) {
    out.push_str(&style.item(0, &style.name(&response.name)));
    for v in &response.variants {
        let when = match &v.condition {
            Some(c) => format!("if {}", style.text(c)),
            None if v.default => "default".to_owned(),
            None => "without condition".to_owned(),
        };
        let rephrase = if v.rephrase { ", rephrased" } else { "" };
        out.push_str(&style.item(
            1,
            &format!(
                "variant {} ({when}{rephrase}): {}",
                v.index,
                style.text(&v.source_text)
            ),
        ));
    }
}

/// `utter diff` as people read it (or as Markdown, for a pull request).
pub fn diff_text(d: &Diff, markdown: bool) -> String {
    if d.is_empty() {
        return "no wording changed\n".to_owned();
    }
    let style = Style { markdown };
    let mut out = String::new();
    let mut review = String::new();
    for c in &d.changed {
        for v in &c.now_rephrased {
            review.push_str(&style.item(
                0,
                &format!(
                    "{} variant {v}: was delivered verbatim, is now rephrased by an LLM",
                    style.name(&c.name)
                ),
            ));
        }
        for m in &c.moved {
            review.push_str(&style.item(
                0,
                &format!(
                    "{} when {}: delivered {}, now {}",
                    style.name(&c.name),
                    style.name(&m.state),
                    style.text(&m.old),
                    style.text(&m.new)
                ),
            ));
        }
    }
    if !review.is_empty() {
        out.push_str(&style.heading("Review first"));
        out.push_str(&review);
        out.push('\n');
    }
    for (title, responses) in [("Added", &d.added), ("Removed", &d.removed)] {
        if !responses.is_empty() {
            out.push_str(&style.heading(title));
            for r in responses {
                wording(&style, &mut out, r);
            }
            out.push('\n');
        }
    }
    if !d.changed.is_empty() {
        out.push_str(&style.heading("Changed"));
        for c in &d.changed {
            out.push_str(&style.item(0, &style.name(&c.name)));
            if let Some((was, now)) = &c.file {
                out.push_str(&style.item(
                    1,
                    &format!("file: {} -> {}", style.name(was), style.name(now)),
                ));
            }
            for v in &c.changes {
                let at = match v.now {
                    Some(now) if now != v.variant => format!("variant {} (now {now})", v.variant),
                    _ => format!("variant {}", v.variant),
                };
                let (old, new) = match v.field {
                    "text" | "variant" => (style.text(&v.old), style.text(&v.new)),
                    _ => (style.name(&v.old), style.name(&v.new)),
                };
                out.push_str(&style.item(1, &format!("{at} {}: {old} -> {new}", v.field)));
            }
        }
    }
    // Every line is built of escaped data; once more, whole lines.
    out.lines().map(|l| escape(l).into_owned() + "\n").collect()
}

/// A response's wording as JSON.
fn wording_json(r: &ResponseView) -> serde_json::Value {
    json!({
        "response": r.name,
        "file": r.file,
        "variants": r.variants.iter().map(|v| json!({
            "index": v.index,
            "condition": v.condition,
            "default": v.default,
            "rephrase": v.rephrase,
            "text": v.source_text,
        })).collect::<Vec<_>>(),
    })
}

/// `utter diff --format json`.
pub fn diff_json(d: &Diff) -> serde_json::Value {
    json!({
        "added": d.added.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
        "removed": d.removed.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
        "added_wording": d.added.iter().map(wording_json).collect::<Vec<_>>(),
        "removed_wording": d.removed.iter().map(wording_json).collect::<Vec<_>>(),
        "changed": d.changed.iter().map(|c| json!({
            "response": c.name,
            "file": c.file.as_ref().map(|(old, new)| json!({"old": old, "new": new})),
            "now_rephrased": c.now_rephrased,
            "moved": c.moved.iter().map(|m| {
                let mut moved = json!({"state": m.state, "old": m.old, "new": m.new});
                // A memory document like `explain`'s witness; absent (never
                // null) where JSON cannot hold a value of the state.
                let memory = crate::explain::memory_document(
                    m.memory.iter().map(|(n, e, v)| (n.as_str(), e.as_str(), v)),
                );
                if let (Some(doc), serde_json::Value::Object(fields)) = (memory, &mut moved) {
                    fields.insert("memory".into(), doc);
                }
                moved
            }).collect::<Vec<_>>(),
            "changes": c.changes.iter().map(|v| json!({
                "variant": v.variant,
                "now": v.now,
                "field": v.field,
                "old": v.old,
                "new": v.new,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The diff of two registries.
pub fn compare(old: &Registry, new: &Registry, bundled: bool) -> Diff {
    diff(old, new, Options { bundled })
}

/// The snapshot of a registry.
pub fn render(registry: &Registry, bundled: bool) -> String {
    snapshot::render(registry, Options { bundled })
}

pub fn cmd_snapshot(
    dir: &Path,
    out: Option<&Path>,
    bundled: bool,
    check: bool,
    format: SnapshotFormat,
    color: bool,
    dialect: Dialect,
) -> Result<ExitCode, Fatal> {
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
        let page = snapshot::html::report(&registry, snapshot::Options { bundled });
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
    let changed = expected != found;
    let stdout = std::io::stdout();
    let mut o = stdout.lock();
    match format {
        SnapshotFormat::Json => writeln!(
            o,
            "{}",
            serde_json::json!({
                "snapshot": shown,
                "changed": changed,
                "diff": changed.then(|| unified(&expected, &found, &shown)),
                "update": update,
            })
        )?,
        SnapshotFormat::Github if changed => write!(o, "{}", github(&expected, &found, &shown))?,
        SnapshotFormat::Human if changed => {
            write!(o, "{}", unified(&expected, &found, &shown))?;
            writeln!(
                o,
                "{}",
                escape(&format!(
                    "error: the wording changed without review; once it is reviewed, run `{update}`"
                ))
            )?;
        }
        _ => writeln!(o, "{}", escape(&format!("ok: the wording matches {shown}")))?,
    }
    Ok(if changed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub fn cmd_diff(
    old: &Path,
    new: &Path,
    bundled: bool,
    format: DiffFormat,
    color: bool,
    dialect: Dialect,
) -> Result<ExitCode, Fatal> {
    let (Some(before), Some(after)) = (
        registry_or_errors(old, dialect, "compared", None, color)?,
        registry_or_errors(new, dialect, "compared", None, color)?,
    ) else {
        return Ok(ExitCode::from(1));
    };
    let d = compare(&before, &after, bundled);
    let stdout = std::io::stdout();
    let mut o = stdout.lock();
    match format {
        DiffFormat::Text => write!(o, "{}", diff_text(&d, false))?,
        DiffFormat::Markdown => write!(o, "{}", diff_text(&d, true))?,
        DiffFormat::Json => writeln!(o, "{}", diff_json(&d))?,
        DiffFormat::Html => write!(o, "{}", snapshot::html::diff_report(&d))?,
    }
    Ok(ExitCode::SUCCESS)
}
