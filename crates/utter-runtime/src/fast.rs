//! Comparisons specialised at build time by the literal's type: what
//! generated straight-line code calls. Each has a fast path for the value
//! type the declaration leads us to expect and falls back to the general
//! [`compare`](crate::compare)/[`py_eq`] for anything else, so there is one semantics; the
//! property tests below prove each helper equal to the general rule.

use core::cmp::Ordering;

use crate::value::{CmpOp, EvalError, ValueRef, cmp_int_float, py_eq};

/// `value == "literal"`.
#[inline]
pub fn eq_str(value: ValueRef<'_>, literal: &str) -> bool {
    match value {
        ValueRef::Str(s) => s.len() == literal.len() && s == literal,
        _ => false,
    }
}

/// `value == literal` for an int literal.
#[inline]
pub fn eq_int(value: ValueRef<'_>, literal: i64) -> bool {
    match value {
        ValueRef::Int(i) => i == literal,
        other => py_eq(other, ValueRef::Int(literal)),
    }
}

/// `value == literal` for a float literal.
#[inline]
pub fn eq_float(value: ValueRef<'_>, literal: f64) -> bool {
    match value {
        ValueRef::Float(f) => f == literal,
        other => py_eq(other, ValueRef::Float(literal)),
    }
}

/// The int a value equals, if any: `value == k` holds exactly when this
/// is `Some(k)` (an int, a bool, or an integral float in `i64`'s range).
/// What a run of `entry == <int>` conditions matches on, in one `match`.
#[inline]
pub fn int_key(value: ValueRef<'_>) -> Option<i64> {
    // 2^63 as f64 is exact; i64's range is [-2^63, 2^63).
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    match value {
        ValueRef::Int(i) => Some(i),
        ValueRef::Bool(b) => Some(i64::from(b)),
        // In range and integral, so the conversion is exact.
        #[allow(clippy::cast_possible_truncation)]
        ValueRef::Float(f) if f.trunc() == f && (-TWO_63..TWO_63).contains(&f) => Some(f as i64),
        _ => None,
    }
}

/// `value == True` / `value == False`.
#[inline]
pub fn eq_bool(value: ValueRef<'_>, literal: bool) -> bool {
    match value {
        ValueRef::Bool(b) => b == literal,
        other => py_eq(other, ValueRef::Bool(literal)),
    }
}

/// `value <op> literal` for an ordering and an int literal. Every arm is
/// inline (no call into the general [`compare`](crate::compare)): an ordering that is a
/// `TypeError` skips its variant, and the error the caller discards then
/// costs nothing (measured: the out-of-line call doubled `error_skipped`).
#[inline]
pub fn ord_int(op: CmpOp, value: ValueRef<'_>, literal: i64) -> Result<bool, EvalError> {
    match value {
        ValueRef::Int(i) => Ok(op.holds(i.cmp(&literal))),
        ValueRef::Bool(b) => Ok(op.holds(i64::from(b).cmp(&literal))),
        ValueRef::Float(f) => Ok(cmp_int_float(literal, f)
            .map(Ordering::reverse)
            .is_some_and(|ord| op.holds(ord))),
        other => Err(unorderable(op, other, ValueRef::Int(literal))),
    }
}

/// `value <op> literal` for an ordering and a float literal.
#[inline]
pub fn ord_float(op: CmpOp, value: ValueRef<'_>, literal: f64) -> Result<bool, EvalError> {
    match value {
        ValueRef::Float(f) => Ok(f.partial_cmp(&literal).is_some_and(|ord| op.holds(ord))),
        ValueRef::Int(i) => Ok(cmp_int_float(i, literal).is_some_and(|ord| op.holds(ord))),
        ValueRef::Bool(b) => {
            Ok(cmp_int_float(i64::from(b), literal).is_some_and(|ord| op.holds(ord)))
        }
        other => Err(unorderable(op, other, ValueRef::Float(literal))),
    }
}

/// `value <op> "literal"` for an ordering: a string orders only against
/// a string.
#[inline]
pub fn ord_str(op: CmpOp, value: ValueRef<'_>, literal: &str) -> Result<bool, EvalError> {
    match value {
        ValueRef::Str(s) => Ok(op.holds(s.cmp(literal))),
        other => Err(unorderable(op, other, ValueRef::Str(literal))),
    }
}

/// The `TypeError` of an ordering between values that do not order (the
/// helpers above reach it only for such pairs; the property test below
/// holds them to [`compare`](crate::compare)).
#[inline]
fn unorderable(op: CmpOp, left: ValueRef<'_>, right: ValueRef<'_>) -> EvalError {
    EvalError {
        op,
        left: left.type_name(),
        right: right.type_name(),
    }
}

/// Whether a compiled condition with fallible comparisons holds: an
/// evaluation error skips the variant, like a false condition.
#[inline]
pub fn holds(condition: impl FnOnce() -> Result<bool, EvalError>) -> bool {
    matches!(condition(), Ok(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Value, compare};
    use proptest::prelude::*;

    fn value() -> impl Strategy<Value = Value> {
        let scalar = prop_oneof![
            Just(Value::None),
            any::<bool>().prop_map(Value::Bool),
            prop_oneof![any::<i64>(), -3i64..3, Just(1i64 << 53)].prop_map(Value::Int),
            prop_oneof![
                any::<f64>(),
                Just(f64::NAN),
                Just(1.0),
                Just(-0.0),
                Just(9_007_199_254_740_992.0),
                Just(9_223_372_036_854_775_808.0),
                Just(-9_223_372_036_854_775_808.0)
            ]
            .prop_map(Value::Float),
            prop_oneof!["[a-c]{0,2}", Just("lost".to_owned())].prop_map(Value::Str),
        ];
        scalar.prop_recursive(2, 6, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::List),
                prop::collection::vec(("[a-b]", inner), 0..2).prop_map(Value::Map),
            ]
        })
    }

    fn ordering() -> impl Strategy<Value = CmpOp> {
        prop_oneof![
            Just(CmpOp::Lt),
            Just(CmpOp::Le),
            Just(CmpOp::Gt),
            Just(CmpOp::Ge)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn specialised_helpers_agree_with_compare(
            v in value(),
            op in ordering(),
            i in prop_oneof![any::<i64>(), -3i64..3, Just(i64::MIN), Just(i64::MAX)],
            f in prop_oneof![any::<f64>(), Just(f64::NAN), Just(1.0), Just(0.5)],
            s in prop_oneof!["[a-c]{0,2}", Just("lost".to_owned())],
            b in any::<bool>(),
        ) {
            let v = v.as_ref();
            let eq = |lit: ValueRef<'_>| compare(CmpOp::Eq, v, lit).unwrap();
            prop_assert_eq!(eq_str(v, &s), eq(ValueRef::Str(&s)));
            prop_assert_eq!(eq_int(v, i), eq(ValueRef::Int(i)));
            prop_assert_eq!(eq_float(v, f), eq(ValueRef::Float(f)));
            prop_assert_eq!(eq_bool(v, b), eq(ValueRef::Bool(b)));
            prop_assert_eq!(ord_int(op, v, i), compare(op, v, ValueRef::Int(i)));
            prop_assert_eq!(ord_float(op, v, f), compare(op, v, ValueRef::Float(f)));
            prop_assert_eq!(ord_str(op, v, &s), compare(op, v, ValueRef::Str(&s)));
            prop_assert_eq!(int_key(v) == Some(i), eq(ValueRef::Int(i)));
            if let Some(k) = int_key(v) {
                prop_assert!(eq(ValueRef::Int(k)));
            }
        }
    }

    #[test]
    fn errors_skip_the_variant() {
        assert!(holds(|| Ok(true)));
        assert!(!holds(|| Ok(false)));
        assert!(!holds(|| ord_int(CmpOp::Lt, ValueRef::None, 1)));
    }
}
