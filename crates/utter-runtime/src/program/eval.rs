//! Conditions of a [`Program`], evaluated: `entry <op> literal` (nearly
//! every condition) read as one fixed-width record and decided by the
//! specialised comparisons; `or`, `and` and `not` without building values;
//! every other node by the general rule.

use super::Program;
use super::format::{NodeTag, cmp_lit, int_run, operator};
use crate::fast::{eq_bool, eq_float, eq_int, eq_str, int_key, ord_float, ord_int, ord_str};
use crate::memory::{Entry, Reader};
use crate::value::{CmpOp, EvalError, ValueRef, compare};

/// A position in `code`, read forward.
#[derive(Clone, Copy)]
pub(super) struct Cursor<'a> {
    pub(super) code: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Cursor<'a> {
    #[inline]
    pub(super) fn bytes<const N: usize>(&mut self) -> Option<[u8; N]> {
        // One bounds check: the rest of the code, then its first N bytes.
        let bytes = *self.code.get(self.at..)?.first_chunk::<N>()?;
        self.at += N;
        Some(bytes)
    }

    #[inline]
    pub(super) fn u8(&mut self) -> Option<u8> {
        self.bytes::<1>().map(|[b]| b)
    }

    #[inline]
    pub(super) fn u32(&mut self) -> Option<u32> {
        self.bytes().map(u32::from_le_bytes)
    }

    #[inline]
    pub(super) fn index(&mut self) -> Option<usize> {
        self.u32().map(|n| n as usize)
    }

    #[inline]
    fn u64(&mut self) -> Option<u64> {
        self.bytes().map(u64::from_le_bytes)
    }
}

/// The little-endian `u32` at `at` of a fixed-size record.
#[inline(always)]
pub(super) fn le32<const N: usize>(record: &[u8; N], at: usize) -> u32 {
    let mut bytes = [0; 4];
    bytes.copy_from_slice(&record[at..at + 4]);
    u32::from_le_bytes(bytes)
}

/// The little-endian 8 bytes at `at` of a fixed-size record (an `i64`, or
/// an `f64`'s bits).
#[inline(always)]
pub(super) fn le64<const N: usize>(record: &[u8; N], at: usize) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&record[at..at + 8]);
    u64::from_le_bytes(bytes)
}

/// Why evaluation stopped: the condition cannot be evaluated (a variant
/// skipped), or the data does not decode.
pub(super) enum Stop {
    Eval(EvalError),
    Malformed,
}

impl From<EvalError> for Stop {
    fn from(error: EvalError) -> Self {
        Stop::Eval(error)
    }
}

/// What a run of `entry == <int>` variants decides in selection.
pub(super) enum Decision {
    /// This variant (its index within the response) is selected.
    Holds(usize),
    /// None of the run's variants holds; the next to try is this one.
    Next(usize),
}

/// The tag at the cursor, as a node tag.
#[inline]
fn node_tag(cursor: &mut Cursor<'_>) -> Result<NodeTag, Stop> {
    let byte = cursor.u8().ok_or(Stop::Malformed)?;
    NodeTag::try_from(byte).map_err(|_| Stop::Malformed)
}

/// An end offset read from the data: past `at`, so evaluation only ever
/// moves forward (data that says otherwise does not decode).
fn forward(end: Option<usize>, at: usize) -> Result<usize, Stop> {
    end.filter(|&end| end > at).ok_or(Stop::Malformed)
}

impl<'a> Program<'a> {
    /// A run of `entry == <int>` variants (after its tag at `at`): the
    /// entry read once, its integral value looked up among the sorted keys
    /// (`value == k` exactly when `int_key(value)` is `k`).
    pub(super) fn int_run<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> Option<Decision> {
        let header: &[u8; int_run::LEN] = self.code.get(at..)?.first_chunk()?;
        let after = le32(header, int_run::AFTER) as usize;
        let count = le32(header, int_run::COUNT) as usize;
        let start = at + int_run::LEN;
        let keys = self
            .code
            .get(start..start.checked_add(count.checked_mul(int_run::KEY_LEN)?)?)?
            .as_chunks::<{ int_run::KEY_LEN }>()
            .0;
        let value = entries
            .get(le32(header, int_run::ENTRY) as usize)
            .map_or(ValueRef::None, |entry| reader.value(entry));
        let Some(key) = int_key(value) else {
            return Some(Decision::Next(after));
        };
        let key_of = |k: &[u8; int_run::KEY_LEN]| le64(k, 0) as i64;
        Some(match keys.binary_search_by_key(&key, key_of) {
            Ok(found) => Decision::Holds(le32(&keys[found], 8) as usize),
            Err(_) => Decision::Next(after),
        })
    }

    /// Whether the condition at `at` holds (an evaluation error, or data
    /// that does not decode, is false); `entry <op> literal` decided in
    /// line (no call, no recursion).
    #[inline(always)]
    pub(super) fn condition_holds<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> bool {
        match self.code.get(at) {
            Some(&tag) if tag == NodeTag::CmpLit as u8 => {
                self.compare_to_literal_holds(at + 1, entries, reader)
            }
            Some(&tag) if tag == NodeTag::And as u8 => self.all_hold(at, entries, reader),
            _ => self.truth_holds(at, entries, reader).is_some(),
        }
    }

    /// Whether the node at `at` holds by the general rule, and the offset
    /// after it. Out of line, and by reference: inlined, the general
    /// evaluator's frame and a copy of the program per call were paid by
    /// every selection loop, also for conditions that never need it.
    #[inline(never)]
    fn truth_holds<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> Option<usize> {
        match self.truth(at, entries, reader) {
            Ok((true, after)) => Some(after),
            _ => None,
        }
    }

    /// Whether the `and` at `at` holds: every operand holds, in order. An
    /// error in an operand is the whole condition's error, which does not
    /// hold either, so operands are decided as booleans (not so for `or`
    /// or `not`, where an error is not a false operand).
    fn all_hold<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> bool {
        let mut cursor = Cursor {
            code: self.code,
            at: at + 1,
        };
        let (Some(_end), Some(count)) = (cursor.index(), cursor.u32()) else {
            return false;
        };
        let mut next = cursor.at;
        for _ in 0..count {
            if self.code.get(next) == Some(&(NodeTag::CmpLit as u8)) {
                if !self.compare_to_literal_holds(next + 1, entries, reader) {
                    return false;
                }
                next += 1 + cmp_lit::LEN;
            } else {
                match self.truth_holds(next, entries, reader) {
                    // Forward only (an `after` is past its node).
                    Some(after) if after > next => next = after,
                    _ => return false,
                }
            }
        }
        true
    }

    /// Whether `entry <op> literal` (the record after a
    /// [`NodeTag::CmpLit`] tag at `at`) holds: ints and texts, the common
    /// literals, by raw bytes straight to the specialised comparisons, an
    /// error as false without building it; other literals through
    /// [`Program::compare_to_literal`].
    #[inline(always)]
    fn compare_to_literal_holds<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> bool {
        const EQ: u8 = 0;
        const NE: u8 = 1;
        const INT: u8 = NodeTag::Int as u8;
        const STR: u8 = NodeTag::Str as u8;
        let Some(record) = self.cmp_lit_record(at) else {
            return false;
        };
        let op = record[cmp_lit::OPERATOR];
        if record[cmp_lit::LITERAL] == cmp_lit::CATEGORICAL {
            return self
                .categorical(record, entries, reader)
                .is_some_and(|holds| holds == (op == EQ));
        }
        // Read before the dispatch (measured: reading in each arm took
        // fewer instructions but half as long again on `last_true`).
        let value = read_entry(record, entries, reader);
        match record[cmp_lit::LITERAL] {
            INT => {
                let literal = le64(record, cmp_lit::PAYLOAD) as i64;
                match op {
                    EQ => eq_int(value, literal),
                    NE => !eq_int(value, literal),
                    op => operator(op)
                        .is_some_and(|op| matches!(ord_int(op, value, literal), Ok(true))),
                }
            }
            STR => {
                let Some(literal) = self.literal_text(record) else {
                    return false;
                };
                match op {
                    EQ => eq_str(value, literal),
                    NE => !eq_str(value, literal),
                    op => operator(op)
                        .is_some_and(|op| matches!(ord_str(op, value, literal), Ok(true))),
                }
            }
            _ => self.other_literal_holds(at, entries, reader),
        }
    }

    /// [`Program::compare_to_literal_holds`] for the rare literals (floats,
    /// booleans, `None`): out of line, as [`Program::truth_holds`] is.
    #[inline(never)]
    fn other_literal_holds<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> bool {
        matches!(self.compare_to_literal(at, entries, reader), Ok(true))
    }

    /// `entry <op> literal`: the record after a [`NodeTag::CmpLit`] tag at
    /// `at`, read in one bounds check.
    #[inline(always)]
    fn compare_to_literal<N: AsRef<str>, V, R: Reader>(
        &self,
        at: usize,
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> Result<bool, Stop> {
        let record = self.cmp_lit_record(at).ok_or(Stop::Malformed)?;
        let op = operator(record[cmp_lit::OPERATOR]).ok_or(Stop::Malformed)?;
        if record[cmp_lit::LITERAL] == cmp_lit::CATEGORICAL {
            // Only `==` and `!=` are encoded so; neither can fail.
            let holds = self
                .categorical(record, entries, reader)
                .ok_or(Stop::Malformed)?;
            return Ok(holds == (op == CmpOp::Eq));
        }
        let value = read_entry(record, entries, reader);
        let literal = match NodeTag::try_from(record[cmp_lit::LITERAL]) {
            Ok(NodeTag::Int) => ValueRef::Int(le64(record, cmp_lit::PAYLOAD) as i64),
            Ok(NodeTag::Str) => ValueRef::Str(self.literal_text(record).ok_or(Stop::Malformed)?),
            Ok(NodeTag::Float) => ValueRef::Float(f64::from_bits(le64(record, cmp_lit::PAYLOAD))),
            Ok(NodeTag::True) => ValueRef::Bool(true),
            Ok(NodeTag::False) => ValueRef::Bool(false),
            Ok(NodeTag::None) => ValueRef::None,
            _ => return Err(Stop::Malformed),
        };
        Ok(compare_literal(op, value, literal)?)
    }

    /// The [`cmp_lit`] record after the tag at `at`, in one bounds check.
    #[inline(always)]
    fn cmp_lit_record(&self, at: usize) -> Option<&'a [u8; cmp_lit::LEN]> {
        self.code.get(at..)?.first_chunk()
    }

    /// The text literal of a [`cmp_lit`] record.
    #[inline(always)]
    fn literal_text(&self, record: &[u8; cmp_lit::LEN]) -> Option<&'a str> {
        let offset = le32(record, cmp_lit::PAYLOAD) as usize;
        let len = le32(record, cmp_lit::PAYLOAD + 4) as usize;
        self.str_at(offset, len)
    }

    /// Whether the categorical entry of a [`cmp_lit`] record holds its
    /// value (by number where the reader can); `None`: the text does not
    /// decode.
    #[inline(always)]
    fn categorical<N: AsRef<str>, V, R: Reader>(
        &self,
        record: &[u8; cmp_lit::LEN],
        entries: &[Entry<N, V>],
        reader: &'a R,
    ) -> Option<bool> {
        let text = self.literal_text(record)?;
        let index = le32(record, cmp_lit::VALUE_INDEX) as usize;
        Some(match entries.get(le32(record, cmp_lit::ENTRY) as usize) {
            Some(entry) => reader.holds_text(entry, index, text),
            // An unknown entry reads as None, which equals no text.
            None => false,
        })
    }

    /// The truthiness of the condition node at `at` and the offset after
    /// it; every node but `or`, `and`, `not` and `entry <op> literal`
    /// through [`Program::eval`].
    pub(super) fn truth<N: AsRef<str>, V, R: Reader>(
        &self,
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
            NodeTag::CmpLit => Ok((
                self.compare_to_literal(cursor.at, entries, reader)?,
                cursor.at + cmp_lit::LEN,
            )),
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

    /// Evaluates the condition node at `at`: its value and the offset
    /// after it. (Called on the program narrowed to the reader's lifetime.)
    fn eval<N: AsRef<str>, V, R: Reader>(
        &self,
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
            // Only ever a variant's condition, decided in selection.
            NodeTag::IntRun => return Err(Stop::Malformed),
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
            NodeTag::None => ValueRef::None,
            NodeTag::True => ValueRef::Bool(true),
            NodeTag::False => ValueRef::Bool(false),
            NodeTag::Int => ValueRef::Int(cursor.u64().ok_or(Stop::Malformed)? as i64),
            NodeTag::Float => ValueRef::Float(f64::from_bits(cursor.u64().ok_or(Stop::Malformed)?)),
            NodeTag::Str => ValueRef::Str(self.text(&mut cursor).ok_or(Stop::Malformed)?),
        };
        Ok((value, cursor.at))
    }
}

/// The value of a [`cmp_lit`] record's entry (an unknown entry reads as
/// `None`).
#[inline(always)]
fn read_entry<'r, N: AsRef<str>, V, R: Reader>(
    record: &[u8; cmp_lit::LEN],
    entries: &[Entry<N, V>],
    reader: &'r R,
) -> ValueRef<'r> {
    match entries.get(le32(record, cmp_lit::ENTRY) as usize) {
        Some(entry) => reader.value(entry),
        None => ValueRef::None,
    }
}

/// `value <op> literal` by the specialised helpers (each property-tested
/// equal to the general [`compare`], which takes every other case).
#[inline(always)]
pub(super) fn compare_literal(
    op: CmpOp,
    value: ValueRef<'_>,
    literal: ValueRef<'_>,
) -> Result<bool, EvalError> {
    if !op.is_equality() {
        return match literal {
            ValueRef::Int(i) => ord_int(op, value, i),
            ValueRef::Float(f) => ord_float(op, value, f),
            ValueRef::Str(s) => ord_str(op, value, s),
            _ => compare(op, value, literal),
        };
    }
    let equal = match literal {
        ValueRef::Str(s) => eq_str(value, s),
        ValueRef::Int(i) => eq_int(value, i),
        ValueRef::Float(f) => eq_float(value, f),
        ValueRef::Bool(b) => eq_bool(value, b),
        ValueRef::None => value.is_none(),
        _ => return compare(op, value, literal),
    };
    Ok(equal == (op == CmpOp::Eq))
}
