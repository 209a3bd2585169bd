//! Checks of what a `skill.md` references: response names, conditions and
//! memory references in prose.

use std::collections::BTreeMap;

use super::{MergedResponse, Schema, Scope};
use crate::condition::{self, Expr, MemoryRef};
use crate::diagnostics::{Severity, codes};
use crate::load::FileCx;
use crate::load::skill_md::{NameRef, RefKind, SkillDoc};
use crate::load::yaml::Node;

/// Checks what a skill.md references: every response name exists, every
/// condition parses and reads only what the skill can read, and prose uses
/// `@memory` rather than bare `session.` references.
pub(super) fn check_skill_doc(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    skill: &str,
    doc: &SkillDoc,
    registry: &BTreeMap<String, MergedResponse>,
    unusable: &std::collections::BTreeSet<String>,
) {
    let scope = Scope::Skill(skill.to_owned());
    let missing = |cx: &mut FileCx<'_>, code: &'static str, r: &NameRef, what: String| {
        // A response whose own file or definition is broken is reported there.
        if registry.contains_key(&r.name) || unusable.contains(&r.name) {
            return;
        }
        let mut finding = cx.source.finding(
            code,
            Severity::Error,
            r.span.clone(),
            format!("{what}, but no responses.yml defines it"),
        );
        finding.response = Some(r.name.clone());
        cx.findings.push(finding);
        cx.suggest(
            schema
                .hints
                .did_you_mean(&r.name, registry.keys().map(String::as_str)),
        );
    };
    for trigger in &doc.triggers {
        missing(
            cx,
            codes::TRIGGER_UNKNOWN_RESPONSE,
            &trigger.response,
            "is delivered by an `utter:` trigger".to_owned(),
        );
        if let Some((text, node)) = &trigger.when {
            let context = format!("the `when:` condition of `{}` ", trigger.response.name);
            check_condition(
                cx,
                schema,
                &scope,
                text,
                node,
                &context,
                codes::SKILL_INVALID_UTTER,
            );
        }
    }
    for tool in &doc.tools {
        for (field, r) in [
            ("on_success", &tool.on_success),
            ("on_failure", &tool.on_failure),
        ] {
            if let Some(r) = r {
                missing(
                    cx,
                    codes::TOOL_UNKNOWN_OUTCOME,
                    r,
                    format!("is the `{field}:` response of tool `{}`", tool.tool),
                );
            }
        }
        for (field, r) in [
            ("utter_for_confirmation", &tool.utter_for_confirmation),
            ("utter_on_user_denial", &tool.utter_on_user_denial),
        ] {
            if let Some(r) = r {
                missing(
                    cx,
                    codes::TOOL_UNKNOWN_CONFIRMATION,
                    r,
                    format!("is the `{field}:` response of tool `{}`", tool.tool),
                );
            }
        }
    }
    for step in &doc.steps {
        let name = &step.response.name;
        match step.kind {
            RefKind::StepAction if name.starts_with("utter_") => missing(
                cx,
                codes::RESPONSE_MISSING,
                &step.response,
                format!("is uttered by step `{}` of ordered block `{}`", step.step, step.block),
            ),
            RefKind::StepAction if name == "action_listen" || name == "hangup" => {}
            RefKind::StepAction => cx.report(
                codes::ACTION_UNKNOWN,
                Severity::Error,
                step.response.span.clone(),
                format!(
                    "step `{}` of ordered block `{}` runs `{name}`, which is neither a response (`utter_*`) nor `action_listen`",
                    step.step, step.block
                ),
            ),
            RefKind::StepUtterance if name.starts_with("utter_") => missing(
                cx,
                codes::RESPONSE_MISSING,
                &step.response,
                format!("is the question of collect step `{}` of ordered block `{}`", step.step, step.block),
            ),
            _ => {}
        }
    }
    check_prose(cx, schema, &scope, doc);
}

/// The instructions' `if:` conditions read only what the skill can read,
/// and they name memory as `@memory`, never as `session.`.
fn check_prose(cx: &mut FileCx<'_>, schema: &Schema, scope: &Scope, doc: &SkillDoc) {
    for (text, span) in &doc.prose_conditions {
        if text.trim().is_empty() {
            cx.report(
                codes::PROSE_EMPTY_IF,
                Severity::Error,
                span.clone(),
                "this `if:` paragraph has no condition",
            );
            continue;
        }
        match condition::parse(text) {
            Err(e) => cx.report(
                codes::PROSE_INVALID_IF,
                Severity::Error,
                span.start + e.span.start..span.start + e.span.end,
                format!("invalid `if:` condition: {}", e.message),
            ),
            Ok(expr) => {
                for r in expr.refs() {
                    if !schema.unknowable(&r.namespace, &r.entry)
                        && !schema.readable(scope, &r.namespace, &r.entry)
                    {
                        cx.report(
                            codes::PROSE_UNKNOWN_MEMORY_KEY,
                            Severity::Error,
                            span.start + r.span.start..span.start + r.span.end,
                            schema.unreadable_reason(scope, &r.namespace, &r.entry),
                        );
                        cx.suggest(
                            schema
                                .near_reference(scope, &r.namespace, &r.entry)
                                .as_deref(),
                        );
                    }
                }
            }
        }
    }
    for (reference, span) in &doc.prose_session_refs {
        let rest = reference.trim_start_matches("session.");
        cx.report(
            codes::PROSE_SESSION_REFERENCE,
            Severity::Error,
            span.clone(),
            format!(
                "`{reference}` in instructions is not replaced by its value; write `@memory.{rest}`"
            ),
        );
    }
}

/// Parses a condition held by `node` and checks its memory references;
/// findings get `code` and start with `context`.
pub(super) fn check_condition(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    scope: &Scope,
    text: &str,
    node: &Node,
    context: &str,
    code: &'static str,
) -> Option<Expr<MemoryRef>> {
    match condition::parse(text) {
        Err(e) => {
            let span = node.subspan(&cx.source.text, &e.span);
            cx.report(
                code,
                Severity::Error,
                span,
                format!("{context}is invalid: {}", e.message),
            );
            None
        }
        Ok(expr) => {
            for r in expr.refs() {
                if !schema.unknowable(&r.namespace, &r.entry)
                    && !schema.readable(scope, &r.namespace, &r.entry)
                {
                    let span = node.subspan(&cx.source.text, &r.span);
                    cx.report(
                        code,
                        Severity::Error,
                        span,
                        format!(
                            "{context}{}",
                            schema.unreadable_reason(scope, &r.namespace, &r.entry)
                        ),
                    );
                    cx.suggest(
                        schema
                            .near_reference(scope, &r.namespace, &r.entry)
                            .as_deref(),
                    );
                }
            }
            Some(expr)
        }
    }
}
