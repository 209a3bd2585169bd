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
pub use template::{Piece, literal_text, render};
pub use value::{
    CmpOp, EvalError, Value, ValueRef, compare, py_eq, py_str, write_py_repr, write_py_str,
};

/// Selects a variant: the first conditioned one whose condition holds, in
/// YAML order, else `default`. `conditions` yields, per variant, `None` when
/// it has no condition, else whether it holds (evaluated lazily, in order).
/// The one selection rule, used by generated code and by the interpreter.
#[inline]
pub fn select(
    conditions: impl IntoIterator<Item = Option<bool>>,
    default: Option<usize>,
) -> Option<usize> {
    conditions
        .into_iter()
        .position(|holds| holds == Some(true))
        .or(default)
}

/// What generated code calls; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::delivery::Delivery;
    pub use crate::memory::{Context, Entry};
    pub use crate::template::{Piece, render};
    pub use crate::value::{CmpOp, EvalError, ValueRef, compare};

    /// A compiled condition.
    pub type Condition = fn(&Context<'_>) -> Result<bool, EvalError>;

    /// One variant of a compiled response.
    pub struct Variant {
        pub pieces: &'static [Piece],
        pub condition: Option<Condition>,
        pub rephrase: bool,
    }

    /// A compiled response: its variants in YAML order and its default.
    pub struct Response {
        pub name: &'static str,
        pub variants: &'static [Variant],
        pub default: Option<usize>,
        /// Set by the generator when the delivery never depends on memory:
        /// no variant is conditioned and the default's text is literal.
        pub constant: Option<Constant>,
    }

    /// The delivery of a response that never depends on memory.
    pub struct Constant {
        pub text: &'static str,
        pub variant: usize,
        pub rephrase: bool,
    }

    /// A compiled condition holds: it evaluated to true (an error skips the variant).
    #[inline]
    pub fn holds(result: Result<bool, EvalError>) -> bool {
        matches!(result, Ok(true))
    }

    /// Delivers a compiled response: a constant one without selecting, any
    /// other through the one selection rule.
    #[inline]
    pub fn deliver(
        response: &'static Response,
        entries: &'static [Entry],
        ctx: &Context<'_>,
    ) -> Delivery<'static> {
        match &response.constant {
            Some(constant) => Delivery {
                text: ::std::borrow::Cow::Borrowed(constant.text),
                response: response.name,
                variant: Some(constant.variant),
                rephrase: constant.rephrase,
                fallback: false,
            },
            None => select_and_render(response, entries, ctx),
        }
    }

    /// Selects a variant with [`crate::select`] and renders its text.
    #[inline]
    fn select_and_render(
        response: &'static Response,
        entries: &'static [Entry],
        ctx: &Context<'_>,
    ) -> Delivery<'static> {
        let conditions = response
            .variants
            .iter()
            .map(|v| v.condition.map(|condition| holds(condition(ctx))));
        match crate::select(conditions, response.default) {
            Some(index) => {
                let variant = &response.variants[index];
                Delivery {
                    text: render(variant.pieces, entries, ctx),
                    response: response.name,
                    variant: Some(index),
                    rephrase: variant.rephrase,
                    fallback: false,
                }
            }
            None => Delivery::fallback(response.name),
        }
    }

    /// The hash of a response name for [`lookup`]: fixed (no random seed),
    /// so generated tables are deterministic; 8 bytes at a time.
    #[inline]
    pub const fn name_hash(name: &str) -> u64 {
        let bytes = name.as_bytes();
        let mut hash = (bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut i = 0;
        while i < bytes.len() {
            let mut chunk = 0u64;
            let mut j = 0;
            while j < 8 && i + j < bytes.len() {
                chunk |= (bytes[i + j] as u64) << (8 * j);
                j += 1;
            }
            hash = (hash ^ chunk).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            hash ^= hash >> 31;
            i += 8;
        }
        // A full avalanche, so that every input bit reaches the low bits
        // the table index is taken from (MurmurHash3's finaliser).
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        hash ^ (hash >> 33)
    }

    /// Finds `name` in an open-addressing table built by the code generator:
    /// `slots` holds `index + 1` of each name (0 = empty), at
    /// `name_hash(name) % slots.len()` or the next free slot after it.
    #[inline]
    pub fn lookup(name: &str, names: &[&str], slots: &[u32]) -> Option<usize> {
        if slots.is_empty() {
            return None;
        }
        let mut at = (name_hash(name) % slots.len() as u64) as usize;
        // The generator keeps the table at most half full: an empty slot ends every probe.
        loop {
            match slots[at] {
                0 => return None,
                entry => {
                    let index = entry as usize - 1;
                    if names[index] == name {
                        return Some(index);
                    }
                }
            }
            at = (at + 1) % slots.len();
        }
    }
}
