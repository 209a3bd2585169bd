//! Runtime of **utter**: responses from Rasa Mantle `responses.yml` files,
//! compiled into Rust by `include_responses!` or `utter-build`.
//!
//! This crate holds what generated code and the interpreter share, once:
//! memory and its readable views, Python value semantics (comparison,
//! truthiness, `str()`), interpolation, and delivery with optional rephrasing.
#![forbid(unsafe_code)]

mod delivery;
mod fast;
mod format;
#[cfg(feature = "serde")]
pub mod json;
mod memory;
mod printable;
#[doc(hidden)]
pub mod program;
mod skill;
mod template;
mod types;
mod value;

pub use delivery::{AsyncRephraser, Delivery, Rephraser, Spoken};
pub use format::{py_str, write_py_repr, write_py_str};
pub use memory::{
    Context, Entry, EntryKey, MapMemory, Memory, Reader, SetMemory, SkillId, SlotMemory,
    UnknownResponse, UnknownSkill, Visibility, find_entry,
};
pub use skill::{SkillResponses, StepKind, StepResponse, ToolResponses, WhenTrigger};
pub use template::{Piece, Rendered, literal_text, render, text_capacity};
pub use types::{EntryType, SetError, UnknownValue};
pub use value::{CmpOp, EvalError, MAX_VALUE_DEPTH, Value, ValueRef, compare, py_eq, value_depth};

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

/// Edit distance of `a` and `b` where a swap of two neighbouring characters
/// counts as one edit, as a typo does (`lsot` is one edit from `lost`):
/// the optimal string alignment distance. Returns `cap + 1` as soon as it
/// is known to exceed `cap` (so a did-you-mean over long names stays cheap;
/// a row's minimum never falls, transpositions included).
#[doc(hidden)]
pub fn edit_distance(a: &str, b: &str, cap: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > cap {
        return cap + 1;
    }
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 0..a.len() {
        row[0] = i + 1;
        let mut best = row[0];
        for j in 0..b.len() {
            let substitution = prev[j] + usize::from(a[i] != b[j]);
            let mut d = substitution.min(prev[j + 1] + 1).min(row[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(before[j - 1] + 1);
            }
            row[j + 1] = d;
            best = best.min(d);
        }
        if best > cap {
            return cap + 1;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()].min(cap + 1)
}

#[cfg(test)]
mod edit_distance_tests {
    use super::edit_distance;

    #[test]
    fn transpositions_count_as_one_edit() {
        assert_eq!(edit_distance("lsot", "lost", 3), 1);
        assert_eq!(edit_distance("agnet", "agent", 3), 1);
        assert_eq!(edit_distance("stolen", "stolen", 3), 0);
        assert_eq!(edit_distance("kitten", "sitting", 5), 3);
        assert_eq!(edit_distance("", "abc", 5), 3);
        assert_eq!(edit_distance("abc", "", 5), 3);
        assert_eq!(edit_distance("ca", "abc", 5), 3);
        assert_eq!(edit_distance("abcdef", "uvwxyz", 2), 3);
    }
}

/// What generated code calls; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::delivery::Delivery;
    pub use crate::fast::{eq_bool, eq_float, eq_int, eq_str, holds, ord_float, ord_int, ord_str};
    pub use crate::memory::{Context, Entry, Reader};
    pub use crate::program::Program;
    pub use crate::template::{Piece, Rendered, render};
    pub use crate::value::{CmpOp, EvalError, Value, ValueRef, compare};

    /// One variant of a compiled response.
    pub struct Variant {
        pub pieces: &'static [Piece],
        /// The text when it has no placeholder: delivered without rendering.
        pub literal: Option<&'static str>,
        pub rephrase: bool,
        /// The capacity a rendered text starts with: its literal bytes plus
        /// the longest number per placeholder (longer strings grow it).
        pub capacity: usize,
    }

    /// A variant's text as straight-line code: its parts (literal pieces as
    /// they are, each placeholder read through the reader) handed to `emit`
    /// in one slice, so the caller writes them with its own concrete
    /// `fmt::Write` (one indirect call a text, not one a piece).
    pub type Writer<R> =
        fn(&R, &mut dyn FnMut(&[Part<'_>]) -> ::core::fmt::Result) -> ::core::fmt::Result;

    /// One piece of a variant's text as its generated writer sees it.
    #[derive(Clone, Copy)]
    pub enum Part<'v> {
        Text(&'static str),
        /// A placeholder's value, and what to write when it is unset.
        Value(ValueRef<'v>, &'static str),
    }

    /// Writes the parts of a text in order.
    #[inline]
    pub fn write_parts(
        out: &mut impl ::core::fmt::Write,
        parts: &[Part<'_>],
    ) -> ::core::fmt::Result {
        for part in parts {
            match *part {
                Part::Text(text) => out.write_str(text)?,
                Part::Value(value, fallback) => put(out, value, fallback)?,
            }
        }
        Ok(())
    }

    /// Writes a placeholder's value, or `fallback` (the entry's
    /// `unset_text`, else the placeholder as written) when it is unset.
    #[inline]
    pub fn put(
        out: &mut impl ::core::fmt::Write,
        value: ValueRef<'_>,
        fallback: &str,
    ) -> ::core::fmt::Result {
        match value {
            ValueRef::None => out.write_str(fallback),
            // Strings written here, not through `write_py_str`: measured,
            // this keeps the common case inlined (about 40 instructions).
            ValueRef::Str(text) => out.write_str(text),
            other => crate::format::write_py_str(out, other),
        }
    }

    /// A variant's text from its generated writer, in a new `String` of
    /// the variant's capacity.
    #[inline]
    pub fn written<R>(write: Writer<R>, reader: &R, capacity: usize) -> ::std::string::String {
        let mut text = ::std::string::String::with_capacity(capacity);
        // Writing into a String cannot fail.
        let _ = write(reader, &mut |parts| write_parts(&mut text, parts));
        text
    }

    /// A compiled response: its variants in YAML order; selection is the
    /// response's generated straight-line function.
    pub struct Response {
        pub name: &'static str,
        pub variants: &'static [Variant],
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

    /// Delivers `response`: a constant one without selecting, any other
    /// through its generated `select`, rendered from `reader` by the
    /// variant's generated writer when it has one, else piece by piece.
    #[inline]
    pub fn deliver<R: Reader>(
        response: &'static Response,
        entries: &'static [Entry],
        reader: &R,
        select: impl FnOnce(&R) -> Option<usize>,
        writer: impl FnOnce(usize) -> Option<Writer<R>>,
    ) -> Delivery<'static> {
        if let Some(constant) = &response.constant {
            return Delivery {
                text: ::std::borrow::Cow::Borrowed(constant.text),
                response: response.name,
                variant: Some(constant.variant),
                rephrase: constant.rephrase,
                fallback: false,
            };
        }
        match select(reader) {
            Some(index) => {
                let variant = &response.variants[index];
                // The writer is looked up only for a text with placeholders.
                let text = match variant.literal {
                    Some(text) => ::std::borrow::Cow::Borrowed(text),
                    None => match writer(index) {
                        Some(write) => {
                            ::std::borrow::Cow::Owned(written(write, reader, variant.capacity))
                        }
                        None => render(variant.pieces, entries, reader),
                    },
                };
                Delivery {
                    text,
                    response: response.name,
                    variant: Some(index),
                    rephrase: variant.rephrase,
                    fallback: false,
                }
            }
            None => Delivery::fallback(response.name),
        }
    }

    /// [`deliver`] without rendering: a [`Rendered`] that writes the text
    /// into any `fmt::Write` (or through `Display`) with no allocation.
    #[inline]
    pub fn rendered<'r, R: Reader>(
        response: &'static Response,
        entries: &'static [Entry],
        reader: &'r R,
        selected: Option<usize>,
        writer: impl FnOnce(usize) -> Option<Writer<R>>,
    ) -> Rendered<'r, R> {
        let selected = selected.map(|index| {
            let variant = &response.variants[index];
            let write = if variant.literal.is_none() {
                writer(index)
            } else {
                None
            };
            (index, variant, write)
        });
        Rendered::new(response.name, selected, entries, reader)
    }

    /// A text field as memory reads it.
    #[inline]
    pub fn text(field: &Option<::std::string::String>) -> ValueRef<'_> {
        field.as_deref().map_or(ValueRef::None, ValueRef::Str)
    }

    /// An int field as memory reads it.
    #[inline]
    pub fn int(field: &Option<i64>) -> ValueRef<'_> {
        field.map_or(ValueRef::None, ValueRef::Int)
    }

    /// A float field as memory reads it.
    #[inline]
    pub fn float(field: &Option<f64>) -> ValueRef<'_> {
        field.map_or(ValueRef::None, ValueRef::Float)
    }

    /// A bool field as memory reads it.
    #[inline]
    pub fn boolean(field: &Option<bool>) -> ValueRef<'_> {
        field.map_or(ValueRef::None, ValueRef::Bool)
    }

    /// A dynamically typed field (`any`, `json`, `list`) as memory reads it.
    #[inline]
    pub fn dynamic(field: &Option<Value>) -> ValueRef<'_> {
        field.as_ref().map_or(ValueRef::None, Value::as_ref)
    }

    /// A categorical field as memory reads it.
    #[inline]
    pub fn categorical(field: Option<&'static str>) -> ValueRef<'static> {
        field.map_or(ValueRef::None, ValueRef::Str)
    }

    /// A value already accepted by its entry's type, as the typed field
    /// holds it (`None` unsets the field).
    pub fn into_text(value: Value) -> Option<::std::string::String> {
        match value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// See [`into_text`].
    pub fn into_int(value: Value) -> Option<i64> {
        match value {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// See [`into_text`].
    pub fn into_float(value: Value) -> Option<f64> {
        match value {
            Value::Float(f) => Some(f),
            _ => None,
        }
    }

    /// See [`into_text`].
    pub fn into_bool(value: Value) -> Option<bool> {
        match value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// See [`into_text`].
    pub fn into_dynamic(value: Value) -> Option<Value> {
        match value {
            Value::None => None,
            other => Some(other),
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
