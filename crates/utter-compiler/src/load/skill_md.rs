//! `skills/<id>/skill.md`: YAML frontmatter between `---` lines, a markdown
//! body, and `:::ordered_block id=<id>` fences holding YAML steps. Collects
//! every place that names a response, with spans into the file.

use std::ops::Range;

use super::FileCx;
use super::yaml::{Node, NodeKind, Resolved};
use crate::diagnostics::{Finding, Severity, SourceFile, codes};

/// How a response is referenced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefKind {
    /// `utter:` trigger in the frontmatter.
    Trigger,
    /// `on_success:` / `on_failure:` of a tool constraint.
    ToolOutcome,
    /// `utter_for_confirmation:` / `utter_on_user_denial:`.
    Confirmation,
    /// `action:` (or `utter:`) of an ordered-block step.
    StepAction,
    /// `utterance:` of a collect step.
    StepUtterance,
}

/// A response name as written in skill.md.
#[derive(Clone, Debug, PartialEq)]
pub struct NameRef {
    /// The response name as written.
    pub name: String,
    /// Where it is written.
    pub span: Range<usize>,
}

/// An `utter:` trigger of the frontmatter.
#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    /// The response it delivers.
    pub response: NameRef,
    /// `on: activate` (else a `when:` condition).
    pub on_activate: bool,
    /// The `when:` condition and its node (for spans inside it).
    pub when: Option<(String, Node)>,
}

/// A tool constraint's responses.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolRefs {
    /// The tool's name.
    pub tool: String,
    /// `on_success:`.
    pub on_success: Option<NameRef>,
    /// `on_failure:`.
    pub on_failure: Option<NameRef>,
    /// `utter_for_confirmation:`.
    pub utter_for_confirmation: Option<NameRef>,
    /// `utter_on_user_denial:`.
    pub utter_on_user_denial: Option<NameRef>,
}

/// An ordered-block step that names a response.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRef {
    /// The block's `id`.
    pub block: String,
    /// The step's `id`.
    pub step: String,
    /// `action:` or `utter:`.
    pub kind: RefKind,
    /// The response it delivers.
    pub response: NameRef,
}

/// A `collect:` step: the entry it fills and the description it gives the model.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectRef {
    /// The step's `id`.
    pub step: String,
    /// The memory entry it collects.
    pub entry: String,
    /// Where it is written.
    pub span: Range<usize>,
    /// Its `description:`, if any.
    pub description: Option<String>,
}

/// What a skill.md says about responses and memory.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SkillDoc {
    /// The frontmatter's `utter:` triggers.
    pub triggers: Vec<Trigger>,
    /// Tool constraints naming responses.
    pub tools: Vec<ToolRefs>,
    /// Ordered-block steps naming responses.
    pub steps: Vec<StepRef>,
    /// `collect:` steps in document order.
    pub collects: Vec<CollectRef>,
    /// `if:` conditions of prose paragraphs: text and span of the condition.
    pub prose_conditions: Vec<(String, Range<usize>)>,
    /// Bare `session.<ns>.<entry>` in free prose.
    pub prose_session_refs: Vec<(String, Range<usize>)>,
}

/// Lines of `text` with their byte ranges (line end excluded).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').map(move |raw| {
        let start = offset;
        offset += raw.len();
        (start, raw.trim_end_matches(['\n', '\r']))
    })
}

const INVALID_FRONTMATTER: &str = codes::SKILL_INVALID_FRONTMATTER;
const INVALID_UTTER: &str = codes::SKILL_INVALID_UTTER;
const INVALID_TOOL_CONSTRAINTS: &str = codes::SKILL_INVALID_TOOL_CONSTRAINTS;
const INVALID_BLOCK: &str = codes::SKILL_INVALID_BLOCK;

type ParseYaml<'p> =
    &'p dyn Fn(&SourceFile, Range<usize>, &mut Vec<Finding>) -> Option<Option<Node>>;

/// Walks a decoded skill.md.
pub fn walk(cx: &mut FileCx<'_>, parse_yaml: ParseYaml<'_>) -> SkillDoc {
    let mut doc = SkillDoc::default();
    let source: &SourceFile = cx.source;
    let text = source.text.as_str();
    let mut all = lines(text);
    match all.next() {
        Some((_, first)) if first.trim_end() == "---" => {}
        _ => {
            cx.report(
                INVALID_FRONTMATTER,
                Severity::Error,
                0..text.find(['\n', '\r']).unwrap_or(text.len()).min(3),
                "skill.md must open with `---` on the first line, then YAML frontmatter closed by another `---` line",
            );
            return doc;
        }
    }
    let front_start = text.find('\n').map_or(text.len(), |i| i + 1);
    let Some((close_start, _)) = all.find(|(_, line)| line.trim_end() == "---") else {
        cx.report(
            INVALID_FRONTMATTER,
            Severity::Error,
            0..3,
            "the frontmatter opened here is never closed by a `---` line",
        );
        return doc;
    };
    if let Some(Some(front)) = parse_yaml(cx.source, front_start..close_start, cx.findings) {
        walk_frontmatter(cx, &front, &mut doc);
    }
    let body_start = text[close_start..]
        .find('\n')
        .map_or(text.len(), |i| close_start + i + 1);
    walk_body(cx, body_start, parse_yaml, &mut doc);
    doc
}

fn scalar_str(node: &Node) -> Option<&str> {
    match node.as_scalar()?.resolve() {
        Resolved::Str(s) => Some(s),
        _ => None,
    }
}

fn is_null(node: &Node) -> bool {
    matches!(node.as_scalar().map(|s| s.resolve()), Some(Resolved::Null))
}

fn walk_frontmatter(cx: &mut FileCx<'_>, front: &Node, doc: &mut SkillDoc) {
    let Some(pairs) = cx.mapping(front, "the frontmatter", INVALID_FRONTMATTER) else {
        return;
    };
    for (key, (key_span, value)) in pairs {
        match key.as_str() {
            "utter" => walk_triggers(cx, value, doc),
            "tool_constraints" => walk_tool_constraints(cx, value, doc),
            // The reference engine refuses to load such a skill (3.21.0).
            "requires" => cx.report(
                codes::SKILL_FAILED_TO_LOAD,
                Severity::Error,
                key_span,
                "skill-level `requires:` is no longer supported, so the skill does not load; use `precondition:` to park the skill until a resolver runs, or `hidden: true` to keep it out of routing (`requires:` under `tool_constraints` is unchanged)",
            ),
            "complete_when" if matches!(value.kind, NodeKind::Scalar(_)) && !is_null(value) => cx.report(
                codes::SKILL_FAILED_TO_LOAD,
                Severity::Error,
                value.span.clone(),
                "skill-level `complete_when:` must be a mapping with `condition:` and/or `criteria:`, so the skill does not load; write `complete_when: {condition: \"...\"}`",
            ),
            // Other keys (name, description, ...) name no response.
            _ => {}
        }
    }
}

/// A single-key mapping `name: value` (or a bare scalar `name`).
fn single_entry(node: &Node) -> Option<(NameRef, Option<&Node>)> {
    match &node.kind {
        NodeKind::Scalar(s) if s.resolve() != Resolved::Null => Some((
            NameRef {
                name: s.value.clone(),
                span: node.span.clone(),
            },
            None,
        )),
        NodeKind::Map(pairs) if pairs.len() == 1 => {
            let (k, v) = &pairs[0];
            let name = k.as_scalar()?.value.clone();
            Some((
                NameRef {
                    name,
                    span: k.span.clone(),
                },
                Some(v),
            ))
        }
        _ => None,
    }
}

fn walk_triggers(cx: &mut FileCx<'_>, node: &Node, doc: &mut SkillDoc) {
    if is_null(node) {
        return;
    }
    let NodeKind::Seq(items) = &node.kind else {
        cx.report(INVALID_UTTER, Severity::Error, node.span.clone(), format!("`utter:` must be a list of `- <response>: {{on: activate}}` or `{{when: <condition>}}` entries, found {}", node.describe()));
        return;
    };
    for item in items {
        let Some((response, options)) = single_entry(item) else {
            cx.report(INVALID_UTTER, Severity::Error, item.span.clone(), "each `utter:` entry is one mapping `<response>: {on: activate}` or `<response>: {when: <condition>}`");
            continue;
        };
        if doc
            .triggers
            .iter()
            .any(|t| t.response.name == response.name)
        {
            cx.report(
                INVALID_UTTER,
                Severity::Error,
                response.span.clone(),
                format!("`{}` is listed twice under `utter:`", response.name),
            );
            continue;
        }
        let mut trigger = Trigger {
            response,
            on_activate: false,
            when: None,
        };
        let options = options.filter(|o| !is_null(o));
        if let Some(options) =
            options.and_then(|o| cx.mapping(o, "an `utter:` entry", INVALID_UTTER))
        {
            for (key, (key_span, value)) in options {
                match key.as_str() {
                    "on" => match scalar_str(value) {
                        Some("activate") => trigger.on_activate = true,
                        _ if is_null(value) => trigger.on_activate = true,
                        _ => cx.report(INVALID_UTTER, Severity::Error, value.span.clone(), "`on:` accepts only `activate`"),
                    },
                    "when" => match scalar_str(value) {
                        Some(text) => trigger.when = Some((text.to_owned(), value.clone())),
                        None => cx.report(INVALID_UTTER, Severity::Error, value.span.clone(), format!("`when:` must be a condition string, found {}", value.describe())),
                    },
                    other => cx.report(INVALID_UTTER, Severity::Error, key_span, format!("unknown key `{other}` in an `utter:` entry; use `on: activate` or `when: <condition>`")),
                }
            }
        }
        if !trigger.on_activate && trigger.when.is_none() {
            cx.report(
                INVALID_UTTER,
                Severity::Error,
                trigger.response.span.clone(),
                format!(
                    "`{}` needs `on: activate` or `when: <condition>`",
                    trigger.response.name
                ),
            );
        }
        doc.triggers.push(trigger);
    }
}

fn name_ref(cx: &mut FileCx<'_>, node: &Node, what: &str) -> Option<NameRef> {
    if is_null(node) {
        return None;
    }
    match node.as_scalar() {
        Some(s) => Some(NameRef {
            name: s.value.clone(),
            span: node.span.clone(),
        }),
        None => {
            cx.report(
                INVALID_TOOL_CONSTRAINTS,
                Severity::Error,
                node.span.clone(),
                format!(
                    "`{what}` must be a response name, found {}",
                    node.describe()
                ),
            );
            None
        }
    }
}

fn walk_tool_constraints(cx: &mut FileCx<'_>, node: &Node, doc: &mut SkillDoc) {
    if is_null(node) {
        return;
    }
    let NodeKind::Seq(items) = &node.kind else {
        cx.report(
            INVALID_TOOL_CONSTRAINTS,
            Severity::Error,
            node.span.clone(),
            format!(
                "`tool_constraints:` must be a list, found {}",
                node.describe()
            ),
        );
        return;
    };
    for item in items {
        let Some((tool, options)) = single_entry(item) else {
            cx.report(
                INVALID_TOOL_CONSTRAINTS,
                Severity::Error,
                item.span.clone(),
                "each `tool_constraints:` entry is one mapping `<tool>: {...}` or a bare tool name",
            );
            continue;
        };
        let mut refs = ToolRefs {
            tool: tool.name,
            ..ToolRefs::default()
        };
        let options = options.filter(|o| !is_null(o));
        if let Some(options) =
            options.and_then(|o| cx.mapping(o, "a tool constraint", INVALID_TOOL_CONSTRAINTS))
        {
            for (key, (key_span, value)) in options {
                match key.as_str() {
                    "on_success" => refs.on_success = name_ref(cx, value, "on_success"),
                    "on_failure" => refs.on_failure = name_ref(cx, value, "on_failure"),
                    "requires" => {}
                    "requires_confirmation" => {
                        let Some(gate) = cx.mapping(value, "`requires_confirmation`", INVALID_TOOL_CONSTRAINTS) else { continue };
                        for (gate_key, (gate_span, gate_value)) in gate {
                            match gate_key.as_str() {
                                "enabled" => {}
                                "utter_for_confirmation" => refs.utter_for_confirmation = name_ref(cx, gate_value, "utter_for_confirmation"),
                                "utter_on_user_denial" => refs.utter_on_user_denial = name_ref(cx, gate_value, "utter_on_user_denial"),
                                other => cx.report(INVALID_TOOL_CONSTRAINTS, Severity::Error, gate_span, format!("unknown key `{other}` under `requires_confirmation`; allowed: enabled, utter_for_confirmation, utter_on_user_denial")),
                            }
                        }
                    }
                    other => cx.report(INVALID_TOOL_CONSTRAINTS, Severity::Error, key_span, format!("unknown key `{other}` in a tool constraint; allowed: requires, requires_confirmation, on_success, on_failure")),
                }
            }
        }
        doc.tools.push(refs);
    }
}

/// The body: ordered blocks (YAML steps) and prose (paragraphs, `if:` lines).
fn walk_body(
    cx: &mut FileCx<'_>,
    body_start: usize,
    parse_yaml: ParseYaml<'_>,
    doc: &mut SkillDoc,
) {
    let source: &SourceFile = cx.source;
    let text = source.text.as_str();
    let body = &text[body_start..];
    let mut block: Option<(String, usize, usize)> = None; // id, opener start, body start
    let mut paragraph_start = true;
    for (offset, line) in lines(body) {
        let at = body_start + offset;
        if let Some((id, _, block_body)) = &block {
            if line.trim_end() == ":::" {
                if let Some(Some(node)) = parse_yaml(cx.source, *block_body..at, cx.findings) {
                    walk_steps(cx, id, &node, doc);
                }
                block = None;
                paragraph_start = true;
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix(":::ordered_block") {
            let id = rest
                .split_whitespace()
                .find_map(|attr| attr.strip_prefix("id="))
                .map(str::to_owned);
            let valid_id = id.as_deref().is_some_and(|id| {
                !id.is_empty()
                    && id
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
            });
            if !valid_id {
                cx.report(
                    INVALID_BLOCK,
                    Severity::Error,
                    at..at + line.len(),
                    "an ordered block needs an id: `:::ordered_block id=<block_id>`",
                );
            }
            let line_end = at + line.len();
            let next = text[line_end..]
                .find('\n')
                .map_or(text.len(), |i| line_end + i + 1);
            block = Some((id.unwrap_or_default(), at, next));
            continue;
        }
        if line.trim().is_empty() {
            paragraph_start = true;
            continue;
        }
        let first_line = paragraph_start;
        paragraph_start = false;
        if first_line && let Some(condition) = line.trim_start().strip_prefix("if:") {
            let lead = line.len() - line.trim_start().len() + 3;
            doc.prose_conditions
                .push((condition.to_owned(), at + lead..at + line.len()));
            continue;
        }
        find_session_refs(line, at, &mut doc.prose_session_refs);
    }
    if let Some((_, opener, _)) = block {
        cx.report(
            INVALID_BLOCK,
            Severity::Error,
            opener..opener + ":::ordered_block".len(),
            "this ordered block is never closed by a `:::` line",
        );
    }
}

/// `session.<ns>.<entry>` not preceded by a word character or a dot.
fn find_session_refs(line: &str, at: usize, out: &mut Vec<(String, Range<usize>)>) {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    for (i, _) in line.match_indices("session.") {
        if line[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        {
            continue;
        }
        let rest = &line[i + "session.".len()..];
        let ns_len = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        if ns_len == 0 || !rest[ns_len..].starts_with('.') {
            continue;
        }
        let entry = &rest[ns_len + 1..];
        let entry_len = entry.find(|c: char| !is_word(c)).unwrap_or(entry.len());
        if entry_len == 0 {
            continue;
        }
        let end = i + "session.".len() + ns_len + 1 + entry_len;
        out.push((line[i..end].to_owned(), at + i..at + end));
    }
}

fn walk_steps(cx: &mut FileCx<'_>, block: &str, node: &Node, doc: &mut SkillDoc) {
    let Some(pairs) = cx.mapping(node, "an ordered block", INVALID_BLOCK) else {
        return;
    };
    let Some((_, (_, steps))) = pairs.iter().find(|(k, _)| k == "steps") else {
        cx.report(
            INVALID_BLOCK,
            Severity::Error,
            node.span.clone(),
            format!("ordered block `{block}` has no `steps:` list"),
        );
        return;
    };
    let NodeKind::Seq(items) = &steps.kind else {
        cx.report(
            INVALID_BLOCK,
            Severity::Error,
            steps.span.clone(),
            format!("`steps:` must be a list, found {}", steps.describe()),
        );
        return;
    };
    for (index, item) in items.iter().enumerate() {
        let Some(fields) = cx.mapping(item, "a step", INVALID_BLOCK) else {
            continue;
        };
        let get = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, (_, v))| *v);
        let step = get("id")
            .and_then(|n| n.as_scalar())
            .map_or_else(|| format!("#{index}"), |s| s.value.clone());
        // `utter:` is an alias of `action:`, used only when `action:` is absent.
        let action = get("action").or_else(|| get("utter"));
        if let Some(action) = action {
            match action.as_scalar() {
                Some(s) if s.resolve() != Resolved::Null => doc.steps.push(StepRef {
                    block: block.to_owned(),
                    step: step.clone(),
                    kind: RefKind::StepAction,
                    response: NameRef {
                        name: s.value.clone(),
                        span: action.span.clone(),
                    },
                }),
                _ => cx.report(
                    INVALID_BLOCK,
                    Severity::Error,
                    action.span.clone(),
                    format!("step `{step}`: `action:` must be a response name"),
                ),
            }
        }
        if let Some(collect) = get("collect")
            && let Some(entry) = collect.as_scalar()
            && entry.resolve() != Resolved::Null
        {
            doc.collects.push(CollectRef {
                step: step.clone(),
                entry: entry.value.clone(),
                span: collect.span.clone(),
                description: get("description")
                    .and_then(|d| d.as_scalar())
                    .filter(|d| d.resolve() != Resolved::Null)
                    .map(|d| d.value.clone()),
            });
        }
        if get("collect").is_some()
            && let Some(utterance) = get("utterance")
            && let Some(s) = utterance.as_scalar()
            && s.resolve() != Resolved::Null
        {
            doc.steps.push(StepRef {
                block: block.to_owned(),
                step,
                kind: RefKind::StepUtterance,
                response: NameRef {
                    name: s.value.clone(),
                    span: utterance.span.clone(),
                },
            });
        }
    }
}
