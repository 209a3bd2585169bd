//! Runtime of **utter**: responses from Rasa Mantle `responses.yml` files,
//! compiled into Rust by `include_responses!` or `utter-build`.
//!
//! This crate holds what generated code and the interpreter share, once:
//! memory and its readable views, Python value semantics (comparison,
//! truthiness, `str()`), interpolation, and delivery with optional rephrasing.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[doc(hidden)]
pub mod __private;
mod compiled;
mod delivery;
mod dialect;
pub mod escape;
mod explain;
mod fast;
mod fields;
mod format;
mod guard;
#[cfg(feature = "serde")]
pub mod json;
mod lookup;
mod memory;
mod piece;
mod printable;
#[doc(hidden)]
pub mod program;
mod rephrase;
mod resolve;
mod skill;
mod suggest;
mod template;
mod types;
mod value;
mod wording;
mod writer;

pub use delivery::{AsyncRephraser, Delivery, RephraseOutcome, Rephraser, Spoken};
pub use dialect::Dialect;
pub use explain::{ConditionOutcome, Explanation};
pub use format::{py_str, write_py_repr, write_py_str};
pub use guard::{
    FactGuard, FactRefusal, Filled, FilledValues, MAX_ANSWER_GROWTH, MAX_ANSWER_SLACK, Shown,
    check as check_facts, figures,
};
pub use memory::{
    Context, Entry, EntryKey, MapMemory, Memory, Reader, SetMemory, SkillId, SlotMemory,
    UnknownResponse, UnknownSkill, Visibility, find_entry,
};
pub use piece::{Piece, literal_text, text_capacity};
pub use rephrase::{
    AsyncTaggedRephraser, Channel, FactKind, Language, RephraseContext, RephraseRequest,
    TaggedFact, TaggedRephraser,
};
pub use skill::{SkillResponses, StepKind, StepResponse, ToolResponses, WhenTrigger};
#[doc(hidden)]
pub use suggest::edit_distance;
pub use template::{Rendered, render};
pub use types::{EntryType, SetError, UnknownValue};
pub use value::{CmpOp, EvalError, MAX_VALUE_DEPTH, Value, ValueRef, compare, py_eq, value_depth};
pub use wording::{ParseWordingIdError, WordingId};
