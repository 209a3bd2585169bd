//! Validation: every file of the project (and the bundled default skills) is
//! parsed and checked; findings accumulate across files; the responses are
//! merged into one flat registry in the reference engine's order.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use utter::Visibility;

mod files;
mod memory_rules;
mod responses;
mod skill_md;
pub mod types;

use crate::bundled;
use crate::condition::{Expr, MemoryRef};
use crate::diagnostics::{Finding, Severity, SourceFile, codes, sort_findings};
use crate::load::FileCx;
use crate::load::memory::{self, MemoryDecl};
use crate::load::project::ProjectFiles;
use crate::load::responses::{self as load_responses, RawResponse};
use crate::load::skill_md::{self as load_skill_md, SkillDoc};
use crate::load::yaml;
use responses::{report_rust_name_collisions, report_skill_name_collisions, validate_response};
use skill_md::check_skill_doc;
use types::EntryInfo;

use files::parse_file;
pub(crate) use files::{decode_file, parse_yaml};

/// Which memory a `responses.yml` file's conditions may read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `skills/<id>/responses.yml` (or a bundled skill's).
    Skill(String),
    /// The project-root `responses.yml`: only what every skill can read.
    Root,
}

/// A response as it stands in the merged registry.
#[derive(Clone, Debug)]
pub struct MergedResponse {
    /// Where it is defined: a skill or the root.
    pub scope: Scope,
    /// The file that defines it (the last definition, which is delivered).
    pub file: String,
    /// The response as read.
    pub raw: RawResponse,
    /// The parsed condition of each variant (by position in `raw.variants`).
    pub conditions: Vec<Option<std::sync::Arc<Expr<MemoryRef>>>>,
}

/// The result of checking a project.
#[derive(Clone, Debug)]
pub struct Checked {
    /// Every file read (decoded), bundled ones included.
    pub sources: Vec<SourceFile>,
    /// Sorted by file, then position.
    pub findings: Vec<Finding>,
    /// Every skill id: bundled and project, sorted.
    pub skills: Vec<String>,
    /// Every declared memory entry, sorted by namespace then name.
    pub memory: Vec<MemoryDecl>,
    /// The merged registry, by name.
    pub responses: BTreeMap<String, MergedResponse>,
    /// Every definition of each response name, in merge order (the last
    /// one is delivered): the file and the span of the name there.
    pub definitions: BTreeMap<String, Vec<(String, std::ops::Range<usize>)>>,
    /// The project's own skills (folders under `skills/`), sorted.
    pub project_skills: Vec<String>,
    /// What each project skill's skill.md references.
    pub skill_docs: BTreeMap<String, SkillDoc>,
    /// Responses named in files that did not parse, or malformed: not in the
    /// registry, but no reference to them is reported (their own finding is
    /// the root cause), and the skeleton keeps them.
    pub unusable_responses: BTreeSet<String>,
    /// The flavour of the format it was checked as.
    pub dialect: bundled::Dialect,
}

impl Checked {
    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Finding::is_error)
    }

    /// The file called `label`.
    pub fn source(&self, label: &str) -> Option<&SourceFile> {
        self.sources.iter().find(|s| s.label == label)
    }

    /// The error findings.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_error())
    }
}

/// In a Maestro agent the first entry of a response is delivered: a
/// `condition` would be silently ignored there, so each one is an error.
fn report_maestro_conditions(cx: &mut FileCx<'_>, raw: &load_responses::RawResponse) {
    for variant in &raw.variants {
        if let load_responses::ConditionField::Text { node, .. } = &variant.condition {
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

/// The bundled default skills the project is checked with.
fn bundled_skills(files: &ProjectFiles) -> &'static [bundled::BundledSkill] {
    if files.without_bundled_defaults {
        &[]
    } else {
        files.dialect.skills()
    }
}

/// One skill or the root, in merge order, with its files' labels and bytes.
struct Unit<'a> {
    scope: Scope,
    responses: Option<(String, &'a [u8])>,
    memory: Option<(String, &'a [u8])>,
    bundled: bool,
}

fn units(files: &ProjectFiles) -> Vec<Unit<'_>> {
    // Merge order: packaged system responses, default skills, project skills, root.
    let mut units = vec![Unit {
        scope: Scope::Root,
        responses: Some((
            bundled::label("system", "responses.yml"),
            files.dialect.system_responses().as_bytes(),
        )),
        memory: None,
        bundled: true,
    }];
    if files.without_bundled_defaults {
        units.clear();
    }
    for skill in bundled_skills(files) {
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

/// The declared entries, for readability and type checks.
pub(crate) struct Schema {
    pub(crate) entries: HashMap<(String, String), (Visibility, EntryInfo)>,
    /// `(skill, key)` written at the top level of a skill's memory.yml,
    /// outside `schema:`: named as the cause where they are read.
    misplaced: std::collections::HashSet<(String, String)>,
    /// Namespaces whose memory.yml does not parse: what they declare is not
    /// known, so a reference into one is not reported (no cascade).
    pub(crate) broken: std::collections::HashSet<String>,
    keys_by_scope: std::cell::RefCell<HashMap<Scope, std::rc::Rc<Vec<String>>>>,
    /// What this check's did-you-mean hints may still spend.
    pub(crate) hints: crate::diagnostics::HintBudget,
}

impl Schema {
    /// Whether `session.<namespace>.<entry>` cannot be judged: its
    /// memory.yml does not parse (and did not declare it before the error).
    pub(crate) fn unknowable(&self, namespace: &str, entry: &str) -> bool {
        self.broken.contains(namespace) && self.visibility(namespace, entry).is_none()
    }

    fn visibility(&self, namespace: &str, entry: &str) -> Option<Visibility> {
        self.entries
            .get(&(namespace.to_owned(), entry.to_owned()))
            .map(|(v, _)| *v)
    }

    pub(crate) fn readable(&self, scope: &Scope, namespace: &str, entry: &str) -> bool {
        match self.visibility(namespace, entry) {
            None => false,
            Some(Visibility::Project | Visibility::Public) => true,
            Some(Visibility::Private) => matches!(scope, Scope::Skill(s) if s == namespace),
        }
    }

    /// The declaration of `session.<ns>.<entry>` when `scope` may read it.
    pub(crate) fn readable_info(&self, scope: &Scope, r: &MemoryRef) -> Option<&EntryInfo> {
        if !self.readable(scope, &r.namespace, &r.entry) {
            return None;
        }
        self.entries
            .get(&(r.namespace.clone(), r.entry.clone()))
            .map(|(_, info)| info)
    }

    /// The keys `scope` may read, sorted (computed once per scope).
    pub(crate) fn readable_keys(&self, scope: &Scope) -> std::rc::Rc<Vec<String>> {
        if let Some(keys) = self.keys_by_scope.borrow().get(scope) {
            return keys.clone();
        }
        let keys = std::rc::Rc::new(self.compute_readable_keys(scope));
        self.keys_by_scope
            .borrow_mut()
            .insert(scope.clone(), keys.clone());
        keys
    }

    fn compute_readable_keys(&self, scope: &Scope) -> Vec<String> {
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
    /// A readable `session.<ns>.<entry>` spelled like an undeclared one.
    pub(crate) fn near_reference(
        &self,
        scope: &Scope,
        namespace: &str,
        entry: &str,
    ) -> Option<String> {
        if self.visibility(namespace, entry).is_some() {
            return None;
        }
        let keys = self.readable_keys(scope);
        self.hints
            .did_you_mean(
                &format!("{namespace}.{entry}"),
                keys.iter().map(String::as_str),
            )
            .map(|k| format!("session.{k}"))
    }

    pub(crate) fn unreadable_reason(&self, scope: &Scope, namespace: &str, entry: &str) -> String {
        let key = format!("{namespace}.{entry}");
        if namespace == "system" {
            return format!(
                "references engine-internal system memory `{key}`; conditions may read skill and project memory only"
            );
        }
        match (self.visibility(namespace, entry), scope) {
            (Some(Visibility::Private), Scope::Skill(active)) => format!(
                "references memory key `{key}`, which is private to skill `{namespace}` and not readable while skill `{active}` is active"
            ),
            (Some(Visibility::Private), Scope::Root) => format!(
                "references memory key `{key}`, which is private to skill `{namespace}`: the project-root responses.yml may be delivered by any skill, so it may read only project and public entries"
            ),
            _ if self
                .misplaced
                .contains(&(namespace.to_owned(), entry.to_owned())) =>
            {
                format!(
                    "references memory key `{key}`, which is written at the top level of skills/{namespace}/memory.yml, where it is ignored; move it under `schema:` `public:` (or `private:`)"
                )
            }
            _ => {
                let place = match scope {
                    Scope::Skill(s) => format!(
                        "skill `{s}`'s memory.yml, another skill's public entries or the project memory.yml"
                    ),
                    Scope::Root => "the project memory.yml or a skill's public entries".to_owned(),
                };
                format!("references memory key `{key}`, which is not declared in {place}")
            }
        }
    }
}

/// Checks every file of the project and the merged registry (the
/// analysis of variants together comes after: [`crate::check`]).
pub(crate) fn validate(files: &ProjectFiles) -> Checked {
    // Every YAML document of the project draws on this one budget.
    let yaml_budget = std::cell::Cell::new(yaml::YamlBudget::PROJECT);
    let mut sources = Vec::new();
    let mut findings = Vec::new();
    let units = units(files);

    for label in files.oversized.keys() {
        let limit = crate::load::project::MAX_FILE_BYTES;
        findings.push(SourceFile::new(label.clone(), "").finding(
            codes::YAML_LIMIT,
            Severity::Error,
            0..0,
            // The read stops past the limit: a larger size is not known.
            format!("the file is too large: more than {limit} bytes (utter reads files of at most {limit} bytes)"),
        )
        .with_help("split its responses or entries over skill files, or shorten it"));
    }

    for (label, why) in &files.skipped {
        let (code, severity) = if why.is_error() {
            (codes::IO_REFUSED, Severity::Error)
        } else {
            (codes::IO_IGNORED, Severity::Warning)
        };
        findings.push(SourceFile::new(label.clone(), "").finding(
            code,
            severity,
            0..0,
            why.message(),
        ));
    }

    // The agent's own settings (its dialect), read before the check chose
    // the bundled layer: here each problem in the file is reported.
    let settings = crate::load::settings::SETTINGS_FILE;
    if let Some(bytes) = files.files.get(settings)
        && let Some(root) = parse_file(settings, bytes, &mut sources, &mut findings, &yaml_budget)
    {
        let source = sources.last().expect("parse_file pushed the source");
        let mut cx = FileCx {
            source,
            findings: &mut findings,
        };
        crate::load::settings::walk(&mut cx, root.as_ref());
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
        } else if !files.files.contains_key(&format!("{folder}/skill.md")) {
            // The reference does not load the skill (nor its memory). Its
            // files are still checked here, as written, so that this one
            // finding is all the author sees.
            Some((
                codes::SKILL_FAILED_TO_LOAD,
                format!(
                    "skill folder `{folder}` has no `skill.md`, so the skill does not load and its memory.yml is ignored; add `{folder}/skill.md` (frontmatter with a `description:`), or remove the folder"
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
    let mut broken = std::collections::HashSet::new();
    let mut misplaced = std::collections::HashSet::new();
    for unit in &units {
        let Some((label, bytes)) = &unit.memory else {
            continue;
        };
        let parsed = parse_file(label, bytes, &mut sources, &mut findings, &yaml_budget);
        let source = sources.last().expect("parse_file pushed the source");
        let mut scratch = Vec::new();
        let (root, mut cx) = match parsed {
            Some(root) => (
                root,
                FileCx {
                    source,
                    findings: &mut findings,
                },
            ),
            None => {
                // Its own finding only: what the lines before the error
                // declare is kept (user code naming it compiles), and
                // references into the namespace are not reported.
                broken.insert(match &unit.scope {
                    Scope::Skill(id) => id.clone(),
                    Scope::Root => "project".to_owned(),
                });
                let before = findings.last().map_or(0, |f| f.span.start);
                let root = files::parse_prefix(&source.text, before, &yaml_budget);
                (
                    root,
                    FileCx {
                        source,
                        findings: &mut scratch,
                    },
                )
            }
        };
        let decls = match &unit.scope {
            Scope::Skill(id) => {
                let mut keys = Vec::new();
                let decls = memory::walk_skill(&mut cx, root.as_ref(), id, &mut keys);
                misplaced.extend(keys.into_iter().map(|k| (id.clone(), k)));
                decls
            }
            Scope::Root => memory::walk_project(&mut cx, root.as_ref()),
        };
        memory.extend(decls);
    }
    memory.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    for (index, message) in crate::names::typed_names(&memory).collisions {
        let decl = &memory[index];
        if let Some(source) = sources.iter().find(|s| s.label == decl.file) {
            findings.push(source.finding(
                codes::RUST_NAME_COLLISION,
                Severity::Error,
                decl.span.clone(),
                message,
            ));
        }
    }
    let schema = Schema {
        entries: memory
            .iter()
            .map(|d| {
                let info = EntryInfo {
                    ty: d.ty,
                    values: d.values.clone(),
                };
                ((d.namespace.clone(), d.name.clone()), (d.visibility, info))
            })
            .collect(),
        keys_by_scope: Default::default(),
        hints: crate::diagnostics::HintBudget::new(),
        misplaced,
        broken,
    };

    let mut merged: BTreeMap<String, MergedResponse> = BTreeMap::new();
    let mut definitions: BTreeMap<String, Vec<(String, std::ops::Range<usize>)>> = BTreeMap::new();
    let mut unusable = BTreeSet::new();
    let mut clean_conditions = responses::CheckedConditions::new();
    for unit in &units {
        let Some((label, bytes)) = &unit.responses else {
            continue;
        };
        let Some(root) = parse_file(label, bytes, &mut sources, &mut findings, &yaml_budget) else {
            // The names are still known to whoever reads the file.
            unusable.extend(load_responses::recover_names(&String::from_utf8_lossy(
                bytes,
            )));
            continue;
        };
        let source = sources.last().expect("parse_file pushed the source");
        let mut cx = FileCx {
            source,
            findings: &mut findings,
        };
        let raws = load_responses::walk(&mut cx, root.as_ref());
        for raw in raws {
            if files.dialect == bundled::Dialect::Maestro && !unit.bundled {
                report_maestro_conditions(&mut cx, &raw);
            }
            let conditions =
                validate_response(&mut cx, &schema, &unit.scope, &raw, &mut clean_conditions);
            definitions
                .entry(raw.name.clone())
                .or_default()
                .push((label.clone(), raw.name_span.clone()));
            if !raw.well_formed {
                unusable.insert(raw.name.clone());
                continue;
            }
            if let Some(previous) = merged.get(&raw.name) {
                let both_project_skills = !unit.bundled
                    && matches!(unit.scope, Scope::Skill(_))
                    && matches!(previous.scope, Scope::Skill(_))
                    && !bundled::is_bundled(&previous.file);
                if both_project_skills && previous.file != *label {
                    cx.report_in(
                        codes::DEFINED_BY_TWO_SKILLS,
                        Severity::Warning,
                        raw.name_span.clone(),
                        &raw.name,
                        None,
                        "is defined by two skills; response names are global, so this definition replaces the other one",
                    );
                    let (line, _) = sources
                        .iter()
                        .find(|s| s.label == previous.file)
                        .map_or((0, 0), |s| s.line_col(previous.raw.name_span.start));
                    if let Some(last) = cx.findings.last_mut() {
                        last.note = Some(format!("also defined in {}:{line}", previous.file));
                    }
                    cx.help("prefix response names with the skill id to keep both");
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
        let parse = |source: &SourceFile, range, findings: &mut Vec<Finding>| {
            parse_yaml(source, range, findings, &yaml_budget)
        };
        let doc = load_skill_md::walk(&mut cx, &parse);
        check_skill_doc(&mut cx, &schema, id, &doc, &merged, &unusable);
        skill_docs.insert(id.clone(), doc);
    }
    report_skill_name_collisions(&files.skills, &mut findings);
    let bundled_ids = bundled_skills(files).iter().map(|s| s.id).collect();
    memory_rules::check(&memory, &skill_docs, &bundled_ids, &sources, &mut findings);

    let mut skills: Vec<String> = bundled_skills(files)
        .iter()
        .map(|s| s.id.to_owned())
        .collect();
    skills.extend(files.skills.iter().cloned());
    skills.sort();
    skills.dedup();
    let merged_names: BTreeSet<String> = merged.keys().cloned().collect();
    let mut checked = Checked {
        sources,
        findings,
        skills,
        memory,
        responses: merged,
        definitions,
        project_skills: files.skills.clone(),
        skill_docs,
        unusable_responses: unusable
            .into_iter()
            .filter(|n| !merged_names.contains(n))
            .collect(),
        dialect: files.dialect,
    };
    sort_findings(&mut checked.findings);
    checked
}
