//! `entry == literal` conditions: true exactly where the entry holds an
//! equal value, so the analysis looks them up per state instead of
//! evaluating them (a response of thousands of such variants stays linear).

use utter::{Value, ValueRef};

use crate::condition::{CmpOp, Expr, Literal};

/// The `entry == literal` conditions of a response, and where each holds.
pub(super) struct Equalities {
    /// Per conditioned variant: whether its condition is one.
    pub(super) simple: Vec<bool>,
    /// Per domain, per value: the conditioned variants (by position among
    /// the conditioned) whose equality holds there.
    pub(super) holding: Vec<Vec<Vec<usize>>>,
}

impl Equalities {
    pub(super) fn of(
        conditioned: &[(usize, &Expr<usize>)],
        domains: &[(usize, Vec<Value>)],
    ) -> Self {
        // Values by a key every two equal values share (Python equality:
        // `1 == 1.0 == True`); a match is confirmed by `py_eq` itself.
        let key = |v: ValueRef<'_>| -> Option<EqKey> {
            Some(match v {
                ValueRef::Bool(b) => EqKey::Num(f64::from(u8::from(b)).to_bits()),
                ValueRef::Int(i) => EqKey::Num((i as f64).to_bits()),
                ValueRef::Float(f) if f.is_nan() => return None,
                ValueRef::Float(f) => EqKey::Num((f + 0.0).to_bits()),
                ValueRef::Str(s) => EqKey::Str(s.to_owned()),
                _ => return None,
            })
        };
        let mut index: std::collections::HashMap<(usize, EqKey), Vec<usize>> =
            std::collections::HashMap::new();
        for (d, (_, values)) in domains.iter().enumerate() {
            for (v, value) in values.iter().enumerate() {
                if let Some(k) = key(value.as_ref()) {
                    index.entry((d, k)).or_default().push(v);
                }
            }
        }
        let mut holding: Vec<Vec<Vec<usize>>> = domains
            .iter()
            .map(|(_, values)| vec![Vec::new(); values.len()])
            .collect();
        let simple = conditioned
            .iter()
            .enumerate()
            .map(|(c, (_, expr))| {
                let Some((entry, literal)) = equality(expr) else {
                    return false;
                };
                let literal = literal_value(literal);
                // An entry this view does not read holds no value: never true.
                if let Some(d) = domains.iter().position(|(id, _)| *id == entry)
                    && let Some(k) = key(literal.as_ref())
                    && let Some(found) = index.get(&(d, k))
                {
                    for &v in found {
                        if utter::py_eq(domains[d].1[v].as_ref(), literal.as_ref()) {
                            holding[d][v].push(c);
                        }
                    }
                }
                true
            })
            .collect();
        Equalities { simple, holding }
    }
}

/// A key equal values share (see [`Equalities::of`]).
#[derive(Clone, PartialEq, Eq, Hash)]
enum EqKey {
    Num(u64),
    Str(String),
}

/// `entry == literal` or `literal == entry`, the literal not `None`.
fn equality(expr: &Expr<usize>) -> Option<(usize, &Literal)> {
    let Expr::Compare { first, rest } = expr else {
        return None;
    };
    let [(CmpOp::Eq, right)] = rest.as_slice() else {
        return None;
    };
    match (&**first, right) {
        (Expr::Ref(e), Expr::Lit(l)) | (Expr::Lit(l), Expr::Ref(e)) if *l != Literal::None => {
            Some((*e, l))
        }
        _ => None,
    }
}

/// A literal's value.
fn literal_value(literal: &Literal) -> Value {
    match literal {
        Literal::None => Value::None,
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Int(i) => Value::Int(*i),
        Literal::Float(f) => Value::Float(*f),
        Literal::Str(s) => Value::from(s.as_str()),
    }
}
