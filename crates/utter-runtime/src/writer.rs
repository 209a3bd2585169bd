//! The interface of a variant's generated writer (straight-line code): one
//! `write_str` or [`put`] a piece, into the caller's writer.

use core::fmt::{self, Write};

use crate::format::write_py_str;
use crate::value::ValueRef;

/// A variant's text as straight-line code, each literal piece and each
/// placeholder's value written in order: two instances of one generic
/// writer. Into a `String` (delivery, [`Rendered::push_to`]) every
/// `write_str` is `push_str` with the literal's length known, as
/// hand-written code has it; into any other writer (`write_to`,
/// `Display`) one `dyn Write` instance serves all.
///
/// [`Rendered::push_to`]: crate::Rendered::push_to
pub struct Writer<R> {
    /// The writer into a `String`.
    pub into_string: fn(&R, &mut String) -> fmt::Result,
    /// The writer into any `fmt::Write`.
    pub into_any: fn(&R, &mut dyn Write) -> fmt::Result,
}

impl<R> Clone for Writer<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Writer<R> {}

/// Writes a placeholder's value, or `fallback` (the entry's
/// `unset_text`, else the placeholder as written) when it is unset.
#[inline]
pub fn put<W: Write + ?Sized>(out: &mut W, value: ValueRef<'_>, fallback: &str) -> fmt::Result {
    match value {
        ValueRef::None => out.write_str(fallback),
        // Strings written here, not through `write_py_str`: the common
        // case stays inlined.
        ValueRef::Str(text) => out.write_str(text),
        other => write_py_str(&mut &mut *out, other),
    }
}

/// A variant's text from its generated writer, in a new `String` of
/// the variant's capacity.
#[inline]
pub fn written<R>(write: Writer<R>, reader: &R, capacity: usize) -> String {
    let mut text = String::with_capacity(capacity);
    // Writing into a String cannot fail.
    let _ = (write.into_string)(reader, &mut text);
    text
}
