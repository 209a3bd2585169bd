//! `utter diff`: what changed in an agent's wording between two versions.
//! Responses added and removed (with their wording) and changed; per
//! changed response the variants matched by identity (text and
//! condition), so a variant that moved is one `moved` change, not a text
//! and a condition change at each of two positions; and first, what needs
//! review most: a verbatim variant now handed to an LLM (`rephrase: true`),
//! and a memory state that delivered one text and now delivers another
//! (the witnesses of both versions, delivered by both).

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::shortcut::{Shortcut, deliver_named};
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
    /// The wording fingerprints of the two versions, before and after.
    pub fingerprints: [String; 2],
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// The witnesses of `view` as states by name, each as people read it.
fn witness_states(registry: &Registry, view: &ResponseView) -> Vec<(NamedState, String, usize)> {
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
            Some((state, v.witness_shown.clone().unwrap_or_default(), v.index))
        })
        .collect()
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

/// The old indices of the pairs that keep their order: a longest run of
/// pairs increasing in both versions (O(n log n)). A variant shifted only
/// because others were added or removed before it did not move.
fn in_order(pairs: &[(Option<usize>, Option<usize>)]) -> std::collections::HashSet<usize> {
    let both: Vec<(usize, usize)> = pairs.iter().filter_map(|&(i, j)| Some((i?, j?))).collect();
    // `tails[k]`: the pair ending the best run of length k + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = vec![None; both.len()];
    for (p, &(_, j)) in both.iter().enumerate() {
        let k = tails.partition_point(|&t| both[t].1 < j);
        previous[p] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(p);
        } else {
            tails[k] = p;
        }
    }
    let mut kept = std::collections::HashSet::new();
    let mut at = tails.last().copied();
    while let Some(p) = at {
        kept.insert(both[p].0);
        at = previous[p];
    }
    kept
}

/// The variant changes of one response.
fn variant_changes(before: &ResponseView, after: &ResponseView, change: &mut ResponseChange) {
    let pairs = pair(&before.variants, &after.variants);
    let kept = in_order(&pairs);
    for (i, j) in pairs {
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
                if !kept.contains(&b.index) {
                    field(
                        "moved",
                        format!("variant {}", b.index),
                        format!("variant {}", a.index),
                    );
                }
                field("text", b.source_text.clone(), a.source_text.clone());
                field("condition", b.when(), a.when());
                field("rephrase", b.rephrase.to_string(), a.rephrase.to_string());
                field(
                    "reachability",
                    b.kind.as_str().to_owned(),
                    a.kind.as_str().to_owned(),
                );
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
    diff_with(old, new, options, true)
}

/// [`diff`], `fast` through the [`Shortcut`] and the index of conditions,
/// or not (every witness walked through every condition: the reference
/// both are tested against).
fn diff_with(old: &Registry, new: &Registry, options: Options, fast: bool) -> Diff {
    let by_name = |registry: &Registry| -> BTreeMap<String, ResponseView> {
        responses(registry, options)
            .into_iter()
            .map(|r| (r.name.clone(), r))
            .collect()
    };
    // The two versions are analysed at once: each analysis is as long as
    // a snapshot's, and they share nothing.
    let (old_views, mut new_views) = std::thread::scope(|scope| {
        let old_views = scope.spawn(|| by_name(old));
        let new_views = by_name(new);
        let old_views = old_views
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (old_views, new_views)
    });
    let mut out = Diff {
        fingerprints: [old.wording_fingerprint(), new.wording_fingerprint()],
        ..Diff::default()
    };
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
        let views = [before.view.as_deref(), after.view.as_deref()];
        let states = [witness_states(old, &before), witness_states(new, &after)];
        let walk = [Encoded::new(old, &name), Encoded::new(new, &name)];
        let shortcut = if fast {
            Shortcut::new([old, new], &name, views, &walk)
        } else {
            None
        };
        let mut seen = std::collections::HashSet::new();
        let witnesses = states
            .into_iter()
            .enumerate()
            .flat_map(|(from, states)| states.into_iter().map(move |s| (from, s)));
        for (from, (memory, shown, variant)) in witnesses {
            let deliver = |to| {
                deliver_named(
                    shortcut.as_ref(),
                    &walk,
                    views,
                    &memory,
                    (from, variant),
                    (to, !fast),
                )
            };
            let (was, now) = (deliver(0), deliver(1));
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
    use super::super::testing::{MEMORIES, registry, variant};
    use super::*;

    fn v(index: usize, text: &str, condition: Option<&str>) -> VariantView {
        VariantView {
            index,
            wording: utter::WordingId(index as u64),
            guarded: Vec::new(),
            source_text: text.to_owned(),
            condition: condition.map(str::to_owned),
            default: condition.is_none(),
            rephrase: false,
            kind: crate::analysis::VerdictKind::Reachable,
            reason: None,
            witness: None,
            witness_shown: None,
            text: None,
            example: None,
            may_be_unset: Vec::new(),
        }
    }

    #[test]
    fn a_variant_shifted_by_an_insertion_did_not_move() {
        let before = [v(0, "A", Some("x")), v(1, "B", Some("y")), v(2, "C", None)];
        let after = [
            v(0, "N", Some("z")),
            v(1, "A", Some("x")),
            v(2, "B", Some("y")),
            v(3, "C", None),
        ];
        let pairs = pair(&before, &after);
        assert_eq!(in_order(&pairs).len(), 3);
        // Swapped: one of the two moved, the rest kept their order.
        let after = [v(0, "B", Some("y")), v(1, "A", Some("x")), v(2, "C", None)];
        let kept = in_order(&pair(&before, &after));
        assert_eq!(kept.len(), 2);
        assert!(kept.contains(&2));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
        /// The shortcut delivers what walking every condition delivers, for
        /// random edits of random responses, also where the versions
        /// declare entries differently.
        #[test]
        fn the_shortcut_delivers_what_the_walk_delivers(
            memories in (0usize..MEMORIES.len(), 0usize..MEMORIES.len()),
            old in proptest::collection::vec(variant(), 0..7),
            edits in proptest::collection::vec((0usize..5, 0usize..8, variant()), 1..4),
            default_at in (0usize..8, 0usize..8),
        ) {
            let mut new = old.clone();
            for (kind, at, v) in edits {
                let at = at % (new.len() + 1);
                match kind {
                    0 => new.insert(at, v),
                    1 if at < new.len() => { new.remove(at); }
                    2 if at < new.len() => new[at].1 = v.1,
                    3 if at < new.len() => new[at].0 = v.0,
                    _ if at + 1 < new.len() => new.swap(at, at + 1),
                    _ => new.push(v),
                }
            }
            let with_default = |mut variants: Vec<(Option<String>, String)>, at: usize| {
                let at = at % (variants.len() + 1);
                variants.insert(at, (None, "default".to_owned()));
                variants
            };
            let (old, new) = (
                registry(&with_default(old, default_at.0), MEMORIES[memories.0]),
                registry(&with_default(new, default_at.1), MEMORIES[memories.1]),
            );
            let options = Options::default();
            proptest::prop_assert_eq!(
                diff_with(&old, &new, options, true),
                diff_with(&old, &new, options, false)
            );
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
