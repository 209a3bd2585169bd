//! The layout of an encoded program, named once for the encoder and the
//! decoder (see the parent module for the whole layout).

use crate::value::CmpOp;

/// "No condition" / "no default".
pub const ABSENT: u32 = u32::MAX;

/// The fixed part of a variant record, in byte offsets: condition offset
/// (`u32`), rephrase flag (`u8`), piece count, byte length of the pieces,
/// capacity of the rendered text (each `u32`); the pieces follow.
pub mod variant {
    pub const CONDITION: usize = 0;
    pub const REPHRASE: usize = 4;
    pub const PIECE_COUNT: usize = 5;
    pub const PIECE_BYTES: usize = 9;
    pub const CAPACITY: usize = 13;
    /// The length of the fixed part.
    pub const LEN: usize = 17;
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
    /// `entry <op> literal`, the most common condition: operator byte,
    /// entry id, then the literal node.
    CmpLit = 12,
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
            other => return Err(other),
        })
    }
}

/// The comparison operators, by their byte.
pub const OPERATORS: [CmpOp; 6] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
];

/// The byte of a comparison operator.
#[inline]
pub fn operator_byte(op: CmpOp) -> u8 {
    match op {
        CmpOp::Eq => 0,
        CmpOp::Ne => 1,
        CmpOp::Lt => 2,
        CmpOp::Le => 3,
        CmpOp::Gt => 4,
        CmpOp::Ge => 5,
    }
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
            12
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
