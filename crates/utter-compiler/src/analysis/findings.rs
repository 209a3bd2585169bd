//! The analysis as findings: every project response of the lowered
//! registry under the view it is validated under (its skill's, or none for
//! the root's), each distinct set of conditions analysed once.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Budget, Subject, Verdict, Why, analyse_subject, describe_witness, home_view};
use crate::diagnostics::{Finding, Severity, codes};
use crate::load::responses::RawResponse;
use crate::lower::Registry;
use crate::memo::Memo;
use crate::validate::Checked;

/// The findings of the variant analysis of `checked`, whose usable
/// responses `registry` holds ([`crate::Agent::usable_registry`]: with errors in the
/// project, an error elsewhere cannot change what they deliver, and a broken
/// response is not analysed, so no cascade). Bundled responses are not the
/// project's to fix.
pub fn findings(checked: &Checked, registry: &Registry) -> Vec<Finding> {
    findings_with(checked, registry, &mut VerdictMemo::default()).0
}

/// Verdicts kept from check to check, by the key of their conditions and
/// view, with the work they cost.
pub(crate) type VerdictMemo = Memo<String, (Option<Verdicts>, u64)>;

/// A response's verdicts, shared (a check reusing them copies none).
type Verdicts = std::sync::Arc<[Verdict]>;

/// [`findings`], reusing the verdicts of conditions unchanged since the
/// check `memo` kept (their work replayed on this check's budget); with
/// what is left of the budget.
pub(crate) fn findings_with(
    checked: &Checked,
    registry: &Registry,
    memo: &mut VerdictMemo,
) -> (Vec<Finding>, Budget) {
    // Looked up per variant: a set, not a scan of every finding.
    let never_true: std::collections::HashSet<(&str, usize)> = checked
        .findings
        .iter()
        .filter(|f| f.code == codes::NEVER_TRUE)
        .filter_map(|f| Some((f.response.as_deref()?, f.variant?)))
        .collect();
    let mut out = Vec::new();
    // Responses with the same conditions, default and view get the same
    // verdicts: one analysis each.
    let mut seen: HashMap<String, Option<Verdicts>> = HashMap::new();
    let mut budget = Budget::project();
    let sources: HashMap<&str, &crate::diagnostics::SourceFile> = checked
        .sources
        .iter()
        .map(|s| (s.label.as_str(), s))
        .collect();
    for (index, response) in registry.responses.iter().enumerate() {
        if crate::bundled::is_bundled(&response.file) {
            continue;
        }
        let name = &response.name;
        let (Some(merged), Some(source)) = (
            checked.responses.get(name),
            sources.get(response.file.as_str()),
        ) else {
            continue;
        };
        let view = home_view(registry, index);
        let verdicts = seen
            .entry(verdict_key(registry, index))
            .or_insert_with_key(|key| {
                response_verdicts(registry, index, view, (key, memo), &mut budget)
            });
        let Some(verdicts) = verdicts.as_ref() else {
            continue;
        };
        let reported = |variant: usize| never_true.contains(&(name.as_str(), variant));
        out.extend(response_findings(
            (registry, index, verdicts),
            (&merged.raw, source),
            &reported,
            checked.dialect,
        ));
    }
    (out, budget)
}

/// The findings of response `index` of `registry` alone (after an edit
/// inside it: [`crate::CheckCache::findings_after_edit`]), as
/// [`findings_with`] gives them, spending `budget`; `None` when its
/// analysis stopped for want of budget. `raw` is how it was read from
/// `source`; `reported(variant)`: the type analysis calls it never true.
pub(crate) fn one_response_findings(
    (registry, index): (&Registry, usize),
    (raw, source): (&RawResponse, &crate::diagnostics::SourceFile),
    reported: &dyn Fn(usize) -> bool,
    (dialect, memo, budget): (crate::bundled::Dialect, &mut VerdictMemo, &mut Budget),
) -> Option<Vec<Finding>> {
    let key = verdict_key(registry, index);
    let view = home_view(registry, index);
    let verdicts = response_verdicts(registry, index, view, (&key, memo), budget);
    if budget.left() == 0 {
        return None;
    }
    let Some(verdicts) = verdicts else {
        return Some(Vec::new());
    };
    Some(response_findings(
        (registry, index, &verdicts),
        (raw, source),
        reported,
        dialect,
    ))
}

/// What the verdicts of response `index` are kept by: the same condition
/// texts in the same view give the same verdicts.
fn verdict_key(registry: &Registry, index: usize) -> String {
    let view = home_view(registry, index);
    let mut key = String::from(view.unwrap_or("\u{0}"));
    for variant in registry.responses[index].variants.iter() {
        let text = variant.condition_text.as_deref();
        // Length-prefixed: no condition text can pose as two.
        let _ = write!(key, "|{}:", text.map_or(usize::MAX, str::len));
        key.push_str(text.unwrap_or_default());
    }
    key
}

/// The findings of response `index` of `registry`, from its `verdicts`
/// (see [`one_response_findings`] for the rest).
fn response_findings(
    (registry, index, verdicts): (&Registry, usize, &[Verdict]),
    (raw, source): (&RawResponse, &crate::diagnostics::SourceFile),
    reported: &dyn Fn(usize) -> bool,
    dialect: crate::bundled::Dialect,
) -> Vec<Finding> {
    let response = &registry.responses[index];
    let default = response.default;
    let conditioned: Vec<usize> = (0..response.variants.len())
        .filter(|&i| response.variants[i].condition.is_some())
        .collect();
    let span_of = |variant: usize| {
        raw.variants
            .iter()
            .find(|v| v.index == variant)
            .map_or(raw.name_span.clone(), |v| v.span.clone())
    };
    let mut out = Vec::new();
    let mut push = |code, severity, variant: Option<usize>, message: String, help: String| {
        let span = variant.map_or(raw.name_span.clone(), span_of);
        let mut finding = source
            .finding(code, severity, span, message)
            .with_help(help);
        finding.response = Some(response.name.clone());
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
        return out;
    }
    for (i, verdict) in verdicts.iter().enumerate() {
        let Verdict::Unreachable(why) = verdict else {
            continue;
        };
        if reported(i) {
            continue;
        }
        let (code, severity, message, help) =
            unreachable_finding(why, (verdicts, default), dialect, &registry.entries);
        push(code, severity, Some(i), message, help);
    }
    out
}

/// The verdicts of response number `index` in `view` (`None`: a condition
/// reads an entry whose values cannot be enumerated), from `memo` when an
/// earlier check of the same conditions finished within what is left.
fn response_verdicts(
    registry: &Registry,
    index: usize,
    view: Option<&str>,
    (key, memo): (&str, &mut VerdictMemo),
    budget: &mut Budget,
) -> Option<Verdicts> {
    let response = &registry.responses[index];
    let entries = &registry.entries;
    if let Some((verdicts, spent)) = memo.get(key)
        && budget.replay(spent)
    {
        return verdicts;
    }
    // A condition reading an `any`, `json` or `list` entry leaves the
    // response undecided: nothing to report, nothing to enumerate.
    let unbounded = response
        .variants
        .iter()
        .filter_map(|v| v.condition.as_ref())
        .flat_map(|c| c.refs())
        .filter_map(|&id| entries.get(id))
        .any(|e| e.visibility.readable_in(&e.namespace, view) && super::domain::is_unbounded(e.ty));
    if unbounded {
        memo.put(key.to_owned(), (None, 0));
        return None;
    }
    // Verdicts only: which placeholders may be unset is not asked.
    let subject = Subject {
        pieces: Vec::new(),
        ..Subject::of(registry, index)
    };
    let before = budget.left();
    let analysed = analyse_subject(&subject, view, budget);
    // Kept only when complete: the same work with at least as much
    // left gives the same verdicts.
    let verdicts: Verdicts = analysed.verdicts.into();
    if memo.is_enabled() && analysed.stopped.is_none() && budget.left() > 0 {
        let spent = before - budget.left();
        memo.put(key.to_owned(), (Some(verdicts.clone()), spent));
    }
    Some(verdicts)
}

/// The finding of a variant never delivered, `why`: its code, severity,
/// message and help.
fn unreachable_finding(
    why: &Why,
    (verdicts, default): (&[Verdict], Option<usize>),
    dialect: crate::bundled::Dialect,
    entries: &[utter::Entry<String, Vec<String>>],
) -> (&'static str, Severity, String, String) {
    match why {
        Why::Covered => (
            codes::UNREACHABLE_DEFAULT,
            Severity::Note,
            "the default is never delivered: for every value memory can hold, a condition above it holds".to_owned(),
            "nothing to fix: the default stays as the fallback the engine requires; `utter explain` shows which condition covers each state".to_owned(),
        ),
        Why::NotTheDefault => (
            codes::UNREACHABLE_VARIANT,
            Severity::Warning,
            format!("is never delivered: no variant has a condition, so the first (variant {}) is always delivered", default.unwrap_or(0)),
            // Maestro has no conditions: never suggest one there.
            if dialect == crate::bundled::Dialect::Maestro {
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
            (
                codes::UNREACHABLE_VARIANT,
                Severity::Warning,
                format!("is never delivered: {cause}"),
                "check the condition against the entries' declared types and values".to_owned(),
            )
        }
        Why::Shadowed(by) => {
            let names: Vec<String> = by.iter().map(|v| format!("variant {v}")).collect();
            let first = by.first().copied().unwrap_or(0);
            let example = match &verdicts[first] {
                Verdict::Reachable(w) => format!(" (variant {first} is delivered, e.g., when {})", describe_witness(entries, w)),
                _ => String::new(),
            };
            (
                codes::UNREACHABLE_VARIANT,
                Severity::Warning,
                format!("is never delivered: whenever its condition holds, {} is delivered instead{example}", names.join(" or ")),
                format!("move it above {}, or narrow the condition of {}", names.join(" and "), names.join(" and ")),
            )
        }
    }
}
