//! Validation: every file of the project (and the bundled default skills) is
//! parsed and checked; findings accumulate across files; the responses are
//! merged into one flat registry in the reference engine's order.

use std::collections::{BTreeMap, BTreeSet};

mod by_response;
mod files;
mod memory_rules;
mod merge;
mod outcomes;
mod pass;
mod placeholders;
mod responses;
mod schema;
mod skill_md;
pub mod types;

use crate::bundled;
use crate::condition::{Expr, MemoryRef};
use crate::diagnostics::{Finding, SourceFile, sort_findings};
use crate::load::memory::MemoryDecl;
use crate::load::project::ProjectFiles;
use crate::load::responses::RawResponse;
use crate::load::skill_md::SkillDoc;
use pass::{Pass, bundled_skills, units};
use responses::{report_rust_name_collisions, report_skill_name_collisions};
pub(crate) use schema::Schema;

pub(crate) use by_response::recheck_part;
pub(crate) use files::{decode_file, parse_yaml};
pub(crate) use outcomes::{FileParts, PartOutcome, UnitMemo};

/// Which memory a `responses.yml` file's conditions may read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `skills/<id>/responses.yml` (or a bundled skill's).
    Skill(String),
    /// The project-root `responses.yml`: only what every skill can read.
    Root,
}

impl Scope {
    /// The skill active while a response of this scope is delivered, as the
    /// readability rule ([`utter::Visibility::readable_in`]) takes it.
    pub fn active_skill(&self) -> Option<&str> {
        match self {
            Scope::Skill(skill) => Some(skill),
            Scope::Root => None,
        }
    }
}

/// A response as it stands in the merged registry.
#[derive(Clone, Debug)]
pub struct MergedResponse {
    /// Where it is defined: a skill or the root.
    pub scope: Scope,
    /// The file that defines it (the last definition, which is delivered).
    pub file: String,
    /// The response as read (shared with the check that kept its file's
    /// outcome, [`crate::CheckCache`]).
    pub raw: std::sync::Arc<RawResponse>,
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
    /// The levels `utter.yml` sets for findings (applied to `findings`).
    pub lints: crate::load::settings::Lints,
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

/// Checks every file of the project and the merged registry (the
/// analysis of variants together comes after: [`crate::check`]).
pub(crate) fn validate(files: &ProjectFiles, memo: &mut UnitMemo) -> Checked {
    let mut pass = Pass::new();
    pass.report_unread_files(files);
    let settings = pass.check_settings(files);
    pass.check_skill_ids(files);
    let units = units(files);
    // Memory first: readability needs every declaration.
    let (memory, schema) = schema::read_memory(&mut pass, &units);
    let merged = merge::merge_responses(&mut pass, files, &units, &schema, memo);
    report_rust_name_collisions(&merged.responses, &pass.sources, &mut pass.findings);
    // skill.md references need the whole registry.
    let skill_docs = merge::check_skill_docs(&mut pass, files, &schema, &merged);
    report_skill_name_collisions(&files.skills, &mut pass.findings);
    let bundled_ids = bundled_skills(files).iter().map(|s| s.id).collect();
    memory_rules::check(
        &memory,
        &skill_docs,
        &bundled_ids,
        &pass.sources,
        &mut pass.findings,
    );

    // What an edit inside one response may spend without changing what
    // the rest of the check finds.
    memo.left = Some((pass.yaml_budget.get(), schema.hints.left()));

    let mut skills: Vec<String> = bundled_skills(files)
        .iter()
        .map(|s| s.id.to_owned())
        .collect();
    skills.extend(files.skills.iter().cloned());
    skills.sort();
    skills.dedup();
    let merge::Merged {
        responses,
        definitions,
        unusable,
    } = merged;
    let mut checked = Checked {
        sources: pass.sources,
        findings: pass.findings,
        skills,
        memory,
        definitions,
        project_skills: files.skills.clone(),
        skill_docs,
        unusable_responses: unusable
            .into_iter()
            .filter(|n| !responses.contains_key(n))
            .collect(),
        responses,
        dialect: files.dialect,
        lints: settings.lints,
    };
    // The same memory files give the same schema: kept for an edit.
    memo.schema = Some(schema);
    // Before anything reads which responses have errors.
    checked.lints.apply(&mut checked.findings);
    sort_findings(&mut checked.findings);
    checked
}
