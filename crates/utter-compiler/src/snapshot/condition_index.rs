//! Which conditions of a response a memory state can make hold, found
//! without evaluating the others: the diff delivers every witness of two
//! versions in both, and walking 20,000 conditions per witness made a
//! diff of a response that large quadratic.
//!
//! A condition that is, or has as a conjunct, `entry == 'text'` or
//! `entry == 12` (either side) can hold only when the entry reads that
//! text or number: Python's `==` never makes a `str` equal to anything but
//! the same `str`, and an `int` equal to anything but an equal number or
//! `bool`. The index keeps such conditions by that key; a state looks up
//! the keys its entries read and evaluates those with the conditions that
//! have no key, in YAML order. A state whose entry reads a number of
//! another kind (a float, a bool) evaluates all of that entry's number
//! keys: the index never decides what `==` decides.

use std::collections::HashMap;

use utter::program::ProgramData;
use utter::{Entry, Reader, ValueRef};

use crate::condition::{CmpOp, Expr, Literal};

/// A condition as the index holds it: its variant's number within the
/// response and where it is encoded.
type Indexed = (usize, u32);

/// What a keyed condition needs its entry to read.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Text(String),
    Int(i64),
}

/// Some conditions of one response, encoded once and indexed by the value
/// an `==` conjunct needs.
#[derive(Default)]
pub(super) struct ConditionIndex {
    program: ProgramData,
    /// Conditions without a key, in YAML order.
    open: Vec<Indexed>,
    /// Keyed conditions by entry id and key, each list in YAML order.
    keyed: HashMap<(usize, Key), Vec<Indexed>>,
    /// Per entry id, every condition keyed by a number on it.
    by_number: HashMap<usize, Vec<Indexed>>,
    /// The entry ids some condition is keyed on, ascending.
    keyed_entries: Vec<usize>,
}

impl ConditionIndex {
    /// The index of `conditions`, each with its variant's number, in YAML
    /// order.
    pub(super) fn new<'e>(conditions: impl IntoIterator<Item = (usize, &'e Expr<usize>)>) -> Self {
        let mut index = ConditionIndex::default();
        for (variant, condition) in conditions {
            let at = (variant, index.program.condition(condition));
            match key_of(condition) {
                Some((entry, key)) => {
                    if let Key::Int(_) = key {
                        index.by_number.entry(entry).or_default().push(at);
                    }
                    index.keyed.entry((entry, key)).or_default().push(at);
                    index.keyed_entries.push(entry);
                }
                None => index.open.push(at),
            }
        }
        index.keyed_entries.sort_unstable();
        index.keyed_entries.dedup();
        index
    }

    /// The variant of the first condition (in YAML order) that holds for
    /// `reader`, as walking every condition would find it.
    pub(super) fn first_holding<N: AsRef<str>, V, R: Reader>(
        &self,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Option<usize> {
        let mut candidates: Vec<Indexed> = Vec::new();
        for &entry in &self.keyed_entries {
            let key = match reader.value(&entries[entry]) {
                ValueRef::Str(text) => Key::Text(text.to_owned()),
                ValueRef::Int(number) => Key::Int(number),
                // `None`, a list or a dict equals no text and no number.
                ValueRef::None | ValueRef::List(_) | ValueRef::Map(_) => continue,
                // A float or a bool may equal a number: `==` decides.
                ValueRef::Float(_) | ValueRef::Bool(_) => {
                    candidates.extend(self.by_number.get(&entry).into_iter().flatten());
                    continue;
                }
            };
            candidates.extend(self.keyed.get(&(entry, key)).into_iter().flatten());
        }
        candidates.sort_unstable();
        let program = self.program.program();
        let holds = |&(variant, at): &Indexed| {
            program
                .holds(at as usize, entries, reader)
                .then_some(variant)
        };
        merged(&self.open, &candidates).find_map(|c| holds(&c))
    }
}

/// Two lists in ascending order, merged in ascending order.
fn merged<'a>(a: &'a [Indexed], b: &'a [Indexed]) -> impl Iterator<Item = Indexed> + 'a {
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if x <= y => a.next().copied(),
        (_, Some(_)) => b.next().copied(),
        _ => a.next().copied(),
    })
}

/// The entry and value an `==` conjunct of `condition` needs, if any.
fn key_of(condition: &Expr<usize>) -> Option<(usize, Key)> {
    match condition {
        Expr::And(items) => items.iter().find_map(equality_key),
        other => equality_key(other),
    }
}

/// `entry == literal` or `literal == entry`, for a text or int literal.
fn equality_key(condition: &Expr<usize>) -> Option<(usize, Key)> {
    let Expr::Compare { first, rest } = condition else {
        return None;
    };
    let [(CmpOp::Eq, second)] = rest.as_slice() else {
        return None;
    };
    let (entry, literal) = match (first.as_ref(), second) {
        (Expr::Ref(entry), Expr::Lit(literal)) | (Expr::Lit(literal), Expr::Ref(entry)) => {
            (*entry, literal)
        }
        _ => return None,
    };
    let key = match literal {
        Literal::Str(text) => Key::Text(text.clone()),
        Literal::Int(number) => Key::Int(*number),
        _ => return None,
    };
    Some((entry, key))
}

#[cfg(test)]
mod tests {
    use super::super::Encoded;
    use super::super::testing::{MEMORIES, registry, variant};
    use utter::Value;

    /// Values of every kind, some equal across kinds (`1`, `1.0`, `True`).
    fn values() -> Vec<Option<Value>> {
        let mut out = vec![None, Some(Value::None)];
        out.extend((0..4).map(|n| Some(Value::Int(n))));
        out.extend([1.0, 1.5, 2.0].map(|f| Some(Value::Float(f))));
        out.extend([true, false].map(|b| Some(Value::Bool(b))));
        out.extend(["a", "b", "", "1"].map(|t| Some(Value::Str(t.to_owned()))));
        out.push(Some(Value::List(vec![Value::Int(1)])));
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Delivering through the index is delivering by walking every
        /// condition, for every pair of values of every kind.
        #[test]
        fn the_index_selects_what_the_walk_selects(
            memory in 0usize..MEMORIES.len(),
            variants in proptest::collection::vec(variant(), 1..9),
            default_at in 0usize..9,
        ) {
            let mut variants = variants;
            // A response with conditions needs its one default.
            variants.insert(default_at.min(variants.len()), (None, "default".to_owned()));
            let registry = registry(&variants, MEMORIES[memory]);
            let encoded = Encoded::new(&registry, "utter_r");
            for x in values() {
                for t in values() {
                    let mut state = Vec::new();
                    state.extend(x.as_ref().map(|v| ("project", "x", v)));
                    state.extend(t.as_ref().map(|v| ("project", "t", v)));
                    let walked = encoded.deliver_choice(None, &state, utter::program::Choice::Walk);
                    proptest::prop_assert_eq!(encoded.deliver(None, &state), walked, "{:?}", state);
                }
            }
        }
    }
}
