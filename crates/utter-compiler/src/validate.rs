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

/// Decodes a file (UTF-8, a leading BOM dropped) and parses its YAML; every
/// problem becomes a finding.
fn parse_file(
    label: &str,
    bytes: &[u8],
    sources: &mut Vec<SourceFile>,
    findings: &mut Vec<Finding>,
) -> Option<Option<Node>> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
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
            return None;
        }
    };
    let source = SourceFile::new(label, text);
    let parsed = yaml::parse(&source.text);
    let result = match parsed {
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
    };
    sources.push(source);
    result
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
