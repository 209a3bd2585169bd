//! What a reading is made of: words, figures (a number with its sign and
//! what it measures, a code, a time, a date) and sentence breaks.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use super::lexicon::Word;
use super::number::Decimal;

/// One thing read: a word, a figure, or a sentence break.
#[derive(Clone, Debug)]
pub(crate) struct Token<'t> {
    pub kind: Kind<'t>,
    /// Where it stands in the text (bytes).
    pub span: Range<usize>,
    /// A word's entry in the lexicon.
    pub entry: Option<&'static Word>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind<'t> {
    /// A word, lowercase.
    Word(Cow<'t, str>),
    /// A figure.
    Figure(Figure),
    /// `.`, `!`, `?`, `;` or `:` between sentences or clauses.
    Break,
}

/// A fact the text states in figures.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Figure {
    /// A number with its sign and what it measures (`-20 EUR`, `3 hours`,
    /// `15%`); an ordinal is its number.
    Number {
        value: Decimal,
        unit: Option<Unit>,
        /// A rate's time or unit (`$45 a day`, `9.99 GBP per month`).
        per: Option<&'static str>,
    },
    /// A code whose spelling carries meaning (`UA455`, `007`, `B12`),
    /// lowercase, spaces aside.
    Code(String),
    /// A time of day, in seconds after midnight.
    Time(u32),
    /// A date; the year when written.
    Date {
        year: Option<u32>,
        month: u8,
        day: u8,
    },
    /// A numeric form read no further (ambiguous, like `7,5` or `05/12`):
    /// equal only to the same form.
    AsWritten(String),
}

/// What a number measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Unit {
    /// A unit, currency or share by its name in the lexicon.
    Named(&'static str),
    /// A currency sign the lexicon does not name.
    Sign(char),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Named(name) => f.write_str(name),
            Unit::Sign(sign) => write!(f, "{sign}"),
        }
    }
}

impl Figure {
    /// Whether two figures could stand for the same value read apart from
    /// its context: a value read alone (`455`) is found in a code its text
    /// is part of (`UA 455`), and a number whatever it measures.
    pub(crate) fn same_value(&self, other: &Figure) -> bool {
        match (self, other) {
            (Figure::Number { value: a, .. }, Figure::Number { value: b, .. }) => a == b,
            (
                Figure::Number {
                    value, unit: None, ..
                },
                Figure::Code(code),
            )
            | (
                Figure::Code(code),
                Figure::Number {
                    value, unit: None, ..
                },
            ) => {
                let digits = value.to_string();
                code_runs(code).any(|run| run == digits)
            }
            (a, b) => a == b,
        }
    }

    /// Whether two different figures could trade places: the same kind,
    /// a number with the same unit.
    pub(crate) fn could_trade_with(&self, other: &Figure) -> bool {
        let kind = |f: &Figure| match f {
            Figure::Number { unit, per, .. } => (0, *unit, *per),
            Figure::Code(_) => (1, None, None),
            Figure::Time(_) => (2, None, None),
            Figure::Date { .. } => (3, None, None),
            Figure::AsWritten(_) => (4, None, None),
        };
        self != other && kind(self) == kind(other)
    }

    /// The ASCII digits of the figure (for telling whether it repeats a
    /// personal value).
    pub(crate) fn digits(&self) -> String {
        match self {
            Figure::Number { value, .. } => value.to_string(),
            Figure::Code(code) | Figure::AsWritten(code) => code.clone(),
            Figure::Time(seconds) => format!("{}{:02}", seconds / 3600, seconds / 60 % 60),
            Figure::Date { year, month, day } => {
                format!(
                    "{}{month:02}{day:02}",
                    year.map(|y| y.to_string()).unwrap_or_default()
                )
            }
        }
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect()
    }
}

/// The runs of letters and of digits of a code.
fn code_runs(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
}
