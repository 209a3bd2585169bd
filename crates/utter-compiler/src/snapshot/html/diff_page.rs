//! `utter diff` as a page: before and after side by side.

use std::fmt::Write as _;

use super::{Provenance, condition_label, html, page_start, signing_table, word_diff};
use crate::snapshot::ResponseView;
use crate::snapshot::diff::{Diff, ResponseChange};

/// `utter diff` as a page: a header to sign, contents, what to review
/// first (variants now rephrased, memory states that deliver another
/// text, before and after side by side), the responses added and removed
/// with their wording, and each changed field before and after side by
/// side, the words that changed marked in both.
pub fn diff_report(d: &Diff, about: &Provenance) -> String {
    let mut out = String::with_capacity(4096);
    page_start(&mut out, "Wording changes");
    let review_first: usize = d
        .changed
        .iter()
        .map(|c| c.now_rephrased.len() + c.moved.len())
        .sum();
    let counts = format!(
        "{} responses changed, {} added, {} removed; {review_first} to review first",
        d.changed.len(),
        d.added.len(),
        d.removed.len()
    );
    let [before, after] = &d.fingerprints;
    signing_table(
        &mut out,
        about,
        &[
            ("Wording fingerprint before", before.clone()),
            ("Wording fingerprint after", after.clone()),
        ],
        &counts,
    );
    if d.is_empty() {
        out.push_str("<p>No wording changed.</p>\n</body></html>\n");
        return out;
    }
    diff_contents(&mut out, d, review_first);
    if review_first > 0 {
        review_first_section(&mut out, d);
    }
    for (title, id, views) in [("Added", "a", &d.added), ("Removed", "d", &d.removed)] {
        if views.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<section id=\"{id}\"><h2>{title}</h2>");
        for (n, view) in views.iter().enumerate() {
            let _ = writeln!(
                out,
                "<details class=\"response\" open id=\"{id}{n}\"><summary><code>{}</code></summary>",
                html(&view.name)
            );
            for v in &view.variants {
                let _ = writeln!(
                    out,
                    "<div class=\"variant\">variant {} &middot; {}<div class=\"text\">{}</div></div>",
                    v.index,
                    condition_label(v.condition.as_deref(), v.default),
                    html(&v.source_text)
                );
            }
            out.push_str("</details>\n");
        }
        out.push_str("</section>\n");
    }
    if !d.changed.is_empty() {
        out.push_str("<section id=\"c\"><h2>Changed</h2>\n");
        for (n, c) in d.changed.iter().enumerate() {
            changed_response(&mut out, c, n);
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

fn names(views: &[ResponseView]) -> Vec<&str> {
    views.iter().map(|v| v.name.as_str()).collect()
}

/// The contents of a diff page: each section, each response.
fn diff_contents(out: &mut String, d: &Diff, review_first: usize) {
    out.push_str("<nav><h2>Contents</h2><ul>\n");
    if review_first > 0 {
        let _ = writeln!(
            out,
            "<li><a href=\"#first\">Review first</a> ({review_first})</li>"
        );
    }
    let sections = [
        ("Added", "a", names(&d.added)),
        ("Removed", "d", names(&d.removed)),
        (
            "Changed",
            "c",
            d.changed.iter().map(|c| c.name.as_str()).collect(),
        ),
    ];
    for (title, id, members) in sections {
        if members.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<li><a href=\"#{id}\">{title}</a> ({})<ul>",
            members.len()
        );
        for (n, name) in members.iter().enumerate() {
            let _ = writeln!(
                out,
                "<li><a href=\"#{id}{n}\"><code>{}</code></a></li>",
                html(name)
            );
        }
        out.push_str("</ul></li>\n");
    }
    out.push_str("</ul></nav>\n");
}

/// Variants now rephrased, and memory states that deliver another text:
/// the texts before and after side by side.
fn review_first_section(out: &mut String, d: &Diff) {
    out.push_str("<section id=\"first\"><h2>Review first</h2>\n");
    let rephrased: Vec<String> = d
        .changed
        .iter()
        .flat_map(|c| {
            c.now_rephrased.iter().map(|v| {
                format!(
                    "<li><code>{}</code> variant {v}: was delivered verbatim, is now rephrased by an LLM</li>",
                    html(&c.name)
                )
            })
        })
        .collect();
    if !rephrased.is_empty() {
        let _ = writeln!(out, "<ul>\n{}</ul>", rephrased.join("\n"));
    }
    if d.changed.iter().any(|c| !c.moved.is_empty()) {
        out.push_str(
            "<table class=\"diff\"><colgroup><col class=\"at\"><col><col></colgroup>\
<thead><tr><th>when</th><th>delivered before</th><th>delivered now</th></tr></thead><tbody>\n",
        );
        for c in &d.changed {
            for m in &c.moved {
                let (old, new) = word_diff(&m.old, &m.new);
                let _ = writeln!(
                    out,
                    "<tr><th scope=\"row\"><code>{}</code><div class=\"meta\">{}</div></th>\
<td class=\"before\"><div class=\"text\">{old}</div></td><td class=\"after\"><div class=\"text\">{new}</div></td></tr>",
                    html(&c.name),
                    html(&m.state)
                );
            }
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("</section>\n");
}

/// One changed response: each changed field, before and after.
fn changed_response(out: &mut String, c: &ResponseChange, n: usize) {
    let _ = writeln!(
        out,
        "<details class=\"response\" open id=\"c{n}\"><summary><code>{}</code> ({} change{})</summary>",
        html(&c.name),
        c.changes.len(),
        if c.changes.len() == 1 { "" } else { "s" }
    );
    if let Some((was, now)) = &c.file {
        let _ = writeln!(
            out,
            "<p class=\"meta\">file <code>{}</code> &rarr; <code>{}</code></p>",
            html(was),
            html(now)
        );
    }
    if !c.changes.is_empty() {
        out.push_str(
            "<table class=\"diff\"><colgroup><col class=\"at\"><col><col></colgroup>\
<thead><tr><th></th><th>before</th><th>after</th></tr></thead><tbody>\n",
        );
        for v in &c.changes {
            let at = match v.now {
                Some(now) if now != v.variant => format!("variant {} (now {now})", v.variant),
                _ => format!("variant {}", v.variant),
            };
            let (old, new) = word_diff(&v.old, &v.new);
            let _ = writeln!(
                out,
                "<tr><th scope=\"row\">{} {}</th><td class=\"before\"><div class=\"text\">{old}</div></td>\
<td class=\"after\"><div class=\"text\">{new}</div></td></tr>",
                html(&at),
                html(v.field)
            );
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("</details>\n");
}
