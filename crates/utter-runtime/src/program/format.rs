//! The layout of an encoded program, named once for the encoder and the
//! decoder (see the parent module for the whole layout).

use crate::value::CmpOp;

/// "No condition" / "no default".
pub const ABSENT: u32 = u32::MAX;

/// A response record in `responses` (fixed width, `u32` fields, byte
/// offsets): its name (a text), its first variant's index in `variants`,
/// its variant count, its default variant's index within the response
/// ([`ABSENT`]: none) and how many of its variants have a condition (none:
/// the default is delivered without walking the variants).
pub mod response {
    pub const NAME: usize = 0;
    pub const NAME_LEN: usize = 4;
    pub const FIRST: usize = 8;
    pub const COUNT: usize = 12;
    pub const DEFAULT: usize = 16;
    pub const CONDITIONED: usize = 20;
    /// The length of a record.
    pub const LEN: usize = 24;
}

/// A variant record in `variants` (fixed width, byte offsets): condition
/// offset in `code` or [`ABSENT`] (`u32`); body: with the [`LITERAL`] flag
/// the text itself (offset and length in `strings`), else the offset of
/// its pieces in `code` and their count (`u32` each); capacity of the
/// rendered text, that is its literal bytes plus the longest number per
/// placeholder (`u32`); flags (`u8`); the id of its reviewed wording
/// (`u64`).
///
/// [`LITERAL`]: variant::LITERAL
pub mod variant {
    pub const CONDITION: usize = 0;
    pub const BODY: usize = 4;
    pub const BODY_LEN: usize = 8;
    pub const CAPACITY: usize = 12;
    pub const FLAGS: usize = 16;
    pub const WORDING: usize = 17;
    /// The length of a record.
    pub const LEN: usize = 25;
    /// Flag: the variant is rephrased.
    pub const REPHRASE: u8 = 1;
    /// Flag: the body is the text itself (no placeholder).
    pub const LITERAL: u8 = 2;
}

/// What follows a [`NodeTag::CmpLit`] tag (fixed width, byte offsets): the
/// operator byte, the literal's tag (`None` to `Str`, or [`CATEGORICAL`]),
/// the entry id (`u32`), the literal's 8 bytes (an `i64`, an `f64`'s bits,
/// a text, or zeros) and, for a categorical value, its number among the
/// entry's declared values (`u32`, else zero).
///
/// [`CATEGORICAL`]: cmp_lit::CATEGORICAL
pub mod cmp_lit {
    pub const OPERATOR: usize = 0;
    pub const LITERAL: usize = 1;
    pub const ENTRY: usize = 2;
    pub const PAYLOAD: usize = 6;
    pub const VALUE_INDEX: usize = 14;
    /// The length after the tag.
    pub const LEN: usize = 18;
    /// The literal's tag for `==`/`!=` with one of a categorical entry's
    /// declared values: a text, decided by the value's number where the
    /// reader can (`Reader::holds_text`).
    pub const CATEGORICAL: u8 = 0x80;
}

/// What follows a [`NodeTag::IntRun`] tag (byte offsets): the entry id,
/// the index (within the response) of the variant after the run's last,
/// the key count (`u32` each); then per distinct literal, sorted, a key
/// ([`int_run::KEY_LEN`] bytes): the `i64` and the index of the first
/// variant comparing with it.
pub mod int_run {
    pub const ENTRY: usize = 0;
    pub const AFTER: usize = 4;
    pub const COUNT: usize = 8;
    /// The length of the header.
    pub const LEN: usize = 12;
    /// The length of one key.
    pub const KEY_LEN: usize = 12;
}

/// The tag of a piece of text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PieceTag {
    /// Literal text: a text follows.
    Text = 0,
    /// `{session.ns.entry}`: entry id, the placeholder as written.
    Session = 1,
    /// `{entry}`: candidate count, candidate ids, the placeholder as written.
    Bare = 2,
}

impl TryFrom<u8> for PieceTag {
    type Error = u8;

    #[inline]
    fn try_from(byte: u8) -> Result<Self, u8> {
        Ok(match byte {
            0 => PieceTag::Text,
            1 => PieceTag::Session,
            2 => PieceTag::Bare,
            other => return Err(other),
        })
    }
}

/// The tag of a condition node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum NodeTag {
    /// End offset, child count, children.
    Or = 1,
    /// End offset, child count, children.
    And = 2,
    /// The child.
    Not = 3,
    /// End offset, operand count after the first, the first operand, then
    /// per operand its operator byte and the operand.
    Compare = 4,
    /// An entry id.
    Ref = 5,
    None = 6,
    True = 7,
    False = 8,
    /// An `i64`.
    Int = 9,
    /// An `f64`'s bits.
    Float = 10,
    /// A text.
    Str = 11,
    /// `entry <op> literal`, the most common condition, in one fixed-width
    /// record (layout in [`cmp_lit`]).
    CmpLit = 12,
    /// Consecutive conditioned variants comparing one entry with int
    /// literals (`entry == k`), decided at once: the first one's condition
    /// in selection only (layout in [`int_run`]).
    IntRun = 13,
}

impl TryFrom<u8> for NodeTag {
    type Error = u8;

    #[inline]
    fn try_from(byte: u8) -> Result<Self, u8> {
        Ok(match byte {
            1 => NodeTag::Or,
            2 => NodeTag::And,
            3 => NodeTag::Not,
            4 => NodeTag::Compare,
            5 => NodeTag::Ref,
            6 => NodeTag::None,
            7 => NodeTag::True,
            8 => NodeTag::False,
            9 => NodeTag::Int,
            10 => NodeTag::Float,
            11 => NodeTag::Str,
            12 => NodeTag::CmpLit,
            13 => NodeTag::IntRun,
            other => return Err(other),
        })
    }
}

/// The comparison operators, by their byte ([`CmpOp::byte`], the row of
/// the operator table: a new operator takes the next byte and no encoded
/// program changes meaning).
pub const OPERATORS: [CmpOp; CmpOp::ALL.len()] = CmpOp::ALL;

/// The byte of a comparison operator.
#[inline]
pub fn operator_byte(op: CmpOp) -> u8 {
    op.byte()
}

/// The operator of a byte, if it is one.
#[inline]
pub fn operator(byte: u8) -> Option<CmpOp> {
    OPERATORS.get(usize::from(byte)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_of_the_table_has_a_byte() {
        for op in CmpOp::ALL {
            assert_eq!(operator(operator_byte(op)), Some(op), "{}", op.symbol());
        }
    }

    #[test]
    fn every_tag_and_operator_reads_back() {
        for byte in 0..=u8::MAX {
            if let Ok(tag) = PieceTag::try_from(byte) {
                assert_eq!(tag as u8, byte);
            }
            if let Ok(tag) = NodeTag::try_from(byte) {
                assert_eq!(tag as u8, byte);
            }
            if let Some(op) = operator(byte) {
                assert_eq!(operator_byte(op), byte);
            }
        }
        assert_eq!(
            (0..=u8::MAX)
                .filter(|b| NodeTag::try_from(*b).is_ok())
                .count(),
            13
        );
        assert_eq!(
            (0..=u8::MAX)
                .filter(|b| PieceTag::try_from(*b).is_ok())
                .count(),
            3
        );
        assert_eq!((0..=u8::MAX).filter(|b| operator(*b).is_some()).count(), 6);
    }
}
