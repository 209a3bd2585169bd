//! An agent as data: responses, conditions and texts encoded in three byte
//! tables and one string, walked by one evaluator. What the interpreter
//! (and a development hot reload) runs on, and the texts of what the
//! compiler emits for large agents (a few literals instead of thousands of
//! statics and writers, so they build fast), whose selection is compiled
//! code handing its choice to [`Program::deliver_selected`]. The evaluator
//! calls the same comparison, truthiness and rendering as straight-line
//! code.
//!
//! The encoding (all integers little-endian, `u32` unless noted; a text is
//! `offset, length` into `strings`):
//!
//! - `responses`: per response a fixed-width record (layout in
//!   [`response`]): name, first variant, variant count, default.
//! - `variants`: per variant a fixed-width record (layout in [`variant`]):
//!   condition offset in `code` or [`ABSENT`], the text itself when it has
//!   no placeholder (else where its pieces are in `code`), capacity of the
//!   rendered text, rephrase flag. Selection walks a response's records
//!   with one bounds check for all of them.
//! - `code`: conditions and pieces. A piece: a [`PieceTag`], then what the
//!   tag says. A condition node: a [`NodeTag`], then what the tag says; an
//!   operator is one byte ([`operator_byte`]); `entry <op> literal`, nearly
//!   every condition, is one fixed-width record ([`cmp_lit`]); a run of
//!   consecutive `entry == <int>` variants is one node, the first one's
//!   condition, with its sorted keys ([`int_run`]).
//!
//! One owner: the layout is named in `format`, written by [`ProgramData`]
//! (`encode`) and read here and in `eval`, beside each other. Decoding is
//! bounds-checked: data that does not decode selects nothing (the
//! response's name is delivered) instead of panicking.

use std::borrow::Cow;
use std::fmt::{self, Write};

use crate::delivery::Delivery;
use crate::guard::FactGuard;
use crate::memory::{Entry, Reader};
use crate::resolve::{Resolved, bare_entry, resolve_entry};
use crate::value::EvalError;

mod encode;
mod eval;
mod format;

use eval::{Cursor, Decision, Stop, le32, le64};

pub use encode::{Condition, Literal, Node, ProgramData, VariantSource};
pub use format::{
    ABSENT, NodeTag, OPERATORS, PieceTag, cmp_lit, int_run, operator, operator_byte, response,
    variant,
};

/// An encoded agent (see the module docs for the layout).
#[derive(Clone, Copy, Debug)]
pub struct Program<'a> {
    /// Every text, raw placeholder, name and string literal, concatenated.
    pub strings: &'a str,
    /// Conditions and the pieces of texts with placeholders.
    pub code: &'a [u8],
    /// Per response (in `Response::ALL` order), its record.
    pub responses: &'a [u8],
    /// Per variant (response by response), its record.
    pub variants: &'a [u8],
}

/// What compiled code decided for a response of a compact agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// It selected: this variant (its number within the response), or
    /// none (the response's name is delivered).
    Compiled(Option<usize>),
    /// It left selection to the program: the default of a response without
    /// conditions, else the first conditioned variant that holds.
    Walk,
}

/// A response record, decoded.
#[derive(Clone, Copy)]
struct ResponseRecord {
    name: usize,
    name_len: usize,
    /// Its first variant's index in `variants`.
    first: usize,
    count: usize,
    /// Index within the response, or [`ABSENT`].
    default: u32,
    /// How many variants have a condition.
    conditioned: u32,
}

/// A variant record, decoded.
#[derive(Clone, Copy)]
struct VariantRecord {
    rephrase: bool,
    wording: crate::WordingId,
    /// The text itself, when it has no placeholder.
    literal: bool,
    /// The text's offset in `strings`, or its pieces' offset in `code`.
    body: usize,
    /// The text's length, or the piece count.
    body_len: usize,
    /// What the rendered text's `String` starts with.
    capacity: usize,
}

impl<'a> Program<'a> {
    /// The text at `offset` of `strings`.
    #[inline(always)]
    fn str_at(&self, offset: usize, len: usize) -> Option<&'a str> {
        self.strings.get(offset..offset.checked_add(len)?)
    }

    #[inline]
    fn text(&self, cursor: &mut Cursor<'_>) -> Option<&'a str> {
        let offset = cursor.index()?;
        let len = cursor.index()?;
        self.str_at(offset, len)
    }

    #[inline(always)]
    fn record(&self, response: usize) -> Option<ResponseRecord> {
        let record = self
            .responses
            .as_chunks::<{ response::LEN }>()
            .0
            .get(response)?;
        Some(ResponseRecord {
            name: le32(record, response::NAME) as usize,
            name_len: le32(record, response::NAME_LEN) as usize,
            first: le32(record, response::FIRST) as usize,
            count: le32(record, response::COUNT) as usize,
            default: le32(record, response::DEFAULT),
            conditioned: le32(record, response::CONDITIONED),
        })
    }

    /// The records of a response's variants, bounds-checked at once.
    #[inline(always)]
    fn variant_records(&self, record: ResponseRecord) -> Option<&'a [[u8; variant::LEN]]> {
        let records = self.variants.as_chunks().0;
        records.get(record.first..record.first.checked_add(record.count)?)
    }

    /// The name of response number `response`.
    pub fn name(&self, response: usize) -> Option<&'a str> {
        let record = self.record(response)?;
        self.str_at(record.name, record.name_len)
    }

    /// Whether the condition at `at` holds: its value is truthy; an
    /// evaluation error (or data that does not decode) is false.
    pub fn holds<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> bool {
        matches!(self.evaluate(at, entries, reader), Ok(true))
    }

    /// The value of the condition at `at` (Python truthiness decides), or
    /// why it cannot be evaluated.
    pub fn evaluate<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Result<bool, EvalError> {
        match self.truth(at, entries, reader) {
            Ok((holds, _)) => Ok(holds),
            Err(Stop::Eval(error)) => Err(error),
            Err(Stop::Malformed) => Ok(false),
        }
    }

    /// The response record of `response` and the index of its selected
    /// variant within it: the first conditioned one that holds, in YAML
    /// order, else the default.
    #[inline(always)]
    fn selected<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Option<(ResponseRecord, Option<usize>)> {
        let record = self.record(response)?;
        if record.conditioned != 0
            && let Some(index) = self.first_holding(record, entries, reader)
        {
            return Some((record, Some(index)));
        }
        let default = (record.default as usize) < record.count;
        Some((record, default.then_some(record.default as usize)))
    }

    /// The first conditioned variant of a response that holds, in YAML
    /// order. Out of line: a response without conditions (the most
    /// common) delivers without this loop's frame.
    #[inline(never)]
    fn first_holding<N: AsRef<str>, V, R: Reader>(
        &self,
        record: ResponseRecord,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Option<usize> {
        let variants = self.variant_records(record)?;
        let mut index = 0;
        while let Some(variant) = variants.get(index) {
            let condition = le32(variant, variant::CONDITION) as usize;
            // The next variant does not wait for this condition's outcome
            // (measured: a `max` of the outcome, made a conditional move,
            // held every variant back by the one before it).
            index += 1;
            if condition == ABSENT as usize {
                continue;
            }
            if self.code.get(condition) == Some(&(NodeTag::IntRun as u8)) {
                match self.int_run(condition + 1, entries, reader) {
                    // A run's variant is the response's own (data that
                    // says otherwise selects nothing).
                    Some(Decision::Holds(variant)) => {
                        return (variant < variants.len()).then_some(variant);
                    }
                    // Past the run, always forward.
                    Some(Decision::Next(after)) => index = index.max(after),
                    None => {}
                }
            } else if self.condition_holds(condition, entries, reader) {
                return Some(index - 1);
            }
        }
        None
    }

    /// The record of variant `index` of a response.
    #[inline(always)]
    fn variant(&self, record: ResponseRecord, index: usize) -> Option<VariantRecord> {
        let records = self.variants.as_chunks::<{ variant::LEN }>().0;
        let variant = records.get(record.first.checked_add(index)?)?;
        let flags = variant[variant::FLAGS];
        Some(VariantRecord {
            rephrase: flags & variant::REPHRASE != 0,
            wording: crate::WordingId(le64(variant, variant::WORDING)),
            literal: flags & variant::LITERAL != 0,
            body: le32(variant, variant::BODY) as usize,
            body_len: le32(variant, variant::BODY_LEN) as usize,
            capacity: le32(variant, variant::CAPACITY) as usize,
        })
    }

    /// The selected variant and the response's name.
    #[inline(always)]
    fn chosen<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> (&'a str, Option<(usize, VariantRecord)>) {
        let Some((record, selected)) = self.selected(response, entries, reader) else {
            return ("", None);
        };
        self.named(record, selected)
    }

    /// The response's name and the record of its variant `selected`
    /// (none past the response's own).
    #[inline(always)]
    fn named(
        &self,
        record: ResponseRecord,
        selected: Option<usize>,
    ) -> (&'a str, Option<(usize, VariantRecord)>) {
        let name = self.str_at(record.name, record.name_len).unwrap_or("");
        let variant = selected
            .filter(|&index| index < record.count)
            .and_then(|index| Some((index, self.variant(record, index)?)));
        (name, variant)
    }

    /// [`Program::chosen`], or what compiled code selected (`compiled`).
    #[inline(always)]
    fn chosen_by<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        compiled: Choice,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> (&'a str, Option<(usize, VariantRecord)>) {
        match compiled {
            Choice::Compiled(selected) => match self.record(response) {
                Some(record) => self.named(record, selected),
                None => ("", None),
            },
            Choice::Walk => self.chosen(response, entries, reader),
        }
    }

    /// The variant of response number `response` to deliver: the first
    /// conditioned one that holds, in YAML order, else the default.
    pub fn select<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Option<usize> {
        self.selected(response, entries, reader)?.1
    }

    /// The pieces of a variant, resolved against the view one by one.
    fn resolved<'r, N: AsRef<str>, V, R: Reader>(
        self,
        variant: VariantRecord,
        entries: &'r [Entry<N, V>],
        reader: &'r R,
    ) -> impl Iterator<Item = Resolved<'r, 'r>> + Clone
    where
        'a: 'r,
    {
        let program = self;
        // A literal variant is one text piece.
        let literal = variant.literal.then(|| self.literal(variant));
        let count = if variant.literal { 0 } else { variant.body_len };
        let mut cursor = Cursor {
            code: self.code,
            at: variant.body,
        };
        let pieces = (0..count).map_while(move |_| {
            let resolved = match PieceTag::try_from(cursor.u8()?).ok()? {
                PieceTag::Text => Resolved::Text(program.text(&mut cursor)?),
                PieceTag::Session => {
                    let entry = entries.get(cursor.index()?);
                    resolve_entry(entry, program.text(&mut cursor)?, reader)
                }
                PieceTag::Bare => {
                    let len = cursor.index()?.checked_mul(4)?;
                    let ids = cursor.code.get(cursor.at..cursor.at.checked_add(len)?)?;
                    cursor.at += len;
                    let candidates = ids
                        .chunks_exact(4)
                        .map(|id| u32::from_le_bytes([id[0], id[1], id[2], id[3]]) as usize);
                    let entry = bare_entry(candidates, entries, reader);
                    resolve_entry(entry, program.text(&mut cursor)?, reader)
                }
            };
            Some(resolved)
        });
        literal
            .flatten()
            .map(Resolved::Text)
            .into_iter()
            .chain(pieces)
    }

    /// The text of a variant when it has no placeholder.
    #[inline(always)]
    fn literal(&self, variant: VariantRecord) -> Option<&'a str> {
        if variant.literal {
            self.str_at(variant.body, variant.body_len)
        } else {
            None
        }
    }

    /// Delivers response number `response` from `reader`: selected,
    /// rendered; the name itself when nothing can be selected.
    #[inline]
    pub fn deliver<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Delivery<'a> {
        self.deliver_selected(response, Choice::Walk, entries, reader)
    }

    /// [`Program::deliver`] where compiled code may have selected already
    /// (`compiled`, see [`Choice`]).
    #[inline]
    pub fn deliver_selected<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        compiled: Choice,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Delivery<'a> {
        let chosen = self.chosen_by(response, compiled, entries, reader);
        self.deliver_chosen(chosen, entries, reader)
    }

    #[inline(always)]
    fn deliver_chosen<N: AsRef<str>, V, R: Reader>(
        &self,
        (name, chosen): (&'a str, Option<(usize, VariantRecord)>),
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Delivery<'a> {
        crate::wording::record(
            name,
            chosen.map(|(index, _)| index),
            chosen.map(|(_, variant)| variant.wording),
            chosen.is_some_and(|(_, variant)| variant.rephrase),
            reader.skill_id(),
        );
        let Some((index, variant)) = chosen else {
            return Delivery::fallback(name);
        };
        // A text without placeholder is borrowed here; rendering is out of
        // line, so the common literal delivery keeps a small frame.
        let (text, guard) = match self.literal(variant) {
            Some(text) => (Cow::Borrowed(text), FactGuard::default()),
            None => (
                Cow::Owned(self.render_record(variant, entries, reader)),
                if variant.rephrase {
                    FactGuard::On {
                        filled: self.filled_values(CompactVariant(variant), entries, reader),
                    }
                } else {
                    FactGuard::default()
                },
            ),
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

    #[inline(never)]
    fn render_record<N: AsRef<str>, V, R: Reader>(
        &self,
        variant: VariantRecord,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> String {
        self.render_variant(CompactVariant(variant), entries, reader)
    }

    /// The selected variant of `response`, not yet rendered: the
    /// response's name, then the variant's index and rephrase flag.
    pub fn rendered<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> (&'a str, Option<(usize, bool, CompactVariant)>) {
        self.rendered_selected(response, Choice::Walk, entries, reader)
    }

    /// [`Program::rendered`] where compiled code may have selected already
    /// (as [`Program::deliver_selected`] takes it).
    pub fn rendered_selected<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        compiled: Choice,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> (&'a str, Option<(usize, bool, CompactVariant)>) {
        let (name, chosen) = self.chosen_by(response, compiled, entries, reader);
        let chosen =
            chosen.map(|(index, variant)| (index, variant.rephrase, CompactVariant(variant)));
        (name, chosen)
    }

    /// The text of a variant when it has no placeholder (borrowed).
    pub fn literal_of(&self, variant: CompactVariant) -> Option<&'a str> {
        self.literal(variant.0)
    }

    /// A variant's text, rendered into a new `String`.
    pub fn render_variant<N: AsRef<str>, V, R: Reader>(
        &self,
        variant: CompactVariant,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> String {
        // One pass into a buffer of the variant's capacity (a long string
        // value grows it): measured faster than resolving every piece to
        // size the buffer exactly first.
        let mut text = String::with_capacity(variant.0.capacity);
        // Writing into a String cannot fail.
        let _ = self.write_variant(&mut text, variant, entries, reader);
        text
    }

    /// The text of each value a variant's placeholders fill in from `reader`.
    #[inline(never)]
    pub(crate) fn filled_values<N: AsRef<str>, V, R: Reader>(
        &self,
        variant: CompactVariant,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> crate::FilledValues {
        crate::guard::filled_values(self.resolved(variant.0, entries, reader))
    }

    /// Writes a variant chosen by [`Program::rendered`] into `out`.
    pub fn write_variant<N: AsRef<str>, V, R: Reader>(
        &self,
        out: &mut impl Write,
        variant: CompactVariant,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> fmt::Result {
        let program: Program<'_> = *self;
        for piece in program.resolved(variant.0, entries, reader) {
            piece.write(out)?;
        }
        Ok(())
    }
}

/// A selected variant of a [`Program`], to write.
#[derive(Clone, Copy)]
pub struct CompactVariant(VariantRecord);

impl CompactVariant {
    /// The id of the variant's reviewed wording.
    pub fn wording(&self) -> crate::WordingId {
        self.0.wording
    }
}

#[cfg(test)]
mod tests;
