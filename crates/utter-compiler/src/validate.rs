//! Validation: every file of the project (and the bundled default skills) is
//! parsed and checked; findings accumulate across files; the responses are
//! merged into one flat registry in the reference engine's order.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use utter::Visibility;

use crate::bundled;
use crate::codegen;
use crate::condition::{self, Expr, MemoryRef};
use crate::diagnostics::{Finding, Severity, SourceFile, codes, did_you_mean, sort_findings};
use crate::load::FileCx;
use crate::load::memory::{self, MemoryDecl};
use crate::load::project::ProjectFiles;
use crate::load::responses::{self, ConditionField, RawResponse};
use crate::load::skill_md::{self, NameRef, RefKind, SkillDoc};
use crate::load::yaml::{self, Node, YamlErrorKind};
use crate::template::{self, RawPiece};

/// Which memory a `responses.yml` file's conditions may read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `skills/<id>/responses.yml` (or a bundled skill's).
    Skill(String),
    /// The project-root `responses.yml`: only what every skill can read.
    Root,
}

/// A response as it stands in the merged registry.
#[derive(Clone, Debug)]
pub struct MergedResponse {
    pub scope: Scope,
    pub file: String,
    pub raw: RawResponse,
    /// The parsed condition of each variant (by position in `raw.variants`).
    pub conditions: Vec<Option<Expr<MemoryRef>>>,
}

/// The result of checking a project.
#[derive(Clone, Debug)]
pub struct Checked {
    pub sources: Vec<SourceFile>,
    /// Sorted by file, then position.
    pub findings: Vec<Finding>,
    /// Every skill id: bundled and project, sorted.
    pub skills: Vec<String>,
    /// Every declared memory entry, sorted by namespace then name.
    pub memory: Vec<MemoryDecl>,
    /// The merged registry, by name.
    pub responses: BTreeMap<String, MergedResponse>,
    /// The project's own skills (folders under `skills/`), sorted.
    pub project_skills: Vec<String>,
    /// What each project skill's skill.md references.
    pub skill_docs: BTreeMap<String, SkillDoc>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Finding::is_error)
    }

    pub fn source(&self, label: &str) -> Option<&SourceFile> {
        self.sources.iter().find(|s| s.label == label)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_error())
    }
}

/// Decodes a file (UTF-8, a leading BOM dropped) into a source; a file that
/// is not UTF-8 is a finding (the source keeps its lossy text for display).
/// Returns whether it decoded.
pub(crate) fn decode_file(
    label: &str,
    bytes: &[u8],
    sources: &mut Vec<SourceFile>,
    findings: &mut Vec<Finding>,
) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            sources.push(SourceFile::new(label, text));
            true
        }
        Err(e) => {
            let source = SourceFile::new(label, String::from_utf8_lossy(bytes).into_owned());
            // Lossy decoding keeps every valid byte before the first bad one.
            let at = e.valid_up_to();
            findings.push(source.finding(
                codes::YAML_ENCODING,
                Severity::Error,
                at..at + 1,
                "the file is not valid UTF-8",
            ));
            sources.push(source);
            false
        }
    }
}

/// Parses the YAML in `range` of a source; a syntax error is a finding.
pub(crate) fn parse_yaml(
    source: &SourceFile,
    range: std::ops::Range<usize>,
    findings: &mut Vec<Finding>,
) -> Option<Option<Node>> {
    match yaml::parse_embedded(&source.text[range.clone()], range.start) {
        Ok(root) => Some(root),
        Err(e) => {
            let code = match e.kind {
                YamlErrorKind::Syntax => codes::YAML_SYNTAX,
                YamlErrorKind::Limit => codes::YAML_LIMIT,
                YamlErrorKind::Unsupported => codes::YAML_UNSUPPORTED,
            };
            let end = e.span.end.max(e.span.start + 1);
            findings.push(source.finding(code, Severity::Error, e.span.start..end, e.message));
            None
        }
    }
}

/// Decodes and parses a whole YAML file.
fn parse_file(
    label: &str,
    bytes: &[u8],
    sources: &mut Vec<SourceFile>,
    findings: &mut Vec<Finding>,
) -> Option<Option<Node>> {
    if !decode_file(label, bytes, sources, findings) {
        return None;
    }
    let source = sources.last().expect("decode_file pushed the source");
    parse_yaml(source, 0..source.text.len(), findings)
}

/// One skill or the root, in merge order, with its files' labels and bytes.
struct Unit<'a> {
    scope: Scope,
    responses: Option<(String, &'a [u8])>,
    memory: Option<(String, &'a [u8])>,
    bundled: bool,
}

fn units(files: &ProjectFiles) -> Vec<Unit<'_>> {
    let mut units = Vec::new();
    for skill in bundled::SKILLS {
        let project_memory = files
            .files
            .contains_key(&format!("skills/{}/memory.yml", skill.id));
        units.push(Unit {
            scope: Scope::Skill(skill.id.to_owned()),
            responses: skill
                .responses
                .map(|t| (bundled::label(skill.id, "responses.yml"), t.as_bytes())),
            // A project skill with the same id brings its own memory.yml instead.
            memory: skill
                .memory
                .filter(|_| !project_memory)
                .map(|t| (bundled::label(skill.id, "memory.yml"), t.as_bytes())),
            bundled: true,
        });
    }
    let file = |label: String| files.files.get(&label).map(|b| (label, b.as_slice()));
    for id in &files.skills {
        units.push(Unit {
            scope: Scope::Skill(id.clone()),
            responses: file(format!("skills/{id}/responses.yml")),
            memory: file(format!("skills/{id}/memory.yml")),
            bundled: false,
        });
    }
    units.push(Unit {
        scope: Scope::Root,
        responses: file("responses.yml".to_owned()),
        memory: file("memory.yml".to_owned()),
        bundled: false,
    });
    units
}

/// The declared entries, for readability checks.
struct Schema {
    entries: HashMap<(String, String), Visibility>,
}

impl Schema {
    fn readable(&self, scope: &Scope, namespace: &str, entry: &str) -> bool {
        match self.entries.get(&(namespace.to_owned(), entry.to_owned())) {
            None => false,
            Some(Visibility::Project | Visibility::Public) => true,
            Some(Visibility::Private) => matches!(scope, Scope::Skill(s) if s == namespace),
        }
    }

    fn readable_keys(&self, scope: &Scope) -> Vec<String> {
        let mut keys: Vec<String> = self
            .entries
            .keys()
            .filter(|(ns, e)| self.readable(scope, ns, e))
            .map(|(ns, e)| format!("{ns}.{e}"))
            .collect();
        keys.sort();
        keys
    }

    /// Why `session.<namespace>.<entry>` is not readable in `scope`.
    fn unreadable_reason(&self, scope: &Scope, namespace: &str, entry: &str) -> String {
        let key = format!("{namespace}.{entry}");
        if namespace == "system" {
            return format!(
                "references engine-internal system memory `{key}`; conditions may read skill and project memory only"
            );
        }
        match (
            self.entries.get(&(namespace.to_owned(), entry.to_owned())),
            scope,
        ) {
            (Some(Visibility::Private), Scope::Skill(active)) => format!(
                "references memory key `{key}`, which is private to skill `{namespace}` and not readable while skill `{active}` is active"
            ),
            (Some(Visibility::Private), Scope::Root) => format!(
                "references memory key `{key}`, which is private to skill `{namespace}`: the project-root responses.yml may be delivered by any skill, so it may read only project and public entries"
            ),
            _ => {
                let keys = self.readable_keys(scope);
                let hint = did_you_mean(&key, keys.iter().map(String::as_str))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                let place = match scope {
                    Scope::Skill(s) => format!(
                        "skill `{s}`'s memory.yml, another skill's public entries or the project memory.yml"
                    ),
                    Scope::Root => "the project memory.yml or a skill's public entries".to_owned(),
                };
                format!("references memory key `{key}`, which is not declared in {place}{hint}")
            }
        }
    }
}

/// Checks the whole project.
pub fn check(files: &ProjectFiles) -> Checked {
    let mut sources = Vec::new();
    let mut findings = Vec::new();
    let units = units(files);

    for (label, size) in &files.oversized {
        let limit = crate::load::project::MAX_FILE_BYTES;
        findings.push(SourceFile::new(label.clone(), "").finding(
            codes::YAML_LIMIT,
            Severity::Error,
            0..0,
            format!("the file is {size} bytes; utter reads files of at most {limit} bytes"),
        ));
    }

    // Skill ids the reference engine refuses.
    for id in &files.skills {
        let folder = format!("skills/{id}");
        let problem = if id == "project" || id == "system" {
            Some((
                codes::SKILL_RESERVED_ID,
                format!(
                    "skill id `{id}` is reserved for the `{id}` memory namespace; rename the folder"
                ),
            ))
        } else if id.contains('.') {
            Some((
                codes::SKILL_INVALID_ID,
                format!(
                    "skill id `{id}` contains `.`, which would make `session.{id}.<entry>` ambiguous; rename the folder"
                ),
            ))
        } else {
            None
        };
        if let Some((code, message)) = problem {
            findings.push(SourceFile::new(folder, "").finding(
                code,
                Severity::Error,
                0..0,
                message,
            ));
        }
    }

    // Memory first: readability needs every declaration.
    let mut memory: Vec<MemoryDecl> = Vec::new();
    for unit in &units {
        let Some((label, bytes)) = &unit.memory else {
            continue;
        };
        let Some(root) = parse_file(label, bytes, &mut sources, &mut findings) else {
            continue;
        };
        let source = sources.last().expect("parse_file pushed the source");
        let mut cx = FileCx {
            source,
            findings: &mut findings,
        };
        let decls = match &unit.scope {
            Scope::Skill(id) => memory::walk_skill(&mut cx, root.as_ref(), id),
            Scope::Root => memory::walk_project(&mut cx, root.as_ref()),
        };
        memory.extend(decls);
    }
    memory.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    let schema = Schema {
        entries: memory
            .iter()
            .map(|d| ((d.namespace.clone(), d.name.clone()), d.visibility))
            .collect(),
    };

    let mut merged: BTreeMap<String, MergedResponse> = BTreeMap::new();
    for unit in &units {
        let Some((label, bytes)) = &unit.responses else {
            continue;
        };
        let Some(root) = parse_file(label, bytes, &mut sources, &mut findings) else {
            continue;
        };
        let source = sources.last().expect("parse_file pushed the source");
        let mut cx = FileCx {
            source,
            findings: &mut findings,
        };
        let raws = responses::walk(&mut cx, root.as_ref());
        for raw in raws {
            let conditions = validate_response(&mut cx, &schema, &unit.scope, &raw);
            if !raw.well_formed {
                continue;
            }
            if let Some(previous) = merged.get(&raw.name) {
                let both_project_skills = !unit.bundled
                    && matches!(unit.scope, Scope::Skill(_))
                    && matches!(previous.scope, Scope::Skill(_))
                    && !previous.file.starts_with("<bundled>");
                if both_project_skills && previous.file != *label {
                    cx.report_in(
                        codes::DEFINED_BY_TWO_SKILLS,
                        Severity::Warning,
                        raw.name_span.clone(),
                        &raw.name,
                        None,
                        format!(
                            "is also defined in {}; response names are global, so this definition replaces that one (prefix names with the skill id to keep both)",
                            previous.file
                        ),
                    );
                }
            }
            merged.insert(
                raw.name.clone(),
                MergedResponse {
                    scope: unit.scope.clone(),
                    file: label.clone(),
                    raw,
                    conditions,
                },
            );
        }
    }

    report_rust_name_collisions(&merged, &sources, &mut findings);

    // skill.md references need the whole registry.
    let mut skill_docs = BTreeMap::new();
    for id in &files.skills {
        let label = format!("skills/{id}/skill.md");
        let Some(bytes) = files.files.get(&label) else {
            continue;
        };
        if !decode_file(&label, bytes, &mut sources, &mut findings) {
            continue;
        }
        let source = sources.last().expect("decode_file pushed the source");
        let mut cx = FileCx {
            source,
            findings: &mut findings,
        };
        let doc = skill_md::walk(&mut cx, &parse_yaml);
        check_skill_doc(&mut cx, &schema, id, &doc, &merged);
        skill_docs.insert(id.clone(), doc);
    }
    report_skill_name_collisions(&files.skills, &mut findings);

    let mut skills: Vec<String> = bundled::SKILLS.iter().map(|s| s.id.to_owned()).collect();
    skills.extend(files.skills.iter().cloned());
    skills.sort();
    skills.dedup();
    sort_findings(&mut findings);
    Checked {
        sources,
        findings,
        skills,
        memory,
        responses: merged,
        project_skills: files.skills.clone(),
        skill_docs,
    }
}

/// Per-variant checks of one response, then the default-variant rules.
fn validate_response(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    scope: &Scope,
    raw: &RawResponse,
) -> Vec<Option<Expr<MemoryRef>>> {
    let mut conditions = Vec::with_capacity(raw.variants.len());
    for variant in &raw.variants {
        let index = Some(variant.index);
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
        let parsed = match &variant.condition {
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
                    for r in expr.refs() {
                        if !schema.readable(scope, &r.namespace, &r.entry) {
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
                        }
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
        cx.report_in(
            codes::MULTIPLE_DEFAULTS,
            Severity::Error,
            raw.name_span.clone(),
            &raw.name,
            None,
            format!(
                "has multiple default variants at index(es) {}; exactly one variant must omit `condition`",
                listed.join(", ")
            ),
        );
    }
    conditions
}

/// The span in the file of `span` inside a scalar's value, when it can be
/// mapped exactly; else the whole scalar.
fn node_subspan(source: &SourceFile, node: &Node, span: &Range<usize>) -> Range<usize> {
    let start = node.value_offset(&source.text, span.start);
    if start == node.span.start && span.start != 0 {
        return node.span.clone();
    }
    let end = node.value_offset(&source.text, span.end);
    if end <= start {
        return node.span.clone();
    }
    start..end
}

/// Placeholders that can never resolve are warnings: the text would go out
/// with the placeholder left in it.
fn check_placeholders(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    scope: &Scope,
    response: &str,
    index: usize,
    text: &str,
    node: &Node,
) {
    for piece in template::scan(text) {
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
                    Some((ns, entry)) if !schema.readable(scope, ns, entry) => Some(format!(
                        "placeholder `{raw}` {}, so it is delivered as written",
                        schema.unreadable_reason(scope, ns, entry).replacen(
                            "references ",
                            "reads ",
                            1
                        )
                    )),
                    Some(_) => None,
                };
                (span, problem)
            }
            RawPiece::Bare { name, raw, span } => {
                let declared = schema.entries.keys().any(|(ns, e)| {
                    e == name && (ns == "project" || matches!(scope, Scope::Skill(_)))
                });
                let problem = (!declared).then(|| {
                    format!(
                        "placeholder `{raw}` names no declared entry (`{name}` in the active skill's or the project memory.yml), so it is delivered as written"
                    )
                });
                (span, problem)
            }
        };
        if let Some(message) = problem {
            let at = node_subspan(cx.source, node, span);
            cx.report_in(
                codes::UNKNOWN_PLACEHOLDER,
                Severity::Warning,
                at,
                response,
                Some(index),
                message,
            );
        }
    }
}

/// Two names that generated code would spell the same (`utter_a` and `utterA`
/// both become `UtterA`) are an error here, not in the generated code.
fn report_rust_name_collisions(
    merged: &BTreeMap<String, MergedResponse>,
    sources: &[SourceFile],
    findings: &mut Vec<Finding>,
) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for (name, response) in merged {
        let rust_name = codegen::variant_name(name);
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
                        "is spelled `{rust_name}` in generated Rust, like response `{first}`; rename one of them"
                    ),
                );
                finding.response = Some(name.clone());
                findings.push(finding);
            }
        }
    }
}

/// Two skill ids that generated code would spell the same.
fn report_skill_name_collisions(skills: &[String], findings: &mut Vec<Finding>) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for id in skills {
        let rust_name = codegen::variant_name(id);
        if let Some(first) = seen.get(&rust_name) {
            findings.push(SourceFile::new(format!("skills/{id}"), "").finding(
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

/// Checks what a skill.md references: every response name exists, every
/// condition parses and reads only what the skill can read, and prose uses
/// `@memory` rather than bare `session.` references.
fn check_skill_doc(
    cx: &mut FileCx<'_>,
    schema: &Schema,
    skill: &str,
    doc: &SkillDoc,
    registry: &BTreeMap<String, MergedResponse>,
) {
    let scope = Scope::Skill(skill.to_owned());
    let missing = |cx: &mut FileCx<'_>, code: &'static str, r: &NameRef, what: String| {
        if registry.contains_key(&r.name) {
            return;
        }
        let hint = did_you_mean(&r.name, registry.keys().map(String::as_str))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        let mut finding = cx.source.finding(
            code,
            Severity::Error,
            r.span.clone(),
            format!("{what}, but no responses.yml defines it{hint}"),
        );
        finding.response = Some(r.name.clone());
        cx.findings.push(finding);
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
                    if !schema.readable(&scope, &r.namespace, &r.entry) {
                        cx.report(
                            codes::PROSE_UNKNOWN_MEMORY_KEY,
                            Severity::Error,
                            span.start + r.span.start..span.start + r.span.end,
                            schema.unreadable_reason(&scope, &r.namespace, &r.entry),
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
fn check_condition(
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
            let span = node_subspan(cx.source, node, &e.span);
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
                if !schema.readable(scope, &r.namespace, &r.entry) {
                    let span = node_subspan(cx.source, node, &r.span);
                    cx.report(
                        code,
                        Severity::Error,
                        span,
                        format!(
                            "{context}{}",
                            schema.unreadable_reason(scope, &r.namespace, &r.entry)
                        ),
                    );
                }
            }
            Some(expr)
        }
    }
}
