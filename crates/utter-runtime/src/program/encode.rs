//! The encoder, beside the decoder: what the compiler writes programs with
//! (for the interpreter and compact generated code) and what tests build
//! programs with. The layout is the parent module's, named in `format`.

use std::collections::HashMap;

use super::Program;
use super::format::{ABSENT, NodeTag, PieceTag, operator_byte, variant};
use crate::piece::{Piece, text_capacity};
use crate::value::CmpOp;

/// A condition, as the encoder walks it: the compiler's parsed conditions
/// implement it.
pub trait Condition: Sized {
    /// The node at the top of this condition.
    fn node(&self) -> Node<'_, Self>;
}

/// One node of a [`Condition`].
pub enum Node<'c, C> {
    Or(&'c [C]),
    And(&'c [C]),
    Not(&'c C),
    /// `first op1 x1 op2 x2 ...`, chained as Python chains comparisons.
    Compare {
        first: &'c C,
        rest: &'c [(CmpOp, C)],
    },
    /// A memory entry, by id.
    Ref(usize),
    Lit(Literal<'c>),
}

/// A literal of a condition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal<'c> {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'c str),
}

/// One variant to encode.
pub struct VariantSource<'v, C, S = String, P = Vec<usize>> {
    pub condition: Option<&'v C>,
    pub rephrase: bool,
    pub pieces: &'v [Piece<S, P>],
}

/// An encoded program, owned; [`ProgramData::program`] borrows it for the
/// evaluator.
#[derive(Clone, Debug, Default)]
pub struct ProgramData {
    pub strings: String,
    pub code: Vec<u8>,
    pub responses: Vec<u8>,
    /// Texts already in `strings`, so repeated ones are stored once.
    interned: HashMap<String, (u32, u32)>,
}

/// An offset or count as the program stores it. The compiler refuses
/// programs beyond 4 GiB long before this.
fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl ProgramData {
    /// The program, borrowed.
    pub fn program(&self) -> Program<'_> {
        Program {
            strings: &self.strings,
            code: &self.code,
            responses: &self.responses,
        }
    }

    fn u32(&mut self, n: u32) {
        self.code.extend_from_slice(&n.to_le_bytes());
    }

    fn text(&mut self, text: &str) {
        let (offset, len) = match self.interned.get(text) {
            Some(&at) => at,
            None => {
                let at = (u32_of(self.strings.len()), u32_of(text.len()));
                self.strings.push_str(text);
                self.interned.insert(text.to_owned(), at);
                at
            }
        };
        self.u32(offset);
        self.u32(len);
    }

    /// Overwrites the `u32` at `at` (an end offset known only later).
    fn patch(&mut self, at: usize, n: u32) {
        self.code[at..at + 4].copy_from_slice(&n.to_le_bytes());
    }

    /// Appends response number `responses.len() / 4`: its name, default
    /// and variants (in YAML order).
    pub fn response<C: Condition, S: AsRef<str>, P: AsRef<[usize]>>(
        &mut self,
        name: &str,
        default: Option<usize>,
        variants: &[VariantSource<'_, C, S, P>],
    ) {
        // Conditions first, so the record's offsets are known when written.
        let conditions: Vec<u32> = variants
            .iter()
            .map(|v| v.condition.map_or(ABSENT, |c| self.condition(c)))
            .collect();
        let record = u32_of(self.code.len());
        self.responses.extend_from_slice(&record.to_le_bytes());
        self.text(name);
        self.u32(default.map_or(ABSENT, u32_of));
        self.u32(u32_of(variants.len()));
        for (source, condition) in variants.iter().zip(conditions) {
            let fixed = self.code.len();
            self.code.resize(fixed + variant::LEN, 0);
            let start = self.code.len();
            for piece in source.pieces {
                self.piece(piece);
            }
            let piece_bytes = u32_of(self.code.len() - start);
            self.patch(fixed + variant::CONDITION, condition);
            self.code[fixed + variant::REPHRASE] = u8::from(source.rephrase);
            self.patch(fixed + variant::PIECE_COUNT, u32_of(source.pieces.len()));
            self.patch(fixed + variant::PIECE_BYTES, piece_bytes);
            self.patch(
                fixed + variant::CAPACITY,
                u32_of(text_capacity(source.pieces)),
            );
        }
    }

    fn piece<S: AsRef<str>, P: AsRef<[usize]>>(&mut self, piece: &Piece<S, P>) {
        match piece {
            Piece::Text(text) => {
                self.code.push(PieceTag::Text as u8);
                self.text(text.as_ref());
            }
            Piece::Session { entry, raw } => {
                self.code.push(PieceTag::Session as u8);
                self.u32(u32_of(*entry));
                self.text(raw.as_ref());
            }
            Piece::Bare { candidates, raw } => {
                let candidates = candidates.as_ref();
                self.code.push(PieceTag::Bare as u8);
                self.u32(u32_of(candidates.len()));
                for id in candidates {
                    self.u32(u32_of(*id));
                }
                self.text(raw.as_ref());
            }
        }
    }

    /// Encodes `condition`; returns its offset in `code`.
    pub fn condition<C: Condition>(&mut self, condition: &C) -> u32 {
        let at = u32_of(self.code.len());
        match condition.node() {
            Node::Or(items) => self.junction(NodeTag::Or, items),
            Node::And(items) => self.junction(NodeTag::And, items),
            Node::Not(inner) => {
                self.code.push(NodeTag::Not as u8);
                self.condition(inner);
            }
            Node::Compare { first, rest } => match entry_against_literal(first, rest) {
                // `entry <op> literal` (or `literal ==/!= entry`): one node.
                Some((op, id, literal)) => {
                    self.code.push(NodeTag::CmpLit as u8);
                    self.code.push(operator_byte(op));
                    self.u32(u32_of(id));
                    self.literal(literal);
                }
                None => {
                    self.code.push(NodeTag::Compare as u8);
                    let end_at = self.code.len();
                    self.u32(0);
                    self.u32(u32_of(rest.len()));
                    self.condition(first);
                    for (op, operand) in rest {
                        self.code.push(operator_byte(*op));
                        self.condition(operand);
                    }
                    let end = u32_of(self.code.len());
                    self.patch(end_at, end);
                }
            },
            Node::Ref(id) => {
                self.code.push(NodeTag::Ref as u8);
                self.u32(u32_of(id));
            }
            Node::Lit(literal) => self.literal(literal),
        }
        at
    }

    /// An `or`/`and` node: its end offset, child count and children.
    fn junction<C: Condition>(&mut self, tag: NodeTag, items: &[C]) {
        self.code.push(tag as u8);
        let end_at = self.code.len();
        self.u32(0);
        self.u32(u32_of(items.len()));
        for item in items {
            self.condition(item);
        }
        let end = u32_of(self.code.len());
        self.patch(end_at, end);
    }

    fn literal(&mut self, literal: Literal<'_>) {
        match literal {
            Literal::None => self.code.push(NodeTag::None as u8),
            Literal::Bool(true) => self.code.push(NodeTag::True as u8),
            Literal::Bool(false) => self.code.push(NodeTag::False as u8),
            Literal::Int(i) => {
                self.code.push(NodeTag::Int as u8);
                self.code.extend_from_slice(&i.to_le_bytes());
            }
            Literal::Float(f) => {
                self.code.push(NodeTag::Float as u8);
                self.code.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Literal::Str(s) => {
                self.code.push(NodeTag::Str as u8);
                self.text(s);
            }
        }
    }
}

/// A comparison of one entry with one literal, as `(op, entry, literal)`
/// (equality is symmetric; an ordering keeps Python's operand order).
fn entry_against_literal<'c, C: Condition>(
    first: &'c C,
    rest: &'c [(CmpOp, C)],
) -> Option<(CmpOp, usize, Literal<'c>)> {
    match (first.node(), rest) {
        (Node::Ref(id), [(op, literal)]) => match literal.node() {
            Node::Lit(literal) => Some((*op, id, literal)),
            _ => None,
        },
        (Node::Lit(literal), [(op @ (CmpOp::Eq | CmpOp::Ne), entry)]) => match entry.node() {
            Node::Ref(id) => Some((*op, id, literal)),
            _ => None,
        },
        _ => None,
    }
}
