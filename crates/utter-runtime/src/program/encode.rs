//! The encoder, beside the decoder: what the compiler writes programs with
//! (for the interpreter and compact generated code) and what tests build
//! programs with. The layout is the parent module's, named in `format`.

use std::collections::HashMap;

use super::Program;
use super::format::{
    ABSENT, NodeTag, PieceTag, cmp_lit, int_run, operator_byte, response, variant,
};
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
    pub wording: crate::WordingId,
    pub pieces: &'v [Piece<S, P>],
}

/// An encoded program, owned; [`ProgramData::program`] borrows it for the
/// evaluator.
#[derive(Clone, Debug, Default)]
pub struct ProgramData {
    pub strings: String,
    pub code: Vec<u8>,
    pub responses: Vec<u8>,
    pub variants: Vec<u8>,
    /// Texts already in `strings`, so repeated ones are stored once.
    interned: HashMap<String, (u32, u32)>,
    /// Per categorical entry (by id), its declared values.
    categorical: HashMap<usize, Vec<String>>,
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
            variants: &self.variants,
        }
    }

    /// Declares entry `entry` categorical with `values`, before any
    /// condition is encoded: `entry ==/!= '<value>'` is then decided by the
    /// value's number where the reader can ([`cmp_lit::CATEGORICAL`]).
    pub fn declare_values<S: AsRef<str>>(&mut self, entry: usize, values: &[S]) {
        let values = values.iter().map(|v| v.as_ref().to_owned()).collect();
        self.categorical.insert(entry, values);
    }

    fn u32(&mut self, n: u32) {
        self.code.extend_from_slice(&n.to_le_bytes());
    }

    /// `text`'s offset and length in `strings` (stored once).
    fn intern(&mut self, text: &str) -> (u32, u32) {
        if let Some(&at) = self.interned.get(text) {
            return at;
        }
        let at = (u32_of(self.strings.len()), u32_of(text.len()));
        self.strings.push_str(text);
        self.interned.insert(text.to_owned(), at);
        at
    }

    fn text(&mut self, text: &str) {
        let (offset, len) = self.intern(text);
        self.u32(offset);
        self.u32(len);
    }

    /// Overwrites the `u32` at `at` (an end offset known only later).
    fn patch(&mut self, at: usize, n: u32) {
        self.code[at..at + 4].copy_from_slice(&n.to_le_bytes());
    }

    /// Appends response number `responses.len() / response::LEN`: its
    /// name, default and variants (in YAML order).
    pub fn response<C: Condition, S: AsRef<str>, P: AsRef<[usize]>>(
        &mut self,
        name: &str,
        default: Option<usize>,
        variants: &[VariantSource<'_, C, S, P>],
    ) {
        let first = u32_of(self.variants.len() / variant::LEN);
        let runs = self.int_runs(variants);
        for (index, source) in variants.iter().enumerate() {
            let condition = match runs.iter().find(|&&(start, _)| start == index) {
                Some(&(_, run)) => run,
                None => source.condition.map_or(ABSENT, |c| self.condition(c)),
            };
            let mut flags = if source.rephrase {
                variant::REPHRASE
            } else {
                0
            };
            let (body, body_len) = match literal_text(source.pieces) {
                Some(text) => {
                    flags |= variant::LITERAL;
                    self.intern(text)
                }
                None => {
                    let at = u32_of(self.code.len());
                    for piece in source.pieces {
                        self.piece(piece);
                    }
                    (at, u32_of(source.pieces.len()))
                }
            };
            let mut record = [0; variant::LEN];
            put32(&mut record, variant::CONDITION, condition);
            put32(&mut record, variant::BODY, body);
            put32(&mut record, variant::BODY_LEN, body_len);
            put32(
                &mut record,
                variant::CAPACITY,
                u32_of(text_capacity(source.pieces)),
            );
            record[variant::FLAGS] = flags;
            record[variant::WORDING..variant::WORDING + 8]
                .copy_from_slice(&source.wording.0.to_le_bytes());
            self.variants.extend_from_slice(&record);
        }
        let (name_at, name_len) = self.intern(name);
        let mut record = [0; response::LEN];
        put32(&mut record, response::NAME, name_at);
        put32(&mut record, response::NAME_LEN, name_len);
        put32(&mut record, response::FIRST, first);
        put32(&mut record, response::COUNT, u32_of(variants.len()));
        put32(
            &mut record,
            response::DEFAULT,
            default.map_or(ABSENT, u32_of),
        );
        let conditioned = variants.iter().filter(|v| v.condition.is_some()).count();
        put32(&mut record, response::CONDITIONED, u32_of(conditioned));
        self.responses.extend_from_slice(&record);
    }

    /// Runs of two or more consecutive conditioned variants each comparing
    /// one entry with an int literal (`entry == k`), encoded as one
    /// [`NodeTag::IntRun`] node each: `(first variant, node offset)`. The
    /// entry is read once and its integral value looked up, as straight-line
    /// code `match`es on it. The run's later variants are decided by it.
    fn int_runs<C: Condition, S, P>(
        &mut self,
        variants: &[VariantSource<'_, C, S, P>],
    ) -> Vec<(usize, u32)> {
        let conditioned: Vec<(usize, Option<(usize, i64)>)> = variants
            .iter()
            .enumerate()
            .filter_map(|(index, v)| Some((index, int_equality(v.condition?))))
            .collect();
        let mut runs = Vec::new();
        let mut rest = conditioned.as_slice();
        while let Some(&(start, equality)) = rest.first() {
            let Some((entry, _)) = equality else {
                rest = &rest[1..];
                continue;
            };
            let len = rest
                .iter()
                .take_while(|(_, e)| e.is_some_and(|(other, _)| other == entry))
                .count();
            if len > 1 {
                let members = &rest[..len];
                let mut keys: Vec<(i64, u32)> = Vec::new();
                for &(index, equality) in members {
                    let Some((_, k)) = equality else { continue };
                    // A repeated literal is decided by its first variant.
                    if !keys.iter().any(|&(seen, _)| seen == k) {
                        keys.push((k, u32_of(index)));
                    }
                }
                keys.sort_unstable_by_key(|&(k, _)| k);
                let after = members.last().map_or(start, |&(index, _)| index) + 1;
                let at = u32_of(self.code.len());
                let mut header = [0; int_run::LEN];
                put32(&mut header, int_run::ENTRY, u32_of(entry));
                put32(&mut header, int_run::AFTER, u32_of(after));
                put32(&mut header, int_run::COUNT, u32_of(keys.len()));
                self.code.push(NodeTag::IntRun as u8);
                self.code.extend_from_slice(&header);
                for (k, index) in keys {
                    self.code.extend_from_slice(&k.to_le_bytes());
                    self.u32(index);
                }
                runs.push((start, at));
            }
            rest = &rest[len.max(1)..];
        }
        runs
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
                    let mut record = [0; cmp_lit::LEN];
                    record[cmp_lit::OPERATOR] = operator_byte(op);
                    record[cmp_lit::LITERAL] = literal_tag(literal) as u8;
                    put32(&mut record, cmp_lit::ENTRY, u32_of(id));
                    if let (true, Literal::Str(s)) = (op.is_equality(), literal)
                        && let Some(index) = self.value_index(id, s)
                    {
                        record[cmp_lit::LITERAL] = cmp_lit::CATEGORICAL;
                        put32(&mut record, cmp_lit::VALUE_INDEX, u32_of(index));
                    }
                    let payload = match literal {
                        Literal::Int(i) => i.to_le_bytes(),
                        Literal::Float(f) => f.to_bits().to_le_bytes(),
                        Literal::Str(s) => {
                            let (offset, len) = self.intern(s);
                            (u64::from(len) << 32 | u64::from(offset)).to_le_bytes()
                        }
                        Literal::None | Literal::Bool(_) => [0; 8],
                    };
                    record[cmp_lit::PAYLOAD..cmp_lit::PAYLOAD + 8].copy_from_slice(&payload);
                    self.code.push(NodeTag::CmpLit as u8);
                    self.code.extend_from_slice(&record);
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

    /// The number of `text` among categorical entry `entry`'s declared
    /// values (the first, as straight-line code takes it).
    fn value_index(&self, entry: usize, text: &str) -> Option<usize> {
        self.categorical.get(&entry)?.iter().position(|v| v == text)
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
        self.code.push(literal_tag(literal) as u8);
        match literal {
            Literal::Int(i) => self.code.extend_from_slice(&i.to_le_bytes()),
            Literal::Float(f) => self.code.extend_from_slice(&f.to_bits().to_le_bytes()),
            Literal::Str(s) => self.text(s),
            Literal::None | Literal::Bool(_) => {}
        }
    }
}

/// The node tag of a literal.
fn literal_tag(literal: Literal<'_>) -> NodeTag {
    match literal {
        Literal::None => NodeTag::None,
        Literal::Bool(true) => NodeTag::True,
        Literal::Bool(false) => NodeTag::False,
        Literal::Int(_) => NodeTag::Int,
        Literal::Float(_) => NodeTag::Float,
        Literal::Str(_) => NodeTag::Str,
    }
}

/// Writes `n` at `at` of a fixed-width record.
fn put32<const N: usize>(record: &mut [u8; N], at: usize, n: u32) {
    record[at..at + 4].copy_from_slice(&n.to_le_bytes());
}

/// The text of pieces without a placeholder (none: the empty text).
fn literal_text<S: AsRef<str>, P>(pieces: &[Piece<S, P>]) -> Option<&str> {
    match pieces {
        [] => Some(""),
        [Piece::Text(text)] => Some(text.as_ref()),
        _ => None,
    }
}

/// `entry == k` for an int literal `k` (either way round), as `(entry, k)`.
fn int_equality<C: Condition>(condition: &C) -> Option<(usize, i64)> {
    let Node::Compare { first, rest } = condition.node() else {
        return None;
    };
    match entry_against_literal(first, rest)? {
        (CmpOp::Eq, entry, Literal::Int(k)) => Some((entry, k)),
        _ => None,
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
        (Node::Lit(literal), [(op, entry)]) if op.is_equality() => match entry.node() {
            Node::Ref(id) => Some((*op, id, literal)),
            _ => None,
        },
        _ => None,
    }
}
