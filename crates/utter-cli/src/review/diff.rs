//! `utter diff`: what changed in the wording between two versions of an
//! agent, as text, Markdown (a pull-request comment), JSON or a page.

use std::io::Write as _;
use std::process::ExitCode;

use serde_json::json;
use utter_compiler::Registry;
use utter_compiler::diagnostics::escape::{escape, markdown_code, quote};
use utter_compiler::snapshot::diff::{Diff, diff};
use utter_compiler::snapshot::html::Provenance;
use utter_compiler::snapshot::{self, Options, ResponseView};

use super::today;
use crate::args::{DiffArgs, DiffFormat, Globals};
use crate::fatal::Fatal;
use crate::open::{open, registry_or_report};

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
        let when = v.selection().label(|c| style.text(c));
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

/// The most characters of `utter diff --format markdown`: what a GitHub
/// pull-request comment holds.
pub const MARKDOWN_LIMIT: usize = 65_536;

/// `utter diff` as people read it (or as Markdown, for a pull request:
/// at most [`MARKDOWN_LIMIT`] characters, review-first items first, then
/// as many as fit, then a line saying how many were left out).
pub fn diff_text(d: &Diff, markdown: bool) -> String {
    if d.is_empty() {
        return "no wording changed\n".to_owned();
    }
    let style = Style { markdown };
    let sections = diff_sections(&style, d);
    let mut out = String::new();
    if !markdown {
        for (title, items) in &sections {
            out.push_str(&style.heading(title));
            out.extend(items.iter().map(String::as_str));
            out.push('\n');
        }
        // Every line is built of escaped data; once more, whole lines.
        return out.lines().map(|l| escape(l).into_owned() + "\n").collect();
    }
    // Room kept for the line that says what was left out.
    let budget = MARKDOWN_LIMIT - 400;
    let (mut used, mut left_out, mut total) = (0, 0, 0);
    for (title, items) in &sections {
        let heading = style.heading(title);
        let mut heading_written = false;
        for item in items {
            total += 1;
            let cost = item.chars().count()
                + if heading_written {
                    0
                } else {
                    heading.len() + 1
                };
            if left_out > 0 || used + cost > budget {
                left_out += 1;
                continue;
            }
            if !heading_written {
                if used > 0 {
                    out.push('\n');
                }
                out.push_str(&heading);
                heading_written = true;
            }
            out.push_str(item);
            used += cost;
        }
    }
    if left_out > 0 {
        out.push_str(&format!(
            "\n**{left_out} of {total} changes are not shown here** (a pull-request comment holds {MARKDOWN_LIMIT} characters): `utter diff --format html` writes them all.\n"
        ));
    }
    out.lines().map(|l| escape(l).into_owned() + "\n").collect()
}

/// The items of a diff by section, in the order a reviewer reads them:
/// review first, added, removed, changed. Each item is whole lines.
fn diff_sections(style: &Style, d: &Diff) -> Vec<(&'static str, Vec<String>)> {
    let mut review = Vec::new();
    for c in &d.changed {
        for v in &c.now_rephrased {
            review.push(style.item(
                0,
                &format!(
                    "{} variant {v}: was delivered verbatim, is now rephrased by an LLM",
                    style.name(&c.name)
                ),
            ));
        }
        for m in &c.moved {
            review.push(style.item(
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
    let wordings = |responses: &[ResponseView]| -> Vec<String> {
        responses
            .iter()
            .map(|r| {
                let mut item = String::new();
                wording(style, &mut item, r);
                item
            })
            .collect()
    };
    let changed = d
        .changed
        .iter()
        .map(|c| {
            let mut item = style.item(0, &style.name(&c.name));
            if let Some((was, now)) = &c.file {
                item.push_str(&style.item(
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
                item.push_str(&style.item(1, &format!("{at} {}: {old} -> {new}", v.field)));
            }
            item
        })
        .collect();
    [
        ("Review first", review),
        ("Added", wordings(&d.added)),
        ("Removed", wordings(&d.removed)),
        ("Changed", changed),
    ]
    .into_iter()
    .filter(|(_, items)| !items.is_empty())
    .collect()
}

/// A response's wording as JSON: its variants in the one shape of a
/// variant (as `explain` gives them).
fn wording_json(r: &ResponseView) -> serde_json::Value {
    json!({
        "response": r.name,
        "file": r.file,
        "variants": r.variants,
    })
}

/// `utter diff --format json`.
pub fn diff_json(d: &Diff) -> serde_json::Value {
    json!({
        "schema": "utter/diff/v1",
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

pub fn cmd_diff(args: &DiffArgs, globals: Globals) -> Result<ExitCode, Fatal> {
    let Globals { color, dialect } = globals;
    let (old, new, bundled, format) = (&args.old, &args.new, args.bundled, args.format);
    // Both opened at once (each a check); their findings printed in order.
    let (before, after) = std::thread::scope(|scope| {
        let before = scope.spawn(|| open(old, dialect));
        let after = open(new, dialect);
        let before = before
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (before, after)
    });
    let (Some(before), Some(after)) = (
        registry_or_report(before?, old, "compared", None, color)?.ok(),
        registry_or_report(after?, new, "compared", None, color)?.ok(),
    ) else {
        return Ok(ExitCode::from(1));
    };
    let d = compare(&before, &after, bundled);
    let stdout = std::io::stdout();
    let mut o = stdout.lock();
    match format {
        DiffFormat::Text => write!(o, "{}", diff_text(&d, false))?,
        DiffFormat::Markdown => write!(o, "{}", diff_text(&d, true))?,
        DiffFormat::Json => writeln!(o, "{}", crate::output::json_text(&diff_json(&d)))?,
        DiffFormat::Html => {
            let about = Provenance {
                agents: vec![old.display().to_string(), new.display().to_string()],
                date: Some(today()),
            };
            write!(o, "{}", snapshot::html::diff_report(&d, &about))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use utter_compiler::snapshot::diff::Diff;
    use utter_compiler::snapshot::diff::{Moved, ResponseChange, VariantChange};

    /// 10,000 changed responses and a few to review first: the Markdown
    /// fits a pull-request comment, review first on top, and says how
    /// many were left out.
    #[test]
    fn markdown_fits_a_pull_request_comment() {
        let change = |n: usize, moved: bool| ResponseChange {
            name: format!("utter_response_{n}"),
            file: None,
            now_rephrased: Vec::new(),
            moved: if moved {
                vec![Moved {
                    state: format!("session.x.n = {n}"),
                    memory: Vec::new(),
                    old: "Your fee is $7.5.".to_owned(),
                    new: "Your fee is $9.".to_owned(),
                }]
            } else {
                Vec::new()
            },
            changes: vec![VariantChange {
                variant: 0,
                now: Some(0),
                field: "text",
                old: format!("The old wording of response {n}, long enough to take some room."),
                new: format!("The new wording of response {n}, long enough to take some room."),
            }],
        };
        let mut d = Diff {
            changed: (0..10_000).map(|n| change(n, n % 2_500 == 7)).collect(),
            ..Diff::default()
        };
        let page = diff_text(&d, true);
        assert!(page.chars().count() <= MARKDOWN_LIMIT, "{}", page.len());
        assert!(page.starts_with("### Review first\n"), "{}", &page[..200]);
        assert_eq!(
            page.matches("delivered `").count(),
            4,
            "every review-first item"
        );
        // Items shown: the review-first ones and the changed ones.
        let shown = page.matches("\n- `utter_response_").count();
        let note = page.lines().last().unwrap();
        assert_eq!(
            note,
            format!(
                "**{} of 10004 changes are not shown here** (a pull-request comment holds 65536 characters): `utter diff --format html` writes them all.",
                10_004 - shown
            )
        );
        // A small diff is whole, with no such line.
        d.changed.truncate(3);
        assert!(!diff_text(&d, true).contains("not shown"));
    }
}
