//! Memory values with the semantics of the reference engine, which stores plain
//! Python objects: comparison, truthiness and `str()` formatting follow CPython.

use core::cmp::Ordering;
use core::fmt;

/// A memory value, as a Python object would hold it.
///
/// `Int` is 64-bit: a value outside `i64` is rejected where memory is read
/// (JSON, YAML) instead of silently losing precision.
#[derive(Clone, Debug)]
pub enum Value {
    /// Python's `None` (also: unset).
    None,
    /// A `bool`.
    Bool(bool),
    /// An `int` (64 bits).
    Int(i64),
    /// A `float`.
    Float(f64),
    /// A `str`.
    Str(String),
    /// A `list`.
    List(Vec<Value>),
    /// A dict with string keys, in insertion order (as Python keeps it).
    Map(Vec<(String, Value)>),
}

/// A borrowed view of a [`Value`]; what conditions and templates evaluate on.
/// Literals in generated code are `ValueRef`s too, so evaluation never allocates.
#[derive(Clone, Copy, Debug)]
pub enum ValueRef<'a> {
    /// Python's `None` (also: unset).
    None,
    /// A `bool`.
    Bool(bool),
    /// An `int` (64 bits).
    Int(i64),
    /// A `float`.
    Float(f64),
    /// A `str`.
    Str(&'a str),
    /// A `list`.
    List(&'a [Value]),
    /// A `dict`, its pairs in order.
    Map(&'a [(String, Value)]),
}

impl Value {
    /// Borrow this value for evaluation.
    #[inline]
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Value::None => ValueRef::None,
            Value::Bool(b) => ValueRef::Bool(*b),
            Value::Int(i) => ValueRef::Int(*i),
            Value::Float(f) => ValueRef::Float(*f),
            Value::Str(s) => ValueRef::Str(s),
            Value::List(l) => ValueRef::List(l),
            Value::Map(m) => ValueRef::Map(m),
        }
    }
}

/// Python's `==`: `Value::Int(1) == Value::Float(1.0)`, `NaN != NaN`.
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        py_eq(self.as_ref(), other.as_ref())
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
/// Integers that always fit a 64-bit int.
macro_rules! from_small_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Self {
                Value::Int(i64::from(v))
            }
        }
    )*};
}
from_small_int!(i8, i16, i32, u8, u16, u32);

/// An integer beyond the 64-bit ints memory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntOutOfRange;

impl fmt::Display for IntOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the integer does not fit the 64-bit ints memory holds")
    }
}

impl std::error::Error for IntOutOfRange {}

/// Integers that may not fit: an error beyond `i64`, never a silent wrap.
macro_rules! try_from_wide_int {
    ($($t:ty),*) => {$(
        impl TryFrom<$t> for Value {
            type Error = IntOutOfRange;
            fn try_from(v: $t) -> Result<Self, IntOutOfRange> {
                i64::try_from(v).map(Value::Int).map_err(|_| IntOutOfRange)
            }
        }
    )*};
}
try_from_wide_int!(u64, usize, isize, i128, u128);
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Str(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Str(v)
    }
}
impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Self {
        Value::List(v.into_iter().map(Into::into).collect())
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::None, Into::into)
    }
}

impl<'a> ValueRef<'a> {
    /// The Python type name, as CPython's error messages spell it.
    #[inline]
    pub fn type_name(self) -> &'static str {
        match self {
            ValueRef::None => "NoneType",
            ValueRef::Bool(_) => "bool",
            ValueRef::Int(_) => "int",
            ValueRef::Float(_) => "float",
            ValueRef::Str(_) => "str",
            ValueRef::List(_) => "list",
            ValueRef::Map(_) => "dict",
        }
    }

    /// `None` reads as absent: unset entries and explicit `None` are the same.
    #[inline]
    pub fn is_none(self) -> bool {
        matches!(self, ValueRef::None)
    }

    /// Python's `bool(value)`.
    #[inline]
    pub fn truthy(self) -> bool {
        match self {
            ValueRef::None => false,
            ValueRef::Bool(b) => b,
            ValueRef::Int(i) => i != 0,
            // NaN is truthy in Python: only zero is false.
            ValueRef::Float(f) => f != 0.0,
            ValueRef::Str(s) => !s.is_empty(),
            ValueRef::List(l) => !l.is_empty(),
            ValueRef::Map(m) => !m.is_empty(),
        }
    }
}

/// Declares [`CmpOp`] from one table: each row its variant, symbol, byte
/// in the compact program format (the row's place: a new operator goes at
/// the end, so no encoded program changes meaning), whether it tests
/// equality, and when it holds for an ordering (the one semantics of
/// Python's comparison). Every method on operators is generated here.
macro_rules! operators {
    ($($name:ident = $symbol:literal, $byte:literal, equality: $equality:literal, holds: |$ord:ident| $holds:expr;)*) => {
        /// A comparison operator of the condition grammar.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum CmpOp {
            $(
                #[doc = concat!("`", $symbol, "`")]
                $name = $byte,
            )*
        }

        impl CmpOp {
            /// Every comparison operator, by byte: the one table the layers
            /// are built from and tested against (CONTRIBUTING.md, "Adding
            /// a comparison operator").
            pub const ALL: [CmpOp; [$($byte),*].len()] = [$(CmpOp::$name),*];

            /// The operator as written in a condition.
            pub fn symbol(self) -> &'static str {
                match self {
                    $(CmpOp::$name => $symbol,)*
                }
            }

            /// The variant's name, as generated code spells it (`CmpOp::Le`).
            pub fn variant_name(self) -> &'static str {
                match self {
                    $(CmpOp::$name => stringify!($name),)*
                }
            }

            /// Whether it tests equality (`==`, `!=`), not an ordering: what
            /// every fast path for equality asks.
            pub fn is_equality(self) -> bool {
                match self {
                    $(CmpOp::$name => $equality,)*
                }
            }

            /// Its byte in the compact program format.
            pub fn byte(self) -> u8 {
                self as u8
            }

            #[inline]
            pub(crate) fn holds(self, ord: Ordering) -> bool {
                match self {
                    $(CmpOp::$name => {
                        let $ord = ord;
                        $holds
                    })*
                }
            }
        }
    };
}

operators! {
    Eq = "==", 0, equality: true, holds: |ord| ord == Ordering::Equal;
    Ne = "!=", 1, equality: true, holds: |ord| ord != Ordering::Equal;
    Lt = "<", 2, equality: false, holds: |ord| ord == Ordering::Less;
    Le = "<=", 3, equality: false, holds: |ord| ord != Ordering::Greater;
    Gt = ">", 4, equality: false, holds: |ord| ord == Ordering::Greater;
    Ge = ">=", 5, equality: false, holds: |ord| ord != Ordering::Less;
}

impl CmpOp {
    /// The operator written as `symbol` in a condition, if it is one.
    pub fn from_symbol(symbol: &str) -> Option<CmpOp> {
        CmpOp::ALL.into_iter().find(|op| op.symbol() == symbol)
    }
}

/// A condition that cannot be evaluated against the current memory, such as
/// ordering a string against an int. The variant it guards is skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// The comparison.
    pub op: CmpOp,
    /// The Python type name of the left operand.
    pub left: &'static str,
    /// The Python type name of the right operand.
    pub right: &'static str,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' not supported between instances of '{}' and '{}'",
            self.op.symbol(),
            self.left,
            self.right
        )
    }
}

impl std::error::Error for EvalError {}

#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

#[inline]
fn as_num(v: ValueRef<'_>) -> Option<Num> {
    match v {
        ValueRef::Bool(b) => Some(Num::Int(i64::from(b))),
        ValueRef::Int(i) => Some(Num::Int(i)),
        ValueRef::Float(f) => Some(Num::Float(f)),
        _ => None,
    }
}

/// Exact int/float ordering, as CPython does it (no rounding of the int).
pub(crate) fn cmp_int_float(i: i64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    // 2^63 as f64 is exact; everything at or beyond it is larger than any i64.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f >= TWO_63 {
        return Some(Ordering::Less);
    }
    if f < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    // In range and integral, so the conversion is exact.
    let whole_int = whole as i64;
    Some(match i.cmp(&whole_int) {
        Ordering::Equal => {
            if f > whole {
                Ordering::Less
            } else if f < whole {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }
        other => other,
    })
}

#[inline]
fn cmp_num(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
        (Num::Int(x), Num::Float(y)) => cmp_int_float(x, y),
        (Num::Float(x), Num::Int(y)) => cmp_int_float(y, x).map(Ordering::reverse),
    }
}

/// Python `a == b`: never fails; values of unrelated types are unequal, while
/// `True == 1` and `1 == 1.0` hold (bool is an int, ints and floats compare by value).
#[inline]
pub fn py_eq(a: ValueRef<'_>, b: ValueRef<'_>) -> bool {
    match scalar_eq(a, b) {
        Some(equal) => equal,
        None => containers_eq(a, b),
    }
}

/// `a == b` when neither is a container of the same kind as the other;
/// `None` when both are lists, or both dicts.
#[inline]
fn scalar_eq(a: ValueRef<'_>, b: ValueRef<'_>) -> Option<bool> {
    if let (Some(x), Some(y)) = (as_num(a), as_num(b)) {
        return Some(cmp_num(x, y) == Some(Ordering::Equal));
    }
    Some(match (a, b) {
        (ValueRef::None, ValueRef::None) => true,
        (ValueRef::Str(x), ValueRef::Str(y)) => x == y,
        (ValueRef::List(_), ValueRef::List(_)) | (ValueRef::Map(_), ValueRef::Map(_)) => {
            return None;
        }
        _ => false,
    })
}

/// Equality of nested lists and dicts with an explicit stack, so nesting
/// depth costs heap, never call stack; dicts are matched by sorted keys
/// (O(n log n), not O(n^2)).
fn containers_eq(a: ValueRef<'_>, b: ValueRef<'_>) -> bool {
    let mut pending: Vec<(ValueRef<'_>, ValueRef<'_>)> = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (ValueRef::List(x), ValueRef::List(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                pending.extend(x.iter().zip(y).map(|(p, q)| (p.as_ref(), q.as_ref())));
            }
            (ValueRef::Map(x), ValueRef::Map(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                let mut theirs: Vec<&(String, Value)> = y.iter().collect();
                theirs.sort_by(|p, q| p.0.cmp(&q.0));
                for (key, value) in x {
                    match theirs.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
                        Ok(i) => pending.push((value.as_ref(), theirs[i].1.as_ref())),
                        Err(_) => return false,
                    }
                }
            }
            (a, b) => {
                if scalar_eq(a, b) != Some(true) {
                    return false;
                }
            }
        }
    }
    true
}

/// Python `a <op> b` for one comparison. `==`/`!=` never fail; ordering values
/// of incompatible types (`None < 5`, `"a" < 1`, dicts) is an [`EvalError`].
#[inline]
pub fn compare(op: CmpOp, a: ValueRef<'_>, b: ValueRef<'_>) -> Result<bool, EvalError> {
    match op {
        CmpOp::Eq => return Ok(py_eq(a, b)),
        CmpOp::Ne => return Ok(!py_eq(a, b)),
        _ => {}
    }
    if let (Some(x), Some(y)) = (as_num(a), as_num(b)) {
        // NaN makes every ordering false, as in Python.
        return Ok(cmp_num(x, y).is_some_and(|ord| op.holds(ord)));
    }
    match (a, b) {
        (ValueRef::Str(x), ValueRef::Str(y)) => Ok(op.holds(x.cmp(y))),
        (ValueRef::List(x), ValueRef::List(y)) => {
            // Lexicographic: the first unequal pair decides, else the lengths.
            // A pair of lists decides by the same rule: a loop, not recursion.
            match x
                .iter()
                .zip(y)
                .find(|(p, q)| !py_eq(p.as_ref(), q.as_ref()))
            {
                Some((p, q)) => match (p.as_ref(), q.as_ref()) {
                    (ValueRef::List(p), ValueRef::List(q)) => compare_lists(op, p, q),
                    (p, q) => compare(op, p, q),
                },
                None => Ok(op.holds(x.len().cmp(&y.len()))),
            }
        }
        _ => Err(EvalError {
            op,
            left: a.type_name(),
            right: b.type_name(),
        }),
    }
}

/// Ordering of two lists, descending into nested lists without recursion.
fn compare_lists(op: CmpOp, mut x: &[Value], mut y: &[Value]) -> Result<bool, EvalError> {
    loop {
        match x
            .iter()
            .zip(y)
            .find(|(p, q)| !py_eq(p.as_ref(), q.as_ref()))
        {
            Some((Value::List(p), Value::List(q))) => {
                x = p;
                y = q;
            }
            Some((p, q)) => return compare(op, p.as_ref(), q.as_ref()),
            None => return Ok(op.holds(x.len().cmp(&y.len()))),
        }
    }
}

/// How deeply lists and dicts may nest in a value written to memory (the
/// memory JSON reader's limit too).
pub const MAX_VALUE_DEPTH: usize = 128;

/// How deeply `value` nests (a scalar is 0), counted without recursion.
pub fn value_depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0usize)];
    while let Some((value, depth)) = pending.pop() {
        deepest = deepest.max(depth);
        match value {
            Value::List(items) => pending.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Map(pairs) => pending.extend(pairs.iter().map(|(_, v)| (v, depth + 1))),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::py_str;

    #[test]
    fn equality_follows_the_numeric_tower() {
        use ValueRef as V;
        assert!(py_eq(V::Bool(true), V::Int(1)));
        assert!(py_eq(V::Int(5), V::Float(5.0)));
        assert!(!py_eq(V::Str("5"), V::Int(5)));
        assert!(py_eq(V::None, V::None));
        assert!(!py_eq(V::None, V::Bool(false)));
        assert!(!py_eq(V::Float(f64::NAN), V::Float(f64::NAN)));
        assert!(!py_eq(
            V::Int(i64::MAX),
            V::Float(9_223_372_036_854_775_808.0)
        ));
        assert!(py_eq(V::Int(1 << 53), V::Float(9_007_199_254_740_992.0)));
        assert!(!py_eq(
            V::Int((1 << 53) + 1),
            V::Float(9_007_199_254_740_992.0)
        ));
    }

    #[test]
    fn ordering_errors_across_types() {
        use ValueRef as V;
        assert_eq!(compare(CmpOp::Lt, V::Int(1), V::Float(1.5)), Ok(true));
        assert_eq!(compare(CmpOp::Gt, V::Float(-0.5), V::Int(-1)), Ok(true));
        assert_eq!(compare(CmpOp::Le, V::Bool(true), V::Int(1)), Ok(true));
        assert_eq!(compare(CmpOp::Lt, V::Str("a"), V::Str("b")), Ok(true));
        assert_eq!(compare(CmpOp::Lt, V::Float(f64::NAN), V::Int(1)), Ok(false));
        let err = compare(CmpOp::Lt, V::None, V::Int(5)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "'<' not supported between instances of 'NoneType' and 'int'"
        );
        assert!(compare(CmpOp::Ge, V::Str("lost"), V::Int(5)).is_err());
        assert_eq!(compare(CmpOp::Ne, V::Str("lost"), V::Int(5)), Ok(true));
        let a = [Value::Int(1), Value::Int(2)];
        let b = [Value::Int(1), Value::Int(3)];
        assert_eq!(compare(CmpOp::Lt, V::List(&a), V::List(&b)), Ok(true));
        assert_eq!(compare(CmpOp::Lt, V::List(&a[..1]), V::List(&a)), Ok(true));
        let m: [(String, Value); 0] = [];
        assert!(compare(CmpOp::Lt, V::Map(&m), V::Map(&m)).is_err());
    }

    #[test]
    fn deep_values_are_walked_without_recursion() {
        let mut deep = Value::Int(1);
        for _ in 0..200_000 {
            deep = Value::List(vec![deep]);
        }
        // On a small stack, as a tokio worker has.
        let result = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let text = py_str(deep.as_ref());
                let equal = py_eq(deep.as_ref(), deep.as_ref());
                let ordered = compare(CmpOp::Lt, deep.as_ref(), deep.as_ref());
                let depth = value_depth(&deep);
                // Dropping it is the owner's business: forget it here.
                std::mem::forget(deep);
                (text.len(), equal, ordered, depth)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(result, (400_001, true, Ok(false), 200_000));
    }

    #[test]
    fn large_dicts_compare_in_n_log_n() {
        let n = 100_000;
        let a = Value::Map((0..n).map(|i| (format!("k{i}"), Value::Int(i))).collect());
        let b = Value::Map(
            (0..n)
                .rev()
                .map(|i| (format!("k{i}"), Value::Int(i)))
                .collect(),
        );
        let c = Value::Map(
            (0..n)
                .map(|i| (format!("k{i}"), Value::Int(i + 1)))
                .collect(),
        );
        assert!(py_eq(a.as_ref(), b.as_ref()));
        assert!(!py_eq(a.as_ref(), c.as_ref()));
    }

    #[test]
    fn integers_convert_when_they_fit() {
        assert!(matches!(Value::from(7u32), Value::Int(7)));
        assert!(matches!(Value::from(-3i8), Value::Int(-3)));
        assert!(matches!(Value::try_from(5usize), Ok(Value::Int(5))));
        assert_eq!(Value::try_from(u64::MAX).unwrap_err(), IntOutOfRange);
        assert_eq!(Value::try_from(i128::MIN).unwrap_err(), IntOutOfRange);
    }

    #[test]
    fn truthiness_is_pythons() {
        use ValueRef as V;
        for falsy in [
            V::None,
            V::Bool(false),
            V::Int(0),
            V::Float(0.0),
            V::Str(""),
            V::List(&[]),
        ] {
            assert!(!falsy.truthy(), "{falsy:?}");
        }
        for truthy in [V::Bool(true), V::Int(-1), V::Float(f64::NAN), V::Str("0")] {
            assert!(truthy.truthy(), "{truthy:?}");
        }
    }
}
