//! An agent as data: responses, conditions and texts encoded in two byte
//! tables and one string, walked by one evaluator. What the compiler emits
//! for large agents (a few literals instead of thousands of functions and
//! statics, so they build fast) and what the interpreter runs on, so both
//! share one evaluator, and it calls the same comparison, truthiness and
//! rendering as straight-line code.
//!
//! The encoding (all integers little-endian, `u32` unless noted; a text is
//! `offset, length` into `strings`):
//!
//! - `responses`: per response, the offset of its record in `code`.
//! - a response record: name (text), default variant ([`ABSENT`]: none),
//!   variant count, then each variant: its fixed part (layout in
//!   [`variant`]: condition offset or [`ABSENT`], rephrase flag, piece
//!   count, byte length of the pieces, capacity of the rendered text, that
//!   is its literal bytes plus the longest number per placeholder), then
//!   the pieces.
//! - a piece: a [`PieceTag`], then what the tag says.
//! - a condition node: a [`NodeTag`], then what the tag says; an operator
//!   is one byte ([`operator_byte`]).
//!
//! One owner: the layout is named in `format`, written by [`ProgramData`]
//! (`encode`) and read here, beside each other. Decoding is bounds-checked:
//! data that does not decode selects nothing (the response's name is
//! delivered) instead of panicking.

use std::borrow::Cow;
use std::fmt::{self, Write};

use crate::delivery::Delivery;
use crate::fast::{eq_bool, eq_float, eq_int, eq_str, ord_float, ord_int, ord_str};
use crate::memory::{Entry, Reader};
use crate::resolve::{Resolved, bare_entry, resolve_entry};
use crate::value::{CmpOp, EvalError, ValueRef, compare};

mod encode;
mod format;

pub use encode::{Condition, Literal, Node, ProgramData, VariantSource};
pub use format::{ABSENT, NodeTag, OPERATORS, PieceTag, operator, operator_byte, variant};

/// An encoded agent (see the module docs for the layout).
#[derive(Clone, Copy, Debug)]
pub struct Program<'a> {
    /// Every text, raw placeholder, name and string literal, concatenated.
    pub strings: &'a str,
    /// Response records and condition nodes.
    pub code: &'a [u8],
    /// Per response (in `Response::ALL` order), its record's offset in `code`.
    pub responses: &'a [u8],
}

/// A position in `code`, read forward.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    code: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    #[inline]
    fn bytes<const N: usize>(&mut self) -> Option<[u8; N]> {
        // One bounds check: the rest of the code, then its first N bytes.
        let bytes = *self.code.get(self.at..)?.first_chunk::<N>()?;
        self.at += N;
        Some(bytes)
    }

    #[inline]
    fn u8(&mut self) -> Option<u8> {
        self.bytes::<1>().map(|[b]| b)
    }

    #[inline]
    fn u32(&mut self) -> Option<u32> {
        self.bytes().map(u32::from_le_bytes)
    }

    #[inline]
    fn index(&mut self) -> Option<usize> {
        self.u32().map(|n| n as usize)
    }

    #[inline]
    fn u64(&mut self) -> Option<u64> {
        self.bytes().map(u64::from_le_bytes)
    }
}

impl Cursor<'_> {
    /// The variant record at the cursor; the cursor moves past its pieces.
    #[inline]
    fn variant(&mut self) -> Option<VariantRecord> {
        // The fixed part of the record, bounds-checked once.
        let record: [u8; variant::LEN] = self.bytes()?;
        let len = le32(&record, variant::PIECE_BYTES) as usize;
        let pieces_at = self.at;
        self.at = self.at.checked_add(len)?;
        Some(VariantRecord {
            condition: le32(&record, variant::CONDITION),
            rephrase: record[variant::REPHRASE] != 0,
            piece_count: le32(&record, variant::PIECE_COUNT) as usize,
            capacity: le32(&record, variant::CAPACITY) as usize,
            pieces_at,
        })
    }
}

/// The little-endian `u32` at `at` of a fixed-size record.
#[inline]
fn le32<const N: usize>(record: &[u8; N], at: usize) -> u32 {
    let mut bytes = [0; 4];
    bytes.copy_from_slice(&record[at..at + 4]);
    u32::from_le_bytes(bytes)
}

/// The tag at the cursor, as a node tag.
#[inline]
fn node_tag(cursor: &mut Cursor<'_>) -> Result<NodeTag, Stop> {
    let byte = cursor.u8().ok_or(Stop::Malformed)?;
    NodeTag::try_from(byte).map_err(|_| Stop::Malformed)
}

/// One variant of a response record.
#[derive(Clone, Copy)]
struct VariantRecord {
    condition: u32,
    rephrase: bool,
    piece_count: usize,
    /// What the rendered text's `String` starts with.
    capacity: usize,
    /// Offset of the first piece in `code`.
    pieces_at: usize,
}

/// Why evaluation stopped: the condition cannot be evaluated (a variant
/// skipped), or the data does not decode.
enum Stop {
    Eval(EvalError),
    Malformed,
}

impl From<EvalError> for Stop {
    fn from(error: EvalError) -> Self {
        Stop::Eval(error)
    }
}

impl<'a> Program<'a> {
    #[inline]
    fn text(&self, cursor: &mut Cursor<'_>) -> Option<&'a str> {
        let offset = cursor.index()?;
        let len = cursor.index()?;
        self.strings.get(offset..offset.checked_add(len)?)
    }

    fn record(&self, response: usize) -> Option<Cursor<'a>> {
        let at = 4 * response;
        let at = self.responses.get(at..at + 4)?;
        let at = u32::from_le_bytes(at.try_into().ok()?) as usize;
        Some(Cursor {
            code: self.code,
            at,
        })
    }

    /// The name of response number `response`.
    pub fn name(&self, response: usize) -> Option<&'a str> {
        self.text(&mut self.record(response)?)
    }

    /// The response's name, default and variant count, and a cursor at
    /// its first variant.
    #[inline]
    fn header(&self, response: usize) -> Option<(&'a str, u32, usize, Cursor<'a>)> {
        let mut cursor = self.record(response)?;
        let name = self.text(&mut cursor)?;
        let default = cursor.u32()?;
        let count = cursor.index()?;
        Some((name, default, count, cursor))
    }

    /// Evaluates the condition node at `at`: its value and the offset
    /// after it. (Called on the program narrowed to the reader's lifetime.)
    fn eval<N: AsRef<str>, V, R: Reader>(
        self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> Result<(ValueRef<'a>, usize), Stop> {
        let mut cursor = Cursor {
            code: self.code,
            at,
        };
        let tag = node_tag(&mut cursor)?;
        let value = match tag {
            NodeTag::Or | NodeTag::And | NodeTag::Not | NodeTag::CmpLit => {
                let (holds, after) = self.truth(at, entries, reader)?;
                return Ok((ValueRef::Bool(holds), after));
            }
            NodeTag::Compare => {
                let end = forward(cursor.index(), at)?;
                let count = cursor.u32().ok_or(Stop::Malformed)?;
                let (mut left, mut next) = self.eval(cursor.at, entries, reader)?;
                for _ in 0..count {
                    let op = self.code.get(next).ok_or(Stop::Malformed)?;
                    let op = operator(*op).ok_or(Stop::Malformed)?;
                    let (right, after) = self.eval(next + 1, entries, reader)?;
                    // Python chaining: stop at the first false comparison.
                    if !compare(op, left, right)? {
                        return Ok((ValueRef::Bool(false), end));
                    }
                    left = right;
                    next = after;
                }
                return Ok((ValueRef::Bool(true), end));
            }
            NodeTag::Ref => {
                let id = cursor.index().ok_or(Stop::Malformed)?;
                entries
                    .get(id)
                    .map_or(ValueRef::None, |entry| reader.value(entry))
            }
            literal => self.literal_node(literal, &mut cursor)?,
        };
        Ok((value, cursor.at))
    }

    /// The truthiness of the condition node at `at` and the offset after
    /// it. `or`, `and`, `not` and `entry <op> literal` (the shapes nearly
    /// every condition has) are decided here without building values;
    /// every other node through [`Program::eval`].
    fn truth<N: AsRef<str>, V, R: Reader>(
        self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> Result<(bool, usize), Stop> {
        let mut cursor = Cursor {
            code: self.code,
            at,
        };
        let tag = node_tag(&mut cursor)?;
        match tag {
            NodeTag::CmpLit => self.compare_to_literal(cursor, entries, reader),
            NodeTag::Or | NodeTag::And => {
                let end = forward(cursor.index(), at)?;
                let count = cursor.u32().ok_or(Stop::Malformed)?;
                // `or` stops at the first truthy operand, `and` at the first falsy one.
                let stop_at = tag == NodeTag::Or;
                let mut next = cursor.at;
                for _ in 0..count {
                    let (holds, after) = self.truth(next, entries, reader)?;
                    if holds == stop_at {
                        return Ok((stop_at, end));
                    }
                    next = after;
                }
                Ok((!stop_at, end))
            }
            NodeTag::Not => {
                let (holds, after) = self.truth(cursor.at, entries, reader)?;
                Ok((!holds, after))
            }
            _ => {
                let (value, after) = self.eval(at, entries, reader)?;
                Ok((value.truthy(), after))
            }
        }
    }

    /// `entry <op> literal` (a [`NodeTag::CmpLit`] node whose tag has been
    /// read) and the offset after it.
    #[inline(always)]
    fn compare_to_literal<N: AsRef<str>, V, R: Reader>(
        self,
        mut cursor: Cursor<'_>,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> Result<(bool, usize), Stop> {
        let [op, id @ ..]: [u8; 5] = cursor.bytes().ok_or(Stop::Malformed)?;
        let op = operator(op).ok_or(Stop::Malformed)?;
        let id = u32::from_le_bytes(id) as usize;
        let value = match entries.get(id) {
            Some(entry) => reader.value(entry),
            None => ValueRef::None,
        };
        let tag = node_tag(&mut cursor)?;
        let literal = self.literal_node(tag, &mut cursor)?;
        Ok((compare_literal(op, value, literal)?, cursor.at))
    }

    /// Whether the condition at `at` holds, the common
    /// `entry <op> literal` decided in line (no call, no recursion).
    #[inline(always)]
    fn condition_holds<N: AsRef<str>, V, R: Reader>(
        self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> bool {
        let result = match self.code.get(at) {
            Some(&tag) if tag == NodeTag::CmpLit as u8 => {
                let cursor = Cursor {
                    code: self.code,
                    at: at + 1,
                };
                self.compare_to_literal(cursor, entries, reader)
            }
            _ => self.truth(at, entries, reader),
        };
        matches!(result, Ok((true, _)))
    }

    /// A literal node (`None` to `Str`) whose tag has been read.
    #[inline(always)]
    fn literal_node(self, tag: NodeTag, cursor: &mut Cursor<'_>) -> Result<ValueRef<'a>, Stop> {
        Ok(match tag {
            NodeTag::None => ValueRef::None,
            NodeTag::True => ValueRef::Bool(true),
            NodeTag::False => ValueRef::Bool(false),
            NodeTag::Int => ValueRef::Int(cursor.u64().ok_or(Stop::Malformed)? as i64),
            NodeTag::Float => ValueRef::Float(f64::from_bits(cursor.u64().ok_or(Stop::Malformed)?)),
            NodeTag::Str => ValueRef::Str(self.text(cursor).ok_or(Stop::Malformed)?),
            _ => return Err(Stop::Malformed),
        })
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
        let program: Program<'_> = *self;
        match program.truth(at, entries, reader) {
            Ok((holds, _)) => Ok(holds),
            Err(Stop::Eval(error)) => Err(error),
            Err(Stop::Malformed) => Ok(false),
        }
    }

    /// The selected variant of response number `response` and its record.
    fn selected<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Option<(&'a str, Option<(usize, VariantRecord)>)> {
        let (name, default, count, mut cursor) = self.header(response)?;
        let mut fallback = None;
        for index in 0..count {
            let Some(variant) = cursor.variant() else {
                return Some((name, None));
            };
            // The first conditioned variant that holds, else the default.
            if variant.condition != ABSENT
                && self.condition_holds(variant.condition as usize, entries, reader)
            {
                return Some((name, Some((index, variant))));
            }
            if index as u32 == default {
                fallback = Some((index, variant));
            }
        }
        Some((name, fallback))
    }

    /// The variant of response number `response` to deliver: the first
    /// conditioned one that holds, in YAML order, else the default.
    pub fn select<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Option<usize> {
        self.selected(response, entries, reader)?
            .1
            .map(|(index, _)| index)
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
        let mut cursor = Cursor {
            code: self.code,
            at: variant.pieces_at,
        };
        (0..variant.piece_count).map_while(move |_| {
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
        })
    }

    /// The text of a variant when it has no placeholder.
    fn literal(&self, variant: VariantRecord) -> Option<&'a str> {
        let mut cursor = Cursor {
            code: self.code,
            at: variant.pieces_at,
        };
        match variant.piece_count {
            0 => Some(""),
            1 if cursor.u8()? == PieceTag::Text as u8 => self.text(&mut cursor),
            _ => None,
        }
    }

    /// Delivers response number `response` from `reader`: selected,
    /// rendered; the name itself when nothing can be selected.
    pub fn deliver<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> Delivery<'a> {
        let Some((name, selected)) = self.selected(response, entries, reader) else {
            return Delivery::fallback("");
        };
        let Some((index, variant)) = selected else {
            return Delivery::fallback(name);
        };
        let text = match self.literal(variant) {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(self.render_variant(CompactVariant(variant), entries, reader)),
        };
        Delivery {
            text,
            response: name,
            variant: Some(index),
            rephrase: variant.rephrase,
            fallback: false,
        }
    }

    /// The selected variant of `response`, not yet rendered: the
    /// response's name, then the variant's index and rephrase flag.
    pub fn rendered<N: AsRef<str>, V, R: Reader>(
        &self,
        response: usize,
        entries: &[Entry<N, V>],
        reader: &R,
    ) -> (&'a str, Option<(usize, bool, CompactVariant)>) {
        match self.selected(response, entries, reader) {
            Some((name, Some((index, variant)))) => (
                name,
                Some((index, variant.rephrase, CompactVariant(variant))),
            ),
            Some((name, None)) => (name, None),
            None => ("", None),
        }
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

/// `value <op> literal` by the specialised helpers (each property-tested
/// equal to the general [`compare`], which takes every other case).
#[inline(always)]
fn compare_literal(
    op: CmpOp,
    value: ValueRef<'_>,
    literal: ValueRef<'_>,
) -> Result<bool, EvalError> {
    let equal = match (op, literal) {
        (CmpOp::Eq | CmpOp::Ne, ValueRef::Str(s)) => eq_str(value, s),
        (CmpOp::Eq | CmpOp::Ne, ValueRef::Int(i)) => eq_int(value, i),
        (CmpOp::Eq | CmpOp::Ne, ValueRef::Float(f)) => eq_float(value, f),
        (CmpOp::Eq | CmpOp::Ne, ValueRef::Bool(b)) => eq_bool(value, b),
        (CmpOp::Eq | CmpOp::Ne, ValueRef::None) => value.is_none(),
        (_, ValueRef::Int(i)) => return ord_int(op, value, i),
        (_, ValueRef::Float(f)) => return ord_float(op, value, f),
        (_, ValueRef::Str(s)) => return ord_str(op, value, s),
        _ => return compare(op, value, literal),
    };
    Ok(equal == (op == CmpOp::Eq))
}

/// An end offset read from the data: past `at`, so evaluation only ever
/// moves forward (data that says otherwise does not decode).
fn forward(end: Option<usize>, at: usize) -> Result<usize, Stop> {
    end.filter(|&end| end > at).ok_or(Stop::Malformed)
}

/// A selected variant of a [`Program`], to write.
#[derive(Clone, Copy)]
pub struct CompactVariant(VariantRecord);

#[cfg(test)]
mod tests;
