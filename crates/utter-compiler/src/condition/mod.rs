//! Conditions: the Mantle expression grammar (a strict subset of Python
//! expressions), parsed once into an AST.
//!
//! ```text
//! condition   = or_test
//! or_test     = and_test { "or" and_test }
//! and_test    = not_test { "and" not_test }
//! not_test    = "not" not_test | comparison
//! comparison  = operand { ("=="|"!="|"<"|"<="|">"|">=") operand }   (Python chaining)
//! operand     = "session" "." NAME "." NAME | literal | "(" condition ")"
//! literal     = STRING+ | NUMBER | "True" | "False" | "None"
//! ```

mod lexer;
mod parser;
mod words;

use std::ops::Range;

pub use utter::CmpOp;
pub use words::{in_words, words_of};

/// Deepest nesting of parentheses and `not` accepted (Python's parser stops at 200).
pub const MAX_NESTING: usize = 100;

/// Most operands (memory references and literals) in one condition: the
/// generated code's expression grows with them, and rustc's stack with it
/// (7,500 `or` terms overflowed it). No hand-written condition comes near.
pub const MAX_OPERANDS: usize = 256;

/// `session.<namespace>.<entry>` as written, with spans in the condition text.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryRef {
    /// `<namespace>`: a skill id or `project`.
    pub namespace: String,
    /// `<entry>`.
    pub entry: String,
    /// The whole reference.
    pub span: Range<usize>,
    /// The namespace alone.
    pub namespace_span: Range<usize>,
    /// The entry alone.
    pub entry_span: Range<usize>,
}

/// A literal of a condition, as Python reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `None`.
    None,
    /// `True` or `False`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A quoted string.
    Str(String),
}

impl Literal {
    /// The literal as a value for evaluation.
    pub fn value(&self) -> utter::ValueRef<'_> {
        match self {
            Literal::None => utter::ValueRef::None,
            Literal::Bool(b) => utter::ValueRef::Bool(*b),
            Literal::Int(i) => utter::ValueRef::Int(*i),
            Literal::Float(f) => utter::ValueRef::Float(*f),
            Literal::Str(s) => utter::ValueRef::Str(s),
        }
    }
}

/// A condition AST; `R` is how a memory reference is held (as written, or
/// resolved to an entry id after validation).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr<R> {
    /// `a or b or ...`: evaluates left to right, short-circuits, yields a bool.
    Or(Vec<Expr<R>>),
    /// `a and b and ...`: evaluates left to right, short-circuits, yields a bool.
    And(Vec<Expr<R>>),
    /// `not a`: a bool.
    Not(Box<Expr<R>>),
    /// `first op1 x1 op2 x2 ...`, Python chaining: each operand evaluated once.
    Compare {
        /// The leftmost operand.
        first: Box<Expr<R>>,
        /// Each operator with the operand on its right.
        rest: Vec<(CmpOp, Expr<R>)>,
    },
    /// A memory reference (as written, or resolved to an entry id).
    Ref(R),
    /// A literal.
    Lit(Literal),
}

impl<R> Expr<R> {
    /// Every memory reference, in source order.
    pub fn refs(&self) -> Vec<&R> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Or(items) | Expr::And(items) => stack.extend(items.iter().rev()),
                Expr::Not(inner) => stack.push(inner),
                Expr::Compare { first, rest } => {
                    stack.extend(rest.iter().rev().map(|(_, e)| e));
                    stack.push(first);
                }
                Expr::Ref(r) => out.push(r),
                Expr::Lit(_) => {}
            }
        }
        out
    }

    /// How many memory references and literals the condition holds.
    pub fn operand_count(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Or(items) | Expr::And(items) => stack.extend(items),
                Expr::Not(inner) => stack.push(inner),
                Expr::Compare { first, rest } => {
                    stack.push(first);
                    stack.extend(rest.iter().map(|(_, e)| e));
                }
                Expr::Ref(_) | Expr::Lit(_) => count += 1,
            }
        }
        count
    }

    /// The same tree with each reference mapped by `f`.
    pub fn map_refs<S>(&self, f: &mut impl FnMut(&R) -> S) -> Expr<S> {
        match self {
            Expr::Or(items) => Expr::Or(items.iter().map(|e| e.map_refs(f)).collect()),
            Expr::And(items) => Expr::And(items.iter().map(|e| e.map_refs(f)).collect()),
            Expr::Not(inner) => Expr::Not(Box::new(inner.map_refs(f))),
            Expr::Compare { first, rest } => Expr::Compare {
                first: Box::new(first.map_refs(f)),
                rest: rest.iter().map(|(op, e)| (*op, e.map_refs(f))).collect(),
            },
            Expr::Ref(r) => Expr::Ref(f(r)),
            Expr::Lit(l) => Expr::Lit(l.clone()),
        }
    }
}

/// Why a condition was rejected; `span` is a byte range in the condition text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionError {
    /// Where, in the condition text.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
}

/// Parses a condition. Leading and trailing whitespace is ignored, both here
/// and at delivery (the reference engine rejects a leading space only at
/// delivery, a quirk we do not reproduce). Spans index into `src`.
pub fn parse(src: &str) -> Result<Expr<MemoryRef>, ConditionError> {
    let trimmed = src.trim();
    let offset = src.len() - src.trim_start().len();
    let shift = |mut e: ConditionError| {
        e.span = e.span.start + offset..e.span.end + offset;
        e
    };
    if trimmed.is_empty() {
        return Err(ConditionError {
            span: 0..src.len(),
            message: "the condition is empty; write an expression such as \
                      `session.<skill_id>.<entry> == \"value\"`"
                .into(),
        });
    }
    let tokens = lexer::tokenize(trimmed).map_err(shift)?;
    let expr = parser::Parser::new(&tokens)
        .parse_condition()
        .map_err(shift)?;
    let operands = expr.operand_count();
    if operands > MAX_OPERANDS {
        return Err(ConditionError {
            span: offset..offset + trimmed.len(),
            message: format!(
                "the condition has {operands} operands; utter compiles conditions of at most {MAX_OPERANDS} (split it across variants, or move the logic into a memory entry a tool sets)"
            ),
        });
    }
    let mut shift_ref = |r: &MemoryRef| MemoryRef {
        namespace: r.namespace.clone(),
        entry: r.entry.clone(),
        span: r.span.start + offset..r.span.end + offset,
        namespace_span: r.namespace_span.start + offset..r.namespace_span.end + offset,
        entry_span: r.entry_span.start + offset..r.entry_span.end + offset,
    };
    Ok(if offset == 0 {
        expr
    } else {
        expr.map_refs(&mut shift_ref)
    })
}

/// What the runtime's encoder walks: a condition whose memory references
/// are entry ids.
impl utter::program::Condition for Expr<usize> {
    fn node(&self) -> utter::program::Node<'_, Self> {
        use utter::program::{Literal as Lit, Node};
        match self {
            Expr::Or(items) => Node::Or(items),
            Expr::And(items) => Node::And(items),
            Expr::Not(inner) => Node::Not(inner),
            Expr::Compare { first, rest } => Node::Compare { first, rest },
            Expr::Ref(id) => Node::Ref(*id),
            Expr::Lit(literal) => Node::Lit(match literal {
                Literal::None => Lit::None,
                Literal::Bool(b) => Lit::Bool(*b),
                Literal::Int(i) => Lit::Int(*i),
                Literal::Float(f) => Lit::Float(*f),
                Literal::Str(s) => Lit::Str(s),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> Expr<MemoryRef> {
        parse(src).unwrap_or_else(|e| panic!("{src:?}: {}", e.message))
    }

    fn rejected(src: &str) -> String {
        match parse(src) {
            Ok(e) => panic!("{src:?} was accepted as {e:?}"),
            Err(e) => e.message,
        }
    }

    #[test]
    fn accepts_the_grammar() {
        for src in [
            "session.card.reason == \"lost\"",
            "session.a.b",
            "not session.a.b",
            "1 < session.a.n < 10",
            "session.a.b == None or (session.a.c != 'x' and session.a.d >= 2.5)",
            "  session.a.b == True  ",
            "session.a.b == 'a' 'b'",
            "(session.a.b\n == 1)",
            "session . a . b",
            "\"True\"",
            "not not session.a.b",
        ] {
            ok(src);
        }
    }

    #[test]
    fn precedence_is_pythons() {
        let Expr::Not(inner) = ok("not session.a.b == 'y'") else {
            panic!("not binds looser than ==")
        };
        assert!(matches!(*inner, Expr::Compare { .. }));
        let Expr::Or(items) = ok("session.a.b or session.a.c and session.a.d") else {
            panic!("or binds loosest")
        };
        assert!(matches!(items[1], Expr::And(_)));
    }

    #[test]
    fn rejects_what_the_grammar_excludes() {
        let cases = [
            ("session.a.b in 'xy'", "`in` operator"),
            ("session.a.b not in 'xy'", "`not in`"),
            ("session.a.b is None", "`is` operator"),
            ("session.a.b is not None", "`is` operator"),
            ("session.a.n + 1 == 2", "operator `+`"),
            ("-1 < session.a.n", "unary"),
            ("len(session.a.b)", "unknown name `len`"),
            ("session.a.b()", "function calls"),
            ("session.a.b[0]", "subscripts"),
            ("authenticated", "unknown name `authenticated`"),
            ("session.a.b == true", "`True`"),
            ("session.a.b == null", "`None`"),
            ("session", "incomplete memory reference"),
            ("session.a", "exactly three segments"),
            ("session.a.b.c", "exactly three segments"),
            ("project.a.b", "unknown name `project`"),
            ("session.a.class", "Python keyword"),
            ("session.a.b = 1", "compare with `==`"),
            ("session.a.b == 1 if x else 2", "conditional expressions"),
            ("[1] == session.a.b", "list literals"),
            ("session.a.b && session.a.c", "`and`"),
            ("", "empty"),
            ("   ", "empty"),
            ("(session.a.b", "expected `)`"),
            ("session.a.b)", "unmatched"),
            ("session.a.b ==", "end of the condition"),
            ("session.a.b == 1j", "complex"),
            ("session.a.b == b'x'", "bytes"),
            ("session.a.b == f'{x}'", "f-strings"),
            ("lambda: 1", "lambda"),
            ("session.a.b # hi", "comments"),
            ("(session.a.b + 1)", "operator `+`"),
        ];
        for (src, needle) in cases {
            let msg = rejected(src);
            assert!(msg.contains(needle), "{src:?}: {msg:?} lacks {needle:?}");
        }
    }

    #[test]
    fn deep_nesting_is_a_finding_not_a_crash() {
        let deep = format!("{}session.a.b{}", "(".repeat(5000), ")".repeat(5000));
        assert!(rejected(&deep).contains("nested deeper"));
        let nots = format!("{}session.a.b", "not ".repeat(5000));
        assert!(rejected(&nots).contains("nested deeper"));
        let fine = format!("{}session.a.b{}", "(".repeat(50), ")".repeat(50));
        ok(&fine);
    }

    #[test]
    fn huge_conditions_are_a_finding_not_a_crash() {
        let wide = vec!["session.a.b == 1"; 7_500].join(" or ");
        assert!(rejected(&wide).contains("at most 256"));
        let fine = vec!["session.a.b == 1"; 128].join(" or ");
        ok(&fine);
    }

    #[test]
    fn spans_point_into_the_original_text() {
        let src = "  session.a.b == (1 +";
        let e = parse(src).unwrap_err();
        assert_eq!(&src[e.span.clone()], "+");
        let expr = ok("  session.card.reason");
        let refs = expr.refs();
        assert_eq!(refs[0].span, 2..21);
        assert_eq!(refs[0].entry_span, 15..21);
    }
}
