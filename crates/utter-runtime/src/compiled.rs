//! Delivery of a response compiled to straight-line code: its static
//! variants, the generated selection `fn` and writers.

use std::borrow::Cow;

use crate::delivery::Delivery;
use crate::memory::{Entry, Reader};
use crate::piece::Variant;
use crate::template::{Rendered, render};
use crate::writer::{WriteFn, Writer, written};

/// A compiled response: its variants in YAML order; selection is the
/// response's generated straight-line function.
pub struct Response {
    /// The response's name.
    pub name: &'static str,
    /// Its variants, in YAML order.
    pub variants: &'static [Variant],
    /// Set by the generator when the delivery never depends on memory:
    /// no variant is conditioned and the default's text is literal.
    pub constant: Option<Constant>,
}

/// The delivery of a response that never depends on memory.
pub struct Constant {
    /// The text delivered.
    pub text: &'static str,
    /// The variant it is.
    pub variant: usize,
    /// Its `metadata.rephrase`.
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
    shapes: impl FnOnce(usize) -> Option<WriteFn<R>>,
) -> Delivery<'static> {
    if let Some(constant) = &response.constant {
        return Delivery {
            text: Cow::Borrowed(constant.text),
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
                Some(text) => Cow::Borrowed(text),
                None => match Writer::of(variant, shapes) {
                    Some(write) => Cow::Owned(written(write, reader, variant.capacity)),
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
    shapes: impl FnOnce(usize) -> Option<WriteFn<R>>,
) -> Rendered<'r, R> {
    let selected = selected.map(|index| {
        let variant = &response.variants[index];
        let write = if variant.literal.is_none() {
            Writer::of(variant, shapes)
        } else {
            None
        };
        (index, variant, write)
    });
    Rendered::new(response.name, selected, entries, reader)
}
