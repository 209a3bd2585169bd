//! Delivering memory states through a registry's responses: witnesses,
//! states by entry name (another version's witness), and examples piece by
//! piece, each by the runtime's own program.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use utter::{Context, SlotMemory};

use super::condition_index::ConditionIndex;
use crate::analysis::Witness;
use crate::diagnostics::escape::quote;
use crate::lower::Registry;

/// What `witness` delivers for response `name` in `view`.
pub fn deliver_witness(
    registry: &Registry,
    name: &str,
    view: Option<&str>,
    witness: &Witness,
) -> String {
    deliver_state(registry, name, view, &named_state(registry, witness))
}

/// `witness` with its entries by name.
fn named_state<'w>(
    registry: &'w Registry,
    witness: &'w Witness,
) -> Vec<(&'w str, &'w str, &'w utter::Value)> {
    witness
        .0
        .iter()
        .map(|(id, value)| {
            let e = &registry.entries[*id];
            (e.namespace.as_str(), e.name.as_str(), value)
        })
        .collect()
}

/// Calls `with` with a view of memory holding `state` (entries by name;
/// entries this registry does not declare, or whose type refuses the
/// value, stay unset) under `view`.
fn with_state<T>(
    registry: &Registry,
    view: Option<&str>,
    state: &[(&str, &str, &utter::Value)],
    with: impl FnOnce(&Context<'_>) -> T,
) -> T {
    let mut memory = SlotMemory::new(&registry.entries);
    for (namespace, entry, value) in state {
        let _ = memory.set(namespace, entry, (*value).clone());
    }
    let ctx = match view {
        Some(skill) => Context::for_skill_id(&memory, skill, &registry.skills)
            .unwrap_or_else(|_| Context::new(&memory)),
        None => Context::new(&memory),
    };
    with(&ctx)
}

/// What a memory state (entries by name: another registry's witness, say)
/// delivers for response `name` in `view`; entries this registry does not
/// declare, or whose type refuses the value, stay unset.
pub fn deliver_state(
    registry: &Registry,
    name: &str,
    view: Option<&str>,
    state: &[(&str, &str, &utter::Value)],
) -> String {
    Encoded::new(registry, name).deliver(view, state)
}

/// One response encoded once, to deliver many memory states (encoding
/// it for each would make a diff of many witnesses quadratic).
pub struct Encoded<'r> {
    registry: &'r Registry,
    name: &'r str,
    program: Option<utter::program::ProgramData>,
    /// The response's conditions, indexed; its default variant.
    conditions: ConditionIndex,
    default: Option<usize>,
}

impl<'r> Encoded<'r> {
    /// Response `name` of `registry` (delivered as its name when there is
    /// no such response).
    pub fn new(registry: &'r Registry, name: &'r str) -> Self {
        let response = registry.response(name);
        let program = response.map(|response| {
            let mut program = utter::program::ProgramData::default();
            response.encode_into(&mut program);
            program
        });
        Encoded {
            registry,
            name,
            program,
            conditions: response.map(conditions_of).unwrap_or_default(),
            default: response.and_then(|r| r.default),
        }
    }

    /// What `state` delivers in `view` (see [`deliver_state`]): the
    /// variant of the first condition that holds, else the default.
    pub fn deliver(&self, view: Option<&str>, state: &[(&str, &str, &utter::Value)]) -> String {
        self.deliver_with(view, state, |ctx| {
            let chosen = self.conditions.first_holding(&self.registry.entries, ctx);
            utter::program::Choice::Compiled(chosen.or(self.default))
        })
    }

    /// What `state` delivers in `view` when `choice` (see
    /// [`utter::program::Choice`]) is the variant selected.
    pub fn deliver_choice(
        &self,
        view: Option<&str>,
        state: &[(&str, &str, &utter::Value)],
        choice: utter::program::Choice,
    ) -> String {
        self.deliver_with(view, state, |_| choice)
    }

    /// What `state` delivers in `view`, the variant chosen by `choose` in
    /// the same view of memory (built once).
    fn deliver_with(
        &self,
        view: Option<&str>,
        state: &[(&str, &str, &utter::Value)],
        choose: impl FnOnce(&Context<'_>) -> utter::program::Choice,
    ) -> String {
        let Some(program) = &self.program else {
            return self.name.to_owned();
        };
        with_state(self.registry, view, state, |ctx| {
            program
                .program()
                .deliver_selected(0, choose(ctx), &self.registry.entries, ctx)
                .text
                .into_owned()
        })
    }

    /// The variant of the first of `conditions` (some of this response's)
    /// that holds for `state` in `view`.
    pub(super) fn first_holding(
        &self,
        view: Option<&str>,
        state: &[(&str, &str, &utter::Value)],
        conditions: &ConditionIndex,
    ) -> Option<usize> {
        with_state(self.registry, view, state, |ctx| {
            conditions.first_holding(&self.registry.entries, ctx)
        })
    }
}

/// Every condition of `response`, indexed.
fn conditions_of(response: &crate::lower::Response) -> ConditionIndex {
    ConditionIndex::new(
        response
            .variants
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i, v.condition.as_ref()?))),
    )
}

/// One piece of an example text: wording, or what fills a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExamplePiece {
    /// The variant's own wording.
    Wording(String),
    /// A placeholder filled from memory: the value as delivered.
    Filled(String),
    /// A placeholder the state leaves unset: delivered as written.
    Unset(String),
}

/// How an example fills the placeholders a witness leaves unset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filling<'a> {
    /// As the witness leaves them: the text that memory delivers exactly.
    AsWitnessed,
    /// Reading naturally: each placeholder entry the witness leaves unset
    /// and no condition of the response reads (so the same variant is
    /// delivered) gets a sample value: a text entry its name (`Hello
    /// ⟨customer_name⟩`), a categorical entry its first declared value, an
    /// int 2, a float 2.5 (as the agent writes it), a bool `True`. What
    /// stays unset (a list, an entry the view cannot read) shows so.
    Natural {
        /// The entries the response's conditions read ([`conditions_read`],
        /// once per response).
        conditions_read: &'a BTreeSet<usize>,
    },
}

/// The entries any condition of `response` reads.
pub fn conditions_read(response: &crate::lower::Response) -> BTreeSet<usize> {
    response
        .variants
        .iter()
        .filter_map(|v| v.condition.as_ref())
        .flat_map(|c| c.refs().into_iter().copied())
        .collect()
}

/// The text variant `variant` of response number `response` delivers
/// under `witness` (with samples, as `filling` says), piece by piece, so
/// that a reviewer tells the wording from the values filled into it.
pub fn example(
    registry: &Registry,
    (response, variant): (usize, usize),
    view: Option<&str>,
    witness: &Witness,
    filling: Filling<'_>,
) -> Vec<ExamplePiece> {
    let mut state = named_state(registry, witness);
    let Filling::Natural { conditions_read } = filling else {
        return pieces_under(registry, response, variant, view, &state);
    };
    let r = &registry.responses[response];
    let mut samples: Vec<(usize, utter::Value)> = Vec::new();
    for piece in &r.variants[variant].pieces {
        let ids: &[usize] = match piece {
            utter::Piece::Session { entry, .. } => std::slice::from_ref(entry),
            utter::Piece::Bare { candidates, .. } => candidates,
            utter::Piece::Text(_) => &[],
        };
        for &id in ids {
            let set =
                witness.0.iter().any(|(w, _)| *w == id) || samples.iter().any(|(s, _)| *s == id);
            if !set
                && !conditions_read.contains(&id)
                && let Some(value) = sample(&registry.entries[id])
            {
                samples.push((id, value));
            }
        }
    }
    for (id, value) in &samples {
        let e = &registry.entries[*id];
        state.push((e.namespace.as_str(), e.name.as_str(), value));
    }
    pieces_under(registry, response, variant, view, &state)
}

/// A value of `entry` that reads naturally in an example.
fn sample(entry: &utter::Entry<String, Vec<String>>) -> Option<utter::Value> {
    use utter::{EntryType, Value};
    Some(match entry.ty {
        EntryType::Text | EntryType::Any | EntryType::Json => Value::from(entry.name.as_str()),
        EntryType::Categorical => Value::from(entry.values.first()?.as_str()),
        EntryType::Int => Value::Int(2),
        EntryType::Float => Value::Float(2.5),
        EntryType::Bool => Value::Bool(true),
        EntryType::List => return None,
    })
}

/// The pieces of variant `variant` of response number `response` in
/// `view` with memory holding `state`.
fn pieces_under(
    registry: &Registry,
    response: usize,
    variant: usize,
    view: Option<&str>,
    state: &[(&str, &str, &utter::Value)],
) -> Vec<ExamplePiece> {
    let pieces = &registry.responses[response].variants[variant].pieces;
    with_state(registry, view, state, |ctx| {
        pieces
            .iter()
            .map(|piece| match piece {
                utter::Piece::Text(text) => ExamplePiece::Wording(text.clone()),
                utter::Piece::Session { raw, .. } | utter::Piece::Bare { raw, .. } => {
                    let shown = utter::render(std::slice::from_ref(piece), &registry.entries, ctx);
                    if shown == raw.as_str() {
                        ExamplePiece::Unset(raw.clone())
                    } else {
                        ExamplePiece::Filled(shown.into_owned())
                    }
                }
            })
            .collect()
    })
}

/// The text an example delivers, as the customer gets it.
pub fn example_text(pieces: &[ExamplePiece]) -> String {
    pieces
        .iter()
        .map(|p| match p {
            ExamplePiece::Wording(s) | ExamplePiece::Filled(s) | ExamplePiece::Unset(s) => {
                s.as_str()
            }
        })
        .collect()
}

/// An example as one quoted line: the wording as it is, a value filled in
/// from memory as `⟨value⟩`, a placeholder left unset as `⟨unset {x}⟩`.
pub fn example_line(pieces: &[ExamplePiece]) -> String {
    let mut text = String::new();
    for piece in pieces {
        match piece {
            ExamplePiece::Wording(w) => text.push_str(w),
            ExamplePiece::Filled(v) => {
                let _ = write!(text, "\u{27e8}{v}\u{27e9}");
            }
            ExamplePiece::Unset(raw) => {
                let _ = write!(text, "\u{27e8}unset {raw}\u{27e9}");
            }
        }
    }
    quote(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An example reads naturally (a text entry by its name, a categorical
    /// by a declared value, a number), never fills an entry a condition
    /// reads (a witness that leaves `x` unset for `x == None` keeps it so),
    /// and the delivered text stays the witness's exact delivery.
    #[test]
    fn examples_fill_what_no_condition_reads_with_values_that_read_naturally() {
        let files = crate::ProjectFiles::from_files([
            (
                "memory.yml",
                "passenger: {type: text}\nseat: {type: categorical, enum_values: [aisle, window]}\nbags: {type: int}\nx: {type: text}\n",
            ),
            (
                "responses.yml",
                "responses:\n  utter_r:\n    - text: \"{passenger}, seat {seat}, {bags} bags, x {x}\"\n      condition: session.project.x == None\n    - text: \"x is {x}\"\n",
            ),
        ]);
        let registry = crate::lower(&crate::check(&files)).unwrap();
        let views = super::super::responses(&registry, super::super::Options::default());
        let variant = &views[0].variants[0];
        let line = example_line(variant.example.as_ref().unwrap());
        assert_eq!(
            line, "\"⟨passenger⟩, seat ⟨aisle⟩, ⟨2⟩ bags, x ⟨unset {x}⟩\"",
            "{line}"
        );
        // The text the witness (nothing set) delivers, as it is.
        assert_eq!(
            variant.text.as_deref(),
            Some("{passenger}, seat {seat}, {bags} bags, x {x}")
        );
        // The default: `x` set by its witness (its own name, not a made-up word).
        let default = &views[0].variants[1];
        assert_eq!(
            example_line(default.example.as_ref().unwrap()),
            "\"x is ⟨x⟩\""
        );
    }
}
