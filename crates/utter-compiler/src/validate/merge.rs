//! The responses of every unit merged into one registry in the reference
//! engine's order, and the skill.md files checked against it.

use crate::load::layout::{FileKind, file_of};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::by_response::check_by_response;
use super::outcomes::{UnitMemo, UnitOutcome};
use super::pass::{Pass, Unit};
use super::responses::{CheckedConditions, report_maestro_conditions, validate_response};
use super::schema::Schema;
use super::skill_md::check_skill_doc;
use super::{MergedResponse, Scope, decode_file, parse_yaml};
use crate::bundled;
use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use crate::load::FileCx;
use crate::load::project::ProjectFiles;
use crate::load::responses as load_responses;
use crate::load::skill_md::{self as load_skill_md, SkillDoc};
use crate::load::yaml::YamlBudget;

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
    memo: &mut UnitMemo,
) -> Merged {
    let mut merged: BTreeMap<String, MergedResponse> = BTreeMap::new();
    let mut definitions: BTreeMap<String, Vec<(String, std::ops::Range<usize>)>> = BTreeMap::new();
    let mut unusable = BTreeSet::new();
    for unit in units {
        let Some((label, bytes)) = &unit.responses else {
            continue;
        };
        let outcome = unit_outcome(pass, files, unit, label, bytes, schema, memo);
        pass.sources.extend(outcome.source.clone());
        pass.findings.extend(outcome.findings.iter().cloned());
        let Some(responses) = &outcome.responses else {
            // The names are still known to whoever reads the file.
            unusable.extend(outcome.recovered.iter().cloned());
            continue;
        };
        let source = pass.sources.last().expect("the unit's source");
        for (raw, conditions) in responses {
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
                    let (line, _) = pass
                        .sources
                        .iter()
                        .find(|s| s.label == previous.file)
                        .map_or((0, 0), |s| s.line_col(previous.raw.name_span.start));
                    let mut finding = source
                        .finding(
                            codes::DEFINED_BY_TWO_SKILLS,
                            Severity::Warning,
                            raw.name_span.clone(),
                            "is defined by two skills; response names are global, so this definition replaces the other one",
                        )
                        .with_help("prefix response names with the skill id to keep both");
                    finding.response = Some(raw.name.clone());
                    finding.note = Some(format!("also defined in {}:{line}", previous.file));
                    pass.findings.push(finding);
                }
                // The root's definition hides a project skill's: said at the
                // hidden one (a bundled default overridden stays silent).
                let hides_a_skill = !unit.bundled
                    && unit.scope == Scope::Root
                    && matches!(previous.scope, Scope::Skill(_))
                    && !bundled::is_bundled(&previous.file);
                if hides_a_skill {
                    let (line, _) = source.line_col(raw.name_span.start);
                    let hidden = pass.sources.iter().find(|s| s.label == previous.file);
                    if let Some(hidden) = hidden {
                        let mut finding = hidden
                            .finding(
                                codes::HIDDEN_BY_ROOT,
                                Severity::Warning,
                                previous.raw.name_span.clone(),
                                "is never delivered: the project root's responses.yml defines this response too, and the root's definition is the one delivered",
                            )
                            .with_help(
                                "remove one of the two definitions, or rename this one (response names are global)",
                            );
                        finding.response = Some(raw.name.clone());
                        finding.note = Some(format!("the definition delivered: {label}:{line}"));
                        pass.findings.push(finding);
                    }
                }
            }
            merged.insert(
                raw.name.clone(),
                MergedResponse {
                    scope: unit.scope.clone(),
                    file: label.clone(),
                    raw: Arc::clone(raw),
                    conditions: conditions.clone(),
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

/// The unit's outcome: kept from the check before when it can be (its
/// budgets replayed), else checked now.
fn unit_outcome(
    pass: &mut Pass,
    files: &ProjectFiles,
    unit: &Unit<'_>,
    label: &str,
    bytes: &[u8],
    schema: &Schema,
    memo: &mut UnitMemo,
) -> Arc<UnitOutcome> {
    if let Some(kept) = memo.kept(label, bytes) {
        let mut yaml = pass.yaml_budget.get();
        if yaml.replay(kept.yaml_spent) && schema.hints.replay(kept.hints_spent) {
            pass.yaml_budget.set(yaml);
            memo.note(label, &kept);
            memo.reused += 1;
            return kept;
        }
    }
    let (yaml_before, hints_before) = (pass.yaml_budget.get(), schema.hints.left());
    let mut scratch = Pass {
        sources: Vec::new(),
        findings: Vec::new(),
        yaml_budget: std::cell::Cell::new(yaml_before),
    };
    // Response by response only where the next check can reuse it: a
    // one-off check reads the file whole.
    let reused_before = memo.reused_responses;
    let by_response = memo
        .outcomes
        .is_enabled()
        .then(|| check_by_response(&mut scratch, files, unit, (label, bytes), schema, memo));
    let outcome = match by_response.flatten() {
        Some(outcome) => outcome,
        None => {
            // Checked whole, from the budget the parts did not keep; none
            // of them counts as reused.
            schema.hints.reset(hints_before);
            memo.reused_responses = reused_before;
            check_unit(&mut scratch, files, unit, label, bytes, schema)
        }
    };
    let yaml_after = scratch.yaml_budget.get();
    pass.yaml_budget.set(yaml_after);
    let outcome = Arc::new(UnitOutcome {
        id: memo.next_id(),
        yaml_spent: yaml_before.spent_to(yaml_after),
        hints_spent: hints_before - schema.hints.left(),
        ..outcome
    });
    // Kept only when no budget refused anything: then the same work with
    // at least as much left gives the same outcome.
    if yaml_after.is_left() && schema.hints.left() > 0 {
        memo.outcomes
            .put(label.to_owned(), (bytes.to_vec(), Arc::clone(&outcome)));
        memo.note(label, &outcome);
    }
    outcome
}

/// Parses and checks one unit's `responses.yml` in `scratch` (a pass of
/// its own: its source and findings are the unit's).
fn check_unit(
    scratch: &mut Pass,
    files: &ProjectFiles,
    unit: &Unit<'_>,
    label: &str,
    bytes: &[u8],
    schema: &Schema,
) -> UnitOutcome {
    let parsed = scratch.parse(label, bytes);
    let mut outcome = UnitOutcome {
        id: 0,
        source: None,
        findings: Vec::new(),
        responses: None,
        recovered: Vec::new(),
        yaml_spent: YamlBudget::PROJECT,
        hints_spent: 0,
        parts: None,
    };
    match parsed {
        None => {
            outcome.recovered = load_responses::recover_names(&String::from_utf8_lossy(bytes));
        }
        Some(root) => {
            let mut clean_conditions = CheckedConditions::new();
            let mut cx = FileCx {
                source: scratch.sources.last().expect("parse pushed the source"),
                findings: &mut scratch.findings,
            };
            let raws = load_responses::walk(&mut cx, root.as_ref());
            let mut responses = Vec::with_capacity(raws.len());
            for raw in raws {
                if files.dialect == bundled::Dialect::Maestro && !unit.bundled {
                    report_maestro_conditions(&mut cx, &raw);
                }
                let conditions =
                    validate_response(&mut cx, schema, &unit.scope, &raw, &mut clean_conditions);
                responses.push((Arc::new(raw), conditions));
            }
            outcome.responses = Some(responses);
        }
    }
    outcome.source = scratch.sources.pop();
    outcome.findings = std::mem::take(&mut scratch.findings);
    outcome
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
        let label = file_of(Some(id), FileKind::SkillDoc);
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
