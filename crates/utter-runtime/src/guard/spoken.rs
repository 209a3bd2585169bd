//! Reading the spoken forms a voice rephrase writes (Mantle's voice rules):
//! money with its minor unit (`forty-two dollars and fifty cents`), years
//! in pairs (`twenty twenty-six`), times in words (`six forty PM`), digits
//! read one by one (`four two four two`). Each pass rebuilds the tokens
//! once: linear in their number.

use std::ops::Range;

use super::figure::{Figure, Kind, Token, Unit};
use super::number::Decimal;

/// A whole number written in words (no digit), with no unit, in `range`.
fn word_number(text: &str, token: &Token, range: std::ops::RangeInclusive<u64>) -> Option<u64> {
    match &token.kind {
        Kind::Figure(Figure::Number {
            value,
            unit: None,
            per: None,
        }) if !text[token.span.clone()].contains(|c: char| c.is_ascii_digit()) => {
            value.as_u64().filter(|n| range.contains(n))
        }
        _ => None,
    }
}

fn is_word(token: Option<&Token>, words: &[&str]) -> bool {
    matches!(token.map(|t| &t.kind), Some(Kind::Word(w)) if words.contains(&w.as_ref()))
}

fn number(value: Decimal, unit: Option<Unit>, span: Range<usize>) -> Token<'static> {
    Token {
        kind: Kind::Figure(Figure::Number {
            value,
            unit,
            per: None,
        }),
        span,
        entry: None,
    }
}

/// `twenty twenty-six` after a day or a month: the year 2026.
pub(crate) fn years_in_pairs(text: &str, tokens: &mut Vec<Token<'_>>) {
    let mut out: Vec<Token<'_>> = Vec::with_capacity(tokens.len());
    let mut at = 0;
    while at < tokens.len() {
        let after_date = out.last().is_some_and(|t: &Token| {
            t.entry.and_then(|w| w.month()).is_some()
                || matches!(&t.kind, Kind::Figure(Figure::Number { value, unit: None, .. }) if value.as_u32().is_some_and(|d| (1..=31).contains(&d)))
        });
        let century = word_number(text, &tokens[at], 10..=29);
        let rest = tokens
            .get(at + 1)
            .and_then(|t| word_number(text, t, 10..=99));
        if after_date && let (Some(century), Some(rest)) = (century, rest) {
            let span = tokens[at].span.start..tokens[at + 1].span.end;
            let year = (century * 100 + rest).to_string();
            out.push(number(Decimal::new(&year, "", 0), None, span));
            at += 2;
            continue;
        }
        out.push(tokens[at].clone());
        at += 1;
    }
    *tokens = out;
}

/// The minor units a currency's amount is said with, by the reader's names.
const MINOR: &[(&str, &str)] = &[
    ("dollar", "cent"),
    ("euro", "cent"),
    ("pound", "penny"),
    ("franc", "cent"),
    ("cad", "cent"),
    ("aud", "cent"),
    ("nzd", "cent"),
];

/// `forty-two dollars and fifty cents`, `forty-two dollars fifty`: 42.50.
pub(crate) fn money_with_minor(text: &str, tokens: &mut Vec<Token<'_>>) {
    rebuild(tokens, |tokens, at| minor_after(text, tokens, at));
}

/// `tokens` rebuilt in one pass: where `merge` reads a figure from the
/// tokens at `at`, the figure and the index after it stand for them.
fn rebuild<'t>(
    tokens: &mut Vec<Token<'t>>,
    merge: impl Fn(&[Token<'t>], usize) -> Option<(Token<'static>, usize)>,
) {
    let mut out: Vec<Token<'t>> = Vec::with_capacity(tokens.len());
    let mut at = 0;
    while at < tokens.len() {
        if let Some((merged, next)) = merge(tokens, at) {
            out.push(merged);
            at = next;
            continue;
        }
        out.push(tokens[at].clone());
        at += 1;
    }
    *tokens = out;
}

fn minor_after(text: &str, tokens: &[Token<'_>], at: usize) -> Option<(Token<'static>, usize)> {
    let Kind::Figure(Figure::Number {
        value,
        unit: Some(Unit::Named(major)),
        per: None,
    }) = &tokens[at].kind
    else {
        return None;
    };
    let whole = value.as_u64()?;
    let (_, minor_name) = MINOR.iter().find(|(m, _)| m == major)?;
    let and = usize::from(is_word(tokens.get(at + 1), &["and"]));
    let minor_at = at + 1 + and;
    let minor = tokens.get(minor_at)?;
    let cents = match &minor.kind {
        Kind::Figure(Figure::Number {
            value,
            unit: Some(Unit::Named(name)),
            per: None,
        }) if name == minor_name => value.as_u64().filter(|c| *c < 100)?,
        // `dollars fifty`, in words, no `and`.
        _ if and == 0 => word_number(text, minor, 1..=99)?,
        _ => return None,
    };
    if text[tokens[at].span.clone()].contains(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let value = Decimal::new(&whole.to_string(), &format!("{cents:02}"), 0);
    let span = tokens[at].span.start..minor.span.end;
    Some((number(value, Some(Unit::Named(major)), span), minor_at + 1))
}

/// `six forty PM`, `nine oh five in the morning`, `six PM`: a time.
pub(crate) fn spoken_times(text: &str, tokens: &mut Vec<Token<'_>>) {
    rebuild(tokens, |tokens, at| spoken_time(text, tokens, at));
}

fn spoken_time(text: &str, tokens: &[Token<'_>], at: usize) -> Option<(Token<'static>, usize)> {
    let hour = word_number(text, &tokens[at], 1..=12)?;
    let mut next = at + 1;
    let oh = is_word(tokens.get(next), &["oh"]);
    next += usize::from(oh);
    let minute = tokens
        .get(next)
        .and_then(|t| word_number(text, t, if oh { 1..=9 } else { 10..=59 }));
    if minute.is_some() {
        next += 1;
    } else if oh {
        return None;
    }
    let (afternoon, after) = meridiem(tokens, next)?;
    let hour = hour % 12 + if afternoon { 12 } else { 0 };
    let seconds = (hour * 3600 + minute.unwrap_or(0) * 60) as u32;
    let span = tokens[at].span.start..tokens[after - 1].span.end;
    Some((
        Token {
            kind: Kind::Figure(Figure::Time(seconds)),
            span,
            entry: None,
        },
        after,
    ))
}

/// `PM`, `AM`, `in the morning/afternoon/evening`, `at night`: whether
/// afternoon, and the token after.
fn meridiem(tokens: &[Token<'_>], at: usize) -> Option<(bool, usize)> {
    let word = |i: usize| match tokens.get(i).map(|t| &t.kind) {
        Some(Kind::Word(w)) => Some(w.as_ref()),
        _ => None,
    };
    match word(at)? {
        "pm" => Some((true, at + 1)),
        "am" => Some((false, at + 1)),
        "in" if word(at + 1) == Some("the") => match word(at + 2)? {
            "morning" => Some((false, at + 3)),
            "afternoon" | "evening" => Some((true, at + 3)),
            _ => None,
        },
        "at" if word(at + 1) == Some("night") => Some((true, at + 2)),
        _ => None,
    }
}

/// Three or more digits said one by one (`four two four two`, `zero one
/// zero zero`): the number they write, or a code when it starts with zero.
pub(crate) fn digits_one_by_one(text: &str, tokens: &mut Vec<Token<'_>>) {
    rebuild(tokens, |tokens, at| digit_run(text, tokens, at));
}

fn digit_run(text: &str, tokens: &[Token<'_>], at: usize) -> Option<(Token<'static>, usize)> {
    let mut end = at;
    let mut digits = String::new();
    while let Some(d) = tokens.get(end).and_then(|t| word_number(text, t, 0..=9)) {
        // `twenty-one` is one word, not two digits.
        if text[tokens[end].span.clone()].contains('-') {
            break;
        }
        digits.push(char::from(b'0' + d as u8));
        end += 1;
    }
    if digits.len() < 3 {
        return None;
    }
    let span = tokens[at].span.start..tokens[end - 1].span.end;
    let kind = if digits.starts_with('0') {
        Kind::Figure(Figure::Code(digits))
    } else {
        Kind::Figure(Figure::Number {
            value: Decimal::new(&digits, "", 0),
            unit: None,
            per: None,
        })
    };
    Some((
        Token {
            kind,
            span,
            entry: None,
        },
        end,
    ))
}
