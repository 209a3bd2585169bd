//! `memory.yml` into declared entries: a skill's `schema.public` /
//! `schema.private`, or the project's flat map (the `project` namespace).

use std::ops::Range;

use utter::Visibility;

use super::FileCx;
use super::yaml::{Node, NodeKind, Resolved};
use crate::diagnostics::{Severity, codes, did_you_mean};

/// One declared entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryDecl {
    pub namespace: String,
    pub name: String,
    pub visibility: Visibility,
    /// The file that declares it and the span of its name there.
    pub file: String,
    pub span: Range<usize>,
}

fn is_null(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Scalar(s) if s.resolve() == Resolved::Null)
}

fn declare(
    cx: &mut FileCx<'_>,
    node: &Node,
    what: &str,
    namespace: &str,
    visibility: Visibility,
    out: &mut Vec<MemoryDecl>,
) {
    if is_null(node) {
        return;
    }
    let Some(entries) = cx.mapping(node, what, codes::MEMORY_SHAPE) else {
        return;
    };
    for (name, (span, _attributes)) in entries {
        // Attributes (type, description, pii, ...) steer the LLM; a
        // non-mapping value is an empty declaration, as in the reference.
        if name.is_empty() {
            cx.report(
                codes::MEMORY_SHAPE,
                Severity::Error,
                span,
                "a memory entry needs a name",
            );
            continue;
        }
        if let Some(prev) = out.iter().find(|d| d.name == name)
            && prev.visibility != visibility
        {
            {
                cx.report(
                    codes::MEMORY_SHAPE,
                    Severity::Error,
                    span,
                    format!("`{name}` is declared both public and private; declare it once"),
                );
                continue;
            }
        }
        out.push(MemoryDecl {
            namespace: namespace.to_owned(),
            name,
            visibility,
            file: cx.source.label.clone(),
            span,
        });
    }
}

/// A skill's `memory.yml`: `schema: {public: {...}, private: {...}}`.
pub fn walk_skill(cx: &mut FileCx<'_>, root: Option<&Node>, skill: &str) -> Vec<MemoryDecl> {
    let mut out = Vec::new();
    let Some(root) = root else { return out };
    if is_null(root) {
        return out;
    }
    let Some(pairs) = cx.mapping(root, "a skill memory.yml file", codes::MEMORY_SHAPE) else {
        return out;
    };
    for (key, (key_span, value)) in pairs {
        match key.as_str() {
            "schema" => {
                if is_null(value) {
                    continue;
                }
                let Some(parts) = cx.mapping(value, "`schema`", codes::MEMORY_SHAPE) else {
                    continue;
                };
                for (part, (part_span, node)) in parts {
                    match part.as_str() {
                        "public" => declare(cx, node, "`schema.public`", skill, Visibility::Public, &mut out),
                        "private" => declare(cx, node, "`schema.private`", skill, Visibility::Private, &mut out),
                        other => {
                            let hint = did_you_mean(other, ["public", "private"])
                                .map(|s| format!(" (did you mean `{s}`?)"))
                                .unwrap_or_default();
                            cx.report(
                                codes::FILE_UNKNOWN_KEY,
                                Severity::Error,
                                part_span,
                                format!("unknown key `{other}` under `schema`{hint}; entries go under `public:` or `private:`"),
                            );
                        }
                    }
                }
            }
            "access" => cx.report(
                codes::MEMORY_ACCESS_IGNORED,
                Severity::Warning,
                key_span,
                "`access:` (deny_read / deny_write) is not enforced; every public entry stays readable by every skill",
            ),
            other => {
                let hint = did_you_mean(other, ["schema"])
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                cx.report(
                    codes::FILE_UNKNOWN_KEY,
                    Severity::Warning,
                    key_span,
                    format!("unknown top-level key `{other}` is ignored{hint}; a skill memory.yml declares entries under `schema:`"),
                );
            }
        }
    }
    out
}

/// The project's root `memory.yml`: a flat map of entry name to attributes.
pub fn walk_project(cx: &mut FileCx<'_>, root: Option<&Node>) -> Vec<MemoryDecl> {
    let mut out = Vec::new();
    if let Some(root) = root {
        declare(
            cx,
            root,
            "the project memory.yml",
            "project",
            Visibility::Project,
            &mut out,
        );
    }
    out
}
