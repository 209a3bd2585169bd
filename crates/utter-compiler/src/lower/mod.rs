//! Lowering: a checked, error-free project into the registry IR that both the
//! interpreter and the code generator consume. Memory references become dense
//! entry ids; texts become pieces; each response gets its selection plan.
//! The IR's types are in `registry.rs`.

mod registry;

pub use registry::{Registry, Response, ResponseIndex, SkillRefs, StepRef, ToolRefs, Variant};

use std::collections::HashMap;

use utter::{Entry, Piece, StepKind};

use crate::bundled;
use crate::condition::{self, Expr, MemoryRef};
use crate::load::responses::ConditionField;
use crate::load::skill_md::{NameRef, RefKind};
use crate::memo::Memo;
use crate::template::{self, RawPiece};
use crate::validate::{Checked, MergedResponse, Scope, UnitMemo};

/// The declared entries as the runtime has them (`id` = index).
pub(crate) fn lower_entries(checked: &Checked) -> Vec<Entry<String, Vec<String>>> {
    checked
        .memory
        .iter()
        .enumerate()
        .map(|(id, decl)| Entry {
            id,
            namespace: decl.namespace.clone(),
            name: decl.name.clone(),
            visibility: decl.visibility,
            unset_text: bundled::UNSET_TEXTS
                .iter()
                .find(|(ns, name, _)| *ns == decl.namespace && *name == decl.name)
                .map(|(_, _, text)| (*text).to_owned()),
            ty: decl.ty,
            values: decl.values.clone(),
            pii: decl.pii,
        })
        .collect()
}

/// Entry ids by `(namespace, name)`.
pub(crate) fn entry_ids(entries: &[Entry<String, Vec<String>>]) -> HashMap<(&str, &str), usize> {
    entries
        .iter()
        .map(|e| ((e.namespace.as_str(), e.name.as_str()), e.id))
        .collect()
}

use crate::load::layout::memory_namespace;

/// The responses that can be analysed and delivered although the project
/// has errors: no error names the response, none is in its file without
/// naming a response, every condition parsed, and every entry its
/// conditions read is declared in a memory file without errors. (An error
/// elsewhere cannot change what such a response delivers.)
pub fn usable_responses(checked: &Checked) -> std::collections::BTreeSet<String> {
    let broken = Broken::of(&checked.findings);
    let entries = lower_entries(checked);
    let ids = entry_ids(&entries);
    checked
        .responses
        .iter()
        .filter(|(_, merged)| broken.spares(merged, &ids))
        .map(|(name, _)| name.clone())
        .collect()
}

/// What the errors of a check break (see [`usable_responses`]).
pub(crate) struct Broken<'f> {
    named: std::collections::HashSet<&'f str>,
    files: std::collections::HashSet<&'f str>,
    namespaces: std::collections::HashSet<&'f str>,
}

impl<'f> Broken<'f> {
    /// What the errors among `findings` break.
    pub(crate) fn of(findings: &'f [crate::Finding]) -> Self {
        let mut broken = Broken {
            named: std::collections::HashSet::new(),
            files: std::collections::HashSet::new(),
            namespaces: std::collections::HashSet::new(),
        };
        for f in findings.iter().filter(|f| f.is_error()) {
            match &f.response {
                Some(r) => {
                    broken.named.insert(r);
                }
                None => {
                    broken.files.insert(&f.file);
                    if let Some(ns) = memory_namespace(&f.file) {
                        broken.namespaces.insert(ns);
                    }
                }
            }
        }
        broken
    }

    /// Whether the response `merged` is usable despite them.
    pub(crate) fn spares(
        &self,
        merged: &MergedResponse,
        ids: &HashMap<(&str, &str), usize>,
    ) -> bool {
        !self.named.contains(merged.raw.name.as_str())
            && !self.files.contains(merged.file.as_str())
            && merged
                .raw
                .variants
                .iter()
                .zip(&merged.conditions)
                .all(|(raw, c)| {
                    let parsed =
                        c.is_some() || !matches!(raw.condition, ConditionField::Text { .. });
                    parsed
                        && c.iter().flat_map(|c| c.refs()).all(|r| {
                            ids.contains_key(&(r.namespace.as_str(), r.entry.as_str()))
                                && !self.namespaces.contains(r.namespace.as_str())
                        })
                })
    }
}

/// Lowers a checked project; its error findings if it has any.
#[cfg(test)]
pub(crate) fn lower(checked: &Checked) -> Result<Registry, Vec<crate::Finding>> {
    if checked.has_errors() {
        return Err(checked.errors().cloned().collect());
    }
    Ok(lower_only(checked, |_| true, None))
}

/// Lowered responses kept from check to check, by the outcome id of their
/// file ([`UnitMemo`]) and their name: within one schema, a response of
/// the same file outcome lowers the same.
pub(crate) type LoweringMemo = Memo<(u64, String), Response>;

/// [`lower_usable`], reusing the lowering of responses whose file did not
/// change since the check the memos kept.
pub(crate) fn lower_usable_with(
    checked: &Checked,
    units: &UnitMemo,
    lowered: &mut LoweringMemo,
) -> Registry {
    let memo = Some((units, lowered));
    // Without errors every response is usable (what `lower` lowers).
    if !checked.has_errors() {
        return lower_only(checked, |_| true, memo);
    }
    let usable = usable_responses(checked);
    lower_only(checked, |name| usable.contains(name), memo)
}

/// The ids of the entries of each name (a bare `{name}` placeholder).
fn entries_by_name(entries: &[Entry<String, Vec<String>>]) -> HashMap<&str, Vec<usize>> {
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for e in entries {
        by_name.entry(e.name.as_str()).or_default().push(e.id);
    }
    by_name
}

/// One response lowered alone among `entries` (after an edit inside it:
/// [`crate::CheckCache::findings_after_edit`]), as its project's lowering
/// lowers it; `line`: where its name is.
pub(crate) fn lower_one(
    merged: &MergedResponse,
    line: usize,
    entries: &[Entry<String, Vec<String>>],
) -> Response {
    lower_response(merged, line, &entry_ids(entries), &entries_by_name(entries))
}

/// One response, lowered.
fn lower_response(
    merged: &MergedResponse,
    line: usize,
    ids: &HashMap<(&str, &str), usize>,
    by_name: &HashMap<&str, Vec<usize>>,
) -> Response {
    let variants: Vec<Variant> = merged
        .raw
        .variants
        .iter()
        .zip(&merged.conditions)
        .enumerate()
        .map(|(position, (raw, condition))| {
            let mut variant = Variant {
                wording: utter::WordingId(0),
                text: raw.text.clone(),
                pieces: lower_text(&raw.text, ids, by_name),
                condition: condition.as_ref().map(|c| lower_condition(c, ids)),
                condition_text: match &raw.condition {
                    ConditionField::Text { text, .. } => Some(text.trim().to_owned()),
                    _ => None,
                },
                rephrase: raw.rephrase,
            };
            variant.wording = variant.wording_at(&merged.raw.name, position).id();
            variant
        })
        .collect();
    let default = variants.iter().position(|v| v.condition.is_none());
    Response {
        name: merged.raw.name.clone(),
        file: merged.file.clone(),
        line,
        skill: match &merged.scope {
            Scope::Skill(s) => Some(s.clone()),
            Scope::Root => None,
        },
        variants: variants.into(),
        default,
    }
}

/// Lowers the responses `keep` keeps.
fn lower_only(
    checked: &Checked,
    keep: impl Fn(&str) -> bool,
    mut memo: Option<(&UnitMemo, &mut LoweringMemo)>,
) -> Registry {
    let entries = lower_entries(checked);
    let ids = entry_ids(&entries);
    let by_name = entries_by_name(&entries);

    let sources: HashMap<&str, &crate::diagnostics::SourceFile> = checked
        .sources
        .iter()
        .map(|s| (s.label.as_str(), s))
        .collect();
    let responses: Vec<Response> = checked
        .responses
        .values()
        .filter(|merged| keep(&merged.raw.name))
        .map(|merged| {
            let line = sources
                .get(merged.file.as_str())
                .map_or(0, |s| s.line_index(merged.raw.name_span.start) + 1);
            let Some((units, lowered)) = memo.as_mut() else {
                return lower_response(merged, line, &ids, &by_name);
            };
            let Some(content) = units.content_id(&merged.raw, &merged.file) else {
                return lower_response(merged, line, &ids, &by_name);
            };
            let key = (content, merged.raw.name.clone());
            if let Some(mut kept) = lowered.get(&key) {
                // The same lines, perhaps moved by an edit above them.
                kept.line = line;
                return kept;
            }
            let response = lower_response(merged, line, &ids, &by_name);
            lowered.put(key, response.clone());
            response
        })
        .collect();
    let responses: Vec<Response> = responses;
    let index = |name: &str| {
        responses
            .binary_search_by(|r| r.name.as_str().cmp(name))
            .ok()
            .map(ResponseIndex)
    };
    let mut skill_refs: Vec<SkillRefs> = checked
        .project_skills
        .iter()
        .map(|skill| skill_refs_of(checked, skill, &index, &ids))
        .collect();
    // Maestro's bundled `default_session_start` (rasa-pro 3.20.5) greets
    // with `utter_greet` when it activates: its table says so too.
    if checked.dialect == crate::bundled::Dialect::Maestro
        && let Some(greet) = index("utter_greet")
        && !skill_refs
            .iter()
            .any(|r| r.skill == "default_session_start")
    {
        skill_refs.push(SkillRefs {
            skill: "default_session_start".to_owned(),
            on_activate: vec![greet],
            ..SkillRefs::default()
        });
        skill_refs.sort_by(|a, b| a.skill.cmp(&b.skill));
    }
    Registry {
        entries,
        declarations: checked.memory.clone(),
        skills: checked.skills.clone(),
        responses,
        skill_refs,
    }
}

/// What the skill.md of `skill` references, as indices of the lowered
/// responses (`index`); `when:` conditions with entry ids (`ids`).
fn skill_refs_of(
    checked: &Checked,
    skill: &str,
    index: &dyn Fn(&str) -> Option<ResponseIndex>,
    ids: &HashMap<(&str, &str), usize>,
) -> SkillRefs {
    let Some(doc) = checked.skill_docs.get(skill) else {
        return SkillRefs {
            skill: skill.to_owned(),
            ..SkillRefs::default()
        };
    };
    let mut refs = SkillRefs {
        skill: skill.to_owned(),
        ..SkillRefs::default()
    };
    for trigger in &doc.triggers {
        let Some(response) = index(&trigger.response.name) else {
            continue;
        };
        if trigger.on_activate {
            refs.on_activate.push(response);
        }
        if let Some((text, _)) = &trigger.when
            && let Ok(expr) = condition::parse(text)
            // With errors elsewhere, a condition may name what is not declared.
            && expr
                .refs()
                .iter()
                .all(|r| ids.contains_key(&(r.namespace.as_str(), r.entry.as_str())))
        {
            refs.when.push((response, lower_condition(&expr, ids)));
        }
    }
    for tool in &doc.tools {
        let named = |r: &Option<NameRef>| r.as_ref().and_then(|r| index(&r.name));
        let t = ToolRefs {
            tool: tool.tool.clone(),
            on_success: named(&tool.on_success),
            on_failure: named(&tool.on_failure),
            utter_for_confirmation: named(&tool.utter_for_confirmation),
            utter_on_user_denial: named(&tool.utter_on_user_denial),
        };
        if t.on_success.is_some()
            || t.on_failure.is_some()
            || t.utter_for_confirmation.is_some()
            || t.utter_on_user_denial.is_some()
        {
            refs.tools.push(t);
        }
    }
    for step in &doc.steps {
        let Some(response) = index(&step.response.name) else {
            continue;
        };
        refs.steps.push(StepRef {
            block: step.block.clone(),
            step: step.step.clone(),
            kind: match step.kind {
                RefKind::StepUtterance => StepKind::Utterance,
                _ => StepKind::Action,
            },
            response,
        });
    }
    refs
}

pub(crate) fn lower_condition(
    expr: &Expr<MemoryRef>,
    ids: &HashMap<(&str, &str), usize>,
) -> Expr<usize> {
    // Validation proved every reference readable, hence declared.
    expr.map_refs(&mut |r: &MemoryRef| {
        ids.get(&(r.namespace.as_str(), r.entry.as_str()))
            .copied()
            .unwrap_or(usize::MAX)
    })
}

/// Splits a text into pieces; a placeholder no entry can ever fill is literal
/// text (it is always delivered as written).
pub fn lower_text(
    text: &str,
    ids: &HashMap<(&str, &str), usize>,
    by_name: &HashMap<&str, Vec<usize>>,
) -> Vec<Piece<String, Vec<usize>>> {
    let mut pieces: Vec<Piece<String, Vec<usize>>> = Vec::new();
    let push_text = |pieces: &mut Vec<Piece<String, Vec<usize>>>, t: &str| {
        if let Some(Piece::Text(last)) = pieces.last_mut() {
            last.push_str(t);
        } else if !t.is_empty() {
            pieces.push(Piece::Text(t.to_owned()));
        }
    };
    for raw in template::scan(text) {
        match raw {
            RawPiece::Text(t) => push_text(&mut pieces, &t),
            RawPiece::Session { reference, raw, .. } => {
                match RawPiece::session_key(&reference).and_then(|key| ids.get(&key)) {
                    Some(&entry) => pieces.push(Piece::Session { entry, raw }),
                    None => push_text(&mut pieces, &raw),
                }
            }
            RawPiece::Bare { name, raw, .. } => match by_name.get(name.as_str()) {
                Some(candidates) => pieces.push(Piece::Bare {
                    candidates: candidates.clone(),
                    raw,
                }),
                None => push_text(&mut pieces, &raw),
            },
        }
    }
    pieces
}
