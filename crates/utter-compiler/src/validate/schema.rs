//! The declared memory entries of a project, read from every `memory.yml`
//! before any response: readability and type checks need all of them.

use std::collections::{HashMap, HashSet};

use utter::Visibility;

use super::Scope;
use super::pass::{Pass, Unit};
use super::types::EntryInfo;
use crate::condition::MemoryRef;
use crate::diagnostics::{Severity, codes};
use crate::load::FileCx;
use crate::load::memory::{self, MemoryDecl};

/// The declared entries, for readability and type checks.
pub(crate) struct Schema {
    pub(crate) entries: HashMap<(String, String), (Visibility, EntryInfo)>,
    /// `(skill, key)` written at the top level of a skill's memory.yml,
    /// outside `schema:`: named as the cause where they are read.
    misplaced: HashSet<(String, String)>,
    /// Namespaces whose memory.yml does not parse: what they declare is not
    /// known, so a reference into one is not reported (no cascade).
    pub(crate) broken: HashSet<String>,
    keys_by_scope: std::cell::RefCell<HashMap<Scope, std::sync::Arc<Vec<String>>>>,
    /// What this check's did-you-mean hints may still spend.
    pub(crate) hints: crate::diagnostics::HintBudget,
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schema")
            .field("entries", &self.entries.len())
            .field("broken", &self.broken)
            .finish_non_exhaustive()
    }
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
        self.visibility(namespace, entry)
            .is_some_and(|v| v.readable_in(namespace, scope.active_skill()))
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
    pub(crate) fn readable_keys(&self, scope: &Scope) -> std::sync::Arc<Vec<String>> {
        if let Some(keys) = self.keys_by_scope.borrow().get(scope) {
            return keys.clone();
        }
        let keys = std::sync::Arc::new(self.compute_readable_keys(scope));
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

/// Reads the memory of every unit (a file that does not parse keeps what
/// its lines before the error declare), reports Rust name collisions, and
/// builds the schema the responses are checked against.
pub(super) fn read_memory(pass: &mut Pass, units: &[Unit<'_>]) -> (Vec<MemoryDecl>, Schema) {
    let mut memory: Vec<MemoryDecl> = Vec::new();
    let mut broken = HashSet::new();
    let mut misplaced = HashSet::new();
    for unit in units {
        let Some((label, bytes)) = &unit.memory else {
            continue;
        };
        let parsed = pass.parse(label, bytes);
        let source = pass.sources.last().expect("parse pushed the source");
        let mut scratch = Vec::new();
        let (root, mut cx) = match parsed {
            Some(root) => (
                root,
                FileCx {
                    source,
                    findings: &mut pass.findings,
                },
            ),
            None => {
                // Its own finding only: what the lines before the error
                // declare is kept (user code naming it compiles), and
                // references into the namespace are not reported.
                broken.insert(unit.scope.active_skill().unwrap_or("project").to_owned());
                let before = pass.findings.last().map_or(0, |f| f.span.start);
                let root = super::files::parse_prefix(&source.text, before, &pass.yaml_budget);
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
        if let Some(source) = pass.sources.iter().find(|s| s.label == decl.file) {
            pass.findings.push(source.finding(
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
    (memory, schema)
}
