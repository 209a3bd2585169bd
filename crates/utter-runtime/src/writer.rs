//! The interface of a variant's generated writer (straight-line code): the
//! parts of its text handed over in one slice and written by the caller's
//! own concrete `fmt::Write`.

use crate::format::write_py_str;
use crate::value::ValueRef;

/// A variant's text as straight-line code: its parts (literal pieces as
/// they are, each placeholder read through the reader) handed to `emit`
/// in one slice, so the caller writes them with its own concrete
/// `fmt::Write` (one indirect call a text, not one a piece).
pub type Writer<R> =
    fn(&R, &mut dyn FnMut(&[Part<'_>]) -> ::core::fmt::Result) -> ::core::fmt::Result;

/// One piece of a variant's text as its generated writer sees it.
#[derive(Clone, Copy)]
pub enum Part<'v> {
    /// Literal text.
    Text(&'static str),
    /// A placeholder's value, and what to write when it is unset.
    Value(ValueRef<'v>, &'static str),
}

/// Writes the parts of a text in order.
#[inline]
pub fn write_parts(out: &mut impl ::core::fmt::Write, parts: &[Part<'_>]) -> ::core::fmt::Result {
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
        other => write_py_str(out, other),
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
