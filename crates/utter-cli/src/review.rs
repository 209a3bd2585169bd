//! `utter snapshot` (write or check the reviewed wording) and `utter diff`
//! (what changed in the wording between two versions of an agent).

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use utter_compiler::Registry;
use utter_compiler::diagnostics::escape::escape;
use utter_compiler::snapshot::diff::{Diff, diff};
use utter_compiler::snapshot::{self, Options};

use crate::{DiffFormat, Fatal, SnapshotFormat, registry_or_errors};

/// The default snapshot file of an agent.
pub fn default_path(agent: &Path) -> std::path::PathBuf {
    agent.join("responses.snap")
}

/// A unified diff of two snapshots, data escaped.
pub fn unified(expected: &str, found: &str, path: &str) -> String {
    let diff = similar::TextDiff::from_lines(expected, found);
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("{path} (reviewed)"),
            &format!("{path} (the agent now)"),
        )
        .to_string();
    text.lines()
        .map(|l| escape(l).into_owned() + "\n")
        .collect()
}

/// `--check` as GitHub workflow commands: an error at each changed hunk.
pub fn github(expected: &str, found: &str, path: &str) -> String {
    let diff = similar::TextDiff::from_lines(expected, found);
    let mut out = String::new();
    for group in diff.grouped_ops(0) {
        let Some(first) = group.first() else { continue };
        let line = first.old_range().start + 1;
        let file = crate::output::escape_property(path);
        out.push_str(&format!(
            "::error file={file},line={line},title=utter.snapshot.changed::{}\n",
            crate::output::escape_data("the wording changed without review: run `utter snapshot` once the change is reviewed")
        ));
    }
    out
}

/// `utter diff` as people read it (or as Markdown, for a pull request).
pub fn diff_text(d: &Diff, markdown: bool) -> String {
    let mut out = String::new();
    let (h2, item, code) = if markdown {
        ("### ", "- ", "`")
    } else {
        ("", "  ", "")
    };
    let review: Vec<String> = d
        .changed
        .iter()
        .flat_map(|c| {
            let flips = c.now_rephrased.iter().map(move |v| {
                format!("{item}{code}{}{code} variant {v}: was delivered verbatim, is now rephrased by an LLM", c.name)
            });
            let moved = c.moved.iter().map(move |m| {
                format!(
                    "{item}{code}{}{code} when {}: delivered {:?}, now {:?}",
                    c.name, m.state, m.old, m.new
                )
            });
            flips.chain(moved)
        })
        .collect();
    if d.is_empty() {
        return "no wording changed\n".to_owned();
    }
    if !review.is_empty() {
        out.push_str(&format!("{h2}Review first\n"));
        for line in &review {
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
    }
    for (title, names) in [("Added", &d.added), ("Removed", &d.removed)] {
        if !names.is_empty() {
            out.push_str(&format!("{h2}{title}\n"));
            for n in names {
                out.push_str(&format!("{item}{code}{n}{code}\n"));
            }
            out.push('\n');
        }
    }
    if !d.changed.is_empty() {
        out.push_str(&format!("{h2}Changed\n"));
        for c in &d.changed {
            out.push_str(&format!("{item}{code}{}{code}\n", c.name));
            for v in &c.changes {
                out.push_str(&format!(
                    "{item}{item}variant {} {}: {:?} -> {:?}\n",
                    v.variant, v.field, v.old, v.new
                ));
            }
        }
    }
    out.lines().map(|l| escape(l).into_owned() + "\n").collect()
}

/// `utter diff --format json`.
pub fn diff_json(d: &Diff) -> serde_json::Value {
    json!({
        "added": d.added,
        "removed": d.removed,
        "changed": d.changed.iter().map(|c| json!({
            "response": c.name,
            "now_rephrased": c.now_rephrased,
            "moved": c.moved.iter().map(|m| json!({"state": m.state, "old": m.old, "new": m.new})).collect::<Vec<_>>(),
            "changes": c.changes.iter().map(|v| json!({"variant": v.variant, "field": v.field, "old": v.old, "new": v.new})).collect::<Vec<_>>(),
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
) -> Result<ExitCode, Fatal> {
    let Some(registry) = registry_or_errors(dir, "snapshot", color)? else {
        return Ok(ExitCode::from(1));
    };
    let path = out.map_or_else(|| default_path(dir), Path::to_path_buf);
    let shown = path.display().to_string();
    let found = render(&registry, bundled);
    if !check {
        std::fs::write(&path, &found).map_err(|e| Fatal(format!("cannot write `{shown}`: {e}")))?;
        println!("wrote {}", escape(&shown));
        return Ok(ExitCode::SUCCESS);
    }
    let update = format!("utter snapshot {}", dir.display());
    let expected = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "{}",
                escape(&format!(
                    "error: no snapshot at `{shown}`: run `{update}` to write it, review it, and commit it"
                ))
            );
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(Fatal(format!("cannot read `{shown}`: {e}"))),
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
) -> Result<ExitCode, Fatal> {
    let (Some(before), Some(after)) = (
        registry_or_errors(old, "compared", color)?,
        registry_or_errors(new, "compared", color)?,
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
    }
    Ok(ExitCode::SUCCESS)
}
