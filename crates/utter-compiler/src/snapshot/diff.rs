//! `utter diff`: what changed in an agent's wording between two versions.
//! Responses added and removed (with their wording) and changed; per
//! changed response the variants matched by identity (text and
//! condition), so a variant that moved is one `moved` change, not a text
//! and a condition change at each of two positions; and first, what needs
//! review most: a verbatim variant now handed to an LLM (`rephrase: true`),
//! and a memory state that delivered one text and now delivers another
//! (the witnesses of both versions, delivered by both).

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::{Encoded, Options, ResponseView, VariantView, responses};
use crate::lower::Registry;

/// One field of one variant that changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantChange {
    /// The variant's index in the old version (in the new one for an
    /// added variant).
    pub variant: usize,
    /// Its index in the new version, when it is in both.
    pub now: Option<usize>,
    /// `text`, `condition`, `rephrase`, `reachability`, `moved` or
    /// `variant` (added or removed).
    pub field: &'static str,
    /// The field before.
    pub old: String,
    /// The field after.
    pub new: String,
}

/// A memory state by entry names: `(namespace, entry, value)`.
pub type NamedState = Vec<(String, String, utter::Value)>;

/// A memory state that delivers another text now.
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    /// The state, as people read it.
    pub state: String,
    /// The state itself.
    pub memory: NamedState,
    /// The text it delivered.
    pub old: String,
    /// The text it delivers now.
    pub new: String,
}

/// One response that changed.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponseChange {
    /// The response.
    pub name: String,
    /// The file that defines it, before and after, when it moved.
    pub file: Option<(String, String)>,
    /// Variants (new indices) that were verbatim and are now rephrased.
    pub now_rephrased: Vec<usize>,
    /// States that deliver another text now.
    pub moved: Vec<Moved>,
    /// Fields that changed.
    pub changes: Vec<VariantChange>,
}

/// What changed between two versions of an agent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diff {
    /// Responses only the new version has, with their wording.
    pub added: Vec<ResponseView>,
    /// Responses only the old version has, with their wording.
    pub removed: Vec<ResponseView>,
    /// Responses in both that changed.
    pub changed: Vec<ResponseChange>,
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// The witnesses of `view` as states by name, each as people read it.
fn witness_states(registry: &Registry, view: &ResponseView) -> Vec<(NamedState, String)> {
    view.variants
        .iter()
        .filter_map(|v| {
            let w = v.witness.as_ref()?;
            let state =
                w.0.iter()
                    .map(|(id, value)| {
                        let e = &registry.entries[*id];
                        (e.namespace.clone(), e.name.clone(), value.clone())
                    })
                    .collect();
            Some((state, v.witness_shown.clone().unwrap_or_default()))
        })
        .collect()
}

/// What `state` delivers through `encoded` in `view`.
fn deliver_named(
    encoded: &Encoded<'_>,
    view: Option<&str>,
    state: &[(String, String, utter::Value)],
) -> String {
    let state: Vec<(&str, &str, &utter::Value)> = state
        .iter()
        .map(|(n, e, v)| (n.as_str(), e.as_str(), v))
        .collect();
    encoded.deliver(view, &state)
}

/// Pairs the variants of two versions of a response: first those with the
/// same text and condition (in order), then those with the same text (the
/// wording is what a reviewer follows), then the same condition, then the
/// rest by position. `(old, new)` pairs, each
/// side `None` for a variant only the other version has.
fn pair(before: &[VariantView], after: &[VariantView]) -> Vec<(Option<usize>, Option<usize>)> {
    let mut old_free: Vec<bool> = vec![true; before.len()];
    let mut new_free: Vec<bool> = vec![true; after.len()];
    let mut pairs = Vec::new();
    // What two variants must share to pair under each rule, tried in turn;
    // each rule pairs in order, linearly (a queue of new variants per key).
    type Key = fn(&VariantView) -> (Option<&str>, Option<Option<&str>>);
    let rules: [Key; 4] = [
        |v| (Some(&v.source_text), Some(v.condition.as_deref())),
        |v| (Some(&v.source_text), None),
        |v| (None, Some(v.condition.as_deref())),
        |_| (None, None),
    ];
    for key in rules {
        let mut waiting: HashMap<_, VecDeque<usize>> = HashMap::new();
        for (j, b) in after.iter().enumerate() {
            if new_free[j] {
                waiting.entry(key(b)).or_default().push_back(j);
            }
        }
        for (i, a) in before.iter().enumerate() {
            if !old_free[i] {
                continue;
            }
            if let Some(j) = waiting.get_mut(&key(a)).and_then(VecDeque::pop_front) {
                old_free[i] = false;
                new_free[j] = false;
                pairs.push((Some(i), Some(j)));
            }
        }
    }
    pairs.extend(
        (0..before.len())
            .filter(|&i| old_free[i])
            .map(|i| (Some(i), None)),
    );
    pairs.extend(
        (0..after.len())
            .filter(|&j| new_free[j])
            .map(|j| (None, Some(j))),
    );
    pairs.sort_by_key(|&(i, j)| (i.or(j), j));
    pairs
}

/// The variant changes of one response.
fn variant_changes(before: &ResponseView, after: &ResponseView, change: &mut ResponseChange) {
    for (i, j) in pair(&before.variants, &after.variants) {
        match (
            i.map(|i| &before.variants[i]),
            j.map(|j| &after.variants[j]),
        ) {
            (Some(b), Some(a)) => {
                let mut field = |field, old: String, new: String| {
                    if old != new {
                        change.changes.push(VariantChange {
                            variant: b.index,
                            now: Some(a.index),
                            field,
                            old,
                            new,
                        });
                    }
                };
                field(
                    "moved",
                    format!("variant {}", b.index),
                    format!("variant {}", a.index),
                );
                field("text", b.source_text.clone(), a.source_text.clone());
                field("condition", b.when(), a.when());
                field("rephrase", b.rephrase.to_string(), a.rephrase.to_string());
                field("reachability", b.kind.to_owned(), a.kind.to_owned());
                if !b.rephrase && a.rephrase {
                    change.now_rephrased.push(a.index);
                }
            }
            (Some(b), None) => change.changes.push(VariantChange {
                variant: b.index,
                now: None,
                field: "variant",
                old: b.source_text.clone(),
                new: "(removed)".into(),
            }),
            (None, Some(a)) => {
                change.changes.push(VariantChange {
                    variant: a.index,
                    now: Some(a.index),
                    field: "variant",
                    old: "(added)".into(),
                    new: a.source_text.clone(),
                });
                if a.rephrase {
                    change.now_rephrased.push(a.index);
                }
            }
            (None, None) => {}
        }
    }
}

/// What changed from `old` to `new` (project responses; bundled ones too
/// with `options.bundled`).
pub fn diff(old: &Registry, new: &Registry, options: Options) -> Diff {
    let old_views: BTreeMap<String, ResponseView> = responses(old, options)
        .into_iter()
        .map(|r| (r.name.clone(), r))
        .collect();
    let mut new_views: BTreeMap<String, ResponseView> = responses(new, options)
        .into_iter()
        .map(|r| (r.name.clone(), r))
        .collect();
    let mut out = Diff::default();
    for (name, before) in old_views {
        let Some(after) = new_views.remove(&name) else {
            out.removed.push(before);
            continue;
        };
        let mut change = ResponseChange {
            name: name.clone(),
            file: (before.file != after.file).then(|| (before.file.clone(), after.file.clone())),
            now_rephrased: Vec::new(),
            moved: Vec::new(),
            changes: Vec::new(),
        };
        variant_changes(&before, &after, &mut change);
        // Every witness of either version, delivered by both.
        let view_old = before.view.as_deref();
        let view_new = after.view.as_deref();
        let mut states = witness_states(old, &before);
        states.extend(witness_states(new, &after));
        let (encoded_old, encoded_new) = (Encoded::new(old, &name), Encoded::new(new, &name));
        let mut seen = std::collections::HashSet::new();
        for (memory, shown) in states {
            let was = deliver_named(&encoded_old, view_old, &memory);
            let now = deliver_named(&encoded_new, view_new, &memory);
            let moved = Moved {
                state: shown,
                memory,
                old: was,
                new: now,
            };
            // A set, not a scan: a diff may move thousands of states.
            if moved.old != moved.new
                && seen.insert((moved.state.clone(), moved.old.clone(), moved.new.clone()))
            {
                change.moved.push(moved);
            }
        }
        if change.file.is_some() || !change.changes.is_empty() || !change.moved.is_empty() {
            out.changed.push(change);
        }
    }
    out.added = new_views.into_values().collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(index: usize, text: &str, condition: Option<&str>) -> VariantView {
        VariantView {
            index,
            source_text: text.to_owned(),
            condition: condition.map(str::to_owned),
            default: condition.is_none(),
            rephrase: false,
            kind: "reachable",
            reason: None,
            witness: None,
            witness_shown: None,
            text: None,
            example: None,
            may_be_unset: Vec::new(),
        }
    }

    #[test]
    fn variants_pair_by_identity_first() {
        let before = [v(0, "A", Some("x")), v(1, "B", Some("y")), v(2, "C", None)];
        // Swapped, one text edited.
        let after = [v(0, "B", Some("y")), v(1, "A", Some("x")), v(2, "C!", None)];
        assert_eq!(
            pair(&before, &after),
            vec![(Some(0), Some(1)), (Some(1), Some(0)), (Some(2), Some(2))]
        );
        // One removed, one added with a new condition and text.
        let after = [v(0, "B", Some("y")), v(1, "D", Some("z"))];
        assert_eq!(
            pair(&before, &after),
            vec![(Some(0), Some(1)), (Some(1), Some(0)), (Some(2), None)]
        );
    }
}
