//! The responses of every unit merged into one registry in the reference
//! engine's order, and the skill.md files checked against it.

use std::collections::{BTreeMap, BTreeSet};

use super::pass::{Pass, Unit};
use super::responses::{CheckedConditions, validate_response};
use super::schema::Schema;
use super::skill_md::check_skill_doc;
use super::{MergedResponse, Scope, decode_file, parse_yaml};
use crate::bundled;
use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use crate::load::FileCx;
use crate::load::project::ProjectFiles;
use crate::load::responses as load_responses;
use crate::load::skill_md::{self as load_skill_md, SkillDoc};

/// The merged registry, every definition of each name (merge order), and the
/// names whose files did not parse or that are malformed.
pub(super) struct Merged {
    pub(super) responses: BTreeMap<String, MergedResponse>,
    pub(super) definitions: BTreeMap<String, Vec<(String, std::ops::Range<usize>)>>,
    pub(super) unusable: BTreeSet<String>,
}

/// Checks each unit's responses and merges them: a later definition
/// replaces an earlier one (two project skills defining a name is a warning).
pub(super) fn merge_responses(
    pass: &mut Pass,
    files: &ProjectFiles,
    units: &[Unit<'_>],
    schema: &Schema,
) -> Merged {
    let mut merged: BTreeMap<String, MergedResponse> = BTreeMap::new();
    let mut definitions: BTreeMap<String, Vec<(String, std::ops::Range<usize>)>> = BTreeMap::new();
    let mut unusable = BTreeSet::new();
    let mut clean_conditions = CheckedConditions::new();
    for unit in units {
        let Some((label, bytes)) = &unit.responses else {
            continue;
        };
        let Some(root) = pass.parse(label, bytes) else {
            // The names are still known to whoever reads the file.
            unusable.extend(load_responses::recover_names(&String::from_utf8_lossy(
                bytes,
            )));
            continue;
        };
        // Fields borrowed apart: a second definition looks up the first's file.
        let mut cx = FileCx {
            source: pass.sources.last().expect("parse pushed the source"),
            findings: &mut pass.findings,
        };
        let raws = load_responses::walk(&mut cx, root.as_ref());
        for raw in raws {
            if files.dialect == bundled::Dialect::Maestro && !unit.bundled {
                report_maestro_conditions(&mut cx, &raw);
            }
            let conditions =
                validate_response(&mut cx, schema, &unit.scope, &raw, &mut clean_conditions);
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
                    let (line, _) = pass
                        .sources
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

    Merged {
        responses: merged,
        definitions,
        unusable,
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

/// Each project skill's skill.md, checked against the whole registry.
pub(super) fn check_skill_docs(
    pass: &mut Pass,
    files: &ProjectFiles,
    schema: &Schema,
    merged: &Merged,
) -> BTreeMap<String, SkillDoc> {
    let mut skill_docs = BTreeMap::new();
    for id in &files.skills {
        let label = format!("skills/{id}/skill.md");
        let Some(bytes) = files.files.get(&label) else {
            continue;
        };
        if !decode_file(&label, bytes, &mut pass.sources, &mut pass.findings) {
            continue;
        }
        let yaml_budget = &pass.yaml_budget;
        let mut cx = FileCx {
            source: pass.sources.last().expect("decode_file pushed the source"),
            findings: &mut pass.findings,
        };
        let parse = |source: &SourceFile, range, findings: &mut Vec<Finding>| {
            parse_yaml(source, range, findings, yaml_budget)
        };
        let doc = load_skill_md::walk(&mut cx, &parse);
        check_skill_doc(
            &mut cx,
            schema,
            id,
            &doc,
            &merged.responses,
            &merged.unusable,
        );
        skill_docs.insert(id.clone(), doc);
    }
    skill_docs
}
