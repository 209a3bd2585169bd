//! Checks of `responses.yml` variants: texts, placeholders, conditions
//! (grammar, readability, declared types) and the default-variant rules.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;

use super::{MergedResponse, Schema, Scope, types};
use crate::condition::{self, Expr, MemoryRef};

use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use crate::load::FileCx;
use crate::load::responses::{ConditionField, RawResponse};
use crate::load::yaml::Node;
use crate::names::variant_name;

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
            super::placeholders::check_placeholders(
                cx,
                schema,
                scope,
                &raw.name,
                variant.index,
                &variant.text,
                node,
            );
        }
        let parsed = match &variant.condition {
            ConditionField::Text { text, node } => {
                let at = (raw.name.as_str(), variant.index);
                variant_condition(cx, schema, scope, at, (text, node), clean)
            }
            ConditionField::Absent | ConditionField::Invalid => None,
        };
        conditions.push(parsed);
    }

    if !raw.malformed_variant {
        // Counting defaults past a malformed variant would blame its cause's effect.
        check_defaults(cx, raw);
    }
    conditions
}

/// A variant's condition parsed and checked (the memory it reads, its
/// types), or taken from `clean` when the same text was checked in this
/// scope without a finding; `None` when it has a finding.
fn variant_condition(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    scope: &Scope,
    (response, index): (&str, usize),
    (text, node): (&str, &Node),
    clean: &mut CheckedConditions,
) -> Option<Arc<Expr<MemoryRef>>> {
    if let Some(expr) = clean.get(&(scope.clone(), text.to_owned())) {
        return Some(Arc::clone(expr));
    }
    let index = Some(index);
    let expr = match condition::parse(text) {
        Ok(expr) => expr,
        Err(e) => {
            let span = node.subspan(&cx.source.text, &e.span);
            let message = if text.trim().is_empty() {
                "has an empty `condition`; write an expression such as `session.<skill_id>.<entry> == \"value\"`, or omit `condition` for the default variant".to_owned()
            } else {
                format!("has an invalid `condition`: {}", e.message)
            };
            cx.report_in(
                codes::INVALID_CONDITION,
                Severity::Error,
                span,
                response,
                index,
                message,
            );
            return None;
        }
    };
    let findings_before = cx.findings.len();
    let mut all_readable = true;
    for r in expr.refs() {
        if schema.unknowable(&r.namespace, &r.entry) {
            all_readable = false;
        } else if !schema.readable(scope, &r.namespace, &r.entry) {
            all_readable = false;
            let span = node.subspan(&cx.source.text, &r.span);
            let message = schema.unreadable_reason(scope, &r.namespace, &r.entry);
            cx.report_in(
                codes::UNKNOWN_MEMORY_KEY,
                Severity::Error,
                span,
                response,
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
        report_types(cx, schema, scope, &expr, node, response, index);
    }
    let expr = Arc::new(expr);
    if cx.findings.len() == findings_before {
        clean.insert((scope.clone(), text.to_owned()), Arc::clone(&expr));
    }
    Some(expr)
}

/// The default-variant rules: a response with conditions has exactly one
/// variant without.
fn check_defaults(cx: &mut FileCx<'_>, raw: &RawResponse) {
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
            (Some((span, _)), _) | (None, Some(span)) => node.subspan(&cx.source.text, span),
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

/// In a Maestro agent the first entry of a response is delivered: a
/// `condition` would be silently ignored there, so each one is an error.
pub(super) fn report_maestro_conditions(cx: &mut FileCx<'_>, raw: &RawResponse) {
    for variant in &raw.variants {
        if let ConditionField::Text { node, .. } = &variant.condition {
            cx.report_in(
                codes::MAESTRO_CONDITION,
                Severity::Error,
                node.span.clone(),
                &raw.name,
                Some(variant.index),
                "has a `condition`, but a Maestro agent delivers the first entry of each response: conditional variants are a Mantle feature",
            );
            cx.help("remove the condition (and order the entries so the first is the one to deliver), or check the agent as Mantle (`--dialect mantle`)");
        }
    }
}
