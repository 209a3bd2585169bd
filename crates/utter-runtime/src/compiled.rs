//! Delivery of a response compiled to straight-line code: its static
//! variants, the generated selection `fn` and writers.
//!
//! One dispatch: the generated `select` leads a response's number to its
//! selection, in line, and returns the variant's record with its number.
//! There is no shortcut for a response that never depends on memory: its
//! arm of `select` is a constant, and checking a flag before `select` cost
//! every other delivery more than the call it saved (benches/README.md).

use std::borrow::Cow;

use crate::delivery::Delivery;
use crate::guard::FactGuard;
use crate::memory::{Entry, Reader};
use crate::piece::Variant;
use crate::template::{Rendered, render};
use crate::writer::{WriteFn, Writer, written};

/// The variant a generated `select` picked: its number and its record.
pub type Selected = Option<(usize, &'static Variant)>;

/// Variant number `selected` of `variants`, as a generated `select`
/// returns it. The record travels with the number, so delivery neither
/// looks the response up again nor checks the number against its variants
/// (inlined into an arm, the number is one of the arm's constants and
/// `get` folds away); an out-of-range number is no variant, not a panic.
#[inline]
pub fn pick(variants: &'static [Variant], selected: Option<usize>) -> Selected {
    let index = selected?;
    Some((index, variants.get(index)?))
}

/// Delivers the variant of response `name` that its generated `select`
/// picked, rendered from `reader` by the variant's generated writer when
/// it has one, else piece by piece.
///
/// In line in the caller with `select`: a literal variant is a handful of
/// stores, and the [`Delivery`] of a variant that does not rephrase drops
/// without a call. A text with placeholders is made out of line
/// (`interpolated`), so the caller does not grow by the writer's code.
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn deliver<R: Reader>(
    name: &'static str,
    entries: &'static [Entry],
    reader: &R,
    selected: Selected,
    shapes: impl FnOnce(usize) -> Option<WriteFn<R>>,
) -> Delivery<'static> {
    let delivery = match selected {
        Some((index, variant)) => {
            let (text, guard) = match variant.literal {
                Some(text) => (Cow::Borrowed(text), FactGuard::default()),
                None => {
                    let text = interpolated(variant, entries, reader, shapes);
                    let guard = if variant.rephrase {
                        crate::template::fact_guard(variant.pieces, entries, reader)
                    } else {
                        FactGuard::default()
                    };
                    (text, guard)
                }
            };
            Delivery {
                text,
                response: name,
                variant: Some(index),
                rephrase: variant.rephrase,
                fallback: false,
                wording: Some(variant.wording),
                guard,
            }
        }
        None => Delivery::fallback(name),
    };
    crate::wording::record(
        name,
        delivery.variant,
        delivery.wording,
        delivery.rephrase,
        reader.skill_id(),
    );
    delivery
}

/// The text of a variant with placeholders: by its generated writer when
/// it has one (looked up only here), else piece by piece.
#[inline(never)]
fn interpolated<R: Reader>(
    variant: &'static Variant,
    entries: &'static [Entry],
    reader: &R,
    shapes: impl FnOnce(usize) -> Option<WriteFn<R>>,
) -> Cow<'static, str> {
    match Writer::of(variant, shapes) {
        Some(write) => Cow::Owned(written(write, reader, variant.capacity)),
        None => render(variant.pieces, entries, reader),
    }
}

/// [`deliver`] without rendering: a [`Rendered`] that writes the text
/// into any `fmt::Write` (or through `Display`) with no allocation.
#[inline]
pub fn rendered<'r, R: Reader>(
    name: &'static str,
    entries: &'static [Entry],
    reader: &'r R,
    selected: Selected,
    shapes: impl FnOnce(usize) -> Option<WriteFn<R>>,
) -> Rendered<'r, R> {
    crate::wording::record(
        name,
        selected.map(|(index, _)| index),
        selected.map(|(_, variant)| variant.wording),
        selected.is_some_and(|(_, variant)| variant.rephrase),
        reader.skill_id(),
    );
    let selected = selected.map(|(index, variant)| {
        let write = if variant.literal.is_none() {
            Writer::of(variant, shapes)
        } else {
            None
        };
        (index, variant, write)
    });
    Rendered::new(name, selected, entries, reader)
}

#[cfg(test)]
mod tests {
    use super::*;

    static VARIANTS: [Variant; 2] = [
        Variant {
            pieces: &[],
            literal: Some(""),
            rephrase: false,
            wording: crate::WordingId(0),
            capacity: 0,
            writer: None,
        },
        Variant {
            pieces: &[],
            literal: Some("second"),
            rephrase: true,
            wording: crate::WordingId(1),
            capacity: 6,
            writer: None,
        },
    ];

    #[test]
    fn pick_hands_over_the_record_of_the_number_and_never_panics() {
        let (index, variant) = pick(&VARIANTS, Some(1)).expect("in range");
        assert_eq!((index, variant.literal), (1, Some("second")));
        assert!(pick(&VARIANTS, Some(2)).is_none());
        assert!(pick(&VARIANTS, None).is_none());
    }
}
