//! Memory values with the semantics of the reference engine, which stores plain
//! Python objects: comparison, truthiness and `str()` formatting follow CPython.

use core::cmp::Ordering;
use core::fmt::{self, Write};

/// A memory value, as a Python object would hold it.
///
/// `Int` is 64-bit: a value outside `i64` is rejected where memory is read
/// (JSON, YAML) instead of silently losing precision.
#[derive(Clone, Debug)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Value>),
    /// A dict with string keys, in insertion order (as Python keeps it).
    Map(Vec<(String, Value)>),
}

/// A borrowed view of a [`Value`]; what conditions and templates evaluate on.
/// Literals in generated code are `ValueRef`s too, so evaluation never allocates.
#[derive(Clone, Copy, Debug)]
pub enum ValueRef<'a> {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    List(&'a [Value]),
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
impl From<i32> for Value {
    fn from(v: i32) -> Self {
        Value::Int(v.into())
    }
}
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

/// A comparison operator of the condition grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The operator as written in a condition.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    #[inline]
    pub(crate) fn holds(self, ord: Ordering) -> bool {
        match self {
            CmpOp::Eq => ord == Ordering::Equal,
            CmpOp::Ne => ord != Ordering::Equal,
            CmpOp::Lt => ord == Ordering::Less,
            CmpOp::Le => ord != Ordering::Greater,
            CmpOp::Gt => ord == Ordering::Greater,
            CmpOp::Ge => ord != Ordering::Less,
        }
    }
}

/// A condition that cannot be evaluated against the current memory, such as
/// ordering a string against an int. The variant it guards is skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalError {
    pub op: CmpOp,
    pub left: &'static str,
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

/// Writes `value` as Python's `str(value)` does.
pub fn write_py_str(out: &mut impl Write, value: ValueRef<'_>) -> fmt::Result {
    match value {
        ValueRef::Str(s) => out.write_str(s),
        other => write_py_repr(out, other),
    }
}

/// An upper bound of `str(value)`'s length in bytes, exact for strings and
/// containers; numbers are bounded rather than formatted (the longest
/// `int` is 20 bytes, the longest float `repr` 24, e.g. `-2.2250738585072014e-308`).
pub fn py_str_len_bound(value: ValueRef<'_>) -> usize {
    match value {
        ValueRef::Str(s) => s.len(),
        ValueRef::None | ValueRef::Bool(true) => 4,
        ValueRef::Bool(false) => 5,
        ValueRef::Int(_) => 20,
        ValueRef::Float(_) => 24,
        ValueRef::List(_) | ValueRef::Map(_) => {
            struct Counter(usize);
            impl Write for Counter {
                fn write_str(&mut self, s: &str) -> fmt::Result {
                    self.0 += s.len();
                    Ok(())
                }
            }
            let mut counter = Counter(0);
            let _ = write_py_repr(&mut counter, value);
            counter.0
        }
    }
}

/// Writes `value` as Python's `repr(value)` does. Nested lists and dicts
/// are walked with an explicit stack: depth costs heap, never call stack.
pub fn write_py_repr(out: &mut impl Write, value: ValueRef<'_>) -> fmt::Result {
    /// What is left to write of an open container.
    enum Open<'v> {
        List(core::slice::Iter<'v, Value>, bool),
        Map(core::slice::Iter<'v, (String, Value)>, bool),
    }
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some(value);
    loop {
        if let Some(value) = next.take() {
            match value {
                ValueRef::None => out.write_str("None")?,
                ValueRef::Bool(true) => out.write_str("True")?,
                ValueRef::Bool(false) => out.write_str("False")?,
                ValueRef::Int(i) => write!(out, "{i}")?,
                ValueRef::Float(f) => write_py_float(out, f)?,
                ValueRef::Str(s) => write_py_str_repr(out, s)?,
                ValueRef::List(items) => {
                    out.write_char('[')?;
                    stack.push(Open::List(items.iter(), true));
                }
                ValueRef::Map(pairs) => {
                    out.write_char('{')?;
                    stack.push(Open::Map(pairs.iter(), true));
                }
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        match top {
            Open::List(items, first) => match items.next() {
                Some(item) => {
                    if !*first {
                        out.write_str(", ")?;
                    }
                    *first = false;
                    next = Some(item.as_ref());
                }
                None => {
                    out.write_char(']')?;
                    stack.pop();
                }
            },
            Open::Map(pairs, first) => match pairs.next() {
                Some((k, v)) => {
                    if !*first {
                        out.write_str(", ")?;
                    }
                    *first = false;
                    write_py_str_repr(out, k)?;
                    out.write_str(": ")?;
                    next = Some(v.as_ref());
                }
                None => {
                    out.write_char('}')?;
                    stack.pop();
                }
            },
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

/// `str(value)` into a new `String`.
pub fn py_str(value: ValueRef<'_>) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_py_str(&mut out, value);
    out
}

/// A fixed stack buffer, so float formatting needs no allocation.
struct StackBuf {
    bytes: [u8; 40],
    len: usize,
}

impl Write for StackBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Python's float `repr`: the shortest digits that round-trip, in fixed notation
/// when the decimal exponent is in `-4..16`, else scientific (`1e+16`, `1e-05`).
fn write_py_float(out: &mut impl Write, f: f64) -> fmt::Result {
    if f.is_nan() {
        return out.write_str("nan");
    }
    if f.is_infinite() {
        return out.write_str(if f > 0.0 { "inf" } else { "-inf" });
    }
    // Rust's `{:e}` yields the same shortest round-trip digits as Python's repr.
    let mut buf = StackBuf {
        bytes: [0; 40],
        len: 0,
    };
    write!(buf, "{f:e}")?;
    let sci = core::str::from_utf8(&buf.bytes[..buf.len]).map_err(|_| fmt::Error)?;
    let (mantissa, exponent) = sci.split_once('e').ok_or(fmt::Error)?;
    let exponent: i32 = exponent.parse().map_err(|_| fmt::Error)?;
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa),
    };
    let (head, tail) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if negative {
        out.write_char('-')?;
    }
    if !(-4..16).contains(&exponent) {
        out.write_str(head)?;
        if !tail.is_empty() {
            out.write_char('.')?;
            out.write_str(tail)?;
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        return write!(out, "e{sign}{:02}", exponent.unsigned_abs());
    }
    if exponent < 0 {
        out.write_str("0.")?;
        for _ in 0..(-exponent - 1) {
            out.write_char('0')?;
        }
        out.write_str(head)?;
        return out.write_str(tail);
    }
    // `exponent + 1` integer digits, padded with zeros, then the fraction or `.0`.
    let int_digits = exponent as usize + 1;
    let digits_len = head.len() + tail.len();
    let digit = |i: usize| -> &str {
        if i < head.len() {
            &head[i..=i]
        } else {
            &tail[i - head.len()..=i - head.len()]
        }
    };
    for i in 0..int_digits {
        out.write_str(if i < digits_len { digit(i) } else { "0" })?;
    }
    out.write_char('.')?;
    if digits_len > int_digits {
        for i in int_digits..digits_len {
            out.write_str(digit(i))?;
        }
        Ok(())
    } else {
        out.write_char('0')
    }
}

/// Python's `repr(str)`: single quotes unless the text holds `'` and no `"`.
fn write_py_str_repr(out: &mut impl Write, s: &str) -> fmt::Result {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.write_char(quote)?;
    for c in s.chars() {
        match c {
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c if c == quote => {
                out.write_char('\\')?;
                out.write_char(c)?;
            }
            c if is_printable(c) => out.write_char(c)?,
            c if (c as u32) < 0x100 => write!(out, "\\x{:02x}", c as u32)?,
            c if (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32)?,
            c => write!(out, "\\U{:08x}", c as u32)?,
        }
    }
    out.write_char(quote)
}

/// Approximates Python's `str.isprintable()` per character: control, format,
/// separator (other than space), surrogate-free private-use and noncharacters
/// are escaped. Covers every character JSON or YAML memory can realistically hold.
fn is_printable(c: char) -> bool {
    let u = c as u32;
    !(c.is_control()
        || u == 0xAD
        || (0x2000..=0x200F).contains(&u)
        || (0x2028..=0x202F).contains(&u)
        || (0x205F..=0x206F).contains(&u)
        || u == 0xA0
        || u == 0x1680
        || u == 0x3000
        || u == 0xFEFF
        || (0xE000..=0xF8FF).contains(&u)
        || (0xFFF0..=0xFFFF).contains(&u)
        || (0xF0000..=0x10FFFF).contains(&u)
        || (u & 0xFFFE) == 0xFFFE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: Value) -> String {
        py_str(v.as_ref())
    }

    #[test]
    fn floats_print_as_python_repr() {
        let cases: &[(f64, &str)] = &[
            (5.0, "5.0"),
            (0.1, "0.1"),
            (2.5, "2.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (-0.0, "-0.0"),
            (-2.75, "-2.75"),
            (1e100, "1e+100"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (100.0, "100.0"),
            (12345.678, "12345.678"),
            (0.30000000000000004, "0.30000000000000004"),
        ];
        for (f, want) in cases {
            assert_eq!(s(Value::Float(*f)), *want, "formatting {f:?}");
        }
    }

    #[test]
    fn length_bounds_hold_for_extreme_and_random_numbers() {
        let bound_holds = |v: ValueRef<'_>| {
            let text = py_str(v);
            assert!(
                text.len() <= py_str_len_bound(v),
                "`{text}` is longer than its bound {}",
                py_str_len_bound(v)
            );
        };
        for i in [i64::MIN, i64::MAX, 0, -1] {
            bound_holds(ValueRef::Int(i));
        }
        for f in [
            -2.2250738585072014e-308,
            -f64::MAX,
            -f64::MIN_POSITIVE,
            -5e-324,
            -0.00012345678901234567,
            -1234567890123456.7,
            -9999999999999998.0,
            f64::NAN,
            f64::NEG_INFINITY,
        ] {
            bound_holds(ValueRef::Float(f));
        }
        // Every exponent and sign, random mantissas (a fixed xorshift sequence).
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            bound_holds(ValueRef::Float(f64::from_bits(state)));
        }
        for v in [
            ValueRef::None,
            ValueRef::Bool(true),
            ValueRef::Bool(false),
            ValueRef::Str("héllo"),
        ] {
            assert_eq!(py_str(v).len(), py_str_len_bound(v));
        }
    }

    #[test]
    fn str_formats_like_python() {
        assert_eq!(s(Value::Bool(true)), "True");
        assert_eq!(s(Value::None), "None");
        assert_eq!(s(Value::Int(-42)), "-42");
        assert_eq!(s(Value::from("plain")), "plain");
        assert_eq!(s(Value::from(vec!["a", "b"])), "['a', 'b']");
        assert_eq!(s(Value::from(vec!["it's"])), "[\"it's\"]");
        assert_eq!(s(Value::from(vec!["a'b\"c"])), "['a\\'b\"c']");
        assert_eq!(s(Value::from(vec!["tab\there\n"])), "['tab\\there\\n']");
        assert_eq!(s(Value::from(vec!["\u{7}é"])), "['\\x07é']");
        assert_eq!(
            s(Value::Map(vec![
                ("b".into(), Value::Int(1)),
                (
                    "a".into(),
                    Value::List(vec![Value::Float(1.0), Value::None])
                )
            ])),
            "{'b': 1, 'a': [1.0, None]}"
        );
    }

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
