//! The opt-in finding `utter.analysis.placeholder_may_be_unset`: a
//! placeholder that memory can leave unset when its variant is delivered,
//! so the customer gets it as written (`{session.card.fee}`).

use super::{Budget, analyse, describe_witness, home_view};
use crate::diagnostics::{Finding, Severity, codes};
use crate::lower::Registry;
use crate::validate::Checked;

/// A note for each placeholder of a project variant that a memory state
/// delivering the variant leaves unset, with such a state. Opt-in (`utter
/// check --unset-placeholders`): most placeholders read entries a session
/// sets as it goes, so many are unset at some point by design.
pub fn placeholder_findings(checked: &Checked, registry: &Registry) -> Vec<Finding> {
    let mut budget = Budget::project();
    let mut out = Vec::new();
    for (index, response) in registry.responses.iter().enumerate() {
        let has_placeholder = response
            .variants
            .iter()
            .any(|v| v.pieces.iter().any(|p| !matches!(p, utter::Piece::Text(_))));
        if crate::bundled::is_bundled(&response.file) || !has_placeholder {
            continue;
        }
        let (Some(merged), Some(source)) = (
            checked.responses.get(&response.name),
            checked.source(&response.file),
        ) else {
            continue;
        };
        let analysis = analyse(registry, index, home_view(registry, index), &mut budget);
        for (variant, unset) in analysis.may_be_unset.iter().enumerate() {
            let raw = merged.raw.variants.iter().find(|v| v.index == variant);
            for (placeholder, state) in unset {
                // At the placeholder itself, where the source shows it.
                let span = raw.map_or(merged.raw.name_span.clone(), |v| {
                    v.text_node.as_ref().map_or(v.span.clone(), |node| {
                        let at = node
                            .as_scalar()
                            .and_then(|s| s.value.find(placeholder.as_str()))
                            .map(|at| at..at + placeholder.len());
                        at.map_or(node.span.clone(), |at| node.subspan(&source.text, &at))
                    })
                });
                let mut finding = source
                    .finding(
                        codes::PLACEHOLDER_MAY_BE_UNSET,
                        Severity::Note,
                        span,
                        format!(
                            "`{placeholder}` may be delivered as written: memory can leave it unset when this variant is delivered, e.g., when {}",
                            describe_witness(&registry.entries, state)
                        ),
                    )
                    .with_help(
                        "make sure the entry is set before this response is delivered, or give the variant a condition that holds only when it is",
                    );
                finding.response = Some(response.name.clone());
                finding.variant = Some(variant);
                out.push(finding);
            }
        }
    }
    out
}
