//! Numbers as values: an exact decimal that `1,000.50`, `1000.5`, `1.0005e3`
//! and `one thousand point five` all read as, and the value of a decimal
//! digit of any script.

use std::fmt;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The most digits of an exponent read as a number: a longer one is read
/// no further (compared as written).
const MAX_EXPONENT_DIGITS: usize = 6;

/// An exact decimal: `significand × 10^exponent`, the significand without
/// trailing zeros (zero has no sign and exponent 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Decimal {
    negative: bool,
    significand: Significand,
    exponent: i64,
}

/// The significant digits: a number while they fit 64 bits (no
/// allocation), else their text. One form per value, so `==` compares values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Significand {
    Small(u64),
    Big(Box<str>),
}

/// The most significant digits held as a number.
const SMALL_DIGITS: usize = 19;

impl Decimal {
    /// The value of `integer.fraction × 10^exponent` (ASCII digits).
    pub(crate) fn new(integer: &str, fraction: &str, exponent: i64) -> Decimal {
        let all = || integer.bytes().chain(fraction.bytes());
        let len = integer.len() + fraction.len();
        let first = all().position(|b| b != b'0');
        let Some(first) = first else {
            return Decimal {
                negative: false,
                significand: Significand::Small(0),
                exponent: 0,
            };
        };
        let trailing = all().rev().take_while(|&b| b == b'0').count();
        let count = len - first - trailing;
        let digits = all().skip(first).take(count);
        let significand = if count <= SMALL_DIGITS {
            Significand::Small(digits.fold(0u64, |n, b| n * 10 + u64::from(b - b'0')))
        } else {
            Significand::Big(digits.map(char::from).collect())
        };
        Decimal {
            negative: false,
            significand,
            exponent: exponent
                .saturating_sub(fraction.len() as i64)
                .saturating_add(trailing as i64),
        }
    }

    fn is_zero(&self) -> bool {
        self.significand == Significand::Small(0)
    }

    fn digits(&self) -> std::borrow::Cow<'_, str> {
        match &self.significand {
            Significand::Small(n) => n.to_string().into(),
            Significand::Big(digits) => (&**digits).into(),
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
        if !self.is_zero() {
            self.exponent = self.exponent.saturating_add(power);
        }
        self
    }

    /// This value with its sign turned (zero stays zero).
    pub(crate) fn negated(mut self) -> Decimal {
        self.negative = !self.negative && !self.is_zero();
        self
    }

    /// A whole number between 0 and `u64::MAX`, as such.
    pub(crate) fn as_u64(&self) -> Option<u64> {
        let Significand::Small(n) = self.significand else {
            return None;
        };
        if self.negative || !(0..=19).contains(&self.exponent) {
            return None;
        }
        n.checked_mul(10u64.checked_pow(self.exponent as u32)?)
    }

    /// A whole number between 0 and `u32::MAX`, as such.
    pub(crate) fn as_u32(&self) -> Option<u32> {
        let Significand::Small(n) = self.significand else {
            return None;
        };
        if self.negative || !(0..=9).contains(&self.exponent) {
            return None;
        }
        let value = n.checked_mul(10u64.pow(self.exponent as u32))?;
        u32::try_from(value).ok()
    }
}

impl fmt::Display for Decimal {
    /// Plain decimal notation while it stays short, else `d.ddde±n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let digits = self.digits();
        let len = digits.len() as i64;
        match self.exponent {
            e @ 0..=24 => write!(f, "{digits}{}", "0".repeat(e as usize)),
            e @ -24..=-1 if -e < len => {
                let point = (len + e) as usize;
                write!(f, "{}.{}", &digits[..point], &digits[point..])
            }
            e @ -24..=-1 => write!(f, "0.{}{digits}", "0".repeat((-e - len) as usize)),
            e => {
                let (first, rest) = digits.split_at(1);
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
