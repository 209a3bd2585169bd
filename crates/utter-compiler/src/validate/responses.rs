//! Checks of `responses.yml` variants: texts, placeholders, conditions
//! (grammar, readability, declared types) and the default-variant rules.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;

use super::{MergedResponse, Schema, Scope, types};
use crate::condition::{self, Expr, MemoryRef};
use utter::EntryType;

use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use crate::load::FileCx;
use crate::load::responses::{ConditionField, RawResponse};
use crate::load::yaml::Node;
use crate::names::variant_name;
use crate::template::{self, RawPiece};

/// Conditions already checked without a finding, by scope and text: one
/// parse and check per distinct condition, shared by every variant that
/// repeats it (a YAML anchor reused thousands of times costs one).
pub(super) type CheckedConditions = HashMap<(Scope, String), Arc<Expr<MemoryRef>>>;

/// Per-variant checks of one response, then the default-variant rules.
pub(super) fn validate_response(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    scope: &Scope,
    raw: &RawResponse,
    clean: &mut CheckedConditions,
) -> Vec<Option<Arc<Expr<MemoryRef>>>> {
    let mut conditions = Vec::with_capacity(raw.variants.len());
    report_invisible(
        cx,
        "the response name",
        &raw.name,
        raw.name_span.clone(),
        &raw.name,
        None,
    );
    if let Some((a, b)) = crate::unicode::mixed_scripts(&raw.name) {
        cx.report_in(
            codes::INVISIBLE_CHARACTER,
            Severity::Warning,
            raw.name_span.clone(),
            &raw.name,
            None,
            format!("the response name mixes {a} and {b} letters, so it can look like another name; spell it in one script"),
        );
    }
    for variant in &raw.variants {
        let index = Some(variant.index);
        if let ConditionField::Text { text, node } = &variant.condition {
            report_invisible(
                cx,
                "the condition",
                text,
                node.span.clone(),
                &raw.name,
                index,
            );
        }
        if variant.text.trim().is_empty() && !variant.text_invalid {
            let span = variant
                .text_node
                .as_ref()
                .map_or(variant.span.clone(), |n| n.span.clone());
            cx.report_in(
                codes::EMPTY_BODY,
                Severity::Error,
                span,
                &raw.name,
                index,
                "has an empty `text`; provide non-whitespace text",
            );
        }
        if let Some(node) = &variant.text_node {
            check_placeholders(
                cx,
                schema,
                scope,
                &raw.name,
                variant.index,
                &variant.text,
                node,
            );
        }
        let checked_before = match &variant.condition {
            ConditionField::Text { text, .. } => clean.get(&(scope.clone(), text.clone())).cloned(),
            _ => None,
        };
        let parsed = match &variant.condition {
            ConditionField::Text { .. } if checked_before.is_some() => checked_before,
            ConditionField::Text { text, node } => match condition::parse(text) {
                Err(e) => {
                    let span = node_subspan(cx.source, node, &e.span);
                    let message = if text.trim().is_empty() {
                        "has an empty `condition`; write an expression such as `session.<skill_id>.<entry> == \"value\"`, or omit `condition` for the default variant".to_owned()
                    } else {
                        format!("has an invalid `condition`: {}", e.message)
                    };
                    cx.report_in(
                        codes::INVALID_CONDITION,
                        Severity::Error,
                        span,
                        &raw.name,
                        index,
                        message,
                    );
                    None
                }
                Ok(expr) => {
                    let findings_before = cx.findings.len();
                    let mut all_readable = true;
                    for r in expr.refs() {
                        if schema.unknowable(&r.namespace, &r.entry) {
                            all_readable = false;
                        } else if !schema.readable(scope, &r.namespace, &r.entry) {
                            all_readable = false;
                            let span = node_subspan(cx.source, node, &r.span);
                            let message = schema.unreadable_reason(scope, &r.namespace, &r.entry);
                            cx.report_in(
                                codes::UNKNOWN_MEMORY_KEY,
                                Severity::Error,
                                span,
                                &raw.name,
                                index,
                                message,
                            );
                            cx.suggest(
                                schema
                                    .near_reference(scope, &r.namespace, &r.entry)
                                    .as_deref(),
                            );
                        }
                    }
                    // Types only once every reference resolves: no cascade.
                    if all_readable {
                        report_types(cx, schema, scope, &expr, node, &raw.name, index);
                    }
                    let expr = Arc::new(expr);
                    if cx.findings.len() == findings_before {
                        clean.insert((scope.clone(), text.clone()), Arc::clone(&expr));
                    }
                    Some(expr)
                }
            },
            ConditionField::Absent | ConditionField::Invalid => None,
        };
        conditions.push(parsed);
    }

    let conditioned = raw
        .variants
        .iter()
        .filter(|v| matches!(v.condition, ConditionField::Text { .. }))
        .count();
    let defaults: Vec<usize> = raw
        .variants
        .iter()
        .filter(|v| !matches!(v.condition, ConditionField::Text { .. }))
        .map(|v| v.index)
        .collect();
    if raw.malformed_variant {
        // Counting defaults past a malformed variant would blame its cause's effect.
        return conditions;
    }
    if conditioned > 0 && defaults.is_empty() {
        cx.report_in(
            codes::DEFAULT_REQUIRED,
            Severity::Error,
            raw.name_span.clone(),
            &raw.name,
            None,
            "defines conditioned variants but no default variant; omit `condition` on exactly one variant",
        );
    }
    if conditioned > 0 && defaults.len() > 1 {
        let listed: Vec<String> = defaults.iter().map(usize::to_string).collect();
        // The second default is the one in excess: the finding points at it.
        let second = defaults[1];
        let span = raw
            .variants
            .iter()
            .find(|v| v.index == second)
            .map_or(raw.name_span.clone(), |v| v.span.clone());
        // The reference reports it for the response (`variant: null`).
        cx.report_in(
            codes::MULTIPLE_DEFAULTS,
            Severity::Error,
            span,
            &raw.name,
            None,
            format!(
                "has multiple default variants at index(es) {}; exactly one variant must omit `condition`",
                listed.join(", ")
            ),
        );
        cx.help(format!(
            "give variant {second} a `condition`, or remove it (variant {} is the default)",
            defaults[0]
        ));
    }
    conditions
}

/// A warning when `text` holds a bidirectional control or a zero-width
/// character: it can make code read differently from what it does (Trojan
/// Source), and a name holding one looks like another name.
pub(super) fn report_invisible(
    cx: &mut FileCx<'_>,
    what: &str,
    text: &str,
    span: Range<usize>,
    response: &str,
    variant: Option<usize>,
) {
    if let Some(c) = text.chars().find(|&c| crate::unicode::is_deceptive(c)) {
        cx.report_in(
            codes::INVISIBLE_CHARACTER,
            Severity::Warning,
            span,
            response,
            variant,
            format!(
                "{what} holds the invisible character U+{:04X}, which can make it read as something else; remove it",
                c as u32
            ),
        );
    }
}

/// Reports what the declared types decide about a condition.
fn report_types(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    scope: &Scope,
    expr: &Expr<MemoryRef>,
    node: &Node,
    response: &str,
    variant: Option<usize>,
) {
    let lookup = |r: &MemoryRef| schema.readable_info(scope, r);
    let condition = node.as_scalar().map_or("", |s| s.value.as_str());
    for finding in types::analyse(expr, &lookup, &schema.hints) {
        // A finding about a string literal points at the literal, and its
        // did-you-mean replaces it, quotes kept.
        let literal = finding.literal.as_ref().and_then(|fix| {
            let from = finding.span.as_ref().map_or(0, |s| s.start);
            ['"', '\''].into_iter().find_map(|quote| {
                let quoted = format!("{quote}{}{quote}", fix.value);
                let at = from + condition.get(from..)?.find(&quoted)?;
                let replacement = fix.replacement.as_ref().map(|r| {
                    if fix.unquoted {
                        r.clone()
                    } else {
                        format!("{quote}{r}{quote}")
                    }
                });
                Some((at..at + quoted.len(), replacement))
            })
        });
        let span = match (&literal, &finding.span) {
            (Some((span, _)), _) | (None, Some(span)) => node_subspan(cx.source, node, span),
            (None, None) => node.span.clone(),
        };
        cx.report_in(
            finding.code,
            finding.severity,
            span,
            response,
            variant,
            finding.message,
        );
        if let Some(help) = finding.help {
            cx.help(help);
        }
        if let (Some((_, Some(fix))), Some(last)) = (literal, cx.findings.last_mut()) {
            last.suggestion = Some(fix);
        }
    }
}

/// The span in the file of `span` inside a scalar's value, when it can be
/// mapped exactly; else the whole scalar.
pub(super) fn node_subspan(source: &SourceFile, node: &Node, span: &Range<usize>) -> Range<usize> {
    node.subspan(&source.text, span)
}

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
        let mut suggestion: Option<String> = None;
        let mut engine_fills = false;
        let (span, problem) = match &piece {
            RawPiece::Text(_) => continue,
            RawPiece::Session {
                reference,
                raw,
                span,
            } => {
                let problem = match RawPiece::session_key(reference) {
                    None => Some(format!(
                        "placeholder `{raw}` has no entry name, so it is always delivered as written"
                    )),
                    Some((ns, entry)) if schema.unknowable(ns, entry) => None,
                    Some((ns, entry)) if !schema.readable(scope, ns, entry) => {
                        suggestion = schema
                            .near_reference(scope, ns, entry)
                            .map(|r| format!("{{{r}}}"));
                        // The engine's one unset text stands in for an unreadable value, too.
                        let unset_text = crate::bundled::UNSET_TEXTS
                            .iter()
                            .find(|(n, e, _)| *n == ns && *e == entry);
                        engine_fills = unset_text.is_some();
                        let delivered = unset_text
                            .map_or("as written".to_owned(), |(_, _, text)| {
                                format!("as `{text}`")
                            });
                        Some(format!(
                            "placeholder `{raw}` {}, so it is delivered {delivered}",
                            schema.unreadable_reason(scope, ns, entry).replacen(
                                "references ",
                                "reads ",
                                1
                            )
                        ))
                    }
                    Some((ns, entry)) => {
                        report_rendering(
                            cx,
                            schema,
                            (ns, entry),
                            (raw, span, text),
                            node,
                            response,
                            index,
                        );
                        None
                    }
                };
                (span, problem)
            }
            RawPiece::Bare { name, raw, span } => {
                // The active skill's entry fills it first, else the
                // project's: looked up in that order, not in the hash
                // map's (which differs from run to run).
                let skill = scope.active_skill();
                let declared = skill
                    .into_iter()
                    .chain(["project"])
                    .map(|ns| (ns.to_owned(), name.clone()))
                    .find(|key| schema.entries.contains_key(key));
                let declared = declared.as_ref().map(|(ns, e)| (ns, e));
                let fills =
                    |ns: &str| ns == "project" || matches!(scope, Scope::Skill(s) if s == ns);
                if let Some((ns, entry)) = declared {
                    report_rendering(
                        cx,
                        schema,
                        (ns, entry),
                        (raw, span, text),
                        node,
                        response,
                        index,
                    );
                }
                let unknowable = schema.broken.iter().any(|ns| fills(ns));
                let problem = (declared.is_none() && !unknowable).then(|| {
                    let names: Vec<&str> = schema
                        .entries
                        .keys()
                        .filter(|(ns, _)| fills(ns))
                        .map(|(_, e)| e.as_str())
                        .collect();
                    suggestion = schema.hints.did_you_mean(name, names).map(|s| format!("{{{s}}}"));
                    format!(
                        "placeholder `{raw}` names no declared entry (`{name}` in the active skill's or the project memory.yml): the customer would read it as written"
                    )
                });
                (span, problem)
            }
        };
        if let Some(message) = problem {
            let at = node_subspan(cx.source, node, span);
            let severity = if engine_fills {
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
                message,
            );
            if suggestion.is_none() && !engine_fills {
                cx.help(format!(
                    "declare the entry in memory.yml, or, to deliver it as written as the reference does, set `lints: {{{}: warn}}` in utter.yml",
                    codes::UNKNOWN_PLACEHOLDER
                ));
            }
            cx.suggest(suggestion.as_deref());
        }
    }
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
        let at = node_subspan(cx.source, node, span);
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
        let at = node_subspan(cx.source, node, span);
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

/// Two names that generated code would spell the same (`utter_a` and `utterA`
/// both become `UtterA`) are an error here, not in the generated code.
pub(super) fn report_rust_name_collisions(
    merged: &BTreeMap<String, MergedResponse>,
    sources: &[SourceFile],
    findings: &mut Vec<Finding>,
) {
    // `Response::ALL` and `Response::COUNT` are items of the enum too.
    let mut seen: HashMap<String, &str> = HashMap::from([
        ("ALL".to_owned(), "Response::ALL"),
        ("COUNT".to_owned(), "Response::COUNT"),
    ]);
    for (name, response) in merged {
        let rust_name = variant_name(name);
        match seen.get(&rust_name) {
            None => {
                seen.insert(rust_name, name);
            }
            Some(first) => {
                let Some(source) = sources.iter().find(|s| s.label == response.file) else {
                    continue;
                };
                let mut finding = source.finding(
                    codes::RUST_NAME_COLLISION,
                    Severity::Error,
                    response.raw.name_span.clone(),
                    format!(
                        "is spelled `{rust_name}` in generated Rust, like {}; rename {}",
                        if first.starts_with("Response::") {
                            format!("the generated item `{first}`")
                        } else {
                            format!("response `{first}`")
                        },
                        if first.starts_with("Response::") {
                            "it"
                        } else {
                            "one of them"
                        }
                    ),
                );
                finding.response = Some(name.clone());
                findings.push(finding);
            }
        }
    }
}

/// Two skill ids that generated code would spell the same.
pub(super) fn report_skill_name_collisions(skills: &[String], findings: &mut Vec<Finding>) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for id in skills {
        let rust_name = variant_name(id);
        if let Some(first) = seen.get(&rust_name) {
            findings.push(SourceFile::new(crate::load::layout::skill_folder(id), "").finding(
                codes::RUST_NAME_COLLISION,
                Severity::Error,
                0..0,
                format!("skill `{id}` is spelled `{rust_name}` in generated Rust, like skill `{first}`; rename one folder"),
            ));
        } else {
            seen.insert(rust_name, id);
        }
    }
}
