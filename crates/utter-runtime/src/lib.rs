//! Runtime of **utter**: responses from Rasa Mantle `responses.yml` files,
//! compiled into Rust by `include_responses!` or `utter-build`.
//!
//! This crate holds what generated code and the interpreter share, once:
//! memory and its readable views, Python value semantics (comparison,
//! truthiness, `str()`), interpolation, and delivery with optional rephrasing.
#![forbid(unsafe_code)]

mod delivery;
mod memory;
mod skill;
mod template;
mod value;

pub use delivery::{Delivery, Rephraser, Spoken};
pub use memory::{
    Context, Entry, EntryKey, MapMemory, Memory, SlotMemory, UndeclaredEntry, Visibility,
};
pub use skill::{SkillResponses, StepKind, StepResponse, ToolResponses, WhenTrigger};
pub use template::{Piece, render};
pub use value::{
    CmpOp, EvalError, Value, ValueRef, compare, py_eq, py_str, write_py_repr, write_py_str,
};

/// What generated code calls; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::delivery::Delivery;
    pub use crate::memory::{Context, Entry};
    pub use crate::template::{Piece, render};
    pub use crate::value::{CmpOp, EvalError, ValueRef, compare};

    /// A compiled condition holds: it evaluated to true (an error skips the variant).
    #[inline]
    pub fn holds(result: Result<bool, EvalError>) -> bool {
        matches!(result, Ok(true))
    }

    /// The delivery of variant `index` of response `name`.
    #[inline]
    pub fn delivered(
        name: &'static str,
        index: usize,
        pieces: &'static [Piece],
        entries: &'static [Entry],
        rephrase: bool,
        ctx: &Context<'_>,
    ) -> Delivery<'static> {
        Delivery {
            text: render(pieces, entries, ctx),
            response: name,
            variant: Some(index),
            rephrase,
            fallback: false,
        }
    }
}
