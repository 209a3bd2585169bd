//! A condition in words, for the people who review wording beside the
//! condition as written: `session.rebooking.delay_minutes >= 180` reads
//! "delay_minutes (rebooking) is at least 180", `== None` "is not set".
//! The words say what the condition says and nothing more: no operator is
//! turned into its opposite except `==` / `!=` under `not` (exact in
//! Python), so a reviewer never reads a claim the condition does not make.

use std::fmt::Write as _;

use super::{CmpOp, Expr, Literal, MemoryRef};
use crate::diagnostics::escape::quote;

/// `condition` in words (see the module).
pub fn in_words(condition: &Expr<MemoryRef>) -> String {
    let mut out = String::new();
    write_expr(&mut out, condition, Context::Top);
    out
}

/// The condition written as `text` in words, when it parses (a condition
/// that does not is reported as an error, not described).
pub fn words_of(text: &str) -> Option<String> {
    super::parse(text).ok().map(|expr| in_words(&expr))
}

/// Where an expression stands, for when it needs parentheses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Top,
    InAnd,
    InOr,
    InNot,
}

fn write_expr(out: &mut String, expr: &Expr<MemoryRef>, context: Context) {
    match expr {
        Expr::Or(items) => joined(out, items, " or ", Context::InOr, context != Context::Top),
        Expr::And(items) => joined(
            out,
            items,
            " and ",
            Context::InAnd,
            matches!(context, Context::InOr | Context::InNot),
        ),
        Expr::Not(inner) => negation(out, inner),
        Expr::Compare { first, rest } => comparison(out, first, rest),
        Expr::Ref(r) => {
            entry(out, r);
            out.push_str(" is set and not false, zero or empty");
        }
        Expr::Lit(literal) => out.push_str(if truthy(literal) { "always" } else { "never" }),
    }
}

/// `a and b`, `a or b`, in parentheses when `nested`.
fn joined(
    out: &mut String,
    items: &[Expr<MemoryRef>],
    separator: &str,
    inner: Context,
    nested: bool,
) {
    if nested {
        out.push('(');
    }
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        write_expr(out, item, inner);
    }
    if nested {
        out.push(')');
    }
}

/// `not x`: `==` and `!=` turned over (exact in Python), anything else
/// said as "not (...)".
fn negation(out: &mut String, inner: &Expr<MemoryRef>) {
    if let Expr::Compare { first, rest } = inner
        && let [(op, right)] = rest.as_slice()
        && op.is_equality()
    {
        let turned = if *op == CmpOp::Eq {
            CmpOp::Ne
        } else {
            CmpOp::Eq
        };
        comparison(out, first, &[(turned, right.clone())]);
        return;
    }
    out.push_str("not ");
    match inner {
        Expr::Or(_) | Expr::And(_) => write_expr(out, inner, Context::InNot),
        _ => {
            out.push('(');
            write_expr(out, inner, Context::InNot);
            out.push(')');
        }
    }
}

/// A comparison, each link of a chain in turn (`0 < x <= 9`: "x is more
/// than 0 and x is at most 9"), an entry first where one side is a
/// literal.
fn comparison(out: &mut String, first: &Expr<MemoryRef>, rest: &[(CmpOp, Expr<MemoryRef>)]) {
    let mut left = first;
    for (i, (op, right)) in rest.iter().enumerate() {
        if i > 0 {
            out.push_str(" and ");
        }
        let literal_first = matches!(left, Expr::Lit(_)) && !matches!(right, Expr::Lit(_));
        let (a, op, b) = if literal_first {
            (right, mirrored(*op), left)
        } else {
            (left, *op, right)
        };
        link(out, a, op, b);
        left = right;
    }
}

/// `a op b` in words.
fn link(out: &mut String, a: &Expr<MemoryRef>, op: CmpOp, b: &Expr<MemoryRef>) {
    operand(out, a);
    match (op, b) {
        (CmpOp::Eq, Expr::Lit(Literal::None)) => out.push_str(" is not set"),
        (CmpOp::Ne, Expr::Lit(Literal::None)) => out.push_str(" is set"),
        _ => {
            out.push_str(match op {
                CmpOp::Eq => " is ",
                CmpOp::Ne => " is not ",
                CmpOp::Lt => " is less than ",
                CmpOp::Le => " is at most ",
                CmpOp::Gt => " is more than ",
                CmpOp::Ge => " is at least ",
            });
            operand(out, b);
        }
    }
}

/// The same comparison read from the other side (`180 <= x`: `x >= 180`).
fn mirrored(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Eq,
        CmpOp::Ne => CmpOp::Ne,
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
    }
}

/// An operand of a comparison: an entry, a literal, or a parenthesised
/// condition.
fn operand(out: &mut String, expr: &Expr<MemoryRef>) {
    match expr {
        Expr::Ref(r) => entry(out, r),
        Expr::Lit(literal) => literal_words(out, literal),
        other => {
            out.push_str("the truth of (");
            write_expr(out, other, Context::InNot);
            out.push(')');
        }
    }
}

/// `delay_minutes (rebooking)`.
fn entry(out: &mut String, r: &MemoryRef) {
    let _ = write!(out, "{} ({})", r.entry, r.namespace);
}

fn literal_words(out: &mut String, literal: &Literal) {
    match literal {
        Literal::None => out.push_str("not set"),
        Literal::Bool(true) => out.push_str("true"),
        Literal::Bool(false) => out.push_str("false"),
        Literal::Str(s) => out.push_str(&quote(s)),
        Literal::Int(_) | Literal::Float(_) => {
            let _ = utter::write_py_repr(out, literal.value());
        }
    }
}

/// Python's truth of a literal.
fn truthy(literal: &Literal) -> bool {
    match literal {
        Literal::None => false,
        Literal::Bool(b) => *b,
        Literal::Int(i) => *i != 0,
        Literal::Float(f) => *f != 0.0,
        Literal::Str(s) => !s.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;
    use proptest::prelude::*;

    fn words(condition: &str) -> String {
        in_words(&parse(condition).expect("a valid condition"))
    }

    #[test]
    fn each_form_reads_as_a_reviewer_reads_it() {
        for (condition, expected) in [
            (
                "session.rebooking.delay_minutes >= 180",
                "delay_minutes (rebooking) is at least 180",
            ),
            (
                "session.project.customer_name == None",
                "customer_name (project) is not set",
            ),
            ("session.project.name != None", "name (project) is set"),
            ("180 <= session.r.delay", "delay (r) is at least 180"),
            (
                "0 < session.r.n <= 9",
                "n (r) is more than 0 and n (r) is at most 9",
            ),
            (
                "session.card.reason == 'lost' and session.card.fee > 0.5",
                "reason (card) is \"lost\" and fee (card) is more than 0.5",
            ),
            (
                "session.a.x == 1 or session.a.y == 2 and session.a.z == 3",
                "x (a) is 1 or (y (a) is 2 and z (a) is 3)",
            ),
            ("not session.a.x == 1", "x (a) is not 1"),
            ("not session.a.x < 1", "not (x (a) is less than 1)"),
            (
                "not (session.a.x or session.a.y)",
                "not (x (a) is set and not false, zero or empty or y (a) is set and not false, zero or empty)",
            ),
            ("session.a.flag == True", "flag (a) is true"),
            ("session.a.x == session.b.y", "x (a) is y (b)"),
            ("True", "always"),
            ("''", "never"),
            (
                "session.a.t == 'say \"hi\"\\n'",
                "t (a) is \"say \\\"hi\\\"\\n\"",
            ),
        ] {
            assert_eq!(words(condition), expected, "{condition}");
        }
    }

    /// Conditions of the whole grammar, as text.
    fn condition() -> impl Strategy<Value = String> {
        let reference = prop::sample::select(vec![
            "session.a.x",
            "session.rebooking.delay_minutes",
            "session.project.name",
        ])
        .prop_map(str::to_owned);
        let literal = prop_oneof![
            Just("None".to_owned()),
            Just("True".to_owned()),
            Just("False".to_owned()),
            any::<i32>().prop_map(|n| n.to_string()),
            (-1000.0f64..1000.0).prop_map(|f| format!("{f:?}")),
            "[a-z \"'\\\\é\u{200b}]{0,6}".prop_map(|s| format!("{s:?}")),
        ];
        let operand = prop_oneof![reference, literal];
        let op = prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]);
        let comparison = (
            operand.clone(),
            prop::collection::vec((op, operand.clone()), 0..3),
        )
            .prop_map(|(first, rest)| {
                let mut text = first;
                for (op, right) in rest {
                    text = format!("{text} {op} {right}");
                }
                text
            });
        comparison.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|c| format!("not {c}")),
                inner.clone().prop_map(|c| format!("({c})")),
                prop::collection::vec(inner.clone(), 2..4).prop_map(|cs| cs.join(" and ")),
                prop::collection::vec(inner, 2..4).prop_map(|cs| cs.join(" or ")),
            ]
        })
    }

    proptest! {
        /// Always produced, the same each time, naming every entry it reads.
        #[test]
        fn every_condition_has_words(text in condition()) {
            let Ok(parsed) = parse(&text) else { return Ok(()) };
            let said = in_words(&parsed);
            prop_assert!(!said.is_empty());
            prop_assert_eq!(&said, &in_words(&parse(&text).unwrap()));
            for r in parsed.refs() {
                let name = format!("{} ({})", r.entry, r.namespace);
                prop_assert!(said.contains(&name), "{} in {}", name, said);
            }
            prop_assert!(!said.chars().any(|c| c.is_control()), "{}", said);
        }
    }
}
