//! The placeholders of a variant's text: one that can never be filled is
//! an error (or a warning where the engine fills it), and one that reads a
//! `float` next to a currency, or a `list` or `json` entry, is said.

use std::ops::Range;

use utter::EntryType;

use super::{Schema, Scope};
use crate::diagnostics::{Severity, codes};
use crate::load::FileCx;
use crate::load::yaml::Node;
use crate::template::{self, RawPiece};

/// Placeholders that can never resolve are errors (the customer would read
/// the braces; `lints:` in utter.yml lowers them), but for one whose value
/// the engine fills in with its text for an unset value (a warning).
pub(super) fn check_placeholders(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    scope: &Scope,
    response: &str,
    index: usize,
    text: &str,
    node: &Node,
) {
    for piece in template::scan(text) {
        let rendering = |cx: &mut FileCx<'_>, (ns, entry): (&str, &str), raw: &str, span| {
            report_rendering(
                cx,
                schema,
                (ns, entry),
                (raw, span, text),
                node,
                response,
                index,
            );
        };
        let (span, problem) = match &piece {
            RawPiece::Text(_) => continue,
            RawPiece::Session {
                reference,
                raw,
                span,
            } => {
                let problem = session_problem(schema, scope, reference, raw);
                if problem.is_none()
                    && let Some((ns, entry)) = RawPiece::session_key(reference)
                    && !schema.unknowable(ns, entry)
                {
                    rendering(cx, (ns, entry), raw, span);
                }
                (span, problem)
            }
            RawPiece::Bare { name, raw, span } => {
                // The active skill's entry fills it first, else the
                // project's: looked up in that order, not in the hash
                // map's (which differs from run to run).
                let declared = scope
                    .active_skill()
                    .into_iter()
                    .chain(["project"])
                    .map(|ns| (ns.to_owned(), name.clone()))
                    .find(|key| schema.entries.contains_key(key));
                if let Some((ns, entry)) = &declared {
                    rendering(cx, (ns, entry), raw, span);
                }
                let problem = declared
                    .is_none()
                    .then(|| bare_problem(schema, scope, name, raw))
                    .flatten();
                (span, problem)
            }
        };
        if let Some(problem) = problem {
            report_placeholder(cx, node, span, (response, index), problem);
        }
    }
}

/// Why a placeholder is never filled as meant.
struct PlaceholderProblem {
    message: String,
    /// A placeholder that would resolve (`{…}`), if one is near.
    suggestion: Option<String>,
    /// The engine fills it with its unset text: a warning, not an error.
    engine_fills: bool,
}

/// The problem of `{session.<reference>}`, if any: no entry name, or an
/// entry this scope cannot read (a readable one is fine, and one of a
/// memory file that failed is not judged).
fn session_problem(
    schema: &Schema,
    scope: &Scope,
    reference: &str,
    raw: &str,
) -> Option<PlaceholderProblem> {
    let Some((ns, entry)) = RawPiece::session_key(reference) else {
        return Some(PlaceholderProblem {
            message: format!(
                "placeholder `{raw}` has no entry name, so it is always delivered as written"
            ),
            suggestion: None,
            engine_fills: false,
        });
    };
    if schema.unknowable(ns, entry) || schema.readable(scope, ns, entry) {
        return None;
    }
    // The engine's one unset text stands in for an unreadable value, too.
    let unset_text = crate::bundled::UNSET_TEXTS
        .iter()
        .find(|(n, e, _)| *n == ns && *e == entry);
    let delivered = unset_text.map_or("as written".to_owned(), |(_, _, text)| {
        format!("as `{text}`")
    });
    let reason = schema
        .unreadable_reason(scope, ns, entry)
        .replacen("references ", "reads ", 1);
    Some(PlaceholderProblem {
        message: format!("placeholder `{raw}` {reason}, so it is delivered {delivered}"),
        suggestion: schema
            .near_reference(scope, ns, entry)
            .map(|r| format!("{{{r}}}")),
        engine_fills: unset_text.is_some(),
    })
}

/// The problem of `{name}` that no entry the scope fills declares (`None`
/// when a memory file it could come from failed: not judged).
fn bare_problem(
    schema: &Schema,
    scope: &Scope,
    name: &str,
    raw: &str,
) -> Option<PlaceholderProblem> {
    let fills = |ns: &str| ns == "project" || matches!(scope, Scope::Skill(s) if s == ns);
    if schema.broken.iter().any(|ns| fills(ns)) {
        return None;
    }
    let names: Vec<&str> = schema
        .entries
        .keys()
        .filter(|(ns, _)| fills(ns))
        .map(|(_, e)| e.as_str())
        .collect();
    Some(PlaceholderProblem {
        message: format!(
            "placeholder `{raw}` names no declared entry (`{name}` in the active skill's or the project memory.yml): the customer would read it as written"
        ),
        suggestion: schema
            .hints
            .did_you_mean(name, names)
            .map(|s| format!("{{{s}}}")),
        engine_fills: false,
    })
}

/// Reports `problem` at the placeholder's `span`: an error with its fix,
/// or a warning where the engine fills the placeholder.
fn report_placeholder(
    cx: &mut FileCx<'_>,
    node: &Node,
    span: &std::ops::Range<usize>,
    (response, index): (&str, usize),
    problem: PlaceholderProblem,
) {
    let at = node.subspan(&cx.source.text, span);
    let severity = if problem.engine_fills {
        Severity::Warning
    } else {
        Severity::Error
    };
    cx.report_in(
        codes::UNKNOWN_PLACEHOLDER,
        severity,
        at,
        response,
        Some(index),
        problem.message,
    );
    if problem.suggestion.is_none() && !problem.engine_fills {
        cx.help(format!(
            "declare the entry in memory.yml, or, to deliver it as written as the reference does, set `lints: {{{}: warn}}` in utter.yml",
            codes::UNKNOWN_PLACEHOLDER
        ));
    }
    cx.suggest(problem.suggestion.as_deref());
}

/// A note where a placeholder of a `list` or `json` entry is interpolated:
/// it renders as Python's `repr` of the value (`['a', 'b']`).
#[allow(clippy::too_many_arguments)]
fn report_rendering(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    (namespace, entry): (&str, &str),
    (raw, span, text): (&str, &Range<usize>, &str),
    node: &Node,
    response: &str,
    index: usize,
) {
    let Some((_, info)) = schema
        .entries
        .get(&(namespace.to_owned(), entry.to_owned()))
    else {
        return;
    };
    if info.ty == EntryType::Float && next_to_currency(text, span) {
        let at = node.subspan(&cx.source.text, span);
        cx.report_in(
            codes::FLOAT_MONEY,
            Severity::Warning,
            at,
            response,
            Some(index),
            format!(
                "placeholder `{raw}` reads a `float` entry next to a currency: it is delivered as Python writes a float (49.90 as `49.9`, 15 as `15.0`, 1e20 as `1e+20`)"
            ),
        );
        cx.help(format!(
            "hold the amount as a `text` entry the application formats (\"49.90\"), or, if the float reads right, set `lints: {{{}: allow}}` in utter.yml",
            codes::FLOAT_MONEY
        ));
    }
    if matches!(info.ty, EntryType::List | EntryType::Json) {
        let at = node.subspan(&cx.source.text, span);
        cx.report_in(
            codes::PLACEHOLDER_REPR,
            Severity::Note,
            at,
            response,
            Some(index),
            format!(
                "placeholder `{raw}` reads a `{}` entry: it is delivered as Python writes the value (`['a', 'b']`, `{{'k': 1}}`); interpolate a `text` entry to control the wording",
                info.ty
            ),
        );
    }
}

/// Whether the placeholder at `span` of `text` stands right next to a
/// currency: a sign before or after it (`$`, `€`, ...), or a currency
/// code or name after or before it (`EUR`, `dollars`).
fn next_to_currency(text: &str, span: &Range<usize>) -> bool {
    const SIGNS: &[char] = &['$', '€', '£', '¥', '₹', '₩', '₽', '¢', '₺', '₪', '₦', '₱'];
    const WORDS: &[&str] = &[
        "usd", "eur", "gbp", "jpy", "chf", "cad", "aud", "inr", "cny", "dollar", "dollars", "euro",
        "euros", "pound", "pounds", "yen", "franc", "francs", "rupee", "rupees", "cent", "cents",
    ];
    let before = text[..span.start].trim_end_matches(' ');
    let after = text[span.end..].trim_start_matches(' ');
    let sign_before = before.ends_with(SIGNS);
    let sign_after = after.starts_with(SIGNS);
    let word = |w: Option<&str>| {
        w.is_some_and(|w| {
            WORDS.contains(
                &w.trim_matches(|c: char| !c.is_alphabetic())
                    .to_lowercase()
                    .as_str(),
            )
        })
    };
    let word_after = word(after.split_whitespace().next());
    let word_before = word(before.split_whitespace().next_back());
    sign_before || sign_after || word_after || word_before
}
