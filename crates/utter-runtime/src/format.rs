//! Python's `str()` and `repr()` of memory values, written into any
//! `fmt::Write` without allocating: floats as CPython's shortest repr, strings
//! with its escapes, lists and dicts walked without recursion.

use core::fmt::{self, Write};

use crate::printable::is_printable;
use crate::value::{Value, ValueRef};

/// Writes `value` as Python's `str(value)` does.
pub fn write_py_str(out: &mut impl Write, value: ValueRef<'_>) -> fmt::Result {
    // Scalars directly: only containers need the repr walk (measured: a
    // float through it cost 105 instructions besides the formatting).
    match value {
        ValueRef::Str(s) => out.write_str(s),
        ValueRef::Float(f) => write_py_float(out, f),
        ValueRef::Int(i) => write_int(out, i),
        ValueRef::None => out.write_str("None"),
        ValueRef::Bool(b) => out.write_str(if b { "True" } else { "False" }),
        container => write_py_repr(out, container),
    }
}

/// The longest `str()` of a number in bytes: an `int` takes at most 20
/// (`-9223372036854775808`), a float `repr` 24 (`-2.2250738585072014e-308`).
pub const LONGEST_NUMBER: usize = 24;

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
                ValueRef::Int(i) => write_int(out, i)?,
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

/// An `int` in decimal, without `core::fmt`'s machinery.
fn write_int(out: &mut impl Write, i: i64) -> fmt::Result {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = i.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if i < 0 {
        out.write_char('-')?;
    }
    // ASCII digits are UTF-8.
    out.write_str(core::str::from_utf8(&digits[at..]).map_err(|_| fmt::Error)?)
}

/// `str(value)` into a new `String`.
pub fn py_str(value: ValueRef<'_>) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_py_str(&mut out, value);
    out
}

/// Python's float `repr`: the shortest digits that round-trip (the one
/// nearest the value, ties to even), in fixed notation when the decimal
/// exponent is in `-4..16`, else scientific with at least two exponent
/// digits (`1e+16`, `1e-05`).
///
/// The digits come from `zmij` (Schubfach: shortest, nearest, ties to
/// even, as CPython's `repr`), which already lays out fixed notation for
/// exponents `-5..=15` and scientific beyond; only its `-5` and its
/// one-digit exponents differ from CPython's layout, and are rewritten
/// here. Checked against CPython on its own corpus
/// (`tests/data/py_float_repr.txt`) and by the conformance run.
fn write_py_float(out: &mut impl Write, f: f64) -> fmt::Result {
    if f.is_nan() {
        return out.write_str("nan");
    }
    if f.is_infinite() {
        return out.write_str(if f > 0.0 { "inf" } else { "-inf" });
    }
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(f);
    // Between 1e-4 and 1e16 both write plain decimals alike: no rewriting.
    if (1e-4..1e16).contains(&f.abs()) {
        return out.write_str(text);
    }
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    // A byte search: the text is at most 24 ASCII bytes.
    if let Some(e) = digits.bytes().position(|b| b == b'e') {
        // `1.5e-7` -> `1.5e-07`, `1e16` is written `1e+16` by both.
        let (mantissa, exponent) = digits.split_at(e);
        let exponent_digits = exponent.get(2..).unwrap_or_default();
        out.write_str(sign)?;
        out.write_str(mantissa)?;
        out.write_str(exponent.get(..2).unwrap_or_default())?;
        if exponent_digits.len() < 2 {
            out.write_char('0')?;
        }
        return out.write_str(exponent_digits);
    }
    match digits.strip_prefix("0.0000") {
        // Decimal exponent -5: scientific in Python (`1.234e-05`).
        Some(significant) if !significant.is_empty() && f != 0.0 => {
            let (head, tail) = significant.split_at(1);
            out.write_str(sign)?;
            out.write_str(head)?;
            if !tail.is_empty() {
                out.write_char('.')?;
                out.write_str(tail)?;
            }
            out.write_str("e-05")
        }
        _ => out.write_str(text),
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
            (1.234e-5, "1.234e-05"),
            (-1.5e-5, "-1.5e-05"),
            (0.00012, "0.00012"),
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

    /// Every `bits repr` line of a corpus written by CPython
    /// (`tests/data/make_float_corpus.py`) formats the same here.
    fn check_corpus(corpus: &str) -> usize {
        let mut checked = 0;
        for line in corpus.lines() {
            let (bits, want) = line.split_once(' ').expect("`bits repr` lines");
            let f = f64::from_bits(u64::from_str_radix(bits, 16).expect("hex bits"));
            assert_eq!(s(Value::Float(f)), want, "bits {bits}");
            checked += 1;
        }
        checked
    }

    #[test]
    fn floats_print_as_cpython_on_its_own_corpus() {
        let corpus = include_str!("../../../tests/data/py_float_repr.txt");
        assert_eq!(check_corpus(corpus), 10_000);
        // A larger corpus on demand: UTTER_FLOAT_CORPUS=path cargo test.
        if let Ok(path) = std::env::var("UTTER_FLOAT_CORPUS") {
            let corpus = std::fs::read_to_string(path).expect("the corpus file");
            let checked = check_corpus(&corpus);
            println!("{checked} values agree with CPython");
        }
    }

    #[test]
    fn strings_in_containers_escape_what_cpython_escapes() {
        // Format characters and unassigned code points are escaped; U+FFFC and
        // U+FFFD print as they are (Unicode 14.0, as in CPython 3.11).
        let repr = |c: char| s(Value::List(vec![Value::Str(c.to_string())]));
        assert_eq!(repr('\u{0600}'), "['\\u0600']");
        assert_eq!(repr('\u{061C}'), "['\\u061c']");
        assert_eq!(repr('\u{0378}'), "['\\u0378']");
        assert_eq!(repr('\u{E0001}'), "['\\U000e0001']");
        assert_eq!(repr('\u{FFFC}'), "['\u{FFFC}']");
        assert_eq!(repr('\u{FFFD}'), "['\u{FFFD}']");
        assert_eq!(repr('é'), "['é']");
        assert_eq!(repr(' '), "[' ']");
        assert_eq!(crate::printable::UNICODE_VERSION, "14.0.0");
    }

    #[test]
    fn ties_between_shortest_strings_round_half_even() {
        // 2210353320000000.25 and -792905335750694.25, exactly.
        let tie = |bits: u64| s(Value::Float(f64::from_bits(bits)));
        assert_eq!(tie(0x431f_6937_f1dd_e801), "2210353320000000.2");
        assert_eq!(tie(0xc306_8925_4706_0132), "-792905335750694.2");
    }

    #[test]
    fn length_bounds_hold_for_extreme_and_random_numbers() {
        let bound_holds = |v: ValueRef<'_>| {
            let text = py_str(v);
            assert!(
                text.len() <= LONGEST_NUMBER,
                "`{text}` is longer than {LONGEST_NUMBER}"
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
        for v in [ValueRef::None, ValueRef::Bool(true), ValueRef::Bool(false)] {
            bound_holds(v);
        }
    }

    #[test]
    fn str_formats_like_python() {
        assert_eq!(s(Value::Bool(true)), "True");
        assert_eq!(s(Value::None), "None");
        assert_eq!(s(Value::Int(-42)), "-42");
        for i in [0, 7, -7, 10, 99, -100, i64::MAX, i64::MIN, 1 << 53] {
            assert_eq!(s(Value::Int(i)), i.to_string());
        }
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// The decimal range's shortcut writes zmij's text as it is: there
        /// it holds no exponent and no `0.0000` prefix to rewrite, so the
        /// shortcut and the rewriting agree.
        #[test]
        fn the_decimal_range_needs_no_rewriting(
            f in proptest::prop_oneof![
                proptest::num::f64::NORMAL,
                1e-4f64..1e-3,
                1e15f64..1e16,
                proptest::strategy::Just(1e-4),
                proptest::strategy::Just(9_999_999_999_999_998.0),
                proptest::strategy::Just(0.000_099_999_999_999_99),
            ]
        ) {
            let mut buffer = zmij::Buffer::new();
            let text = buffer.format_finite(f);
            let digits = text.trim_start_matches('-');
            let plain = !digits.contains('e') && !digits.starts_with("0.0000");
            proptest::prop_assert_eq!((1e-4..1e16).contains(&f.abs()), plain, "{}", text);
        }
    }
}
