//! The analysis as findings: every project response under the view it is
//! validated under (its skill's, or none for the root's).

use super::{Verdict, Why, analyse, describe_witness, home_view};
use crate::diagnostics::{Finding, Severity, codes};
use crate::lower::Registry;
use crate::validate::Checked;

/// The findings of the variant analysis of `registry`, the lowered form of
/// `checked` (bundled responses are not the project's to fix).
pub fn findings(checked: &Checked, registry: &Registry) -> Vec<Finding> {
    let mut out = Vec::new();
    for (index, response) in registry.responses.iter().enumerate() {
        if response.file.starts_with('<') {
            continue;
        }
        let Some(merged) = checked.responses.get(&response.name) else {
            continue;
        };
        let Some(source) = checked.source(&merged.file) else {
            continue;
        };
        let analysis = analyse(registry, index, home_view(registry, index));
        let span_of = |variant: usize| {
            merged
                .raw
                .variants
                .iter()
                .find(|v| v.index == variant)
                .map_or(merged.raw.name_span.clone(), |v| v.span.clone())
        };
        // A variant the type analysis already calls never true is its finding.
        let reported = |variant: usize| {
            checked.findings.iter().any(|f| {
                f.code == codes::NEVER_TRUE
                    && f.response.as_deref() == Some(response.name.as_str())
                    && f.variant == Some(variant)
            })
        };
        let mut push = |code, severity, variant: Option<usize>, message: String, help: String| {
            let span = variant.map_or(merged.raw.name_span.clone(), span_of);
            let mut finding = source
                .finding(code, severity, span, message)
                .with_help(help);
            finding.response = Some(response.name.clone());
            finding.variant = variant;
            out.push(finding);
        };
        let conditioned: Vec<usize> = response
            .variants
            .iter()
            .enumerate()
            .filter(|(_, v)| v.condition.is_some())
            .map(|(i, _)| i)
            .collect();
        let dead = |i: &usize| matches!(analysis.variants[*i], Verdict::Unreachable(_));
        if !conditioned.is_empty() && conditioned.iter().all(dead) {
            // One finding for the response, not one per variant.
            if !conditioned.iter().all(|&i| reported(i)) {
                let default = response.default.map_or("its name".to_owned(), |d| {
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
        for (i, verdict) in analysis.variants.iter().enumerate() {
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
                    format!("is never delivered: no variant has a condition, so the first (variant {}) is always delivered", response.default.unwrap_or(0)),
                    "give it a `condition`, or remove it".to_owned(),
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
                    let example = match &analysis.variants[first] {
                        Verdict::Reachable(w) => format!(" (variant {first} is delivered, e.g., when {})", describe_witness(registry, w)),
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
