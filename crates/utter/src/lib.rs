//! Runtime of **utter**: responses from Rasa Mantle `responses.yml` files,
//! compiled into Rust by `include_responses!` or `utter-build`.
//!
//! This crate holds what generated code and the interpreter share, once:
//! memory and its readable views, Python value semantics (comparison,
//! truthiness, `str()`), interpolation, and delivery with optional rephrasing.
#![forbid(unsafe_code)]

mod delivery;
mod memory;
mod template;
mod value;

pub use delivery::{Delivery, Rephraser, Spoken};
pub use memory::{
    Context, Entry, EntryKey, MapMemory, Memory, SlotMemory, UndeclaredEntry, Visibility,
};
pub use template::{Piece, render};
pub use value::{
    CmpOp, EvalError, Value, ValueRef, compare, py_eq, py_str, write_py_repr, write_py_str,
};
