//! The interface of a variant's generated writer (straight-line code):
//! [`Out::push_str`] of each literal piece and [`put`] of each
//! placeholder's value.

use core::fmt::{self, Write};

use crate::format::write_py_str;
use crate::piece::Variant;
use crate::value::ValueRef;

/// A variant's text as straight-line code: a generated function that
/// writes each literal piece and each placeholder's value in order into
/// an [`Out`], and the texts it writes (literal pieces and unset
/// fallbacks, in order).
///
/// Variants whose texts differ only in their longer literals and their
/// fallbacks share one function (one per *shape*: which entries are read,
/// in which order, between which short literals); measured on
/// 1,000 responses, a function per variant was most of the build's type
/// and borrow checking. One instance per shape and reader, not one per
/// output type as well: a second instance for `dyn Write` made the dev
/// build 2.6x slower. [`Out`] decides per piece instead, a predictable
/// branch that leaves `push_str` into a `String` as hand-written code has
/// it.
pub struct Writer<R> {
    write: WriteFn<R>,
    texts: &'static [&'static str],
}

/// The generated writer of one shape, for reader `R`: it writes the texts
/// it is handed and the values it reads.
pub type WriteFn<R> = fn(&R, &mut Out<'_>, &'static [&'static str]);

impl<R> Writer<R> {
    /// The writer of `variant`, if its text has placeholders and
    /// `shapes` has its shape's function.
    #[inline]
    pub fn of(variant: &Variant, shapes: impl FnOnce(usize) -> Option<WriteFn<R>>) -> Option<Self> {
        let (shape, texts) = variant.writer?;
        Some(Writer {
            write: shapes(shape)?,
            texts,
        })
    }

    /// Writes the variant's text from `reader` into `out`.
    #[inline]
    pub fn write(&self, reader: &R, out: &mut Out<'_>) {
        (self.write)(reader, out, self.texts);
    }
}

impl<R> Clone for Writer<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Writer<R> {}

/// Where a generated writer writes.
pub enum Out<'o> {
    /// A `String` (delivery, [`Rendered::push_to`]).
    ///
    /// [`Rendered::push_to`]: crate::Rendered::push_to
    String(&'o mut String),
    /// Any other writer ([`Rendered::write_to`], `Display`).
    ///
    /// [`Rendered::write_to`]: crate::Rendered::write_to
    Any(&'o mut dyn Write),
    /// A writer that failed: the rest is not written.
    Failed,
}

impl Out<'_> {
    /// Writes literal text.
    #[inline]
    pub fn push_str(&mut self, text: &str) {
        match self {
            Out::String(out) => out.push_str(text),
            _ => self.write_any(|out| out.write_str(text)),
        }
    }

    /// Writes through the `dyn Write` path (out of line: the `String`
    /// path is the one kept in line, as it is in hand-written code).
    #[inline(never)]
    fn write_any(&mut self, write: impl FnOnce(&mut dyn Write) -> fmt::Result) {
        if let Out::Any(out) = self
            && write(*out).is_err()
        {
            *self = Out::Failed;
        }
    }

    /// `Err` if the writer failed.
    pub fn result(&self) -> fmt::Result {
        match self {
            Out::Failed => Err(fmt::Error),
            _ => Ok(()),
        }
    }
}

/// Writes a placeholder's value, or `fallback` (the entry's
/// `unset_text`, else the placeholder as written) when it is unset.
#[inline(always)]
pub fn put(out: &mut Out<'_>, value: ValueRef<'_>, fallback: &str) {
    match value {
        ValueRef::None => out.push_str(fallback),
        // Strings in line; every other value is formatted out of line.
        ValueRef::Str(text) => out.push_str(text),
        other => put_formatted(out, other),
    }
}

/// Writes a value that is not a string, as Python's `str()` does.
#[inline(never)]
fn put_formatted(out: &mut Out<'_>, value: ValueRef<'_>) {
    match out {
        // Writing into a String cannot fail.
        Out::String(text) => {
            let _ = write_py_str(*text, value);
        }
        _ => out.write_any(|any| write_py_str(&mut &mut *any, value)),
    }
}

/// A variant's text from its generated writer, in a new `String` of
/// the variant's capacity.
#[inline]
pub fn written<R>(write: Writer<R>, reader: &R, capacity: usize) -> String {
    let mut text = String::with_capacity(capacity);
    write.write(reader, &mut Out::String(&mut text));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a generated writer looks like: literal pieces and values.
    fn sample(values: &[ValueRef<'_>; 3], out: &mut Out<'_>) {
        out.push_str("Card ");
        put(out, values[0], "{card}");
        out.push_str(", fee ");
        put(out, values[1], "{fee}");
        out.push_str(", count ");
        put(out, values[2], "{count}");
    }

    const VALUES: [ValueRef<'static>; 3] =
        [ValueRef::Str("Visa"), ValueRef::Float(2.5), ValueRef::None];

    #[test]
    fn a_string_and_any_writer_get_the_same_text() {
        let mut string = String::new();
        sample(&VALUES, &mut Out::String(&mut string));
        let mut any = String::new();
        let mut out = Out::Any(&mut any);
        sample(&VALUES, &mut out);
        assert_eq!(out.result(), Ok(()));
        assert_eq!(string, "Card Visa, fee 2.5, count {count}");
        assert_eq!(any, string);
    }

    /// Accepts `room` bytes, then fails, and counts the calls after that.
    struct Failing {
        room: usize,
        calls_after_failing: usize,
        failed: bool,
    }

    impl Write for Failing {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            if self.failed {
                self.calls_after_failing += 1;
            }
            if s.len() > self.room {
                self.failed = true;
                return Err(fmt::Error);
            }
            self.room -= s.len();
            Ok(())
        }
    }

    #[test]
    fn a_failing_writer_fails_the_write_and_is_not_written_again() {
        // Fails at a literal piece, then at a formatted value.
        for room in [3, 16] {
            let mut failing = Failing {
                room,
                calls_after_failing: 0,
                failed: false,
            };
            let mut out = Out::Any(&mut failing);
            sample(&VALUES, &mut out);
            assert_eq!(out.result(), Err(fmt::Error), "room {room}");
            assert_eq!(failing.calls_after_failing, 0, "room {room}");
        }
    }
}
