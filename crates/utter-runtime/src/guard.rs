//! The fact guard on rephrasing: a rephrased text is delivered only when it
//! keeps every fact of the reviewed one (every value filled into a
//! placeholder, every number), adds no number, and keeps the numbers in
//! their order; otherwise the reviewed text is delivered and the caller is
//! told why.
//!
//! Compared in a normalised form: letters case-folded, punctuation and
//! whitespace runs as one space; a number as its digits with grouping
//! commas, leading zeros of the integer part and trailing zeros of the
//! fraction removed, so `1,000.50`, `1000.5` and `$1000.50` agree, as do a
//! currency sign before or after it.

use std::fmt;

use crate::format::write_py_str;
use crate::resolve::Resolved;

/// What a rephrase of a delivery must keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FactGuard {
    /// Guarded (the default): every number of the delivered text, and these
    /// values filled into placeholders, must be in the rephrased text.
    On {
        /// The text of each value filled into a placeholder, in order.
        filled: Vec<String>,
    },
    /// Not guarded: the caller relaxed it for this delivery
    /// ([`Delivery::relax_fact_guard`](crate::Delivery::relax_fact_guard)).
    Off,
}

impl Default for FactGuard {
    fn default() -> Self {
        FactGuard::On { filled: Vec::new() }
    }
}

/// Why the guard refused a rephrased text (the reviewed text was delivered).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FactRefusal {
    /// A value filled into a placeholder, or a number of the reviewed text,
    /// is missing.
    Lost(String),
    /// A number the reviewed text does not have.
    Added(String),
    /// Two numbers appear in the other order (amounts swapped, say).
    Reordered(String, String),
}

impl fmt::Display for FactRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FactRefusal::Lost(fact) => write!(f, "the rephrased text lost `{fact}`"),
            FactRefusal::Added(number) => {
                write!(f, "the rephrased text adds the number `{number}`")
            }
            FactRefusal::Reordered(a, b) => write!(
                f,
                "the rephrased text puts `{b}` before `{a}`, in the other order"
            ),
        }
    }
}

impl std::error::Error for FactRefusal {}

/// The numbers of `text` in order, normalised (see the module).
pub fn numbers(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        i += numbers_prefix_len(&text[start..]);
        out.push(normalise_number(&text[start..i]));
    }
    out
}

/// `1,000.50` -> `1000.5`; `05` -> `5`; `2.0` -> `2`. A comma before exactly
/// three digits groups them; any other comma is a decimal comma.
fn normalise_number(raw: &str) -> String {
    let parts: Vec<&str> = raw.split(',').collect();
    let grouped = parts.len() > 1
        && parts[1..]
            .iter()
            .all(|p| p.split('.').next().is_some_and(|g| g.len() == 3));
    let plain = if grouped {
        parts.concat()
    } else {
        raw.replace(',', ".")
    };
    let (integer, fraction) = plain.split_once('.').unwrap_or((&plain, ""));
    let integer = integer.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let integer = if integer.is_empty() { "0" } else { integer };
    if fraction.is_empty() {
        integer.to_owned()
    } else {
        format!("{integer}.{fraction}")
    }
}

/// `text` with each number as a space.
fn without_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..start]);
        out.push(' ');
        rest = &rest[start..];
        rest = &rest[numbers_prefix_len(rest)..];
    }
    out.push_str(rest);
    out
}

/// Case-folded, punctuation and whitespace as single spaces, padded with a
/// space each side so a word is found as ` word `.
fn normalise_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(' ');
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Whether `answer` keeps the facts of `reviewed`: every value in `filled`
/// (as words), every number (as many times), no other number, numbers in
/// the same order.
pub fn check(reviewed: &str, filled: &[String], answer: &str) -> Result<(), FactRefusal> {
    // Values as words; their numbers are facts of the numbers' rule below.
    let words = normalise_words(&without_numbers(answer));
    for value in filled {
        let wanted = normalise_words(&without_numbers(value));
        if wanted.trim().is_empty() {
            continue;
        }
        if !words.contains(&wanted) {
            return Err(FactRefusal::Lost(value.clone()));
        }
    }
    let kept = numbers(reviewed);
    let said = numbers(answer);
    // Every reviewed number as many times as it is written, and no other.
    let mut unmatched = said.clone();
    for number in &kept {
        match unmatched.iter().position(|n| n == number) {
            Some(at) => {
                unmatched.remove(at);
            }
            None => return Err(FactRefusal::Lost(number.clone())),
        }
    }
    if let Some(extra) = unmatched.into_iter().next() {
        return Err(FactRefusal::Added(extra));
    }
    // The same multiset: the same sequence unless two traded places.
    // Conservative: an honest rephrase that moves a figure before another
    // is refused too, and the reviewed text delivered; a swap of two amounts
    // (the same words, the same figures) cannot be told from it.
    if let Some(at) = kept.iter().zip(&said).position(|(a, b)| a != b) {
        return Err(FactRefusal::Reordered(kept[at].clone(), said[at].clone()));
    }
    Ok(())
}

/// The length of the number at the start of `text` (digits, with `,` or
/// `.` between digits), as [`numbers`] reads it.
fn numbers_prefix_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len()
        && (bytes[i].is_ascii_digit()
            || (matches!(bytes[i], b',' | b'.')
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
                && i > 0))
    {
        i += 1;
    }
    i
}

/// The text of each value a variant's resolved pieces filled in.
pub(crate) fn filled_values<'p, 'v>(
    pieces: impl IntoIterator<Item = Resolved<'p, 'v>>,
) -> Vec<String> {
    pieces
        .into_iter()
        .filter_map(|piece| match piece {
            Resolved::Value(value) => {
                let mut text = String::new();
                // Writing into a String cannot fail.
                let _ = write_py_str(&mut text, value);
                Some(text)
            }
            Resolved::Text(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests;
