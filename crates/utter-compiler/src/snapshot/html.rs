//! The review report: the snapshot as one self-contained HTML page for the
//! people who sign wording off (inline CSS, no script, no network; it works
//! opened from disk). Every text from the agent goes through
//! [`escape::html`](crate::diagnostics::escape::html): shown, never markup.

use std::fmt::Write as _;

use super::diff::Diff;
use super::{ExamplePiece, Options, ResponseView, responses};
use crate::diagnostics::escape::html;
use crate::lower::Registry;

const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#1a1a1a}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1.05em;margin:1.5em 0 .3em}\
code,.text{font-family:ui-monospace,monospace}.text{white-space:pre-wrap;background:#f6f6f6;padding:.4em .6em;border-radius:4px;display:block}\
mark{background:#fde68a;border-radius:3px;padding:0 .15em}.badge{font-size:.8em;border-radius:3px;padding:.05em .4em;margin-left:.4em}\
.rephrase{background:#dbeafe}.unreachable{background:#fee2e2}.undecided{background:#fef3c7}.reachable{background:#dcfce7}\
.variant{margin:.6em 0 1em 1em}.meta{color:#555;font-size:.9em}.filled{background:#e0f2fe;border-radius:3px}\
.unset{background:#fecaca;border-radius:3px}ul.toc{columns:2}\
table.diff{border-collapse:collapse;width:100%}table.diff td,table.diff th{border:1px solid #ddd;padding:.3em;vertical-align:top}\
del{background:#fecaca;text-decoration:line-through}ins{background:#bbf7d0;text-decoration:none}";

/// The review report of `registry`: responses grouped by skill view, with a
/// contents list, each variant with its position, wording id, condition,
/// rephrase badge, template (placeholders marked), verdict and example.
pub fn report(registry: &Registry, options: Options) -> String {
    let views = responses(registry, options);
    let mut groups: Vec<(String, Vec<&ResponseView>)> = Vec::new();
    for view in &views {
        let group = match &view.view {
            Some(skill) => format!("skill {skill}"),
            None => "project root".to_owned(),
        };
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, members)) => members.push(view),
            None => groups.push((group, vec![view])),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::with_capacity(4096 + views.len() * 1024);
    page_start(&mut out, "Wording review");
    let _ = writeln!(
        out,
        "<p class=\"meta\">{} responses. Wording fingerprint <code>{}</code> (the snapshot's \
<code>fingerprint</code> line and the compiled agent's <code>WORDING_FINGERPRINT</code>).</p>",
        views.len(),
        html(&registry.wording_fingerprint())
    );
    out.push_str("<nav><ul class=\"toc\">\n");
    for (g, (group, members)) in groups.iter().enumerate() {
        let _ = writeln!(
            out,
            "<li><a href=\"#g{g}\">{}</a> ({})</li>",
            html(group),
            members.len()
        );
    }
    out.push_str("</ul></nav>\n");
    let mut anchor = 0;
    for (g, (group, members)) in groups.iter().enumerate() {
        let _ = writeln!(out, "<section id=\"g{g}\"><h2>{}</h2>", html(group));
        for view in members {
            anchor += 1;
            response(&mut out, registry, view, anchor);
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

/// The page's head: title and style.
fn page_start(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title>\
<style>{STYLE}</style></head><body>\n<h1>{title}</h1>\n"
    );
}

/// `utter diff` as a page: what to review first (variants now rephrased,
/// memory states that deliver another text), the responses added and
/// removed with their wording, and each changed field side by side, the
/// words that changed marked.
pub fn diff_report(d: &Diff) -> String {
    let mut out = String::with_capacity(4096);
    page_start(&mut out, "Wording changes");
    if d.is_empty() {
        out.push_str("<p>No wording changed.</p>\n</body></html>\n");
        return out;
    }
    let mut first = String::new();
    for c in &d.changed {
        for v in &c.now_rephrased {
            let _ = writeln!(
                first,
                "<li><code>{}</code> variant {v}: was delivered verbatim, is now rephrased by an LLM</li>",
                html(&c.name)
            );
        }
        for m in &c.moved {
            let _ = writeln!(
                first,
                "<li><code>{}</code> when <code>{}</code>: delivered <span class=\"text\">{}</span> now <span class=\"text\">{}</span></li>",
                html(&c.name),
                html(&m.state),
                html(&m.old),
                html(&m.new)
            );
        }
    }
    if !first.is_empty() {
        let _ = write!(
            out,
            "<section><h2>Review first</h2><ul>\n{first}</ul></section>\n"
        );
    }
    for (title, views) in [("Added", &d.added), ("Removed", &d.removed)] {
        if views.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<section><h2>{title}</h2>");
        for view in views {
            let _ = writeln!(out, "<h3><code>{}</code></h3>", html(&view.name));
            for v in &view.variants {
                let _ = writeln!(
                    out,
                    "<div class=\"variant\">variant {}<span class=\"text\">{}</span></div>",
                    v.index,
                    html(&v.source_text)
                );
            }
        }
        out.push_str("</section>\n");
    }
    if !d.changed.is_empty() {
        out.push_str("<section><h2>Changed</h2>\n");
        for c in &d.changed {
            let _ = writeln!(out, "<h3><code>{}</code></h3>", html(&c.name));
            if let Some((was, now)) = &c.file {
                let _ = writeln!(
                    out,
                    "<p class=\"meta\">file <code>{}</code> &rarr; <code>{}</code></p>",
                    html(was),
                    html(now)
                );
            }
            out.push_str("<table class=\"diff\"><tr><th></th><th>before</th><th>after</th></tr>\n");
            for v in &c.changes {
                let at = match v.now {
                    Some(now) if now != v.variant => format!("variant {} (now {now})", v.variant),
                    _ => format!("variant {}", v.variant),
                };
                let (old, new) = word_diff(&v.old, &v.new);
                let _ = writeln!(
                    out,
                    "<tr><td>{} {}</td><td class=\"text\">{old}</td><td class=\"text\">{new}</td></tr>",
                    html(&at),
                    html(v.field)
                );
            }
            out.push_str("</table>\n");
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

/// Words and the whitespace between them.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut space = None;
    for (i, c) in text.char_indices() {
        let now = c.is_whitespace();
        if space.is_some_and(|s| s != now) {
            out.push(&text[start..i]);
            start = i;
        }
        space = Some(now);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// `old` and `new` escaped, the words only one has marked (`<del>` in the
/// old, `<ins>` in the new): the longest common subsequence of their words
/// stays plain. Past 400 words a side, each side is marked whole.
fn word_diff(old: &str, new: &str) -> (String, String) {
    const MAX: usize = 400;
    let (a, b) = (tokens(old), tokens(new));
    if a.len() > MAX || b.len() > MAX {
        return (
            format!("<del>{}</del>", html(old)),
            format!("<ins>{}</ins>", html(new)),
        );
    }
    // lcs[i][j]: the common run of a[i..] and b[j..].
    let mut lcs = vec![vec![0u16; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut left, mut right) = (String::new(), String::new());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            left.push_str(&html(a[i]));
            right.push_str(&html(b[j]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            let _ = write!(right, "<ins>{}</ins>", html(b[j]));
            j += 1;
        } else {
            let _ = write!(left, "<del>{}</del>", html(a[i]));
            i += 1;
        }
    }
    (left, right)
}

fn response(out: &mut String, registry: &Registry, view: &ResponseView, anchor: usize) {
    let _ = writeln!(
        out,
        "<article id=\"r{anchor}\"><h3><code>{}</code></h3><p class=\"meta\">{}</p>",
        html(&view.name),
        html(&view.file)
    );
    if let Some(why) = &view.stopped {
        let _ = writeln!(out, "<p class=\"meta\">{}</p>", html(why));
    }
    let lowered = registry.response(&view.name);
    for v in &view.variants {
        let badge = match v.kind {
            "reachable" => "<span class=\"badge reachable\">delivered</span>",
            "unreachable" => "<span class=\"badge unreachable\">never delivered</span>",
            _ => "<span class=\"badge undecided\">not analysed</span>",
        };
        let rephrase = if v.rephrase {
            "<span class=\"badge rephrase\">rephrased</span>"
        } else {
            ""
        };
        let when = match (&v.condition, v.default) {
            (Some(c), _) => format!("if <code>{}</code>", html(c)),
            (None, true) => "default".to_owned(),
            (None, false) => "without condition".to_owned(),
        };
        let _ = writeln!(
            out,
            "<div class=\"variant\"><div>variant {} &middot; {when}{badge}{rephrase} \
&middot; <span class=\"meta\">wording id <code>{}</code></span></div>",
            v.index,
            html(&v.wording.to_string())
        );
        out.push_str("<span class=\"text\">");
        match lowered.and_then(|r| r.variants.get(v.index)) {
            Some(variant) => template(out, &variant.pieces),
            None => out.push_str(&html(&v.source_text)),
        }
        out.push_str("</span>\n");
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
    out.push_str("</article>\n");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ProjectFiles, check, lower};

    #[test]
    fn changed_words_are_marked_and_escaped() {
        let (old, new) = word_diff("A fee of $7.5 <b> applies", "A fee of $9 <b> applies now");
        assert_eq!(old, "A fee of <del>$7.5</del> &lt;b&gt; applies");
        assert_eq!(
            new,
            "A fee of <ins>$9</ins> &lt;b&gt; applies<ins> </ins><ins>now</ins>"
        );
        let long = "w ".repeat(500);
        assert!(word_diff(&long, "x").0.starts_with("<del>"));
    }

    #[test]
    fn a_diff_page_shows_each_change_and_no_markup_of_the_agent() {
        let agent = |text: &str| {
            let files = ProjectFiles::from_files([(
                "responses.yml".to_owned(),
                format!("responses:\n  utter_<i>x:\n    - text: \"{text}\"\n").into_bytes(),
            )]);
            lower(&check(&files)).expect("a valid agent")
        };
        let d = super::super::diff::diff(
            &agent("Hi <script>x</script>"),
            &agent("Hello <script>x</script>"),
            Options::default(),
        );
        let page = diff_report(&d);
        assert!(
            page.contains("<del>Hi</del>") && page.contains("<ins>Hello</ins>"),
            "{page}"
        );
        assert!(!page.contains("<script") && !page.contains("<i>"), "{page}");
        assert!(page.contains("utter_&lt;i&gt;x"));
    }

    /// Hostile names and texts render as text: no element, attribute or
    /// entity is made of them, and the page needs nothing from a network.
    #[test]
    fn the_agent_s_text_is_never_markup() {
        let files = ProjectFiles::from_files([
            (
                "responses.yml",
                "responses:\n  utter_x:\n    - text: \"<script>alert(1)</script> & {session.project.n}\"\n      condition: \"session.project.n == '<b>'\"\n      metadata: {rephrase: true}\n    - text: \"\\\" onmouseover='x' \\u200b\\n<img src=http://evil>\"\n",
            ),
            ("memory.yml", "n: {type: text}\n"),
        ]);
        let registry = lower(&check(&files)).expect("a valid agent");
        let page = report(&registry, Options { bundled: false });
        assert!(page.starts_with("<!DOCTYPE html>"));
        for hostile in ["<script", "<img", "<b>", "onmouseover='", "http://evil>"] {
            assert!(!page.contains(hostile), "{hostile} is markup in the page");
        }
        assert!(page.contains(
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; <mark>{session.project.n}</mark>"
        ));
        assert!(page.contains("\\u{200b}\\n&lt;img src=http://evil&gt;"));
        assert!(page.contains("<span class=\"badge rephrase\">rephrased</span>"));
        assert!(!page.contains("<link") && !page.contains("src=\"http"));
        assert!(page.contains(&registry.wording_fingerprint()));
    }
}
