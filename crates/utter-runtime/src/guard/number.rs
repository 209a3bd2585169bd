//! Numbers as values: an exact decimal that `1,000.50`, `1000.5`, `1.0005e3`
//! and `one thousand point five` all read as, and the value of a decimal
//! digit of any script.

use std::fmt;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The most digits of an exponent read as a number: a longer one is read
/// no further (compared as written).
const MAX_EXPONENT_DIGITS: usize = 6;

/// An exact decimal: `digits × 10^exponent`, the digits without leading or
/// trailing zeros (empty for zero, which has no sign).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Decimal {
    /// The value of `integer.fraction × 10^exponent` (ASCII digits).
    pub(crate) fn new(integer: &str, fraction: &str, exponent: i64) -> Decimal {
        let mut digits: String = integer.chars().chain(fraction.chars()).collect();
        let mut exponent = exponent.saturating_sub(fraction.len() as i64);
        let trailing = digits.len() - digits.trim_end_matches('0').len();
        digits.truncate(digits.len() - trailing);
        exponent = exponent.saturating_add(trailing as i64);
        let digits = digits.trim_start_matches('0').to_owned();
        if digits.is_empty() {
            exponent = 0;
        }
        Decimal {
            negative: false,
            digits,
            exponent,
        }
    }

    /// A decimal written in ASCII digits with an optional `.` fraction.
    pub(crate) fn parse(text: &str) -> Option<Decimal> {
        let (integer, fraction) = text.split_once('.').unwrap_or((text, ""));
        let ascii = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        (ascii(integer) && ascii(fraction) && !(integer.is_empty() && fraction.is_empty()))
            .then(|| Decimal::new(integer, fraction, 0))
    }

    /// The exponent written after an `e` (ASCII digits), if it is short
    /// enough to be read.
    pub(crate) fn exponent_of(digits: &str, negative: bool) -> Option<i64> {
        if digits.len() > MAX_EXPONENT_DIGITS {
            return None;
        }
        let value: i64 = digits.parse().ok()?;
        Some(if negative { -value } else { value })
    }

    /// This value times `10^power`.
    pub(crate) fn scaled(mut self, power: i64) -> Decimal {
        if !self.digits.is_empty() {
            self.exponent = self.exponent.saturating_add(power);
        }
        self
    }

    /// This value with its sign turned (zero stays zero).
    pub(crate) fn negated(mut self) -> Decimal {
        self.negative = !self.negative && !self.digits.is_empty();
        self
    }

    /// A whole number between 0 and `u32::MAX`, as such.
    pub(crate) fn as_u32(&self) -> Option<u32> {
        if self.negative || self.exponent < 0 {
            return None;
        }
        if self.digits.is_empty() {
            return Some(0);
        }
        let zeros = usize::try_from(self.exponent).ok()?;
        if self.digits.len() + zeros > 10 {
            return None;
        }
        format!("{}{}", self.digits, "0".repeat(zeros)).parse().ok()
    }
}

impl fmt::Display for Decimal {
    /// Plain decimal notation while it stays short, else `d.ddde±n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digits.is_empty() {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let len = self.digits.len() as i64;
        match self.exponent {
            e @ 0..=24 => write!(f, "{}{}", self.digits, "0".repeat(e as usize)),
            e @ -24..=-1 if -e < len => {
                let point = (len + e) as usize;
                write!(f, "{}.{}", &self.digits[..point], &self.digits[point..])
            }
            e @ -24..=-1 => write!(f, "0.{}{}", "0".repeat((-e - len) as usize), self.digits),
            e => {
                let (first, rest) = self.digits.split_at(1);
                let point = if rest.is_empty() { "" } else { "." };
                write!(f, "{first}{point}{rest}e{}", e + len - 1)
            }
        }
    }
}

/// The value of a decimal digit of any script (Unicode category `Nd`:
/// ASCII, Arabic-Indic, Devanagari, fullwidth, ...). Each script's digits
/// are a run of ten code points from zero to nine, so a digit's value is
/// its place in the run of `Nd` code points it stands in.
pub(crate) fn digit_value(c: char) -> Option<u8> {
    if c.is_ascii_digit() {
        return Some(c as u8 - b'0');
    }
    if c.is_ascii() || c.general_category() != GeneralCategory::DecimalNumber {
        return None;
    }
    let mut place = 0u32;
    let mut code = c as u32;
    while let Some(before) = code.checked_sub(1).and_then(char::from_u32) {
        if before.general_category() != GeneralCategory::DecimalNumber {
            break;
        }
        place += 1;
        code -= 1;
    }
    Some((place % 10) as u8)
}

/// The value of a superscript digit (`⁰¹²³⁴⁵⁶⁷⁸⁹`).
pub(crate) fn superscript_value(c: char) -> Option<u8> {
    match c {
        '\u{2070}' => Some(0),
        '\u{00B9}' => Some(1),
        '\u{00B2}' => Some(2),
        '\u{00B3}' => Some(3),
        '\u{2074}'..='\u{2079}' => Some((c as u32 - 0x2074 + 4) as u8),
        _ => None,
    }
}
