//! The analysis as findings: every project response under the view it is
//! validated under (its skill's, or none for the root's). Reads the checked
//! project directly (only conditions and entries are lowered), and
//! analyses each distinct set of conditions once.

use std::collections::HashMap;

use super::{Budget, Subject, Verdict, Why, analyse_subject, describe_witness};
use crate::diagnostics::{Finding, Severity, codes};
use crate::load::responses::ConditionField;
use crate::lower::{entry_ids, lower_condition, lower_entries, usable_responses};
use crate::validate::{Checked, Scope};

/// The findings of the variant analysis of `checked` (bundled responses
/// are not the project's to fix). With errors in the project, only the
/// [`usable_responses`] are analysed: an error elsewhere cannot change
/// what they deliver, and a broken response is not analysed (no cascade).
pub fn findings(checked: &Checked) -> Vec<Finding> {
    let usable = checked.has_errors().then(|| usable_responses(checked));
    // Looked up per variant: a set, not a scan of every finding.
    let never_true: std::collections::HashSet<(&str, usize)> = checked
        .findings
        .iter()
        .filter(|f| f.code == codes::NEVER_TRUE)
        .filter_map(|f| Some((f.response.as_deref()?, f.variant?)))
        .collect();
    let entries = lower_entries(checked);
    let ids = entry_ids(&entries);
    let mut out = Vec::new();
    // Responses with the same conditions, default and view get the same
    // verdicts: one analysis each.
    let mut seen: HashMap<String, Option<Vec<Verdict>>> = HashMap::new();
    let mut budget = Budget::project();
    for (name, merged) in &checked.responses {
        if crate::bundled::is_bundled(&merged.file)
            || usable.as_ref().is_some_and(|u| !u.contains(name))
        {
            continue;
        }
        let Some(source) = checked.source(&merged.file) else {
            continue;
        };
        let view = match &merged.scope {
            Scope::Skill(s) => Some(s.as_str()),
            Scope::Root => None,
        };
        // The same condition texts in the same view: the same verdicts.
        let texts: Vec<Option<&str>> = merged
            .raw
            .variants
            .iter()
            .map(|v| match &v.condition {
                ConditionField::Text { text, .. } => Some(text.trim()),
                _ => None,
            })
            .collect();
        let default = texts.iter().position(Option::is_none);
        let conditioned: Vec<usize> = (0..texts.len()).filter(|&i| texts[i].is_some()).collect();
        let mut key = String::from(view.unwrap_or("\u{0}"));
        for text in &texts {
            // Length-prefixed: no condition text can pose as two.
            key.push_str(&format!("|{}:", text.map_or(usize::MAX, str::len)));
            key.push_str(text.unwrap_or_default());
        }
        let verdicts = seen.entry(key).or_insert_with(|| {
            // A condition reading an `any`, `json` or `list` entry leaves the
            // response undecided: nothing to report, nothing to enumerate.
            let unbounded = merged.conditions.iter().flatten().any(|c| {
                c.refs().into_iter().any(|r| {
                    let Some(&id) = ids.get(&(r.namespace.as_str(), r.entry.as_str())) else {
                        return false;
                    };
                    let e = &entries[id];
                    let readable = e.visibility != utter::Visibility::Private
                        || view == Some(e.namespace.as_str());
                    readable && super::domain::is_unbounded(e.ty)
                })
            });
            if unbounded {
                return None;
            }
            let conditions: Vec<(usize, crate::condition::Expr<usize>)> = merged
                .conditions
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.as_ref().map(|c| (i, lower_condition(c, &ids))))
                .collect();
            let subject = Subject {
                entries: &entries,
                skills: &checked.skills,
                variants: texts.len(),
                conditioned: conditions.iter().map(|(i, c)| (*i, c)).collect(),
                default,
                pieces: Vec::new(),
            };
            Some(analyse_subject(&subject, view, &mut budget).verdicts)
        });
        let Some(verdicts) = verdicts.as_ref() else {
            continue;
        };
        let response_name = name;
        let span_of = |variant: usize| {
            merged
                .raw
                .variants
                .iter()
                .find(|v| v.index == variant)
                .map_or(merged.raw.name_span.clone(), |v| v.span.clone())
        };
        // A variant the type analysis already calls never true is its finding.
        let reported = |variant: usize| never_true.contains(&(response_name.as_str(), variant));
        let mut push = |code, severity, variant: Option<usize>, message: String, help: String| {
            let span = variant.map_or(merged.raw.name_span.clone(), span_of);
            let mut finding = source
                .finding(code, severity, span, message)
                .with_help(help);
            finding.response = Some(response_name.clone());
            finding.variant = variant;
            out.push(finding);
        };
        let dead = |i: &usize| matches!(verdicts[*i], Verdict::Unreachable(_));
        if !conditioned.is_empty() && conditioned.iter().all(dead) {
            // One finding for the response, not one per variant.
            if !conditioned.iter().all(|&i| reported(i)) {
                let default = default.map_or("its name".to_owned(), |d| {
                    format!("its default (variant {d})")
                });
                push(
                    codes::NO_CONDITIONED_VARIANT,
                    Severity::Warning,
                    None,
                    format!("no conditioned variant is ever delivered: whatever memory holds, it delivers {default}"),
                    "check each condition against the values its entries can hold (`utter explain` shows why each variant is dead)".to_owned(),
                );
            }
            continue;
        }
        for (i, verdict) in verdicts.iter().enumerate() {
            let Verdict::Unreachable(why) = verdict else {
                continue;
            };
            if reported(i) {
                continue;
            }
            match why {
                Why::Covered => push(
                    codes::UNREACHABLE_DEFAULT,
                    Severity::Note,
                    Some(i),
                    "the default is never delivered: for every value memory can hold, a condition above it holds".to_owned(),
                    "nothing to fix: the default stays as the fallback the engine requires; `utter explain` shows which condition covers each state".to_owned(),
                ),
                Why::NotTheDefault => push(
                    codes::UNREACHABLE_VARIANT,
                    Severity::Warning,
                    Some(i),
                    format!("is never delivered: no variant has a condition, so the first (variant {}) is always delivered", default.unwrap_or(0)),
                    // Maestro has no conditions: never suggest one there.
                    if checked.dialect == crate::bundled::Dialect::Maestro {
                        "remove it: Maestro delivers the first variant of a response, so no other is ever delivered".to_owned()
                    } else {
                        "give it a `condition`, or remove it".to_owned()
                    },
                ),
                Why::NeverTrue { error } => {
                    let cause = match error {
                        Some(e) => format!("its condition is an error for every value its entries can hold ({e})"),
                        None => "its condition is never true for the values its entries can hold".to_owned(),
                    };
                    push(
                        codes::UNREACHABLE_VARIANT,
                        Severity::Warning,
                        Some(i),
                        format!("is never delivered: {cause}"),
                        "check the condition against the entries' declared types and values".to_owned(),
                    );
                }
                Why::Shadowed(by) => {
                    let names: Vec<String> = by.iter().map(|v| format!("variant {v}")).collect();
                    let first = by.first().copied().unwrap_or(0);
                    let example = match &verdicts[first] {
                        Verdict::Reachable(w) => format!(" (variant {first} is delivered, e.g., when {})", describe_witness(&entries, w)),
                        _ => String::new(),
                    };
                    push(
                        codes::UNREACHABLE_VARIANT,
                        Severity::Warning,
                        Some(i),
                        format!("is never delivered: whenever its condition holds, {} is delivered instead{example}", names.join(" or ")),
                        format!("move it above {}, or narrow the condition of {}", names.join(" and "), names.join(" and ")),
                    );
                }
            }
        }
    }
    out
}
