//! Responses and conditions encoded as a [`utter::program::Program`]: what
//! the compact code generator emits as literals and what the interpreter
//! evaluates, so both run the runtime's one evaluator.

use std::collections::HashMap;

use utter::program::{
    ABSENT, AND, BARE, CMP_LIT, COMPARE, FALSE, FLOAT, INT, NONE, NOT, OPERATORS, OR, Program, REF,
    SESSION, STR, TEXT, TRUE,
};
use utter::{CmpOp, Piece};

use crate::condition::{Expr, Literal};
use crate::lower::Response;

/// An encoded program, owned (see [`utter::program`] for the layout).
#[derive(Clone, Debug, Default)]
pub struct ProgramData {
    pub strings: String,
    pub code: Vec<u8>,
    pub responses: Vec<u8>,
    /// Texts already in `strings`, so repeated ones are stored once.
    interned: HashMap<String, (u32, u32)>,
}

/// An offset or count as the program stores it. Programs beyond 4 GiB are
/// refused when the registry is lowered, long before this.
fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl ProgramData {
    /// Encodes `responses` (in order: response number = index).
    pub fn of_responses(responses: &[Response]) -> Self {
        let mut data = ProgramData::default();
        for response in responses {
            data.response(response);
        }
        data
    }

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

    fn response(&mut self, response: &Response) {
        // Conditions first, so the record's offsets are known when written.
        let conditions: Vec<u32> = response
            .variants
            .iter()
            .map(|v| match &v.condition {
                Some(condition) => self.condition(condition),
                None => ABSENT,
            })
            .collect();
        let record = u32_of(self.code.len());
        self.responses.extend_from_slice(&record.to_le_bytes());
        self.text(&response.name);
        self.u32(response.default.map_or(ABSENT, u32_of));
        self.u32(u32_of(response.variants.len()));
        for (variant, condition) in response.variants.iter().zip(conditions) {
            self.u32(condition);
            self.code.push(u8::from(variant.rephrase));
            self.u32(u32_of(variant.pieces.len()));
            let len_at = self.code.len();
            self.u32(0);
            self.u32(u32_of(utter::text_capacity(&variant.pieces)));
            let start = self.code.len();
            for piece in &variant.pieces {
                self.piece(piece);
            }
            let len = u32_of(self.code.len() - start);
            self.patch(len_at, len);
        }
    }

    fn piece(&mut self, piece: &Piece<String, Vec<usize>>) {
        match piece {
            Piece::Text(text) => {
                self.code.push(TEXT);
                self.text(text);
            }
            Piece::Session { entry, raw } => {
                self.code.push(SESSION);
                self.u32(u32_of(*entry));
                self.text(raw);
            }
            Piece::Bare { candidates, raw } => {
                self.code.push(BARE);
                self.u32(u32_of(candidates.len()));
                for id in candidates {
                    self.u32(u32_of(*id));
                }
                self.text(raw);
            }
        }
    }

    /// Encodes `expr`; returns its offset in `code`.
    pub fn condition(&mut self, expr: &Expr<usize>) -> u32 {
        let at = u32_of(self.code.len());
        match expr {
            Expr::Or(items) | Expr::And(items) => {
                self.code
                    .push(if matches!(expr, Expr::Or(_)) { OR } else { AND });
                let end_at = self.code.len();
                self.u32(0);
                self.u32(u32_of(items.len()));
                for item in items {
                    self.condition(item);
                }
                let end = u32_of(self.code.len());
                self.patch(end_at, end);
            }
            Expr::Not(inner) => {
                self.code.push(NOT);
                self.condition(inner);
            }
            // `entry <op> literal` (or `literal ==/!= entry`): one node.
            Expr::Compare { first, rest } if ref_literal(first, rest).is_some() => {
                if let Some((op, id, literal)) = ref_literal(first, rest) {
                    self.code.push(CMP_LIT);
                    self.code.push(operator(op));
                    self.u32(u32_of(id));
                    self.condition(literal);
                }
            }
            Expr::Compare { first, rest } => {
                self.code.push(COMPARE);
                let end_at = self.code.len();
                self.u32(0);
                self.u32(u32_of(rest.len()));
                self.condition(first);
                for (op, operand) in rest {
                    self.code.push(operator(*op));
                    self.condition(operand);
                }
                let end = u32_of(self.code.len());
                self.patch(end_at, end);
            }
            Expr::Ref(id) => {
                self.code.push(REF);
                self.u32(u32_of(*id));
            }
            Expr::Lit(Literal::None) => self.code.push(NONE),
            Expr::Lit(Literal::Bool(true)) => self.code.push(TRUE),
            Expr::Lit(Literal::Bool(false)) => self.code.push(FALSE),
            Expr::Lit(Literal::Int(i)) => {
                self.code.push(INT);
                self.code.extend_from_slice(&i.to_le_bytes());
            }
            Expr::Lit(Literal::Float(f)) => {
                self.code.push(FLOAT);
                self.code.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Expr::Lit(Literal::Str(s)) => {
                self.code.push(STR);
                self.text(s);
            }
        }
        at
    }
}

/// A comparison of one entry with one literal, as `(op, entry, literal)`
/// (equality is symmetric; an ordering keeps Python's operand order).
fn ref_literal<'e>(
    first: &'e Expr<usize>,
    rest: &'e [(CmpOp, Expr<usize>)],
) -> Option<(CmpOp, usize, &'e Expr<usize>)> {
    match (first, rest) {
        (Expr::Ref(id), [(op, literal @ Expr::Lit(_))]) => Some((*op, *id, literal)),
        (literal @ Expr::Lit(_), [(op @ (CmpOp::Eq | CmpOp::Ne), Expr::Ref(id))]) => {
            Some((*op, *id, literal))
        }
        _ => None,
    }
}

/// The byte of a comparison operator.
fn operator(op: CmpOp) -> u8 {
    OPERATORS
        .iter()
        .position(|o| *o == op)
        .map_or(0, |i| i as u8)
}
