//! The reference engine's rules on `memory.yml` attributes that depend on
//! skill.md: who sees a `description`, which entries need one, and where
//! `llm_settable` and `seed` are allowed.

use std::collections::{BTreeMap, HashSet};

use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use crate::load::memory::MemoryDecl;
use crate::load::skill_md::SkillDoc;

/// Whitespace is no description (as in the reference).
fn nonempty(text: Option<&str>) -> bool {
    text.is_some_and(|t| !t.trim().is_empty())
}

/// Checks every project entry. `loaded` are the project skills with a
/// skill.md (the ones the reference loads), with their documents;
/// `bundled_ids` are the ids of the bundled default skills, whose project
/// overrides need no descriptions (as in the reference).
pub(super) fn check(
    memory: &[MemoryDecl],
    loaded: &BTreeMap<String, SkillDoc>,
    bundled_ids: &HashSet<&str>,
    sources: &[SourceFile],
    findings: &mut Vec<Finding>,
) {
    for decl in memory {
        if crate::bundled::is_bundled(&decl.file) {
            continue;
        }
        let Some(source) = sources.iter().find(|s| s.label == decl.file) else {
            continue;
        };
        let name = &decl.name;
        let mut report = |code, severity, span: &std::ops::Range<usize>, message: String| {
            findings.push(source.finding(code, severity, span.clone(), message));
        };
        if decl.namespace == "project" {
            if nonempty(decl.description.as_deref())
                && let Some(span) = &decl.description_span
            {
                report(
                    codes::DESCRIPTION_NOT_EXPOSED,
                    Severity::Error,
                    span,
                    format!(
                        "project entry `{name}` has a description, but the model cannot set project entries, so it is never shown; remove it (a YAML comment documents the entry)"
                    ),
                );
            }
            if let Some(span) = &decl.llm_settable {
                report(
                    codes::PROJECT_LLM_SETTABLE,
                    Severity::Error,
                    span,
                    format!(
                        "project entry `{name}` is `llm_settable`, but the model cannot write project entries; remove `llm_settable`, or declare the entry in a skill's memory.yml"
                    ),
                );
            }
            continue;
        }
        if let Some(span) = &decl.seed {
            report(
                codes::SKILL_SEED,
                Severity::Error,
                span,
                format!(
                    "skill entry `{name}` declares `seed: true`, but only project entries are seeded at session start; remove `seed`, or declare the entry in the project memory.yml"
                ),
            );
        }
        let Some(doc) = loaded.get(&decl.namespace) else {
            continue;
        };
        let collects: Vec<_> = doc.collects.iter().filter(|c| c.entry == *name).collect();
        let can_set = decl.llm_settable.is_some() || !collects.is_empty();
        let own = nonempty(decl.description.as_deref());
        // The last collect step's description wins, even when it is blank.
        let winning = collects.last();
        let collect_says = winning.is_some_and(|c| nonempty(c.description.as_deref()));
        if !can_set && own {
            let span = decl.description_span.as_ref().unwrap_or(&decl.span);
            report(
                codes::DESCRIPTION_NOT_EXPOSED,
                Severity::Error,
                span,
                format!(
                    "entry `{name}` has a description, but the model never sees it: it is not `llm_settable` and no `collect:` step fills it; remove the description (a YAML comment documents the entry), or add `llm_settable: true`"
                ),
            );
        }
        if bundled_ids.contains(decl.namespace.as_str()) || !can_set {
            continue;
        }
        if !own && !collect_says {
            let detail = match winning {
                Some(last)
                    if collects[..collects.len() - 1]
                        .iter()
                        .any(|c| nonempty(c.description.as_deref())) =>
                {
                    format!(
                        "collect step `{}` fills it last with a blank description, which drops the earlier one; describe it there, or add `description:` to the entry",
                        last.step
                    )
                }
                _ => "add `description:` to the entry, or to the collect step that fills it"
                    .to_owned(),
            };
            report(
                codes::DESCRIPTION_REQUIRED,
                Severity::Error,
                &decl.span,
                format!(
                    "entry `{name}` can be set by the model but has no description the model sees; {detail}"
                ),
            );
        } else if own
            && collect_says
            && let Some(last) = winning
        {
            let span = decl.description_span.as_ref().unwrap_or(&decl.span);
            report(
                codes::COLLECT_DESCRIPTION_OVERRIDES,
                Severity::Warning,
                span,
                format!(
                    "entry `{name}` has a description, but collect step `{}` gives its own, which is the one the model sees; keep one of them",
                    last.step
                ),
            );
        }
    }
}
