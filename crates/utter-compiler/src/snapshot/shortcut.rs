//! The diff's shortcut: which variant a witness of one version selects in
//! the other, without walking every condition.

use super::Encoded;
use super::condition_index::ConditionIndex;
use crate::lower::{Registry, Response};
use utter::Entry;

/// One version of a response as the shortcut reads it: its encoding,
/// view, and per variant its condition text (`None`: no condition).
struct Side<'a> {
    encoded: &'a Encoded<'a>,
    view: Option<&'a str>,
    conditions: Vec<Option<&'a str>>,
    default: Option<usize>,
    /// The conditions of its variants that the other version lacks at the
    /// same place (between the common prefix and suffix), indexed.
    middle: ConditionIndex,
}

/// Which variant a witness selects in the other version, found without
/// walking every condition (a diff of a response of 20,000 variants would
/// walk 20,000 conditions per witness). Both versions read the same
/// entries in the same view, and their condition lists share a prefix of
/// `prefix` and a suffix of `suffix` variants. A witness of variant `i`
/// makes no condition before `i` hold in its own version (it delivers
/// `i`), so in the other version every shared condition before the
/// matching place is false as well, and only the other's middle can hold:
/// when none of it does, the matching variant (or the default) is the
/// one selected. Otherwise (or a witness from the middle) it is walked.
pub(super) struct Shortcut<'a> {
    sides: [Side<'a>; 2],
    prefix: usize,
    suffix: usize,
}

impl<'a> Shortcut<'a> {
    /// `None` when the versions deliver in different views.
    pub(super) fn new(
        [old, new]: [&'a Registry; 2],
        name: &'a str,
        views: [Option<&'a str>; 2],
        encoded: &'a [Encoded<'a>; 2],
    ) -> Option<Self> {
        let (Some(r_old), Some(r_new)) = (old.response(name), new.response(name)) else {
            return None;
        };
        let view = views[0];
        let view_known =
            |r: &Registry| view.is_none_or(|skill| r.skills.iter().any(|s| s == skill));
        if views[0] != views[1] || view_known(old) != view_known(new) {
            return None;
        }
        let texts = |r: &'a Response| -> Vec<Option<&'a str>> {
            r.variants
                .iter()
                .map(|v| v.condition_text.as_deref())
                .collect()
        };
        let (c_old, c_new) = (texts(r_old), texts(r_new));
        let (m_old, m_new) = (meanings(old, r_old), meanings(new, r_new));
        let prefix = m_old.iter().zip(&m_new).take_while(|(a, b)| a == b).count();
        let shortest = m_old.len().min(m_new.len());
        let suffix = m_old
            .iter()
            .rev()
            .zip(m_new.iter().rev())
            .take(shortest - prefix)
            .take_while(|(a, b)| a == b)
            .count();
        let side = |encoded: &'a Encoded<'a>,
                    response: &'a Response,
                    conditions: Vec<Option<&'a str>>,
                    view: Option<&'a str>| {
            let end = response.variants.len() - suffix;
            let middle = ConditionIndex::new(
                response.variants[prefix..end]
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| Some((prefix + i, v.condition.as_ref()?))),
            );
            Side {
                encoded,
                view,
                conditions,
                default: response.default,
                middle,
            }
        };
        Some(Shortcut {
            sides: [
                side(&encoded[0], r_old, c_old, views[0]),
                side(&encoded[1], r_new, c_new, views[1]),
            ],
            prefix,
            suffix,
        })
    }

    /// What `state`, a witness of variant `variant` of version `from` (0:
    /// old, 1: new), delivers in version `to`.
    fn deliver(
        &self,
        state: &[(&str, &str, &utter::Value)],
        from: usize,
        variant: usize,
        to: usize,
    ) -> String {
        use utter::program::Choice;
        let (source, target) = (&self.sides[from], &self.sides[to]);
        if from == to {
            return target.encoded.deliver_choice(
                target.view,
                state,
                Choice::Compiled(Some(variant)),
            );
        }
        let len = source.conditions.len();
        let conditioned = source.conditions[variant].is_some();
        let matching = if conditioned && variant < self.prefix {
            // Every condition up to it is shared: nothing else can hold.
            return target.encoded.deliver_choice(
                target.view,
                state,
                Choice::Compiled(Some(variant)),
            );
        } else if conditioned && variant >= len - self.suffix {
            Some(variant + target.conditions.len() - len)
        } else if !conditioned && source.default == Some(variant) {
            target.default
        } else {
            return target.encoded.deliver(target.view, state);
        };
        if target
            .encoded
            .first_holding(target.view, state, &target.middle)
            .is_some()
        {
            return target.encoded.deliver(target.view, state);
        }
        target
            .encoded
            .deliver_choice(target.view, state, Choice::Compiled(matching))
    }
}

/// An entry as a condition reads it: its declaration, without the id
/// (ids are positions in one version's entry table).
type Declared = Entry<String, Vec<String>>;

/// What each variant's condition means, comparable across versions: the
/// text as written and the declarations of the entries it reads (`None`:
/// no condition). Two versions may declare other entries besides; a
/// condition means the same in both when it reads the same declarations.
fn meanings(registry: &Registry, response: &Response) -> Vec<Option<(String, Vec<Declared>)>> {
    response
        .variants
        .iter()
        .map(|v| {
            let condition = v.condition.as_ref()?;
            let reads = condition
                .refs()
                .into_iter()
                .map(|&id| Entry {
                    id: 0,
                    ..registry.entries[id].clone()
                })
                .collect();
            Some((v.condition_text.clone().unwrap_or_default(), reads))
        })
        .collect()
}

/// What `state`, a witness of variant `variant` of version `from`,
/// delivers in version `to`: through the shortcut when there is one, else
/// through the index of the conditions; or, with `walk`, by walking every
/// condition (the reference both are tested against).
pub(super) fn deliver_named(
    shortcut: Option<&Shortcut<'_>>,
    encoded: &[Encoded<'_>; 2],
    views: [Option<&str>; 2],
    state: &[(String, String, utter::Value)],
    (from, variant): (usize, usize),
    (to, walk): (usize, bool),
) -> String {
    let state: Vec<(&str, &str, &utter::Value)> = state
        .iter()
        .map(|(n, e, v)| (n.as_str(), e.as_str(), v))
        .collect();
    match shortcut {
        _ if walk => encoded[to].deliver_choice(views[to], &state, utter::program::Choice::Walk),
        Some(shortcut) => shortcut.deliver(&state, from, variant, to),
        None => encoded[to].deliver(views[to], &state),
    }
}
