//! `utter diff`: what changed in an agent's wording between two versions.
//! Responses added, removed and changed; per changed response the variants
//! whose text, condition, rephrase flag or reachability changed; and first,
//! what needs review most: a verbatim response now handed to an LLM
//! (`rephrase: true`), and a memory state that delivered one text and now
//! delivers another (the witnesses of both versions, delivered by both).

use std::collections::BTreeMap;

use super::{Options, ResponseView, deliver_state, responses};
use crate::lower::Registry;

/// One field of one variant that changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantChange {
    /// The variant's index.
    pub variant: usize,
    /// `text`, `condition`, `rephrase`, `reachability` or `variant` (added
    /// or removed).
    pub field: &'static str,
    /// The field before.
    pub old: String,
    /// The field after.
    pub new: String,
}

/// A memory state that delivers another text now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The state, as people read it.
    pub state: String,
    /// The text it delivered.
    pub old: String,
    /// The text it delivers now.
    pub new: String,
}

/// One response that changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseChange {
    /// The response.
    pub name: String,
    /// Variants that were verbatim and are now rephrased.
    pub now_rephrased: Vec<usize>,
    /// States that deliver another text now.
    pub moved: Vec<Moved>,
    /// Fields that changed.
    pub changes: Vec<VariantChange>,
}

/// What changed between two versions of an agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// Responses only the new version has.
    pub added: Vec<String>,
    /// Responses only the old version has.
    pub removed: Vec<String>,
    /// Responses in both that changed.
    pub changed: Vec<ResponseChange>,
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// A memory state by entry names: `(namespace, entry, value)`.
type NamedState = Vec<(String, String, utter::Value)>;

/// The witnesses of `view` as states by name, each as people read it and
/// with the text it delivers.
fn witness_states(registry: &Registry, view: &ResponseView) -> Vec<(NamedState, String, String)> {
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
            Some((
                state,
                v.witness_shown.clone().unwrap_or_default(),
                v.text.clone().unwrap_or_default(),
            ))
        })
        .collect()
}

/// What `state` delivers for `name` in `registry`.
fn deliver_named(
    registry: &Registry,
    name: &str,
    view: Option<&str>,
    state: &[(String, String, utter::Value)],
) -> String {
    let state: Vec<(&str, &str, &utter::Value)> = state
        .iter()
        .map(|(n, e, v)| (n.as_str(), e.as_str(), v))
        .collect();
    deliver_state(registry, name, view, &state)
}

/// What changed from `old` to `new` (project responses; bundled ones too
/// with `options.bundled`).
pub fn diff(old: &Registry, new: &Registry, options: Options) -> Diff {
    let old_views: BTreeMap<String, ResponseView> = responses(old, options)
        .into_iter()
        .map(|r| (r.name.clone(), r))
        .collect();
    let new_views: BTreeMap<String, ResponseView> = responses(new, options)
        .into_iter()
        .map(|r| (r.name.clone(), r))
        .collect();
    let mut out = Diff {
        added: new_views
            .keys()
            .filter(|n| !old_views.contains_key(*n))
            .cloned()
            .collect(),
        removed: old_views
            .keys()
            .filter(|n| !new_views.contains_key(*n))
            .cloned()
            .collect(),
        changed: Vec::new(),
    };
    for (name, before) in &old_views {
        let Some(after) = new_views.get(name) else {
            continue;
        };
        let mut change = ResponseChange {
            name: name.clone(),
            now_rephrased: Vec::new(),
            moved: Vec::new(),
            changes: Vec::new(),
        };
        let count = before.variants.len().max(after.variants.len());
        for i in 0..count {
            match (before.variants.get(i), after.variants.get(i)) {
                (Some(b), Some(a)) => {
                    let mut field = |field, old: String, new: String| {
                        if old != new {
                            change.changes.push(VariantChange {
                                variant: i,
                                field,
                                old,
                                new,
                            });
                        }
                    };
                    field("text", b.source_text.clone(), a.source_text.clone());
                    field(
                        "condition",
                        b.condition.clone().unwrap_or_else(|| "(default)".into()),
                        a.condition.clone().unwrap_or_else(|| "(default)".into()),
                    );
                    field("rephrase", b.rephrase.to_string(), a.rephrase.to_string());
                    field("reachability", b.kind.to_owned(), a.kind.to_owned());
                    if !b.rephrase && a.rephrase {
                        change.now_rephrased.push(i);
                    }
                }
                (Some(b), None) => change.changes.push(VariantChange {
                    variant: i,
                    field: "variant",
                    old: b.source_text.clone(),
                    new: "(removed)".into(),
                }),
                (None, Some(a)) => change.changes.push(VariantChange {
                    variant: i,
                    field: "variant",
                    old: "(added)".into(),
                    new: a.source_text.clone(),
                }),
                (None, None) => {}
            }
        }
        // Every witness of either version, delivered by both.
        let view_old = before.view.as_deref();
        let view_new = after.view.as_deref();
        let mut states = witness_states(old, before);
        states.extend(witness_states(new, after));
        for (state, shown, _) in states {
            let was = deliver_named(old, name, view_old, &state);
            let now = deliver_named(new, name, view_new, &state);
            let moved = Moved {
                state: shown,
                old: was,
                new: now,
            };
            if moved.old != moved.new && !change.moved.contains(&moved) {
                change.moved.push(moved);
            }
        }
        if !change.changes.is_empty() || !change.moved.is_empty() {
            out.changed.push(change);
        }
    }
    out
}
