//! The review pages: the snapshot as one self-contained HTML page for the
//! people who sign wording off ([`report`]), and `utter diff` as one
//! ([`diff_report`]); inline CSS, no script, no network, so they work
//! opened from disk. Every text from the agent goes through
//! [`escape::html`](crate::diagnostics::escape::html): shown, never markup.
//! Here: what both pages share (style, header, condition label, word diff).

mod diff_page;
mod report_page;

use std::fmt::Write as _;

use crate::diagnostics::escape::html;
pub use diff_page::diff_report;
pub use report_page::report;

/// The page's style. Before and after sit in a table of fixed layout (two
/// equal columns, long words wrapped inside their cell); every response
/// is a `<details>` the browser renders when scrolled to (a page of
/// 20,000 variants opens at once); the print style drops the contents and
/// keeps rows whole, for a reviewer who prints or saves a PDF.
const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1a1a1a}\
h1{font-size:1.5em;margin-bottom:.3em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
code,.text{font-family:ui-monospace,monospace}.text{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.4em .6em;border-radius:4px}\
div.text{display:block}mark{background:#fde68a;border-radius:3px;padding:0 .15em}\
.badge{font-size:.8em;border-radius:3px;padding:.05em .4em;margin-left:.4em}\
.rephrase{background:#dbeafe}.unreachable{background:#fee2e2}.undecided{background:#fef3c7}.reachable{background:#dcfce7}\
.variant{margin:.6em 0 1em 1em}.words{color:#374151;font-style:italic}.meta{color:#555;font-size:.9em}.filled{background:#e0f2fe;border-radius:3px}\
.unset{background:#fecaca;border-radius:3px}nav ul{margin:.2em 0}nav li{overflow-wrap:anywhere}\
details.response{content-visibility:auto;contain-intrinsic-size:auto 12em;margin:.8em 0}\
details.response>summary{cursor:pointer;font-weight:600;overflow-wrap:anywhere}\
table{border-collapse:collapse}table.sign td,table.sign th{text-align:left;padding:.15em .8em .15em 0;vertical-align:top;overflow-wrap:anywhere}\
table.diff{width:100%;table-layout:fixed;margin:.4em 0}table.diff col.at{width:10em}\
table.diff td,table.diff th{border:1px solid #ddd;padding:.3em;vertical-align:top;overflow-wrap:anywhere;text-align:left}\
table.diff td .text{margin:0}\
del{background:#fecaca;text-decoration:line-through}ins{background:#bbf7d0;text-decoration:none}\
.signature td{height:2.2em;border-bottom:1px solid #999;min-width:14em}\
@media print{body{max-width:none;margin:0;font-size:10pt}nav{display:none}a{color:inherit;text-decoration:none}\
details.response{content-visibility:visible}details>summary{list-style:none}\
details::details-content{content-visibility:visible;display:block}\
tr,.variant{break-inside:avoid}h2,h3,summary{break-after:avoid}}";

/// What the header of a report names besides the wording: the agent (for
/// a diff, both versions) and the day the page was made, for the
/// reviewer who signs it.
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// The agent's folder as given; for a diff, before and after.
    pub agents: Vec<String>,
    /// The day the page was made (`2026-12-07`), when known.
    pub date: Option<String>,
}

/// The page's head: title and style.
fn page_start(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title>\
<style>{STYLE}</style></head><body>\n<header><h1>{title}</h1>\n"
    );
}

/// The header a reviewer signs: the agent, the fingerprints, the date and
/// the counts, then lines for name, signature and date. Closes the
/// page's `<header>`.
fn signing_table(
    out: &mut String,
    about: &Provenance,
    fingerprints: &[(&str, String)],
    counts: &str,
) {
    out.push_str("<table class=\"sign\">\n");
    let agents = match about.agents.as_slice() {
        [] => None,
        [one] => Some(("Agent", html(one))),
        many => Some((
            "Agents",
            many.iter()
                .map(|a| html(a))
                .collect::<Vec<_>>()
                .join(" &rarr; "),
        )),
    };
    if let Some((label, agents)) = agents {
        let _ = writeln!(
            out,
            "<tr><th>{label}</th><td><code>{agents}</code></td></tr>"
        );
    }
    for (label, fingerprint) in fingerprints {
        let _ = writeln!(
            out,
            "<tr><th>{label}</th><td><code>{}</code></td></tr>",
            html(fingerprint)
        );
    }
    if let Some(date) = &about.date {
        let _ = writeln!(out, "<tr><th>Made on</th><td>{}</td></tr>", html(date));
    }
    let _ = writeln!(out, "<tr><th>Contents</th><td>{}</td></tr>", html(counts));
    out.push_str(
        "</table>\n<table class=\"sign signature\"><tr><th>Reviewed by</th><td></td>\
<th>Signature</th><td></td><th>Date</th><td></td></tr></table>\n</header>\n",
    );
}

/// When a variant is delivered, as the page shows it.
fn condition_label(condition: Option<&str>, default: bool) -> String {
    crate::wording::Selection::of(condition, default).label(|c| {
        match crate::condition::words_of(c) {
            Some(words) => format!(
                "<code>{}</code> <span class=\"words\">({})</span>",
                html(c),
                html(&words)
            ),
            None => format!("<code>{}</code>", html(c)),
        }
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::Options;
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
        let page = diff_report(&d, &Provenance::default());
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
        let page = report(
            &registry,
            Options { bundled: false },
            &Provenance::default(),
        );
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
