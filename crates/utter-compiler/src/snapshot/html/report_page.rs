//! The review report: every response and variant of an agent, grouped by
//! skill view, under a header a reviewer signs.

use crate::analysis::VerdictKind;
use std::fmt::Write as _;

use super::{Provenance, condition_label, html, page_start, signing_table};
use crate::lower::Registry;
use crate::snapshot::{ExamplePiece, Options, ResponseView, responses};

/// The review report of `registry`: a header to sign (agent, fingerprint,
/// date, counts), contents by skill view and response, then each
/// response with each variant's position, wording id, condition,
/// rephrase badge, template (placeholders marked), verdict and example.
pub fn report(registry: &Registry, options: Options, about: &Provenance) -> String {
    let views = responses(registry, options);
    let mut groups: Vec<(String, Vec<(usize, &ResponseView)>)> = Vec::new();
    for (anchor, view) in views.iter().enumerate() {
        let group = match &view.view {
            Some(skill) => format!("skill {skill}"),
            None => "project root".to_owned(),
        };
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, members)) => members.push((anchor, view)),
            None => groups.push((group, vec![(anchor, view)])),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let variants: usize = views.iter().map(|v| v.variants.len()).sum();
    let count = |kind: VerdictKind| {
        views
            .iter()
            .flat_map(|v| &v.variants)
            .filter(|v| v.kind == kind)
            .count()
    };
    let rephrased = views
        .iter()
        .flat_map(|v| &v.variants)
        .filter(|v| v.rephrase)
        .count();
    let mut out = String::with_capacity(4096 + views.len() * 1024);
    page_start(&mut out, "Wording review");
    let counts = format!(
        "{} responses, {variants} variants: {} delivered, {} never delivered, {} not analysed; {rephrased} rephrased by an LLM",
        views.len(),
        count(VerdictKind::Reachable),
        count(VerdictKind::Unreachable),
        count(VerdictKind::Undecided),
    );
    signing_table(
        &mut out,
        about,
        &[("Wording fingerprint", registry.wording_fingerprint())],
        &counts,
    );
    out.push_str("<nav><h2>Contents</h2><ul>\n");
    for (g, (group, members)) in groups.iter().enumerate() {
        let _ = writeln!(
            out,
            "<li><a href=\"#g{g}\">{}</a> ({})<ul>",
            html(group),
            members.len()
        );
        for (anchor, view) in members {
            let _ = writeln!(
                out,
                "<li><a href=\"#r{anchor}\"><code>{}</code></a></li>",
                html(&view.name)
            );
        }
        out.push_str("</ul></li>\n");
    }
    out.push_str("</ul></nav>\n");
    for (g, (group, members)) in groups.iter().enumerate() {
        let _ = writeln!(out, "<section id=\"g{g}\"><h2>{}</h2>", html(group));
        for (anchor, view) in members {
            response(&mut out, registry, view, *anchor);
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

fn response(out: &mut String, registry: &Registry, view: &ResponseView, anchor: usize) {
    let _ = writeln!(
        out,
        "<details class=\"response\" open id=\"r{anchor}\"><summary><code>{}</code></summary><p class=\"meta\">{}</p>",
        html(&view.name),
        html(&view.file)
    );
    if let Some(why) = &view.stopped {
        let _ = writeln!(out, "<p class=\"meta\">{}</p>", html(why));
    }
    let lowered = registry.response(&view.name);
    for v in &view.variants {
        let badge = format!(
            "<span class=\"badge {}\">{}</span>",
            v.kind.as_str(),
            v.kind.words()
        );
        let rephrase = if v.rephrase {
            "<span class=\"badge rephrase\">rephrased</span>"
        } else {
            ""
        };
        let when = condition_label(v.condition.as_deref(), v.default);
        let _ = writeln!(
            out,
            "<div class=\"variant\"><div>variant {} &middot; {when}{badge}{rephrase} \
&middot; <span class=\"meta\">wording id <code>{}</code></span></div>",
            v.index,
            html(&v.wording.to_string())
        );
        out.push_str("<div class=\"text\">");
        match lowered.and_then(|r| r.variants.get(v.index)) {
            Some(variant) => template(out, &variant.pieces),
            None => out.push_str(&html(&v.source_text)),
        }
        out.push_str("</div>\n");
        let verdict = v.verdict();
        let _ = writeln!(out, "<p class=\"meta\">{}</p>", html(&verdict));
        if let Some(example) = &v.example {
            out.push_str("<p class=\"meta\">example: ");
            example_html(out, example);
            out.push_str("</p>\n");
        }
        if !v.guarded.is_empty() {
            let facts: Vec<String> = v
                .guarded
                .iter()
                .map(|f| format!("<code>{}</code>", html(f)))
                .collect();
            let _ = writeln!(
                out,
                "<p class=\"meta\">a rephrase must keep: {}</p>",
                facts.join(", ")
            );
        }
        for (placeholder, _) in &v.may_be_unset {
            let _ = writeln!(
                out,
                "<p class=\"meta\">may be delivered as written: <code>{}</code></p>",
                html(placeholder)
            );
        }
        out.push_str("</div>\n");
    }
    out.push_str("</details>\n");
}

/// A template with its placeholders marked.
fn template(out: &mut String, pieces: &[utter::Piece<String, Vec<usize>>]) {
    for piece in pieces {
        match piece {
            utter::Piece::Text(text) => out.push_str(&html(text)),
            utter::Piece::Session { raw, .. } | utter::Piece::Bare { raw, .. } => {
                let _ = write!(out, "<mark>{}</mark>", html(raw));
            }
        }
    }
}

/// An example delivery: wording, filled values, unset placeholders.
fn example_html(out: &mut String, example: &[ExamplePiece]) {
    out.push_str("<span class=\"text\">");
    for piece in example {
        match piece {
            ExamplePiece::Wording(text) => out.push_str(&html(text)),
            ExamplePiece::Filled(value) => {
                let _ = write!(out, "<span class=\"filled\">{}</span>", html(value));
            }
            ExamplePiece::Unset(raw) => {
                let _ = write!(out, "<span class=\"unset\">{}</span>", html(raw));
            }
        }
    }
    out.push_str("</span>");
}
